#!/bin/sh
# check-install.sh BUILD_DIR TRACEFILE
#
# Installs the build into a throw-away prefix (cmake --install --prefix TMP), checks that every
# file is in place, then, with XDG_DATA_HOME=TMP/share:
#   - update-mime-database TMP/share/mime, and `xdg-mime query filetype` on a copy of TRACEFILE
#     named x.bin must answer application/x-lmcache-trace (content magic only);
#   - `xdg-mime default lmct-viewer.desktop application/x-lmcache-trace`, then
#     `xdg-mime query default application/x-lmcache-trace` must answer lmct-viewer.desktop.
# Headless xdg-mime uses its generic backend, which needs `mimetype` (libfile-mimeinfo-perl).
# It also builds the .deb (cpack -G DEB, a few seconds; LMCT_CHECK_DEB=0 skips it) and checks its
# Depends and files.
#
# Exit status: 0 passed, 1 failed, 77 a needed tool is missing.
set -u
if [ $# -ne 2 ]; then
    echo "usage: $0 BUILD_DIR TRACEFILE" >&2
    exit 1
fi
build=$1
trace=$2
have() { command -v "$1" >/dev/null 2>&1; }
for t in cmake update-mime-database xdg-mime mimetype; do
    if ! have "$t"; then
        echo "check-install: SKIP: $t not found" >&2
        exit 77
    fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/lmct-install.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
prefix=$tmp/prefix
status=0
fail() {
    echo "  FAIL  $*"
    status=1
}
ok() { echo "  ok    $*"; }

if ! cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1; then
    cat "$tmp/install.log" >&2
    echo "check-install: FAIL: cmake --install failed" >&2
    exit 1
fi
echo "check-install: installed into $prefix"
for f in bin/lmct bin/lmct-viewer \
    share/icons/hicolor/scalable/apps/lmct-viewer.svg \
    share/applications/lmct-viewer.desktop \
    share/mime/packages/lmct-viewer.xml \
    share/metainfo/io.github.lmcache.TraceViewer.metainfo.xml; do
    if [ -f "$prefix/$f" ]; then ok "$f"; else fail "$f missing"; fi
done
for n in 16 22 24 32 48 64 128 256 512; do
    f=share/icons/hicolor/${n}x${n}/apps/lmct-viewer.png
    if [ -f "$prefix/$f" ]; then ok "$f"; else fail "$f missing"; fi
done
for f in bin/lmct bin/lmct-viewer; do
    [ -x "$prefix/$f" ] || fail "$f not executable"
done
# The install step ran update-mime-database on PREFIX/share/mime (DESTDIR was unset).
if [ -f "$prefix/share/mime/application/x-lmcache-trace.xml" ]; then
    ok "install step refreshed the MIME database"
else
    fail "install step did not run update-mime-database on $prefix/share/mime"
fi
"$prefix/bin/lmct" --version >/dev/null 2>&1 || fail "installed lmct does not run"

# Query the installed definitions, headless: xdg-mime's generic backend (mimetype).
XDG_DATA_HOME=$prefix/share
XDG_DATA_DIRS=$prefix/share:/usr/local/share:/usr/share
XDG_CONFIG_HOME=$tmp/config
mkdir -p "$XDG_CONFIG_HOME"
export XDG_DATA_HOME XDG_DATA_DIRS XDG_CONFIG_HOME
xq() {
    env -u XDG_CURRENT_DESKTOP -u DESKTOP_SESSION -u KDE_FULL_SESSION \
        -u GNOME_DESKTOP_SESSION_ID -u DISPLAY -u WAYLAND_DISPLAY \
        DBUS_SESSION_BUS_ADDRESS=disabled: xdg-mime "$@" 2>/dev/null
}
update-mime-database "$prefix/share/mime" >/dev/null 2>&1 || fail "update-mime-database"
cp "$trace" "$tmp/x.bin"
got=$(xq query filetype "$tmp/x.bin" | head -n 1)
if [ "$got" = application/x-lmcache-trace ]; then ok "x.bin typed $got"; else
    fail "x.bin typed '${got:-<nothing>}', want application/x-lmcache-trace"
fi
xq default lmct-viewer.desktop application/x-lmcache-trace
got=$(xq query default application/x-lmcache-trace | head -n 1)
if [ "$got" = lmct-viewer.desktop ]; then ok "default handler $got"; else
    fail "default handler '${got:-<nothing>}', want lmct-viewer.desktop"
fi

if [ "${LMCT_CHECK_DEB:-1}" = 1 ] && have cpack && have dpkg-deb; then
    if ! (cd "$build" && cpack -G DEB -B "$tmp/deb") >"$tmp/cpack.log" 2>&1; then
        cat "$tmp/cpack.log" >&2
        fail "cpack -G DEB"
    else
        deb=$(ls "$tmp"/deb/*.deb | head -n 1)
        deps=$(dpkg-deb -f "$deb" Depends)
        for p in libqt6core6 libqt6gui6 libqt6widgets6 libqt6printsupport6 libqt6svg6 \
            libqt6concurrent6 libqcustomplot2.1 libsqlite3-0; do
            case $deps in *"$p"*) ok "Depends $p" ;; *) fail "Depends lacks $p" ;; esac
        done
        list=$(dpkg-deb -c "$deb")
        for f in ./usr/bin/lmct ./usr/bin/lmct-viewer ./usr/share/mime/packages/lmct-viewer.xml \
            ./usr/share/applications/lmct-viewer.desktop \
            ./usr/share/icons/hicolor/scalable/apps/lmct-viewer.svg; do
            case $list in *" $f"*) ok "deb has $f" ;; *) fail "deb lacks $f" ;; esac
        done
        # The caches belong to dpkg's triggers, not to the package.
        case $list in *mime.cache* | *mimeinfo.cache* | *x-lmcache-trace.xml*)
            fail "deb ships generated MIME/desktop caches" ;; esac
    fi
fi

if [ $status -eq 0 ]; then echo "check-install: PASS"; else echo "check-install: FAIL"; fi
exit $status
