#!/bin/sh
# check-desktop.sh [SOURCE_DIR]
#
# Validates the desktop integration files:
#   - lmct-viewer.desktop                         with desktop-file-validate
#   - io.github.lmcache.TraceViewer.metainfo.xml  with appstreamcli validate --no-net
#   - both together, staged as an install tree     with appstreamcli validate-tree --no-net
#     (checks that the metainfo's launchable names the shipped .desktop file)
#   - that the .desktop's MimeType and the metainfo's mediatype name the type
#     defined in lmct-viewer-mime.xml, and that Icon= has an icon file here.
#
# SOURCE_DIR is the repository root (or its resources/ folder); default: the
# folder of this script.
#
# Exit status: 0 all passed, 1 a check failed or bad usage, 77 a needed tool is
# missing (CTest: SKIP_RETURN_CODE 77; otherwise it counts as a failure).
# Needs: desktop-file-validate (Debian: desktop-file-utils), appstreamcli
# (Debian: appstream).
set -u

if [ $# -gt 1 ]; then
    echo "usage: $0 [SOURCE_DIR]" >&2
    exit 1
fi
if [ $# -eq 1 ]; then
    if [ -f "$1/resources/lmct-viewer.desktop" ]; then
        res=$1/resources
    elif [ -f "$1/lmct-viewer.desktop" ]; then
        res=$1
    else
        echo "check-desktop: no lmct-viewer.desktop in $1 or $1/resources" >&2
        exit 1
    fi
else
    res=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
fi

desktop=$res/lmct-viewer.desktop
metainfo=$res/io.github.lmcache.TraceViewer.metainfo.xml
mimexml=$res/lmct-viewer-mime.xml
for f in "$desktop" "$metainfo" "$mimexml" "$res/icons/lmct-viewer.svg"; do
    if [ ! -r "$f" ]; then
        echo "check-desktop: FAIL: missing $f" >&2
        exit 1
    fi
done

for t in desktop-file-validate appstreamcli; do
    if ! command -v "$t" >/dev/null 2>&1; then
        echo "check-desktop: SKIP: $t not found (apt-get install desktop-file-utils appstream)" >&2
        exit 77
    fi
done

status=0
fail() { echo "  FAIL  $*"; status=1; }

echo "check-desktop: desktop-file-validate $desktop"
if out=$(desktop-file-validate "$desktop" 2>&1); then
    echo "  ok    desktop-file-validate"
else
    fail "desktop-file-validate"
fi
[ -n "$out" ] && printf '%s\n' "$out" | sed 's/^/        /'

echo "check-desktop: appstreamcli validate --no-net $metainfo"
if out=$(appstreamcli validate --no-net "$metainfo" 2>&1); then
    echo "  ok    appstreamcli validate"
else
    fail "appstreamcli validate"
fi
printf '%s\n' "$out" | sed 's/^/        /'

tmp=$(mktemp -d "${TMPDIR:-/tmp}/lmct-desktop.XXXXXX") || {
    echo "check-desktop: mktemp failed" >&2
    exit 1
}
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

share=$tmp/usr/share
mkdir -p "$share/metainfo" "$share/applications" "$share/icons/hicolor/scalable/apps"
cp "$metainfo" "$share/metainfo/"
cp "$desktop" "$share/applications/"
cp "$res/icons/lmct-viewer.svg" "$share/icons/hicolor/scalable/apps/"
[ -d "$res/icons/hicolor" ] && cp -R "$res/icons/hicolor" "$share/icons/"
echo "check-desktop: appstreamcli validate-tree --no-net (staged install tree)"
if out=$(appstreamcli validate-tree --no-net "$tmp" 2>&1); then
    echo "  ok    appstreamcli validate-tree"
else
    fail "appstreamcli validate-tree"
fi
printf '%s\n' "$out" | sed 's/^/        /'

echo "check-desktop: consistency"
mime=$(sed -n 's/.*<mime-type type="\([^"]*\)".*/\1/p' "$mimexml" | head -n 1)
if [ -z "$mime" ]; then
    fail "no mime-type in $mimexml"
else
    if grep -q "^MimeType=.*$mime;" "$desktop"; then
        echo "  ok    .desktop MimeType has $mime"
    else
        fail ".desktop MimeType lacks $mime"
    fi
    if grep -q "<mediatype>$mime</mediatype>" "$metainfo"; then
        echo "  ok    metainfo provides mediatype $mime"
    else
        fail "metainfo does not provide mediatype $mime"
    fi
fi
icon=$(sed -n 's/^Icon=//p' "$desktop" | head -n 1)
if [ -n "$icon" ] && [ -f "$res/icons/$icon.svg" ]; then
    echo "  ok    Icon=$icon has icons/$icon.svg"
else
    fail "Icon='$icon' has no icons/$icon.svg"
fi

if [ $status -eq 0 ]; then
    echo "check-desktop: PASS"
else
    echo "check-desktop: FAIL"
fi
exit $status
