#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Cost of `gfxstat show` (text and --json) on a results file imported from
# a CSV of one row and N metric columns, at N and 10 N, and how it grows.
# `show` diagnoses every metric; it once did so with a pass over the runs
# and a 256 KiB buffer per metric, quadratic in N (8,000 columns: 45 s,
# 1.7 GB).
#
#   goal: cost at 10 N / cost at N <= 20, for wall time and peak RSS
#
# Usage: bench/show_wide.sh [--strict] [--runs N]
#   --strict   exit 1 when the goal is missed (default: report only)
#   --runs N   timed runs per size after one warm-up; best wall kept (default 3)
# Environment: GFXSTAT (default build/gfxstat), BENCH_DIR (default
# /tmp/gfxstat-bench), BENCH_N (columns of the small table, default 2000).
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_start 2,16 3 BENCH_N=2000 "$@"

GOAL=20


declare -A wall rss
for n in "$BENCH_N" $((BENCH_N * 10)); do
    csv="$BENCH_DIR/wide-$n.csv"
    if [ ! -f "$csv" ]; then
        python3 - "$csv" "$n" <<'PY'
import sys
path, n = sys.argv[1], int(sys.argv[2])
with open(path, "w") as f:
    f.write(",".join(f"m{i}" for i in range(n)) + "\n")
    f.write(",".join(f"{i % 97}.5" for i in range(n)) + "\n")
PY
    fi
    rm -f "$work/wide-$n.json"
    "$GFXSTAT" import --from csv "$csv" -o "$work/wide-$n.json" 2>/dev/null
    bench_best "$work" show "$GFXSTAT" show "$work/wide-$n.json"
    wall[text,$n]=$best_wall; rss[text,$n]=$peak_rss
    bench_best "$work" json "$GFXSTAT" show --json "$work/wide-$n.json"
    wall[json,$n]=$best_wall; rss[json,$n]=$peak_rss
done

big=$((BENCH_N * 10))
status=0
printf '%-12s %8s %10s %10s %10s %10s %8s %8s  %s\n' command columns "wall s" "RSS MiB" columns "wall s" \
    "RSS MiB" "wall x" "RSS x"
for form in text json; do
    cmd="show"; [ "$form" = json ] && cmd="show --json"
    tr=$(bench_growth "${wall[$form,$BENCH_N]}" "${wall[$form,$big]}")
    rr=$(bench_growth "${rss[$form,$BENCH_N]}" "${rss[$form,$big]}")
    bench_judge "$GOAL" "$tr" "$rr"
    printf '%-12s %8s %10s %10.1f %10s %10s %8.1f %8s %8s  goal <= %s: %s\n' "$cmd" "$BENCH_N" \
        "${wall[$form,$BENCH_N]}" "$(bench_mib "${rss[$form,$BENCH_N]}")" "$big" "${wall[$form,$big]}" \
        "$(bench_mib "${rss[$form,$big]}")" "${tr}x" "${rr}x" "$GOAL" "$judged"
done
exit $status
