#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Times what a small `gfxstat ministat a b` costs against Debian's
# /usr/bin/ministat: two files of 100 values each, where start-up (loading
# the program and its libraries, binding symbols, static initialisers)
# is most of the work. CPU time (user + system) per invocation, from the
# shell's `times` around blocks of invocations (GNU time's 10 ms steps are
# far too coarse for one), the two tools' blocks interleaved so that they
# share the machine's state; the best block of each is kept.
#
#   CPU ratio = gfxstat CPU / ministat CPU per invocation   <= 1.5
#
# Usage: bench/ministat_startup.sh [--strict] [--runs N]
#   --strict   exit 1 when the goal is missed (default: report only)
#   --runs N   blocks per tool, interleaved (default 5)
# Environment:
#   GFXSTAT    gfxstat binary (default: build/gfxstat next to this script)
#   MINISTAT   reference ministat (default: /usr/bin/ministat)
#   BENCH_REPS invocations per block (default: 200)
#
# Exit status: 0 when both tools run (and, with --strict, the goal is
# met); 1 when a tool fails, or --strict and the goal is missed; 2 on a
# usage error or a missing tool.
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_start 2,23 5 BENCH_REPS=200 "$@"

RATIO_GOAL=1.5

bench_tool MINISTAT /usr/bin/ministat ministat
GFXSTAT="$(cd "$(dirname "$GFXSTAT")" && pwd)/$(basename "$GFXSTAT")"  # the blocks run in $work

# Two data sets of 100 values, made here (small, so never kept).
awk 'BEGIN { for (i = 0; i < 100; i++) printf "%.3f\n", 1000 + (i * 37 % 101) / 7 }' > "$work/a"
awk 'BEGIN { for (i = 0; i < 100; i++) printf "%.3f\n", 1002 + (i * 53 % 103) / 7 }' > "$work/b"
cd "$work"
# Both must succeed; their reports are not compared (at 198 degrees of
# freedom ministat's t is 1.960, gfxstat's the exact quantile, and an
# even-sized median differs: docs/ministat-compat.md); ministat_speed.sh
# compares the tables.
"$MINISTAT" a b > /dev/null || { echo "$0: $MINISTAT failed" >&2; exit 1; }
"$GFXSTAT" ministat a b > /dev/null || { echo "$0: $GFXSTAT ministat failed" >&2; exit 1; }

# children_cpu VAR: sets VAR to the user + system seconds of this shell's
# finished children so far (the second line of `times`, e.g.
# "0m1.234s 0m0.567s"; `times` in a subshell would see none of them).
children_cpu() {
    times > "$work/times"
    printf -v "$1" '%s' "$(awk 'NR == 2 {
        split($1, u, /[ms]/); split($2, s, /[ms]/)
        printf "%.6f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$work/times")"
}

# block VAR CMD...: runs CMD $BENCH_REPS times, output dropped; sets VAR to
# its CPU milliseconds per invocation when VAR is empty or that is less.
block() {
    local var="$1" before after ms i
    shift
    children_cpu before
    for ((i = 0; i < BENCH_REPS; i++)); do "$@" >/dev/null; done
    children_cpu after
    ms=$(awk -v a="$before" -v b="$after" -v n="$BENCH_REPS" 'BEGIN { printf "%.4f", (b - a) / n * 1000 }')
    if [ -z "${!var}" ] || awk -v a="$ms" -v b="${!var}" 'BEGIN { exit !(a < b) }'; then
        printf -v "$var" '%s' "$ms"
    fi
}

echo "timing: $runs interleaved blocks of $BENCH_REPS invocations per tool, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
m_ms="" g_ms=""
block m_ms "$MINISTAT" a b  # warm-up: the page cache, the dynamic loader's cache
for ((r = 0; r < runs; r++)); do
    block m_ms "$MINISTAT" a b
    block g_ms "$GFXSTAT" ministat a b
done

ratio=$(bench_growth "$m_ms" "$g_ms" 2)
printf '%-10s %18s\n' tool "CPU ms/invocation"
printf '%-10s %18s\n' ministat "$m_ms" gfxstat "$g_ms"
echo "CPU ratio  ${ratio}x"
bench_goal "gfxstat CPU <= $RATIO_GOAL x ministat's" "$RATIO_GOAL" "$ratio"
exit "$status"
