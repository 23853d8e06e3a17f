#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Cost of `gfxstat show` (text and --json), `summary` and `compare` (text)
# on a results file of N variants of 3 runs and 4 metrics each (a CSV of
# one row per run, imported), at N and 10 N, and how it grows. `show` once
# counted each variant's throttled runs with a pass over every run (20,000
# variants: 17 to 64 s), and compare's name cutter searched every name cut
# before for each number it tried (2,000 variants: 10 to 13 s).
#
#   goal: cost at 10 N / cost at N <= 15 (linear, with room for noise),
#         and `show` of 20,000 variants (text) within 1 s
#
# Usage: bench/show_variants_scaling.sh [--strict] [--runs N]
#   --strict   exit 1 when a goal is missed (default: report only)
#   --runs N   timed runs per size after one warm-up; best wall kept (default 3)
# Environment: GFXSTAT (default build/gfxstat), BENCH_DIR (default
# /tmp/gfxstat-bench), BENCH_N (variants of the small file, default 2000),
# BENCH_COMPARE_N (variants of compare's small file, default 200: compare
# tests every variant against the baseline, some milliseconds each).
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_start 2,19 3 BENCH_N=2000 "$@"

GOAL=15
SHOW_GOAL_S=1

BENCH_COMPARE_N="${BENCH_COMPARE_N:-200}"
case "$BENCH_COMPARE_N" in ''|*[!0-9]*|0) echo "$0: BENCH_COMPARE_N must be a positive integer" >&2; exit 2 ;; esac

# results_file N: the imported file of N variants (its CSV kept in BENCH_DIR).
results_file() {
    local n="$1" csv="$BENCH_DIR/variants-$1.csv"
    if [ ! -f "$csv" ]; then
        python3 - "$csv" "$n" <<'PY'
import random, sys
path, n = sys.argv[1], int(sys.argv[2])
rnd = random.Random(n)
with open(path, "w") as f:
    f.write("variant,run,fps,frame_time_ms,gpu_busy_pct,score\n")
    for v in range(n):
        for r in range(3):
            fps = 100 + v % 50 + rnd.random()
            f.write(f"mesa-main-{v:06d},{r + 1},{fps:.3f},{1000 / fps:.4f},"
                    f"{50 + rnd.random() * 40:.2f},{fps * 37.1:.1f}\n")
PY
    fi
    if [ ! -f "$work/variants-$n.json" ]; then
        "$GFXSTAT" import --from csv "$csv" -o "$work/variants-$n.json" 2>/dev/null
    fi
    echo "$work/variants-$n.json"
}

declare -A wall rss size
forms=(show json summary compare)
for form in "${forms[@]}"; do
    small=$BENCH_N
    [ "$form" = compare ] && small=$BENCH_COMPARE_N
    size[$form]=$small
    for n in "$small" $((small * 10)); do
        file="$(results_file "$n")"
        case "$form" in
            show) cmd=("$GFXSTAT" show "$file") ;;
            json) cmd=("$GFXSTAT" show --json "$file") ;;
            summary) cmd=("$GFXSTAT" summary "$file") ;;
            compare) cmd=("$GFXSTAT" compare --bootstrap 0 "$file") ;;
        esac
        bench_best "$work" "$form" "${cmd[@]}"
        wall[$form,$n]=$best_wall; rss[$form,$n]=$peak_rss
    done
done

status=0
printf '%-16s %8s %9s %9s %8s %9s %9s %8s %8s  %s\n' command variants "wall s" "RSS MiB" variants "wall s" \
    "RSS MiB" "wall x" "RSS x" goal
for form in "${forms[@]}"; do
    case "$form" in
        show) label="show" ;;
        json) label="show --json" ;;
        summary) label="summary" ;;
        compare) label="compare" ;;
    esac
    n=${size[$form]}; big=$((n * 10))
    tr=$(bench_growth "${wall[$form,$n]}" "${wall[$form,$big]}")
    rr=$(bench_growth "${rss[$form,$n]}" "${rss[$form,$big]}")
    goal="<= $GOAL"
    bench_judge "$GOAL" "$tr"
    verdict=$judged
    if [ "$form" = show ]; then
        goal="$goal, <= ${SHOW_GOAL_S} s at $big"
        bench_judge "$SHOW_GOAL_S" "${wall[$form,$big]}"
        [ "$judged" = met ] || verdict=MISSED
    fi
    printf '%-16s %8s %9s %9.1f %8s %9s %9.1f %8s %8s  %s: %s\n' "$label" "$n" "${wall[$form,$n]}" \
        "$(bench_mib "${rss[$form,$n]}")" "$big" "${wall[$form,$big]}" \
        "$(bench_mib "${rss[$form,$big]}")" "${tr}x" "${rr}x" "$goal" "$verdict"
done
exit $status
