#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs the Debian packages gfxstat needs, in groups, so that a newcomer
# who only wants the program does not get a kernel image and a browser:
#
#   build    the compiler, cmake, ninja, ccache and the libraries gfxstat
#            links, with their headers (what `make`, `make demo` and
#            `make install` need)
#   test     everything the test suite runs beside gfxstat: GoogleTest,
#            Xvfb and Mesa's programs, qemu and a kernel image, Chromium,
#            LAVA, hyperfine, ministat, clang for the fuzzers ...
#   package  what `make deb` and `make deb-test` need (debhelper, lintian)
#   all      the three
#
# Usage: install-deps.sh [GROUP...]     (no group: build)
#        install-deps.sh --list GROUP   (the group's packages, one a line)
#
# Idempotent: when every package of the groups is installed it only asks
# dpkg and returns. Debian's archive is the only source.
set -eu

# gfxstat's own build. python3 writes the man pages at build time
# (tools/make_manpages.py), groff-base checks them.
BUILD="build-essential cmake ninja-build ccache pkg-config python3 groff-base
libboost-math-dev libeigen3-dev nlohmann-json3-dev libcli11-dev libdrm-dev libre2-dev libsqlite3-dev
libpq-dev"

# The test suite: its unit tests and their reference checks, the real
# programs gfxstat drives (IGT, Mesa on llvmpipe and lavapipe under Xvfb,
# trace replayers, LAVA's scripts, a qemu VM with a kernel), the tools it is
# compared with (ministat, hyperfine), the page checked in Chromium, the
# completion driven in bash and zsh, clang and its runtime for the
# sanitizers' leak checks and the fuzzers, a PostgreSQL server that the
# store's tests start for themselves (tests/store/pg_server.py).
TEST="libgtest-dev libbenchmark-dev ministat clang libclang-rt-14-dev time procps strace
python3-jsonschema python3-prometheus-client python3-yaml libxml2-utils
lava-dispatcher lavacli intel-gpu-tools hyperfine
qemu-system-x86 linux-image-amd64 busybox-static
xvfb xauth glmark2-es2-x11 glmark2-x11 apitrace mesa-utils mesa-vulkan-drivers vulkan-tools
libgl1-mesa-dri libegl-mesa0 libglx-mesa0 gfxreconstruct mangohud
man-db bash-completion zsh chromium librsvg2-bin fonts-dejavu-core postgresql-15"

# The Debian package: its build, lintian's check of it.
PACKAGE="debhelper dpkg-dev fakeroot lintian"

usage() {
    echo "usage: $0 [GROUP...] | --list GROUP   (groups: build test package all)" >&2
    exit 2
}

packages_of() {
    case "$1" in
        build) echo "$BUILD" ;;
        test) echo "$TEST" ;;
        package) echo "$PACKAGE" ;;
        all) echo "$BUILD $TEST $PACKAGE" ;;
        *) echo "install-deps: unknown group '$1' (groups: build test package all)" >&2; exit 2 ;;
    esac
}

if [ "${1:-}" = "--list" ]; then
    [ $# -eq 2 ] || usage
    # shellcheck disable=SC2046
    printf '%s\n' $(packages_of "$2")
    exit 0
fi
case "${1:-}" in -*) usage ;; esac

[ $# -gt 0 ] || set -- build
PACKAGES=""
for group in "$@"; do
    PACKAGES="$PACKAGES $(packages_of "$group")" || exit 2
done

missing=""
for p in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        case " $missing " in *" $p "*) ;; *) missing="$missing $p" ;; esac
    fi
done
[ -z "$missing" ] && exit 0

echo "install-deps: installing:$missing"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
