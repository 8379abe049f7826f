#!/usr/bin/env bash
# ./test.sh: install what is missing, build, and run every test through ctest.
# Exits non-zero on any failure.
#   ./test.sh --sanitize       also build everything with ASan + UBSan (CMake preset "asan",
#                              in build-asan/) and run the whole suite there
#   ./test.sh --sanitize-core  the same for lmct and the model and CLI suites only, no widgets
#                              (build and test preset "asan-core"; quicker; what CI runs)
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
# A test that fails once is run again (--repeat until-pass:2 below): a pass on the retry hides
# the first failure, so every such test is listed at the end, however test.sh ends.
flaky=()
ran_tests=no
# Adds to `flaky` the tests of the last ctest run in build folder $1 that failed and then passed
# (its Testing/Temporary/LastTest.log: "N/M Test: NAME" per attempt, the test's output, then
# "Test Passed." or "Test Failed."); $2 says which run.
note_flaky() {
    local log="$1/Testing/Temporary/LastTest.log" name
    [[ -f $log ]] || return 0
    ran_tests=yes
    while IFS= read -r name; do
        flaky+=("flaky: $name${2:+ ($2)}")
    done < <(awk '
        out { out = $0 != "<end of output>"; next }  # a test'"'"'s own output
        /^Output:$/ { out = 1; next }
        /^[0-9]+\/[0-9]+ Test: / { sub(/^[0-9]+\/[0-9]+ Test: /, ""); name = $0; next }
        /^Test Failed\./ { failed[name] = 1; next }
        /^Test Passed\./ { if (failed[name] && !(name in said)) { said[name] = 1; print name } }
    ' "$log")
}
report_flaky() {
    if [[ ${#flaky[@]} -gt 0 ]]; then
        echo "==> Tests that failed on their first try and passed on the retry:"
        printf '%s\n' "${flaky[@]}"
    elif [[ $ran_tests == yes ]]; then
        echo "==> No test needed its retry"
    fi
}
trap report_flaky EXIT

echo "==> Running tests"
# Two tests at a time (LMCT_TEST_JOBS), and a test that fails once is run again (the GUI suites are
# timing-sensitive under load; a real failure fails twice).
rc=0
(cd "$LMCT_BUILD" && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j "${LMCT_TEST_JOBS:-2}" \
    --timeout 900 --repeat until-pass:2) || rc=$?
note_flaky "$LMCT_BUILD"
[[ $rc -eq 0 ]] || exit "$rc"

if [[ $sanitize != no ]]; then
    preset=asan
    [[ $sanitize == core ]] && preset=asan-core
    echo "==> Building with ASan + UBSan (build-asan, preset $preset)"
    cmake --preset asan >/dev/null
    cmake --build --preset "$preset" ${LMCT_JOBS:+-j "$LMCT_JOBS"}
    echo "==> Running tests under ASan + UBSan (preset $preset)"
    # As above: a GUI test that fails once is run again (timing under the sanitizers' slowdown).
    rc=0
    ctest --preset "$preset" -j2 --timeout 1800 --repeat until-pass:2 || rc=$?
    note_flaky "$LMCT_ROOT/build-asan" "preset $preset"
    [[ $rc -eq 0 ]] || exit "$rc"
fi

if [[ -n "$fuzz_seconds" ]]; then
    "$LMCT_ROOT/tests/fuzz/run-fuzz.sh" "$fuzz_seconds"
fi
