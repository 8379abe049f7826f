#!/usr/bin/env bash
# ./run.sh [FILE...]: install what is missing, build, and open FILE(s) in lmct-viewer
# (with no FILE, the sample trace bundled in resources/samples/).
set -euo pipefail
cd "$(dirname "$0")"
source scripts/setup.sh
lmct_setup

if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" && -z "${QT_QPA_PLATFORM:-}" ]]; then
    echo "lmct-viewer: no display found (DISPLAY is not set)." >&2
    echo "Run it in a desktop session, or headless with:  xvfb-run -a ./run.sh ${*:-}" >&2
    exit 1
fi
if [[ $# -eq 0 ]]; then
    set -- "$LMCT_ROOT/resources/samples/sample.lct"
fi
exec "$LMCT_BUILD/app/lmct-viewer" "$@"
