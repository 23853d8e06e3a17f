#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The GPU time sampler's cost per tick on a machine with many processes
# (bench/gpu_usage_sampler_cost.cpp; bench/README.md has the numbers).
#
#   goal: far under 1% of one core at 10 Hz with 1000 other processes
#
# Usage: bench/gpu_usage_sampler.sh [--strict] [IDLE [SECONDS]]
#   --strict  exit 1 when the sampler takes 0.5% of a core or more
#   IDLE      idle processes to start besides the workload (default 1000)
#   SECONDS   how long the sampled workload runs (default 3)
# Environment: BUILD (default build), JOBS (default 2).
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
strict=0
args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --strict) strict=1 ;;
        -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "$0: unknown argument: $1 (try --help)" >&2; exit 2 ;;
        *) args+=("$1") ;;
    esac
    shift
done

bench_build_target "$here" gfxstat_gpu_usage_bench
out="$("$BUILD/tests/gfxstat_gpu_usage_bench" "${args[@]}")"
echo "$out"
share="$(echo "$out" | sed -n 's/.* \([0-9.]*\)% of a core at 10 Hz$/\1/p' | head -1)"
if [ "$strict" = 1 ] && awk -v s="$share" 'BEGIN { exit !(s >= 0.5) }'; then
    echo "$0: the sampler took $share% of a core (goal: under 0.5%)" >&2
    exit 1
fi
