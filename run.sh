#!/usr/bin/env bash
# ./run.sh [FILE...]: install what is missing, build, and open FILE(s) in lmct-viewer
# (with no FILE, the sample trace bundled in resources/samples/).
# Without a display it says so before any set-up (no package install, no build) and exits 1.
set -euo pipefail
cd "$(dirname "$0")"

# lmct_has_display: whether Qt can show a window here. QT_QPA_PLATFORM may list platforms
# ("wayland;xcb", options after ':'): xcb needs DISPLAY, wayland needs WAYLAND_DISPLAY, the
# others (offscreen, minimal, vnc, eglfs, linuxfb, ...) need neither. Unset: either will do.
lmct_has_display() {
    local platforms p
    if [[ -z "${QT_QPA_PLATFORM:-}" ]]; then
        [[ -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ]]
        return
    fi
    IFS=';' read -r -a platforms <<< "$QT_QPA_PLATFORM"
    for p in "${platforms[@]}"; do
        p="${p%%:*}"
        case "$p" in
            xcb) [[ -n "${DISPLAY:-}" ]] && return 0 ;;
            wayland*) [[ -n "${WAYLAND_DISPLAY:-}" ]] && return 0 ;;
            "") ;;
            *) return 0 ;;
        esac
    done
    return 1
}

if ! lmct_has_display; then
    if [[ -n "${QT_QPA_PLATFORM:-}" ]]; then
        echo "lmct-viewer: no display found (QT_QPA_PLATFORM=$QT_QPA_PLATFORM, but DISPLAY and WAYLAND_DISPLAY are not set)." >&2
    else
        echo "lmct-viewer: no display found (DISPLAY is not set)." >&2
    fi
    echo "Run it in a desktop session, or headless with:  xvfb-run -a ./run.sh ${*:-}" >&2
    exit 1
fi

source scripts/setup.sh
lmct_setup

if [[ $# -eq 0 ]]; then
    set -- "$LMCT_ROOT/resources/samples/sample.lct"
fi
exec "$LMCT_BUILD/app/lmct-viewer" "$@"
