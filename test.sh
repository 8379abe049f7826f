#!/usr/bin/env bash
# ./test.sh: install what is missing, build, and run every test through ctest.
# Exits non-zero on any failure.
#   ./test.sh --fuzz SECONDS   also run the libFuzzer target for SECONDS (see tests/fuzz/)
set -euo pipefail
cd "$(dirname "$0")"
source scripts/setup.sh

fuzz_seconds=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --fuzz) fuzz_seconds="${2:?--fuzz needs SECONDS}"; shift 2 ;;
        -h|--help) sed -n '2,5p' "$0"; exit 0 ;;
        *) echo "test.sh: unknown option $1" >&2; exit 1 ;;
    esac
done

lmct_setup --tests
echo "==> Running tests"
(cd "$LMCT_BUILD" && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j2 --timeout 900)

if [[ -n "$fuzz_seconds" ]]; then
    "$LMCT_ROOT/tests/fuzz/run-fuzz.sh" "$fuzz_seconds"
fi
