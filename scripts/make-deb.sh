#!/bin/sh
# make-deb.sh [BUILD_DIR]: builds lmct-viewer_<version>_<arch>.deb with CPack from a configured,
# built tree (default: build), and lists its control fields and files.
#   cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release && ninja -C build
#   scripts/make-deb.sh build && sudo apt install ./build/lmct-viewer_*.deb
# The package has no maintainer scripts: dpkg triggers of shared-mime-info, desktop-file-utils
# and hicolor-icon-theme refresh the MIME, desktop and icon caches.
set -eu
build=${1:-build}
(cd "$build" && cpack -G DEB)
deb=$(ls -t "$build"/*.deb | head -n 1)
dpkg-deb -I "$deb"
dpkg-deb -c "$deb"
echo "built $deb"
