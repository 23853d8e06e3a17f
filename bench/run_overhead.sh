#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Per-run overhead of `gfxstat run` beside hyperfine: both run `true` N
# times without a shell. gfxstat also probes the environment, keeps each
# run's stdout and stderr, and appends each run to the results file with
# fdatasync before the next starts (that is what makes a kill -9 lose
# nothing); hyperfine keeps its samples in memory.
#
#   goal: gfxstat run per-run wall <= hyperfine per-run wall
#
# Usage: bench/run_overhead.sh [--strict] [--runs N]
#   --strict   exit 1 when the goal is missed (default: report only)
#   --runs N   timed repetitions of each tool, best kept (default 3)
# Environment: GFXSTAT (default build/gfxstat), HYPERFINE (default
# /usr/bin/hyperfine), BENCH_N (runs of `true` per repetition, default 300),
# BENCH_DIR (where the results files go, default /tmp/gfxstat-bench).
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_parse_args 2,19 3 "$@"

BENCH_N="${BENCH_N:-300}"
bench_env "$here" BENCH_N
bench_tool HYPERFINE /usr/bin/hyperfine hyperfine

best_g="" best_h=""
for _ in $(seq "$runs"); do
    out="$BENCH_DIR/run-overhead.json"
    rm -rf "$out" "$out.logs"
    bench_ms_per_step best_g "$BENCH_N" "$GFXSTAT" run --parser time --runs "$BENCH_N" -o "$out" -- true
    bench_ms_per_step best_h "$BENCH_N" "$HYPERFINE" --runs "$BENCH_N" -N --style none true
done
rm -rf "$BENCH_DIR/run-overhead.json" "$BENCH_DIR/run-overhead.json.logs"

printf '%-44s %12s\n' "command ($BENCH_N runs of true)" "ms per run"
printf '%-44s %12.3f\n' "gfxstat run --parser time -- true" "$best_g"
printf '%-44s %12.3f\n' "hyperfine -N --runs N true" "$best_h"
ratio=$(awk "BEGIN{print $best_g / $best_h}")
printf 'ratio gfxstat/hyperfine: %.2f\n' "$ratio"
bench_goal "gfxstat <= hyperfine per run" 1 "$ratio"
exit $status
