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

GOAL=20
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
bench_parse_args 2,16 3 "$@"

BENCH_N="${BENCH_N:-2000}"
bench_setup "$here" BENCH_N

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
    tr=$(awk -v a="${wall[$form,$BENCH_N]}" -v b="${wall[$form,$big]}" 'BEGIN{printf "%.1f", (a > 0 ? b / a : 0)}')
    rr=$(awk -v a="${rss[$form,$BENCH_N]}" -v b="${rss[$form,$big]}" 'BEGIN{printf "%.1f", b / a}')
    verdict=met
    if ! awk -v t="$tr" -v r="$rr" -v g="$GOAL" 'BEGIN{exit !(t <= g && r <= g)}'; then
        verdict=MISSED
        [ "$strict" -eq 1 ] && status=1
    fi
    printf '%-12s %8s %10s %10.1f %10s %10s %8.1f %8s %8s  goal <= %s: %s\n' "$cmd" "$BENCH_N" \
        "${wall[$form,$BENCH_N]}" "$(awk "BEGIN{print ${rss[$form,$BENCH_N]}/1024}")" "$big" "${wall[$form,$big]}" \
        "$(awk "BEGIN{print ${rss[$form,$big]}/1024}")" "${tr}x" "${rr}x" "$GOAL" "$verdict"
done
exit $status
