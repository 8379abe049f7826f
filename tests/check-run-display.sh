#!/usr/bin/env bash
# check-run-display.sh SOURCE_DIR
#
# run.sh without a display: says so, suggests xvfb-run, exits non-zero, and does it before any
# set-up. The set-up's programs (dpkg-query, apt-get, sudo, cmake, ninja) are replaced by fakes,
# first in PATH, that record their name and fail: without a display none may be called, with
# QT_QPA_PLATFORM=offscreen the set-up must start (the check does not refuse too much).
# Nothing is installed or built either way.
set -u

root=${1:?usage: $0 SOURCE_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
for tool in dpkg-query apt-get sudo cmake ninja; do
    printf '#!/bin/sh\necho %s >> "%s/called"\nexit 1\n' "$tool" "$tmp" > "$tmp/bin/$tool"
    chmod +x "$tmp/bin/$tool"
done

fail=0
# run_case NAME [VAR=VALUE...]: runs run.sh (with FILE as argument) in a clean display
# environment plus the given variables; leaves rc, err and called.
run_case() {
    local name=$1
    shift
    rm -f "$tmp/called"
    local start=$SECONDS
    env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM PATH="$tmp/bin:$PATH" \
        LMCT_BUILD_DIR="$tmp/build" "$@" \
        timeout 60 "$root/run.sh" trace.lct > "$tmp/out" 2> "$tmp/err" < /dev/null
    rc=$?
    elapsed=$((SECONDS - start))
    err=$(cat "$tmp/err")
    called=$(cat "$tmp/called" 2> /dev/null | tr '\n' ' ')
    echo "[$name] exit $rc after ${elapsed}s; set-up tools called: ${called:-none}"
    echo "$err" | sed 's/^/    /'
}

expect_refused() {
    if [[ $rc -eq 0 || $rc -eq 124 ]]; then
        echo "FAIL: expected a non-zero exit (not a timeout), got $rc"; fail=1
    fi
    if ! grep -qi "no display" <<< "$err"; then
        echo "FAIL: the message does not say there is no display"; fail=1
    fi
    if ! grep -q "xvfb-run -a ./run.sh trace.lct" <<< "$err"; then
        echo "FAIL: the message does not suggest xvfb-run -a ./run.sh trace.lct"; fail=1
    fi
    if [[ -n $called ]]; then
        echo "FAIL: set-up ran before the display check (called: $called)"; fail=1
    fi
    if [[ $elapsed -gt 10 ]]; then
        echo "FAIL: took ${elapsed}s to refuse"; fail=1
    fi
}

run_case "no display"
expect_refused
run_case "xcb without DISPLAY" QT_QPA_PLATFORM=xcb
expect_refused
run_case "wayland without WAYLAND_DISPLAY" QT_QPA_PLATFORM=wayland
expect_refused

# Platforms that need no display, or a display that is set: the check lets set-up start
# (the fakes then make it fail at once).
for case in QT_QPA_PLATFORM=offscreen "QT_QPA_PLATFORM=wayland;offscreen" DISPLAY=:99 \
            WAYLAND_DISPLAY=wayland-9 "QT_QPA_PLATFORM=xcb:dpi=96 DISPLAY=:99"; do
    # shellcheck disable=SC2086
    run_case "$case" $case
    if [[ -z $called ]]; then
        echo "FAIL: with $case set-up should have started"; fail=1
    fi
    if grep -qi "no display" <<< "$err"; then
        echo "FAIL: with $case it claims there is no display"; fail=1
    fi
done

exit $fail
