#!/usr/bin/env bash
# tests/bench/run_all.sh [TRACE_DIR] [BUILD_DIR]
# Runs every benchmark behind the table of docs/performance.md, one after the other on one
# machine state, and prints their output under a heading each. The traces are generated into
# TRACE_DIR (default /tmp/lmct-bench) when absent: 1.4 GB realistic (--big 1000000), 2.0 GB
# realistic (--big 1500000), 1.46 GB of 10 M small records, 200 000 damaged frames and 410 MB
# realistic (--big 300000); bench_compare writes its two 10 M-record cache workloads there too
# (about 4.4 GB each). Build with the tests first (./test.sh, or -DLMCT_BUILD_TESTS=ON). Takes
# about 13 minutes once the traces exist. LMCT_BENCH_ONLY=REGEX runs only the sections whose heading matches.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="${1:-/tmp/lmct-bench}"
build="${2:-$here/../../build}"
gen="$here/../fixtures/gen_fixtures.py"
mkdir -p "$dir"
make() {  # make NAME ARGS...: generates $dir/NAME unless present
    local name=$1
    shift
    [ -s "$dir/$name" ] || /usr/bin/python3 "$gen" "$@" "$dir/$name" > /dev/null
}
make big-1m.lct --big 1000000
make big-1500k.lct --big 1500000
make small-10m.lct --small 10000000
make damaged-200k.lct --damaged 200000
make big-300k.lct --big 300000
only="${LMCT_BENCH_ONLY:-}"
section() {  # section TITLE: prints the heading; false when LMCT_BENCH_ONLY (a regex) skips it
    [[ -z "$only" || "$*" =~ $only ]] || return 1
    printf '\n## %s\n' "$*"
}
rss() {  # rss COMMAND...: peak anonymous RSS (RssAnon sampled every 10 ms) and peak total RSS
    "$@" > /dev/null 2>&1 &
    local pid=$! anon=0 now
    while kill -0 "$pid" 2>/dev/null; do
        now=$(awk '/^RssAnon:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
        [[ -n "$now" && "$now" -gt "$anon" ]] && anon=$now
        sleep 0.01
    done
    wait "$pid" || true
    local total
    total=$(/usr/bin/time -f "%M" "$@" 2>&1 >/dev/null | tail -1)
    printf '%d MiB anonymous, %d MiB in all (mapped file pages included)\n' $((anon / 1024)) $((total / 1024))
}
export QT_QPA_PLATFORM=offscreen
if section "lmct info vs the reference reader, realistic"; then
    "$here/bench_vs_reference.sh" "$dir/big-1m.lct" "$build"
fi
if section "lmct info vs the reference reader, 10 M small records"; then
    "$here/bench_vs_reference.sh" "$dir/small-10m.lct" "$build"
fi
if section "the floor: hop and first line of each body, one thread"; then
    "$build/tests/bench/bench_floor" "$dir/big-1m.lct" "$dir/small-10m.lct"
fi
if section "index throughput, record store"; then
    "$build/tests/bench/bench_load" "$dir/big-1500k.lct" --repeat 3
fi
if section "index parse of the fields"; then
    "$build/tests/bench/bench_parse" "$dir/small-10m.lct"
fi
if section "damaged frames"; then
    # time writes to fd 3 (this script's stdout); lmct's own output and diagnostics are dropped
    /usr/bin/time -o /dev/fd/3 -f "lmct info %e s" "$build/app/lmct" info "$dir/damaged-200k.lct" \
        3>&1 > /dev/null 2>&1
fi
if section "peak RSS of lmct info (realistic, small, small --check)"; then
    rss "$build/app/lmct" info "$dir/big-1m.lct"
    rss "$build/app/lmct" info "$dir/small-10m.lct"
    rss "$build/app/lmct" info --check "$dir/small-10m.lct"
fi
if section "filters and statistics"; then
    "$build/tests/bench/bench_filter" "$dir/big-1m.lct"
fi
if section "exports against the Python baseline (realistic, 300 k records)"; then
    "$here/bench_export.sh" "$dir/big-300k.lct" "$build/app/lmct"
fi
if section "combined traces"; then
    "$build/tests/bench/bench_combine"
fi
if section "cache analyses"; then
    "$build/tests/bench/bench_keys" "$dir/big-1500k.lct" --repeat 3
fi
if [ -x "$build/tests/bench/bench_whatif" ] && section "cache what-if"; then
    "$build/tests/bench/bench_whatif"
fi
if section "timeline index"; then
    "$build/tests/bench/bench_timelineindex" --runs 5
fi
if section "timeline replot"; then
    "$build/tests/bench/bench_gui_timeline" --runs 31 "$dir/small-10m.lct"
fi
if section "viewer open, 10 M small records"; then
    LMCT_BENCH_STALLS=1 "$build/tests/bench/bench_gui_open" --repeat 3 "$dir/small-10m.lct"
fi
if section "viewer memory, 10 M small records loaded"; then
    rss "$build/tests/bench/bench_gui_open" --repeat 1 "$dir/small-10m.lct"
fi
if section "compare two traces of 10 M records (TraceComparison)"; then
    "$build/tests/bench/bench_compare" --dir "$dir" --records 10000000
fi
if section "compare: replot of both timelines"; then
    "$build/tests/bench/bench_gui_compare" --runs 15 "$dir/compare-a-10000000.lct" \
        "$dir/compare-b-10000000.lct"
fi
if section "combined view: ten traces of 1 M records"; then
    "$build/tests/bench/bench_gui_combine" --traces 10 --records 1000000 --runs 15
fi
if section "combined view grouped by rank: ten traces of 1 M records, four ranks"; then
    "$build/tests/bench/bench_gui_combine" --traces 10 --records 1000000 --runs 3 --group-by rank
fi
if section "peak RSS of lmct stats, keys, anomalies (10 M small records)"; then
    for c in stats keys anomalies; do
        printf '%s ' "$c"
        rss "$build/app/lmct" "$c" "$dir/small-10m.lct"
    done
fi
