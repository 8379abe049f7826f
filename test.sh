#!/usr/bin/env bash
# ./test.sh: install what is missing, build, and run every test through ctest.
# Exits non-zero on any failure.
#   ./test.sh --sanitize       also build everything with ASan + UBSan (CMake preset "asan",
#                              in build-asan/) and run the whole suite there (what CI runs)
#   ./test.sh --sanitize-core  the same for lmct and the model and CLI suites only, no widgets
#                              (build and test preset "asan-core"; quicker)
#   ./test.sh --fuzz SECONDS   also run the libFuzzer target for SECONDS (tests/fuzz/)
set -euo pipefail
cd "$(dirname "$0")"
source scripts/setup.sh

fuzz_seconds=""
sanitize=no
while [[ $# -gt 0 ]]; do
    case "$1" in
        --fuzz) fuzz_seconds="${2:?--fuzz needs SECONDS}"; shift 2 ;;
        --sanitize) sanitize=yes; shift ;;
        --sanitize-core) sanitize=core; shift ;;
        -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
        *) echo "test.sh: unknown option $1" >&2; exit 1 ;;
    esac
done

# The suites read generated traces; LMCache's own reference traces (../shared/traces next to the
# clone, or LMCT_REFERENCE_TRACES_DIR) are optional: tst_conformance checks them when present.
ref_dir=$(sed -n 's/^LMCT_REFERENCE_TRACES_DIR:PATH=//p' "$LMCT_BUILD/CMakeCache.txt" 2>/dev/null || true)
ref_dir="${LMCT_REFERENCE_TRACES_DIR:-${ref_dir:-$LMCT_ROOT/../shared/traces}}"
if compgen -G "$ref_dir/*.truth.json" >/dev/null; then
    echo "==> Reference conformance: checking the reference traces in $ref_dir"
else
    echo "==> Reference conformance: skipped (no *.truth.json in $ref_dir)"
fi

lmct_setup --tests
if [[ -n "${LMCT_REFERENCE_TRACES_DIR:-}" ]]; then
    # a folder given now is used even when build/ was configured with another
    cmake "$LMCT_BUILD" >/dev/null
fi
echo "==> Running tests"
# Two tests at a time (LMCT_TEST_JOBS), and a test that fails once is run again (the GUI suites are
# timing-sensitive under load; a real failure fails twice).
(cd "$LMCT_BUILD" && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j "${LMCT_TEST_JOBS:-2}" \
    --timeout 900 --repeat until-pass:2)

if [[ $sanitize != no ]]; then
    preset=asan
    [[ $sanitize == core ]] && preset=asan-core
    echo "==> Building with ASan + UBSan (build-asan, preset $preset)"
    cmake --preset asan >/dev/null
    cmake --build --preset "$preset" ${LMCT_JOBS:+-j "$LMCT_JOBS"}
    echo "==> Running tests under ASan + UBSan (preset $preset)"
    # As above: a GUI test that fails once is run again (timing under the sanitizers' slowdown).
    ctest --preset "$preset" -j2 --timeout 1800 --repeat until-pass:2
fi

if [[ -n "$fuzz_seconds" ]]; then
    "$LMCT_ROOT/tests/fuzz/run-fuzz.sh" "$fuzz_seconds"
fi
