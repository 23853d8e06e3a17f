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

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
bench_parse_args 2,19 3 "$@"

root="$(dirname "$here")"
GFXSTAT="${GFXSTAT:-$root/build/gfxstat}"
HYPERFINE="${HYPERFINE:-/usr/bin/hyperfine}"
BENCH_N="${BENCH_N:-300}"
BENCH_DIR="${BENCH_DIR:-/tmp/gfxstat-bench}"
case "$BENCH_N" in ''|*[!0-9]*|0) echo "$0: BENCH_N must be a positive integer" >&2; exit 2 ;; esac
[ -x "$GFXSTAT" ] || { echo "$0: gfxstat not found at $GFXSTAT" >&2; exit 2; }
[ -x "$HYPERFINE" ] || { echo "$0: hyperfine not found at $HYPERFINE (apt-get install hyperfine)" >&2; exit 2; }
mkdir -p "$BENCH_DIR"

now() { date +%s.%N; }

best_g="" best_h=""
for _ in $(seq "$runs"); do
    out="$BENCH_DIR/run-overhead.json"
    rm -rf "$out" "$out.logs"
    t0=$(now)
    "$GFXSTAT" run --parser time --runs "$BENCH_N" -o "$out" -- true 2>/dev/null
    t1=$(now)
    g=$(awk "BEGIN{print ($t1 - $t0) / $BENCH_N * 1000}")
    t0=$(now)
    "$HYPERFINE" --runs "$BENCH_N" -N --style none true >/dev/null 2>&1
    t1=$(now)
    h=$(awk "BEGIN{print ($t1 - $t0) / $BENCH_N * 1000}")
    if [ -z "$best_g" ] || awk "BEGIN{exit !($g < $best_g)}"; then best_g=$g; fi
    if [ -z "$best_h" ] || awk "BEGIN{exit !($h < $best_h)}"; then best_h=$h; fi
done
rm -rf "$BENCH_DIR/run-overhead.json" "$BENCH_DIR/run-overhead.json.logs"

printf '%-44s %12s\n' "command ($BENCH_N runs of true)" "ms per run"
printf '%-44s %12.3f\n' "gfxstat run --parser time -- true" "$best_g"
printf '%-44s %12.3f\n' "hyperfine -N --runs N true" "$best_h"
ratio=$(awk "BEGIN{print $best_g / $best_h}")
printf 'ratio gfxstat/hyperfine: %.2f\n' "$ratio"
if awk "BEGIN{exit !($ratio <= 1)}"; then
    echo "goal (gfxstat <= hyperfine per run): met"
else
    echo "goal (gfxstat <= hyperfine per run): MISSED"
    [ "$strict" -eq 1 ] && exit 1
fi
exit 0
