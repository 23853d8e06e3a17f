#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Peak memory of the commands that keep every run of a results file in
# memory (`gfxstat show` and `gfxstat compare`: whole-file readers, unlike
# summary's streaming one) on files of N/10 and N runs of one value each,
# two variants alternating, every run a full record of ~95 bytes as
# `gfxstat run` of a one-number workload writes it; bytes per run, and how
# it grows. What a run costs is its RunRecord (its one metric and value
# inline), its identity and its line number; both commands read the text
# a block at a time.
#
#   goals: peak RSS at N = 1,000,000 <= 280 bytes a run (a third of the
#   ~850 it was); RSS growth for 10x the runs <= 10x
#
# Usage: bench/whole_file_memory.sh [--strict] [--runs N]
#   --strict   exit 1 when a goal is missed (default: report only)
#   --runs N   timed runs per size after one warm-up; highest RSS kept (default 1)
# Environment: BENCH_N, the large run count (default 1000000, a multiple
# of 10; the goal in bytes a run is judged at 1000000 only); GFXSTAT
# (default build/gfxstat); BENCH_DIR (default /tmp/gfxstat-bench).
GOAL_BYTES_PER_RUN=280
GOAL_GROWTH=10
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_start 2,19 1 BENCH_N=1000000 "$@"
[ $((BENCH_N % 10)) -eq 0 ] || { echo "$0: BENCH_N must be a multiple of 10" >&2; exit 2; }
small=$((BENCH_N / 10))

declare -A rss bytes
for n in "$small" "$BENCH_N"; do
    data="$BENCH_DIR/two-variant-runs-$n"
    bench_generate "$data" "v1 seed=20261206 n=$n variants=a,b normal(23,2) %.3f" runs.json \
        python3 "$here/one_value_runs.py" "$n" a b
    bytes[$n]=$(stat -c %s "$data/runs.json")
    for cmd in show compare; do
        bench_best "$work" "$cmd" "$GFXSTAT" "$cmd" "$data/runs.json"
        rss[$cmd,$n]=$peak_rss
    done
done

# Bytes a run of a peak RSS in KiB.
per_run() { awk -v k="$1" -v n="$2" 'BEGIN { printf "%.0f", k * 1024 / n }'; }

for cmd in show compare; do
    echo "gfxstat $cmd: runs, file MiB, peak RSS MiB, bytes a run"
    for n in "$small" "$BENCH_N"; do
        printf '  %-10s %8.1f %8.1f %8s\n' "$n" "$(bench_mib $((bytes[$n] / 1024)))" \
            "$(bench_mib "${rss[$cmd,$n]}")" "$(per_run "${rss[$cmd,$n]}" "$n")"
    done
    rr=$(bench_growth "${rss[$cmd,$small]}" "${rss[$cmd,$BENCH_N]}")
    echo "  growth for 10x the runs: peak RSS ${rr}x"
    if [ "$BENCH_N" -eq 1000000 ]; then
        bench_goal "$cmd: peak RSS <= $GOAL_BYTES_PER_RUN bytes a run at 1,000,000 runs" \
            "$GOAL_BYTES_PER_RUN" "$(per_run "${rss[$cmd,$BENCH_N]}" "$BENCH_N")"
    fi
    bench_goal "$cmd: RSS growth <= ${GOAL_GROWTH}x" "$GOAL_GROWTH" "$rr"
done
exit $status
