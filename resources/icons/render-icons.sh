#!/bin/sh
# Regenerates the hicolor PNGs from the hand-written SVGs.
# Needs rsvg-convert (Debian package librsvg2-bin).
# 16 px comes from the pixel-grid variant lmct-viewer-16.svg, every other size
# from lmct-viewer.svg.
set -eu
cd "$(dirname "$0")"
command -v rsvg-convert >/dev/null 2>&1 || {
    echo "render-icons.sh: rsvg-convert not found (apt-get install librsvg2-bin)" >&2
    exit 1
}
for n in 16 22 24 32 48 64 128 256 512; do
    src=lmct-viewer.svg
    [ "$n" -eq 16 ] && src=lmct-viewer-16.svg
    mkdir -p "hicolor/${n}x${n}/apps"
    rsvg-convert -w "$n" -h "$n" -o "hicolor/${n}x${n}/apps/lmct-viewer.png" "$src"
    echo "hicolor/${n}x${n}/apps/lmct-viewer.png  <- $src"
done
