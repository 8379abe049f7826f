#!/usr/bin/env bash
# tests/bench/bench_export.sh FILE [LMCT]
# Times `lmct dump --jsonl`, `lmct dump --csv` and `lmct export --jsonl` on FILE against the
# Python baseline reference_jsonl.py (msgspec when importable, else msgpack + json; it says which)
# on the same page-cached file, in one run: wall time (median of LMCT_RUNS runs, default 3; the
# baseline of REF_RUNS, default 1), output size, MB/s of output and the speed-up over the
# baseline. Outputs go to a scratch directory (TMPDIR) and are removed. LMCT is the binary to
# time (default: BUILD/app/lmct next to this script).
set -euo pipefail
file="${1:?usage: bench_export.sh FILE [LMCT]}"
here="$(cd "$(dirname "$0")" && pwd)"
lmct="${2:-$here/../../build/app/lmct}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cat "$file" > /dev/null  # page-cache it
median() {  # median RUNS OUT COMMAND...: runs COMMAND (stdout to OUT), prints the median seconds
    local runs=$1 out=$2
    shift 2
    for ((i = 0; i < runs; i++)); do
        /usr/bin/time -f "%e" -o "$scratch/time" "$@" > "$out" 2> "$scratch/stderr" || {
            cat "$scratch/stderr" >&2
            exit 2
        }
        cat "$scratch/time"
    done | sort -n | awk '{ s[NR] = $1 } END { print s[int((NR + 1) / 2)] }'
}
ref_s=$(median "${REF_RUNS:-1}" /dev/null /usr/bin/python3 "$here/reference_jsonl.py" "$file" "$scratch/ref.jsonl")
ref_lib=$(/usr/bin/python3 -c 'import msgspec; print("msgspec", msgspec.__version__)' 2>/dev/null ||
          /usr/bin/python3 -c 'import msgpack; print("msgpack %d.%d.%d + json" % msgpack.version)')
ref_bytes=$(stat -c %s "$scratch/ref.jsonl")
rm -f "$scratch/ref.jsonl"
row() {  # row NAME SECONDS BYTES
    /usr/bin/python3 -c "import sys
n, s, b, r = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
print('%-22s %7.2f s %7d MB %7.0f MB/s %6.2fx the baseline' % (n, s, b / 1e6, b / 1e6 / max(s, 0.001), r / max(s, 0.001)))" "$@" "$ref_s"
}
jsonl_s=$(median "${LMCT_RUNS:-3}" "$scratch/dump.jsonl" "$lmct" dump --jsonl "$file")
jsonl_bytes=$(stat -c %s "$scratch/dump.jsonl")
rm -f "$scratch/dump.jsonl"
csv_s=$(median "${LMCT_RUNS:-3}" "$scratch/dump.csv" "$lmct" dump --csv "$file")
csv_bytes=$(stat -c %s "$scratch/dump.csv")
rm -f "$scratch/dump.csv"
export_s=$(median "${LMCT_RUNS:-3}" /dev/null "$lmct" export --jsonl "$scratch/export.jsonl" "$file")
export_bytes=$(stat -c %s "$scratch/export.jsonl")
rm -f "$scratch/export.jsonl"
size=$(stat -c %s "$file")
echo "file                   $file ($((size / 1000000)) MB)"
echo "lmct                   $lmct"
echo "baseline               reference_jsonl.py with $ref_lib"
row "baseline (python)" "$ref_s" "$ref_bytes"
row "lmct dump --jsonl" "$jsonl_s" "$jsonl_bytes"
row "lmct dump --csv" "$csv_s" "$csv_bytes"
row "lmct export --jsonl" "$export_s" "$export_bytes"
