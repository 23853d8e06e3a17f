#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Peak memory of `gfxstat summary --no-diagnostics` on results files of N/10
# and N runs of one value each (every run a full record of ~90 bytes, as
# `gfxstat run` of a one-number workload writes it), in bytes per run, and
# how it grows. The file's text is held once while it is read (~90 bytes a
# run); what a run costs beyond it is its identity, not its record.
#
#   goals: peak RSS at N = 1,000,000 <= 250 MiB; RSS growth for 10x the runs <= 10x
#
# Usage: bench/summary_memory.sh [--strict] [--runs N]
#   --strict   exit 1 when a goal is missed (default: report only)
#   --runs N   timed runs per size after one warm-up; highest RSS kept (default 2)
# Environment: GFXSTAT (default build/gfxstat), BENCH_DIR (default
# /tmp/gfxstat-bench), BENCH_N (the large run count, default 1000000; a
# multiple of 10).
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_start 2,17 2 BENCH_N=1000000 "$@"

GOAL_MIB=250
GOAL_GROWTH=10

[ $((BENCH_N % 10)) -eq 0 ] || { echo "$0: BENCH_N must be a multiple of 10" >&2; exit 2; }
small=$((BENCH_N / 10))

declare -A wall rss bytes
for n in "$small" "$BENCH_N"; do
    data="$BENCH_DIR/scalar-runs-$n"
    stamp="v1 seed=20261206 n=$n normal(23,2) %.3f"
    bench_generate "$data" "$stamp" runs.json python3 "$here/one_value_runs.py" "$n"
    bytes[$n]=$(stat -c %s "$data/runs.json")
    bench_best "$work" summary "$GFXSTAT" summary --no-diagnostics "$data/runs.json"
    wall[$n]=$best_wall; rss[$n]=$peak_rss
done

printf '%-10s %10s %10s %10s %12s\n' runs "wall s" "file MiB" "RSS MiB" "RSS B/run"
for n in "$small" "$BENCH_N"; do
    printf '%-10s %10s %10.1f %10.1f %12.0f\n' "$n" "${wall[$n]}" "$(awk "BEGIN{print ${bytes[$n]}/1048576}")" \
        "$(bench_mib "${rss[$n]}")" "$(awk "BEGIN{print ${rss[$n]} * 1024 / $n}")"
done
rr=$(bench_growth "${rss[$small]}" "${rss[$BENCH_N]}")
echo "growth for 10x the runs: peak RSS ${rr}x"
big_mib=$(bench_mib "${rss[$BENCH_N]}")
if [ "$BENCH_N" -eq 1000000 ]; then
    bench_goal "peak RSS <= $GOAL_MIB MiB at 1,000,000 runs" "$GOAL_MIB" "$big_mib"
fi
bench_goal "RSS growth <= ${GOAL_GROWTH}x" "$GOAL_GROWTH" "$rr"
exit $status
