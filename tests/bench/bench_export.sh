#!/usr/bin/env bash
# tests/bench/bench_export.sh FILE [LMCT]
# Times `lmct dump --jsonl`, `lmct dump --csv` and `lmct export --jsonl` on FILE against the
# Python baseline reference_jsonl.py (msgspec when importable, else msgpack + json; it says which)
# on the same page-cached file, in one run: wall time (median of LMCT_RUNS runs, default 3; the
# baseline of REF_RUNS, default 1), CPU time (user + system, of the same run), output size, MB/s
# of output and the speed-up over the baseline in wall time (and in CPU time: on a machine that
# others load too, wall times follow the load, CPU times much less). Outputs go to a scratch directory (TMPDIR) and are removed. LMCT is the binary to
# time (default: BUILD/app/lmct next to this script).
set -euo pipefail
file="${1:?usage: bench_export.sh FILE [LMCT]}"
here="$(cd "$(dirname "$0")" && pwd)"
lmct="${2:-$here/../../build/app/lmct}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cat "$file" > /dev/null  # page-cache it
median() {  # median RUNS OUT COMMAND...: runs COMMAND (stdout to OUT), prints "wall cpu" seconds
    local runs=$1 out=$2
    shift 2
    for ((i = 0; i < runs; i++)); do
        /usr/bin/time -f "%e %U %S" -o "$scratch/time" "$@" > "$out" 2> "$scratch/stderr" || {
            cat "$scratch/stderr" >&2
            exit 2
        }
        cat "$scratch/time"
    done | sort -n | awk '{ w[NR] = $1; c[NR] = $2 + $3 } END { m = int((NR + 1) / 2); print w[m], c[m] }'
}
read -r ref_s ref_cpu < <(median "${REF_RUNS:-1}" /dev/null /usr/bin/python3 "$here/reference_jsonl.py" "$file" "$scratch/ref.jsonl")
ref_lib=$(/usr/bin/python3 -c 'import msgspec; print("msgspec", msgspec.__version__)' 2>/dev/null ||
          /usr/bin/python3 -c 'import msgpack; print("msgpack %d.%d.%d + json" % msgpack.version)')
ref_bytes=$(stat -c %s "$scratch/ref.jsonl")
rm -f "$scratch/ref.jsonl"
row() {  # row NAME SECONDS CPU_SECONDS BYTES
    /usr/bin/python3 -c "import sys
n, s, c, b, r, rc = sys.argv[1], *map(float, sys.argv[2:4]), int(sys.argv[4]), *map(float, sys.argv[5:7])
print('%-20s %6.2f s wall %6.2f s CPU %5d MB %5.0f MB/s  %5.2fx the baseline (CPU %5.2fx)'
      % (n, s, c, b / 1e6, b / 1e6 / max(s, 0.001), r / max(s, 0.001), rc / max(c, 0.001)))" "$@" "$ref_s" "$ref_cpu"
}
read -r jsonl_s jsonl_cpu < <(median "${LMCT_RUNS:-3}" "$scratch/dump.jsonl" "$lmct" dump --jsonl "$file")
jsonl_bytes=$(stat -c %s "$scratch/dump.jsonl")
rm -f "$scratch/dump.jsonl"
read -r csv_s csv_cpu < <(median "${LMCT_RUNS:-3}" "$scratch/dump.csv" "$lmct" dump --csv "$file")
csv_bytes=$(stat -c %s "$scratch/dump.csv")
rm -f "$scratch/dump.csv"
read -r export_s export_cpu < <(median "${LMCT_RUNS:-3}" /dev/null "$lmct" export --jsonl "$scratch/export.jsonl" "$file")
export_bytes=$(stat -c %s "$scratch/export.jsonl")
rm -f "$scratch/export.jsonl"
size=$(stat -c %s "$file")
echo "file                   $file ($((size / 1000000)) MB)"
echo "lmct                   $lmct"
echo "baseline               reference_jsonl.py with $ref_lib"
row "baseline (python)" "$ref_s" "$ref_cpu" "$ref_bytes"
row "lmct dump --jsonl" "$jsonl_s" "$jsonl_cpu" "$jsonl_bytes"
row "lmct dump --csv" "$csv_s" "$csv_cpu" "$csv_bytes"
row "lmct export --jsonl" "$export_s" "$export_cpu" "$export_bytes"
