#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Cost of `gfxstat compare` (text, every statistic) of two results files
# of one variant each, BENCH_N (200) and 10x (2,000) metrics of 10 runs a
# side: each metric is one comparison, with its bootstrap of the medians,
# power and detectable change, diagnostics and verdict. It once cost some
# 3 ms of CPU a metric (2,000 metrics: 6 s CPU, 12-17 s wall on a busy
# machine), three quarters of it drawing and sorting 9,999 bootstrap
# resamples of 10 values.
#
#   goal: CPU (user + sys) at 10 N <= 3 s, and wall at 10 N / wall at N
#         <= 15 (linear); CPU, not wall, since these machines are shared
#
# Usage: bench/compare_metrics_scaling.sh [--strict] [--runs N]
#   --strict   exit 1 when a goal is missed (default: report only)
#   --runs N   timed runs per size after one warm-up; best kept (default 3)
# Environment: GFXSTAT (default build/gfxstat), BENCH_DIR (default
# /tmp/gfxstat-bench), BENCH_N (metrics of the small pair, default 200).
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_start 2,18 3 BENCH_N=200 "$@"

GOAL_S=3
GOAL_GROWTH=15

# pair N: two results files of N metrics (ms, lower is better), 10 runs
# each, the second about 1% slower; generated once into BENCH_DIR.
pair() {
    local n="$1" base="$BENCH_DIR/metrics-$1-before.json" cand="$BENCH_DIR/metrics-$1-after.json"
    if [ ! -f "$cand" ]; then
        python3 - "$base" "$cand" "$n" <<'PY'
import json, random, sys
base, cand, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
for path, variant, shift, seed in ((base, "before", 1.0, 1), (cand, "after", 1.01, 2)):
    rng = random.Random(seed)
    with open(path + ".tmp", "w") as f:
        f.write(json.dumps({"format": "gfxstat-results", "version": 1, "id": "0" * 31 + str(seed),
                            "created": "2026-12-06T00:00:00Z",
                            "generator": "bench/compare_metrics_scaling.sh"}) + "\n")
        for i in range(n):
            f.write(json.dumps({"type": "metric", "name": f"metric_{i}", "unit": "ms", "direction": "lower"}) + "\n")
        for r in range(10):
            values = {f"metric_{i}": round((10 + i % 97) * shift * rng.gauss(1, 0.02), 4) for i in range(n)}
            f.write(json.dumps({"type": "run", "variant": variant, "run": r, "exit": {"class": "ok"},
                                "metrics": values}) + "\n")
PY
        mv "$base.tmp" "$base"; mv "$cand.tmp" "$cand"
    fi
    echo "$base $cand"
}

big=$((BENCH_N * 10))
declare -A wall cpu rss
for n in "$BENCH_N" "$big"; do
    read -r base cand <<<"$(pair "$n")"
    bench_best "$work" "metrics-$n" "$GFXSTAT" compare "$base" "$cand"
    wall[$n]=$best_wall; cpu[$n]=$best_cpu; rss[$n]=$peak_rss
done

printf '%8s %9s %9s %9s\n' metrics "wall s" "CPU s" "RSS MiB"
for n in "$BENCH_N" "$big"; do
    printf '%8s %9s %9s %9.1f\n' "$n" "${wall[$n]}" "${cpu[$n]}" "$(bench_mib "${rss[$n]}")"
done
growth=$(bench_growth "${wall[$BENCH_N]}" "${wall[$big]}")
echo "wall at $big / at $BENCH_N: ${growth}x"
bench_goal "CPU at $big metrics <= $GOAL_S s" "$GOAL_S" "${cpu[$big]}"
bench_goal "growth <= $GOAL_GROWTH" "$GOAL_GROWTH" "$growth"
exit $status
