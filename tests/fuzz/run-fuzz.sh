#!/usr/bin/env bash
# tests/fuzz/run-fuzz.sh SECONDS: build the libFuzzer target (preset "fuzz": clang with
# -fsanitize=fuzzer,address,undefined) and run it for SECONDS on a seed corpus made of the
# generated fixtures and reference-shaped traces, the head of every LMCache reference trace in
# ../shared/traces when that folder is there, and the committed corpus tests/fuzz/corpus
# (inputs that reached new code in earlier runs, so a short CI run starts deep). New inputs go to
# build-fuzz/corpus. Exits non-zero when it finds a crash, a leak, a timeout or an out-of-memory;
# the reproducer is left in build-fuzz/artifacts/.
set -euo pipefail
seconds="${1:?usage: run-fuzz.sh SECONDS}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="$root/build-fuzz"
cd "$root"
cmake --preset fuzz >/dev/null
ninja -C "$build" fuzz_trace

corpus="$build/corpus"
seeds="$build/seeds"
mkdir -p "$corpus" "$seeds" "$build/artifacts"
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
echo "==> Fuzzing for ${seconds}s (corpus: $corpus, seeds: $seeds)"
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
"$build/tests/fuzz/fuzz_trace" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
    -print_final_stats=1 -artifact_prefix="$build/artifacts/" "$corpus" "$seeds" "$root/tests/fuzz/corpus" 2>&1 |
    grep -vE '^#[0-9]+\s+(NEW|REDUCE|pulse)' | tail -40
status=${PIPESTATUS[0]}
if [[ $status -ne 0 ]]; then
    echo "fuzz_trace found a problem (exit $status); reproducers in $build/artifacts/" >&2
    exit "$status"
fi
echo "==> Fuzzing done: no crash, leak, timeout or OOM"
