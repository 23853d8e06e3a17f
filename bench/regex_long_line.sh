#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Cost of `gfxstat run --metric 'fps=fps=(.*) fps'` on a program printing
# one line of L and of 10 L bytes that backtracking cannot match quickly
# ("fps=fps=fps=...", no " fps" after), then the value's line, beside GNU
# grep -E on the same file, and how both grow. std::regex backtracked,
# quadratic in the line: 16 KiB took 0.9 s, 64 KiB 18 s, and
# longer lines were refused; RE2 is linear.
#
#   goal: gfxstat wall at 10 L / wall at L <= 20
#
# Usage: bench/regex_long_line.sh [--strict] [--runs N]
#   --strict   exit 1 when the goal is missed (default: report only)
#   --runs N   timed runs per size after one warm-up; best wall kept (default 3)
# Environment: GFXSTAT (default build/gfxstat), BENCH_DIR (default
# /tmp/gfxstat-bench), BENCH_KIB (the short line in KiB, default 64).
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_start 2,18 3 BENCH_KIB=64 "$@"

GOAL=20


declare -A gwall grss ewall
for kib in "$BENCH_KIB" $((BENCH_KIB * 10)); do
    data="$BENCH_DIR/long-line-${kib}kib.txt"
    if [ ! -f "$data" ]; then
        python3 -c "import sys; open(sys.argv[1], 'w').write('fps=' * (int(sys.argv[2]) * 256) + '\nfps=59.9 fps\n')" \
            "$data" "$kib"
    fi
    bench_best "$work" run sh -c 'rm -rf "$1" "$1.logs"; exec "$2" run --metric "fps=fps=(.*) fps" --runs 1 -o "$1" -- cat "$3"' \
        sh "$work/r.json" "$GFXSTAT" "$data"
    grep -q '"fps":59.9' "$work/r.json" || { echo "$0: gfxstat did not find the value in $data" >&2; exit 1; }
    gwall[$kib]=$best_wall; grss[$kib]=$peak_rss
    bench_best "$work" grep grep -cE 'fps=(.*) fps' "$data"
    ewall[$kib]=$best_wall
done

big=$((BENCH_KIB * 10))
printf '%-10s %16s %16s %16s\n' line "gfxstat wall s" "gfxstat RSS MiB" "grep -E wall s"
for kib in "$BENCH_KIB" "$big"; do
    printf '%-10s %16s %16.1f %16s\n' "$kib KiB" "${gwall[$kib]}" "$(bench_mib "${grss[$kib]}")" "${ewall[$kib]}"
done
tr=$(bench_growth "${gwall[$BENCH_KIB]}" "${gwall[$big]}")
er=$(bench_growth "${ewall[$BENCH_KIB]}" "${ewall[$big]}")
echo "growth for 10x the line: gfxstat ${tr}x, grep -E ${er}x"
bench_goal "growth <= ${GOAL}x" "$GOAL" "$tr"
exit $status
