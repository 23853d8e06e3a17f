#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Whether a run of `gfxstat run` costs the same late in a long run loop:
# `gfxstat run --parser time --runs N -- true` and `--runs 10N`, the
# results file on tmpfs (no disk in the numbers), CPU time (user + sys of
# gfxstat and the runs of `true`, GNU time) per run of each and the ratio.
# Where perf is installed, gfxstat's own CPU (perf stat --no-inherit, the
# runs of `true` left out) per run too. The loop asks for the median's
# interval after every run: it once copied and sorted every run so far.
#
#   goal: CPU per run at 10N <= 1.2 x CPU per run at N
#
# Usage: bench/run_loop_scaling.sh [--strict] [--runs N]
#   --strict   exit 1 when the goal is missed (default: report only)
#   --runs N   timed runs of each size, least CPU kept (default 1)
# Environment: GFXSTAT (default build/gfxstat), GFXSTAT_BEFORE (another
# gfxstat measured the same way first, e.g. a build of main), BENCH_N
# (default 1000), BENCH_DIR (where the results files go, default
# /dev/shm/gfxstat-bench: tmpfs).
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
BENCH_DIR="${BENCH_DIR:-/dev/shm/gfxstat-bench}"
bench_start 2,21 1 BENCH_N=1000 "$@"

GOAL=1.2

have_perf=0
if command -v perf >/dev/null 2>&1 && perf stat -i -e task-clock -x, true >/dev/null 2>&1; then have_perf=1; fi

# cpu_per_run GFXSTAT RUNS: sets cpu_ms and own_ms (ms per run; own_ms "-"
# without perf), the least of $runs tries.
cpu_per_run() {
    local g="$1" n="$2" out="$BENCH_DIR/run-loop-scaling.json" i c o
    cpu_ms=""; own_ms="-"
    for ((i = 0; i < runs; i++)); do
        rm -rf "$out" "$out.logs"
        if [ "$have_perf" -eq 1 ]; then
            /usr/bin/time -f '%U %S' -o "$work/time" perf stat -i -e task-clock -x, -o "$work/perf" \
                "$g" run --parser time --no-check --runs "$n" -o "$out" -- true >/dev/null 2>"$work/err" ||
                { cat "$work/err" >&2; exit 1; }
            o=$(awk -F, -v n="$n" '$3 == "task-clock" { printf "%.4f", $1 / n }' "$work/perf")
        else
            /usr/bin/time -f '%U %S' -o "$work/time" \
                "$g" run --parser time --no-check --runs "$n" -o "$out" -- true >/dev/null 2>"$work/err" ||
                { cat "$work/err" >&2; exit 1; }
            o="-"
        fi
        c=$(awk -v n="$n" 'END { printf "%.4f", ($1 + $2) * 1000 / n }' "$work/time")
        if [ -z "$cpu_ms" ] || awk -v a="$c" -v b="$cpu_ms" 'BEGIN { exit !(a < b) }'; then cpu_ms=$c; own_ms=$o; fi
    done
    rm -rf "$out" "$out.logs"
}

big=$((BENCH_N * 10))
status=0
printf '%-8s %28s %7s   %28s %7s\n' "" "CPU ms/run at $BENCH_N, $big" ratio "own CPU ms/run at $BENCH_N, $big" ratio
measure() {
    local name="$1" g="$2" c1 o1 c2 o2 r ro
    cpu_per_run "$g" "$BENCH_N"; c1=$cpu_ms; o1=$own_ms
    cpu_per_run "$g" "$big"; c2=$cpu_ms; o2=$own_ms
    r=$(awk -v a="$c1" -v b="$c2" 'BEGIN { printf "%.2f", b / a }')
    ro=$(awk -v a="$o1" -v b="$o2" 'BEGIN { if (a == "-" || b == "-") print "-"; else printf "%.2f", b / a }')
    printf '%-8s %19s %8s %7s   %19s %8s %7s\n' "$name" "$c1" "$c2" "$r" "$o1" "$o2" "$ro"
    last_ratio=$r
}
if [ -n "${GFXSTAT_BEFORE:-}" ]; then
    [ -x "$GFXSTAT_BEFORE" ] || { echo "$0: GFXSTAT_BEFORE is not an executable: $GFXSTAT_BEFORE" >&2; exit 2; }
    measure before "$GFXSTAT_BEFORE"
fi
measure gfxstat "$GFXSTAT"
bench_goal "CPU per run at $big <= $GOAL x at $BENCH_N" "$GOAL" "$last_ratio"
exit $status
