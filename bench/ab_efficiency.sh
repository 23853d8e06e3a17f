#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs per variant of `gfxstat ab`'s stop rules (the confidence sequence,
# --stop sequential, and the group-sequential design, --stop group) against
# the fixed-N designs with the same power and alpha, hyperfine's default
# (10 runs a side) and the Phoronix Test Suite's dynamic run count, on the
# calibration families, by seeded simulation (bench/ab_efficiency.cpp;
# bench/README.md has the latest numbers and what they mean).
#
#   goal: mean runs <= 0.70 x the fixed Welch design's N at the same power
#         (2% change, alpha 0.05), on every matched family and max runs
#         (the largest ratio is judged), per rule
#
# Usage: bench/ab_efficiency.sh [--strict] [--reps R] [-- EXTRA...]
#   --strict   exit 1 when a family with power to match misses the goal
#   --reps R   replicates per cell (default 2000; BENCH_REPS)
#   EXTRA      passed to gfxstat_ab_efficiency (--family, --max-runs, --delta, --wide-weight,
#              --stop sequential|group|both)
# Environment: BUILD (default build), JOBS (default 2).
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_simulation_args 2,18 "$@"
bench_simulation gfxstat_ab_efficiency
status=0
# The largest Welch ratio (the 11th field) of the first table's matched
# rows whose family matches $1 and whose rule is $2; empty when none is
# matched.
worst_ratio() {
    awk -F'|' -v fam="$1" -v rule=" $2 " '/^\| .* \| (met|met, max not|missed) \|$/ && $11 ~ /[0-9]/ && $2 ~ fam && $3 == rule {
        r = $11 + 0; if (!n++ || r > w) w = r } END { if (n) printf "%.2f", w }' "$out"
}
for rule in sequential group; do
    headline="$(worst_ratio '^ normal $' "$rule")"
    worst="$(worst_ratio . "$rule")"
    [ -z "$headline" ] ||
        bench_goal "ab --stop $rule runs <= 0.70 x fixed Welch N at the same power, normal (2% change, 2% sd), ratio $headline" 0.70 "$headline"
    [ -z "$worst" ] ||
        bench_goal "ab --stop $rule runs <= 0.70 x fixed Welch N at the same power, worst matched cell $worst" 0.70 "$worst"
done
exit "$status"
