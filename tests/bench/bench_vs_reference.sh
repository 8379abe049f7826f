#!/usr/bin/env bash
# tests/bench/bench_vs_reference.sh FILE [BUILD_DIR]
# Times `lmct info FILE` (index only) and `lmct info --check FILE` (every record's arguments
# decoded too) against the reference reader (reference_reader.py: Python, frame by
# frame, one msgpack decode per record, as LMCache's reader works) and against the floor
# (bench_floor: one thread hopping the frames with its fetch-ahead and touching each body, no
# parse) on the same page-cached file, and prints the wall times, peak RSS and the ratios: lmct
# info over the floor, the reference reader over lmct info. Wall times are medians (lmct and the
# floor: of LMCT_RUNS runs, default 5; the reference reader: of REF_RUNS, default 3), all in the
# same run of this script: single runs on a shared machine vary by a third.
set -euo pipefail
file="${1:?usage: bench_vs_reference.sh FILE [BUILD_DIR]}"
here="$(cd "$(dirname "$0")" && pwd)"
build="${2:-$here/../../build}"
cat "$file" > /dev/null  # page-cache it
measure() {  # measure RUNS COMMAND...: prints "median_seconds largest_peak_kb"
    local runs=$1
    shift
    for ((i = 0; i < runs; i++)); do
        /usr/bin/time -f "%e %M" "$@" 2>&1 >/dev/null | tail -1
    done | sort -n | awk '{ s[NR] = $1; if ($2 > kb) kb = $2 }
        END { print s[int((NR + 1) / 2)], kb }'
}
read -r lmct_s lmct_kb < <(measure "${LMCT_RUNS:-5}" "$build/app/lmct" info "$file")
read -r check_s check_kb < <(measure "${LMCT_RUNS:-5}" "$build/app/lmct" info --check "$file")
floor_s=$("$build/tests/bench/bench_floor" "$file" --repeat "${LMCT_RUNS:-5}" | awk '/^floor/ { print $2 }')
read -r ref_s ref_kb < <(measure "${REF_RUNS:-3}" /usr/bin/python3 "$here/reference_reader.py" "$file")
records=$("$build/app/lmct" info --json "$file" | /usr/bin/python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["records"])')
size=$(stat -c %s "$file")
echo "file              $file ($((size / 1000000)) MB, $records records)"
echo "lmct info         ${lmct_s} s (median), peak RSS $((lmct_kb / 1024)) MiB (mapped file pages included)"
echo "lmct info --check ${check_s} s (median), peak RSS $((check_kb / 1024)) MiB"
echo "reference reader  ${ref_s} s (median), peak RSS $((ref_kb / 1024)) MiB"
echo "floor             ${floor_s} s (median; bench_floor: one thread, hop and first line of each body)"
/usr/bin/python3 -c "print('ratio             %.1fx faster than the reference reader (--check: %.1fx)' % ($ref_s / max($lmct_s, 0.001), $ref_s / max($check_s, 0.001)))"
/usr/bin/python3 -c "print('over the floor    lmct info %.2fx the floor (--check: %.2fx)' % ($lmct_s / max($floor_s, 0.001), $check_s / max($floor_s, 0.001)))"
