#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs per variant of `gfxstat ab`'s sequential design against the fixed-N
# designs with the same power and alpha, hyperfine's default (10 runs a
# side) and the Phoronix Test Suite's dynamic run count, on the calibration
# families, by seeded simulation (bench/ab_efficiency.cpp; bench/README.md
# has the latest numbers and what they mean).
#
#   goal: sequential mean runs <= 0.60 x the fixed design's N at the same
#         power (2% change, alpha 0.05), and its maximum <= N
#
# Usage: bench/ab_efficiency.sh [--strict] [--reps R] [-- EXTRA...]
#   --strict   exit 1 when a family with power to match misses the goal
#   --reps R   replicates per cell (default 2000; BENCH_REPS)
#   EXTRA      passed to gfxstat_ab_efficiency (--family, --max-runs, --delta)
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
cmake --build "$BUILD" -j "$JOBS" --target gfxstat_ab_efficiency >/dev/null
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
"./$BUILD/tests/calibration/gfxstat_ab_efficiency" --reps "$reps" --threads "$JOBS" "${extra[@]}" | tee "$out"
if grep -q '| missed |\|mean met, max not' "$out"; then
    echo "ab_efficiency: goal missed for some family (see the goal column)"
    [ "$strict" -eq 1 ] && exit 1
fi
exit 0
