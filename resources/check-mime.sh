#!/bin/sh
# check-mime.sh TRACEFILE
#
# Verifies resources/lmct-viewer-mime.xml against a real trace: installs the XML
# into a throw-away XDG_DATA_HOME, runs update-mime-database there and asks the
# shared-mime-info database (through xdg-mime where possible) for the type of
#   1. TRACEFILE under its own name,
#   2. a copy named x.bin        (only the content magic can match it),
# both of which must be application/x-lmcache-trace, and, as a negative
# control, of
#   3. a non-trace file named x.bin, which must NOT be.
#
# Exit status: 0 all checks passed, 1 a check failed or bad usage,
#              77 a needed tool is missing (CTest: set SKIP_RETURN_CODE 77 to
#              report that as a skip; otherwise it counts as a failure).
#
# Needs: update-mime-database (Debian: shared-mime-info) and one query backend:
#   - xdg-mime (xdg-utils) with `mimetype` (libfile-mimeinfo-perl)   preferred
#   - xdg-mime (xdg-utils) with `gio` (libglib2.0-bin), forced via
#     XDG_CURRENT_DESKTOP=GNOME
#   - `gio info` or `mimetype` directly if xdg-mime is absent.
# Without a desktop session xdg-mime's "generic" backend falls back to
# `file --mime-type`, which knows nothing of shared-mime-info and would answer
# application/octet-stream; that is why this script picks the backend itself.
set -u

EXPECTED=application/x-lmcache-trace
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
xml="$here/lmct-viewer-mime.xml"

if [ $# -ne 1 ]; then
    echo "usage: $0 TRACEFILE" >&2
    exit 1
fi
trace=$1
if [ ! -r "$trace" ]; then
    echo "check-mime: cannot read trace file: $trace" >&2
    exit 1
fi
if [ ! -r "$xml" ]; then
    echo "check-mime: cannot read $xml" >&2
    exit 1
fi

have() { command -v "$1" >/dev/null 2>&1; }

if ! have update-mime-database; then
    echo "check-mime: SKIP: update-mime-database not found (apt-get install shared-mime-info)" >&2
    exit 77
fi

# Choose the query backend (LMCT_MIME_BACKEND=generic|gnome|gio|mimetype
# forces one, e.g. to try them all).
backend=${LMCT_MIME_BACKEND:-}
if [ -z "$backend" ]; then
    if have xdg-mime && have mimetype; then backend=generic
    elif have xdg-mime && have gio; then backend=gnome
    elif have gio; then backend=gio
    elif have mimetype; then backend=mimetype
    else
        echo "check-mime: SKIP: no MIME query tool: install xdg-utils with libfile-mimeinfo-perl (mimetype) or libglib2.0-bin (gio)" >&2
        exit 77
    fi
fi
case $backend in
generic)
    need="xdg-mime mimetype"
    describe="xdg-mime, generic backend (mimetype)"
    query() { env -u XDG_CURRENT_DESKTOP -u DESKTOP_SESSION -u KDE_FULL_SESSION \
                  -u GNOME_DESKTOP_SESSION_ID -u MATE_DESKTOP_SESSION_ID \
                  -u LXQT_SESSION_CONFIG -u DISPLAY -u WAYLAND_DISPLAY \
                  DBUS_SESSION_BUS_ADDRESS=disabled: \
                  xdg-mime query filetype "$1" 2>/dev/null; } ;;
gnome)
    need="xdg-mime gio"
    describe="xdg-mime, gnome backend (gio info)"
    query() { env -u DESKTOP_SESSION -u KDE_FULL_SESSION XDG_CURRENT_DESKTOP=GNOME \
                  xdg-mime query filetype "$1" 2>/dev/null; } ;;
gio)
    need="gio"
    describe="gio info"
    query() { gio info -a standard::content-type "$1" 2>/dev/null |
                  sed -n 's/^ *standard::content-type: *//p'; } ;;
mimetype)
    need="mimetype"
    describe="mimetype (File::MimeInfo)"
    query() { mimetype --brief --dereference "$1" 2>/dev/null; } ;;
*)
    echo "check-mime: unknown LMCT_MIME_BACKEND '$backend' (generic|gnome|gio|mimetype)" >&2
    exit 1 ;;
esac
for t in $need; do
    if ! have "$t"; then
        echo "check-mime: SKIP: backend '$backend' needs $t, which is not installed" >&2
        exit 77
    fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/lmct-mime.XXXXXX") || {
    echo "check-mime: mktemp failed" >&2
    exit 1
}
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

XDG_DATA_HOME=$tmp
XDG_DATA_DIRS=$tmp:/usr/local/share:/usr/share
export XDG_DATA_HOME XDG_DATA_DIRS

mkdir -p "$tmp/mime/packages"
cp "$xml" "$tmp/mime/packages/lmct-viewer-mime.xml"
if ! update-mime-database "$tmp/mime" >"$tmp/umd.log" 2>&1; then
    echo "check-mime: FAIL: update-mime-database rejected the XML:" >&2
    cat "$tmp/umd.log" >&2
    exit 1
fi
if [ -s "$tmp/umd.log" ]; then
    echo "check-mime: update-mime-database said:"
    sed 's/^/  /' "$tmp/umd.log"
fi
# update-mime-database exits 0 even when it cannot parse a package file, so
# look at what it built.
if [ ! -f "$tmp/mime/$EXPECTED.xml" ] || ! grep -q "$EXPECTED" "$tmp/mime/magic" 2>/dev/null; then
    echo "check-mime: FAIL: update-mime-database built no type $EXPECTED with a magic rule from $xml" >&2
    exit 1
fi
for d in /usr/local/share /usr/share; do
    if [ -f "$d/mime/$EXPECTED.xml" ]; then
        echo "check-mime: note: $d/mime already defines $EXPECTED (installed copy); the check uses $xml first"
    fi
done

cp "$trace" "$tmp/x.bin"
# Negative control, also called x.bin: a length prefix and a msgpack fixmap
# like a trace's, but whose first key is not "type".
mkdir -p "$tmp/neg"
printf '\000\000\000\040\211\244kind\246header\245magic\304\004LMCT and more bytes\n' \
    >"$tmp/neg/x.bin"

echo "check-mime: backend: $describe"
status=0
check() { # label file expect(yes|no)
    got=$(query "$2" | head -n 1)
    if [ "$3" = yes ]; then
        if [ "$got" = "$EXPECTED" ]; then
            echo "  ok    $1: $got"
        else
            echo "  FAIL  $1: got '${got:-<nothing>}', want $EXPECTED"
            status=1
        fi
    else
        if [ -n "$got" ] && [ "$got" != "$EXPECTED" ]; then
            echo "  ok    $1: $got (not $EXPECTED, as it should be)"
        else
            echo "  FAIL  $1: got '${got:-<nothing>}', want something other than $EXPECTED"
            status=1
        fi
    fi
}
check "trace as given ($(basename -- "$trace"))" "$trace" yes
check "trace copied to x.bin (content magic only)" "$tmp/x.bin" yes
check "non-trace named x.bin (negative control)" "$tmp/neg/x.bin" no

if [ $status -eq 0 ]; then
    echo "check-mime: PASS"
else
    echo "check-mime: FAIL"
fi
exit $status
