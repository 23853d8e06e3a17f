#!/bin/sh
# Installs the Debian packages gfxstat builds and tests with. Idempotent: when
# every package is already installed it only asks dpkg and returns.
set -eu

PACKAGES="build-essential cmake ccache pkg-config python3
libboost-math-dev libeigen3-dev nlohmann-json3-dev libcli11-dev libdrm-dev libre2-dev
libgtest-dev libbenchmark-dev ministat clang libclang-rt-14-dev time procps
python3-jsonschema python3-prometheus-client libxml2-utils lava-dispatcher lavacli python3-yaml intel-gpu-tools hyperfine strace
qemu-system-x86 linux-image-amd64 busybox-static
xvfb xauth glmark2-es2-x11 glmark2-x11 apitrace mesa-utils mesa-vulkan-drivers vulkan-tools
libgl1-mesa-dri libegl-mesa0 libglx-mesa0 gfxreconstruct mangohud
debhelper dpkg-dev fakeroot lintian groff-base man-db bash-completion zsh
chromium librsvg2-bin fonts-dejavu-core"

missing=""
for p in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
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
