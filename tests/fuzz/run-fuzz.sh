#!/usr/bin/env bash
# tests/fuzz/run-fuzz.sh SECONDS: build the libFuzzer targets (preset "fuzz": clang with
# -fsanitize=fuzzer,address,undefined) and run them for SECONDS in all on a seed corpus made of
# the generated fixtures and reference-shaped traces, the head of every LMCache reference trace
# in ../shared/traces when that folder is there, and the committed corpus tests/fuzz/corpus
# (inputs that reached new code in earlier runs, so a short CI run starts deep). fuzz_trace (the
# whole decoding path) gets three quarters of the time, fuzz_prefix (the index's fast path
# against msgpack-cxx) the rest. New inputs go to build-fuzz/corpus and build-fuzz/corpus-prefix.
# Exits non-zero when a target finds a crash, a disagreement, a leak, a timeout or an
# out-of-memory; the reproducer is left in build-fuzz/artifacts/.
set -euo pipefail
seconds="${1:?usage: run-fuzz.sh SECONDS}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="$root/build-fuzz"
cd "$root"
cmake --preset fuzz >/dev/null
ninja -C "$build" fuzz_trace fuzz_prefix

corpus="$build/corpus"
seeds="$build/seeds"
mkdir -p "$corpus" "$build/corpus-prefix" "$seeds" "$build/artifacts"
if [[ -z "$(ls -A "$seeds")" ]]; then
    /usr/bin/python3 "$root/tests/fixtures/gen_fixtures.py" "$build/fixtures" >/dev/null
    for f in "$build"/fixtures/*; do
        [[ -f "$f" && "$f" != *.json ]] || continue
        head -c 16384 "$f" > "$seeds/fixture-$(basename "$f")"
    done
    # The generated traces share the reference names: their seeds are "gen-", LMCache's "ref-".
    for f in "$build"/fixtures/traces/*.lct "$build"/fixtures/traces/*.lmct; do
        [[ -f "$f" ]] && head -c 16384 "$f" > "$seeds/gen-$(basename "$f")"
    done
    for f in "$root"/../shared/traces/*.lct "$root"/../shared/traces/*.lmct; do
        [[ -f "$f" ]] && head -c 16384 "$f" > "$seeds/ref-$(basename "$f")"
    done
fi
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
fuzz() {  # fuzz TARGET SECONDS CORPUS
    local target=$1 secs=$2 dir=$3 status=0
    echo "==> $target for ${secs}s (corpus: $dir, seeds: $seeds)"
    "$build/tests/fuzz/$target" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
        -max_len=16384 -print_final_stats=1 -artifact_prefix="$build/artifacts/$target-" \
        "$dir" "$seeds" "$root/tests/fuzz/corpus" 2>&1 |
        grep -vE '^#[0-9]+\s+(NEW|REDUCE|pulse)' | tail -40 || status=${PIPESTATUS[0]}
    if [[ $status -ne 0 ]]; then
        echo "$target found a problem (exit $status); reproducers in $build/artifacts/" >&2
        exit "$status"
    fi
}
prefix_seconds=$((seconds / 4 > 0 ? seconds / 4 : 1))
trace_seconds=$((seconds - prefix_seconds > 0 ? seconds - prefix_seconds : 1))
fuzz fuzz_trace "$trace_seconds" "$corpus"
fuzz fuzz_prefix "$prefix_seconds" "$build/corpus-prefix"
echo "==> Fuzzing done: no crash, disagreement, leak, timeout or OOM"
