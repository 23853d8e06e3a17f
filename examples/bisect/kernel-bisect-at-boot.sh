#!/bin/sh
# SPDX-License-Identifier: MIT
# A kernel bisection with gfxstat bisect, one step per boot.
#
# Run at every boot by a systemd unit (kernel-bisect.service, below). Each
# boot: measure the kernel that booted (the commit git has checked out),
# tell git, then build, install and boot the next commit, until git names
# the first bad commit. docs/bisect.md, "Kernels: a step across a reboot".
#
# Before the first boot:
#   cd $REPO && git bisect start BAD GOOD
#   gfxstat bisect check --good $GOOD_RESULTS --bad $BAD_RESULTS
#   then build, install and boot the commit git checked out, with this
#   script enabled (or run it once by hand to do that: it builds when the
#   running kernel is not the one checked out and nothing was measured).
#
# Settings: /etc/gfxstat/kernel-bisect.conf (shell assignments) or the
# environment. Tests set BUILD, INSTALL, REBOOT and RUNNING to stand-ins.
#
#   [Unit]
#   Description=gfxstat kernel bisection step
#   After=multi-user.target
#   [Service]
#   Type=oneshot
#   ExecStart=/usr/local/sbin/kernel-bisect-at-boot.sh
#   [Install]
#   WantedBy=multi-user.target
set -u

CONF=${CONF:-/etc/gfxstat/kernel-bisect.conf}
# shellcheck source=/dev/null # the site's settings
[ -r "$CONF" ] && . "$CONF"

REPO=${REPO:?REPO: the kernel work tree}
GOOD_RESULTS=${GOOD_RESULTS:?GOOD_RESULTS: runs of the good kernel}
BAD_RESULTS=${BAD_RESULTS:?BAD_RESULTS: runs of the bad kernel}
cd "$REPO" || exit 1
STEPS=${STEPS:-$REPO/../bisect-steps.json}
WORKLOAD=${WORKLOAD:-}                # empty: the command the good runs recorded
GFXSTAT=${GFXSTAT:-gfxstat}
STEP_OPTIONS=${STEP_OPTIONS:-}         # e.g. --max-runs 80 --threshold 2
BUILD=${BUILD:-make olddefconfig && make -j"$(nproc)"}
INSTALL=${INSTALL:-make modules_install install}
# The next boot only: a kernel that does not come up falls back to the
# default entry; that boot then finds the running kernel is not the
# commit, and skips it.
REBOOT=${REBOOT:-grub-reboot "Advanced options for Debian GNU/Linux>Debian GNU/Linux, with Linux \$(make -s kernelrelease)" && systemctl reboot}
# The running kernel's commit, short: CONFIG_LOCALVERSION_AUTO ends
# `uname -r` in -gSHORTID.
RUNNING=${RUNNING:-uname -r | sed -n 's/.*-g\([0-9a-f]\{7,\}\).*/\1/p'}
DISABLE=${DISABLE:-systemctl disable kernel-bisect.service}

say() { echo "kernel-bisect: $*" >&2; }
finish() {
    "$GFXSTAT" bisect report "$STEPS" > "$STEPS.report.txt"
    say "$1; the report: $STEPS.report.txt"
    rm -f "$STEPS.booting"
    sh -c "$DISABLE"
    exit "$2"
}
# Tells git; ends when git has named the first bad commit or has only
# skipped commits left.
tell_git() {
    out=$(git bisect "$1" 2>&1)
    echo "$out" >&2
    case "$out" in
        *"is the first bad commit"*) finish "git named the first bad commit" 0 ;;
        *"only 'skip'ped commits left"*) finish "only skipped commits are left" 1 ;;
    esac
}

if git bisect log 2>/dev/null | grep -q '^# first bad commit:'; then
    finish "git has named the first bad commit already" 0
fi

while :; do
    head=$(git rev-parse HEAD) || exit 1
    running=$(sh -c "$RUNNING")
    booting=$(cat "$STEPS.booting" 2>/dev/null)
    if [ -n "$running" ] && [ "${head#"$running"}" != "$head" ]; then
        # The kernel of the commit checked out is running: measure it.
        # shellcheck disable=SC2086 # STEP_OPTIONS and WORKLOAD are word lists
        "$GFXSTAT" bisect step --good "$GOOD_RESULTS" --bad "$BAD_RESULTS" -o "$STEPS" $STEP_OPTIONS \
            ${WORKLOAD:+-- $WORKLOAD}
        rc=$?
        case $rc in
            0) tell_git good ;;
            1) tell_git bad ;;
            125) tell_git skip ;;
            *) finish "gfxstat bisect step exited $rc: the bisection stops" 1 ;;
        esac
    elif [ "$booting" = "$head" ]; then
        say "the running kernel is not $head (it is '${running:-unknown}'): it did not boot; skipping it"
        tell_git skip
    fi
    # Build, install and boot the commit git has checked out now. Written
    # first, so that a kernel that does not come up is known next boot.
    next=$(git rev-parse HEAD)
    if sh -c "$BUILD" && sh -c "$INSTALL"; then
        printf '%s\n' "$next" > "$STEPS.booting"
        sh -c "$REBOOT"
        exit 0
    fi
    say "the build of $next failed: skipping it"
    tell_git skip
    # The next commit: round again (it is not running, and not booting).
done
