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

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_simulation_args 2,17 "$@"
bench_simulation gfxstat_bisect_efficiency
bench_found '| wrong > budget |' \
    "bisect_efficiency: gfxstat's wrong-commit rate exceeds its budget in some cell (see the goal column)" && [ "$strict" -eq 1 ] && exit 1
bench_found '| runs > fixed 30 |' \
    "bisect_efficiency: gfxstat needs more runs than the fixed-30 design in some cell (see the goal column)" || true
exit 0
