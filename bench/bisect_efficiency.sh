#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Whole bisections, simulated: `gfxstat bisect step`'s rule (runs until the
# commit is clearly like good or like bad, within an error budget for the
# whole bisection) against a fixed 10 runs a step called by the nearer
# reference ("by hand"), the same call after N runs planned as a t test at
# gfxstat's per-step alpha, and after a fixed 30 (bench/bisect_efficiency.cpp;
# bench/README.md has the latest numbers and what they mean).
#
#   goal: gfxstat's bisections end at the wrong commit in at most 5% (the
#         stated budget, confidence 0.95) in every cell, and take no more
#         runs on average than the fixed-30 design's
#
# Usage: bench/bisect_efficiency.sh [--strict] [--reps R] [-- EXTRA...]
#   --strict   exit 1 when gfxstat's wrong-commit rate exceeds its budget in a cell
#   --reps R   bisections per cell (default 2000; BENCH_REPS)
#   EXTRA      passed to gfxstat_bisect_efficiency (--noise, --step, --ref-runs, --commits, --seed)
# Environment: BUILD (default build), JOBS (default 2).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
BUILD="${BUILD:-build}"
JOBS="${JOBS:-2}"
reps="${BENCH_REPS:-2000}"
strict=0
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        --strict) strict=1 ;;
        --reps) [ $# -ge 2 ] || { echo "$0: --reps needs a number" >&2; exit 2; }; reps="$2"; shift ;;
        --) shift; extra=("$@"); break ;;
        -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "$0: unknown argument: $1 (try --help)" >&2; exit 2 ;;
    esac
    shift
done
case "$reps" in ''|*[!0-9]*) echo "$0: --reps needs a positive integer" >&2; exit 2 ;; esac

cd "$root"
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$BUILD" -j "$JOBS" --target gfxstat_bisect_efficiency >/dev/null
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
"./$BUILD/tests/calibration/gfxstat_bisect_efficiency" --reps "$reps" --threads "$JOBS" "${extra[@]}" | tee "$out"
if grep -q '| wrong > budget |' "$out"; then
    echo "bisect_efficiency: gfxstat's wrong-commit rate exceeds its budget in some cell (see the goal column)"
    [ "$strict" -eq 1 ] && exit 1
fi
if grep -q '| runs > fixed 30 |' "$out"; then
    echo "bisect_efficiency: gfxstat needs more runs than the fixed-30 design in some cell (see the goal column)"
fi
exit 0
