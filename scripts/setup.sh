#!/usr/bin/env bash
# Shared set-up for run.sh and test.sh: installs the Debian 12 packages this project needs
# (only the missing ones), then configures and builds the Release build in build/.
# Sourced, not run: defines lmct_setup.
set -euo pipefail

LMCT_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LMCT_BUILD="${LMCT_BUILD_DIR:-$LMCT_ROOT/build}"

# Build and run dependencies (docs/development.md).
LMCT_PACKAGES=(
    g++ cmake ninja-build pkg-config
    qt6-base-dev qt6-base-dev-tools qt6-svg-dev libgl-dev
    libmsgpack-cxx-dev libqcustomplot-dev libsqlite3-dev
    fonts-dejavu-core
)
# Test dependencies: fixture generator, offscreen/X11 GUI runs, desktop-file checks, fuzzing.
LMCT_TEST_PACKAGES=(
    python3 python3-msgpack
    xvfb xauth
    desktop-file-utils appstream shared-mime-info xdg-utils libfile-mimeinfo-perl
    clang libclang-rt-14-dev
)

lmct_missing() {
    local p missing=()
    for p in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$p")
        fi
    done
    echo "${missing[@]:-}"
}

lmct_install() {
    local missing
    missing=$(lmct_missing "$@")
    [[ -z "$missing" ]] && return 0
    echo "==> Installing missing packages: $missing"
    local sudo=()
    if [[ $(id -u) -ne 0 ]]; then
        if ! command -v sudo >/dev/null; then
            echo "error: need root or sudo to install: $missing" >&2
            return 1
        fi
        sudo=(sudo)
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq
    # shellcheck disable=SC2086
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends $missing
}

# lmct_setup [--tests]: install packages, configure (when needed) and build. LMCT_CMAKE_ARGS
# adds cache options to a first configure (CI: -DLMCT_BUILD_BENCH=OFF).
lmct_setup() {
    local with_tests=OFF
    if [[ "${1:-}" == "--tests" ]]; then
        with_tests=ON
        lmct_install "${LMCT_PACKAGES[@]}" "${LMCT_TEST_PACKAGES[@]}"
    else
        lmct_install "${LMCT_PACKAGES[@]}"
    fi
    local configure=no
    if [[ ! -f "$LMCT_BUILD/build.ninja" ]]; then
        configure=yes
    elif [[ $with_tests == ON ]] &&
         ! grep -q "^LMCT_BUILD_TESTS:BOOL=ON" "$LMCT_BUILD/CMakeCache.txt"; then
        configure=yes
    elif [[ $with_tests == OFF ]] && grep -q "^LMCT_BUILD_TESTS:BOOL=ON" "$LMCT_BUILD/CMakeCache.txt"; then
        with_tests=ON  # keep an existing test build as it is
    fi
    if [[ $configure == yes ]]; then
        echo "==> Configuring $LMCT_BUILD (Release)"
        cmake -S "$LMCT_ROOT" -B "$LMCT_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
              -DLMCT_BUILD_TESTS="$with_tests" ${LMCT_CMAKE_ARGS:-} >/dev/null
    fi
    echo "==> Building"
    if ! ninja -C "$LMCT_BUILD" ${LMCT_JOBS:+-j "$LMCT_JOBS"}; then
        echo "error: build failed" >&2
        return 1
    fi
}
