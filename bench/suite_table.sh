#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Cost of `gfxstat compare`'s suite table (one row per benchmark, the
# default for a suite) beside `gfxstat compare --full` (a full report per
# benchmark) on the same input: the 9 GfxBench tests of
# tests/data/results/gfxbench9.json, and a generated suite of N benchmarks,
# 2 variants x 3 runs (and of N/10, to see how the cost grows). The table
# shows the same comparisons, and the same verdicts, as the full reports:
# it should cost no more than they do. Go benchstat, whose table this one
# follows, is not measured: there is no Go toolchain on these machines.
# The CPU time (user + sys) of the table at N: each benchmark's comparison
# once started two threads and drew 9,999 bootstrap resamples of 3 values
# (1,000 benchmarks: 1.9 s CPU).
#
#   goal: table wall / --full wall <= 1.1, on each input
#   goal: table wall at N / table wall at N/10 <= 15 (linear, with room)
#   goal: table CPU at N (1,000 benchmarks) <= 0.5 s
#
# Usage: bench/suite_table.sh [--strict] [--runs N]
#   --strict   exit 1 when a goal is missed (default: report only)
#   --runs N   timed runs per command after one warm-up; best wall kept (default 3)
# Environment: GFXSTAT (default build/gfxstat), BENCH_DIR (default
# /tmp/gfxstat-bench), BENCH_N (benchmarks of the generated suite, default 1000).
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_start 2,22 3 BENCH_N=1000 "$@"

GOAL_RATIO=1.1
GOAL_GROWTH=15
GOAL_CPU=0.5

[ "$BENCH_N" -ge 10 ] || { echo "$0: BENCH_N must be at least 10" >&2; exit 2; }
gfxbench9="$(dirname "$here")/tests/data/results/gfxbench9.json"
[ -f "$gfxbench9" ] || { echo "$0: $gfxbench9 not found" >&2; exit 2; }

# suite N: a results file of N benchmarks (fps, higher is better), runs
# 0..2 of before and after, generated once into BENCH_DIR.
suite() {
    local n="$1" path="$BENCH_DIR/suite-$1.json"
    if [ ! -f "$path" ]; then
        python3 - "$path" "$n" <<'PY'
import json, random, sys
path, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(20261203)
with open(path + ".tmp", "w") as f:
    f.write(json.dumps({"format": "gfxstat-results", "version": 1, "id": "0" * 31 + "7",
                        "created": "2026-12-03T00:00:00Z", "generator": "bench/suite_table.sh"}) + "\n")
    for i in range(n):
        f.write(json.dumps({"type": "metric", "name": f"bench_{i}", "unit": "fps", "direction": "higher"}) + "\n")
    for r in range(3):
        for v, shift in (("before", 1.0), ("after", 1.003)):
            values = {f"bench_{i}": round((100 + i % 400) * shift * rng.gauss(1, 0.01), 3) for i in range(n)}
            f.write(json.dumps({"type": "run", "variant": v, "run": r, "exit": {"class": "ok"},
                                "metrics": values}) + "\n")
PY
        mv "$path.tmp" "$path"
    fi
    echo "$path"
}

small=$((BENCH_N / 10))
declare -A wall rss cpu
inputs=(gfxbench9 "suite-$small" "suite-$BENCH_N")
declare -A file=([gfxbench9]="$gfxbench9" ["suite-$small"]="$(suite "$small")"
                 ["suite-$BENCH_N"]="$(suite "$BENCH_N")")
# The 9 tests take some 50 ms, within the noise of a shared machine: each
# timing there is of a batch of runs, and the wall time shown is a run's.
declare -A repeat=([gfxbench9]=20 ["suite-$small"]=1 ["suite-$BENCH_N"]=1)
# shellcheck disable=SC2016  # expanded by the sh that runs the batch
batch='for i in $(seq "$0"); do "$@" >/dev/null || exit 1; done'
for input in "${inputs[@]}"; do
    for form in table full; do
        option=(); [ "$form" = full ] && option=(--full)
        bench_best "$work" "$form" sh -c "$batch" "${repeat[$input]}" "$GFXSTAT" compare "${option[@]}" "${file[$input]}"
        wall[$form,$input]=$(awk -v w="$best_wall" -v n="${repeat[$input]}" 'BEGIN { printf "%.4f", w / n }')
        rss[$form,$input]=$peak_rss
        cpu[$form,$input]=$(awk -v c="$best_cpu" -v n="${repeat[$input]}" 'BEGIN { printf "%.3f", c / n }')
    done
done

printf '%-16s %10s %9s %9s %10s %9s %8s\n' input "table s" "CPU s" "RSS MiB" "--full s" "RSS MiB" "ratio"
for input in "${inputs[@]}"; do
    ratio=$(bench_growth "${wall[full,$input]}" "${wall[table,$input]}" 2)
    bench_judge "$GOAL_RATIO" "$ratio"
    printf '%-16s %10s %9s %9.1f %10s %9.1f %8s  goal <= %s: %s\n' "$input" "${wall[table,$input]}" \
        "${cpu[table,$input]}" "$(bench_mib "${rss[table,$input]}")" "${wall[full,$input]}" "$(bench_mib "${rss[full,$input]}")" "${ratio}x" \
        "$GOAL_RATIO" "$judged"
done
growth=$(bench_growth "${wall[table,suite-$small]}" "${wall[table,suite-$BENCH_N]}")
bench_judge "$GOAL_GROWTH" "$growth"
printf 'suite table, %s benchmarks / %s: %sx the wall time  goal <= %s: %s\n' "$BENCH_N" "$small" "$growth" \
    "$GOAL_GROWTH" "$judged"
bench_goal "table CPU at $BENCH_N benchmarks <= $GOAL_CPU s" "$GOAL_CPU" "${cpu[table,suite-$BENCH_N]}"
exit $status
