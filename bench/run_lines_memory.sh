#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Peak memory and wall time of `gfxstat run --parser lines --runs 1` on a
# program printing S and 10 S bytes of numbers, in two shapes: `%d.%03d` a
# line (8 bytes) and one digit a line (2 bytes, the costliest per byte),
# and how they grow. docs/run.md ("Memory") states the bound: the output
# once (mapped, not copied), 8 bytes per value (packed exact decimals),
# the record's JSON text: about 2.1 times the output at 8 bytes a line,
# about 5.1 times at 2.
#
#   goals: peak RSS at 10 S <= 8 x the output, each shape;
#          cost at 10 S / cost at S <= 20
#
# Usage: bench/run_lines_memory.sh [--strict] [--runs N]
#   --strict   exit 1 when a goal is missed (default: report only)
#   --runs N   timed runs per size after one warm-up; best wall kept (default 3)
# Environment: GFXSTAT (default build/gfxstat), BENCH_DIR (default
# /tmp/gfxstat-bench), BENCH_MB (the small output in MiB, default 10).
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_start 2,18 3 BENCH_MB=10 "$@"

GOAL_RSS=8
GOAL_GROWTH=20

big=$((BENCH_MB * 10))
status=0
printf '%-8s %-10s %10s %10s %12s\n' shape output "wall s" "RSS MiB" "RSS/output"
for shape in decimal digit; do
    declare -A wall=() rss=() kib=()
    for mb in "$BENCH_MB" "$big"; do
        data="$BENCH_DIR/lines-$shape-${mb}mb.txt"
        if [ ! -f "$data" ]; then
            python3 - "$data" "$mb" "$shape" <<'PY'
import sys
path, mb, shape = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if shape == "decimal":
    block = b"".join(b"%d.%03d\n" % (100 + i % 900, i % 1000) for i in range(1000))
else:
    block = b"".join(b"%d\n" % (i % 10) for i in range(1000))
with open(path, "wb") as f:
    for _ in range(mb * 1024 * 1024 // len(block)):
        f.write(block)
PY
        fi
        kib[$mb]=$(( $(stat -c %s "$data") / 1024 ))
        # A fresh results file each time: bench_best runs the command runs+1 times.
        bench_best "$work" run sh -c 'rm -rf "$1" "$1.logs"; exec "$2" run --parser lines --runs 1 -o "$1" -- cat "$3"' \
            sh "$work/r.json" "$GFXSTAT" "$data"
        wall[$mb]=$best_wall; rss[$mb]=$peak_rss
        printf '%-8s %-10s %10s %10.1f %11.1fx\n' "$shape" "$mb MiB" "${wall[$mb]}" "$(bench_mib "${rss[$mb]}")" \
            "$(awk "BEGIN{print ${rss[$mb]}/${kib[$mb]}}")"
    done
    per=$(awk "BEGIN{printf \"%.1f\", ${rss[$big]}/${kib[$big]}}")
    tr=$(bench_growth "${wall[$BENCH_MB]}" "${wall[$big]}")
    rr=$(bench_growth "${rss[$BENCH_MB]}" "${rss[$big]}")
    echo "$shape: growth for 10x the output: wall ${tr}x, peak RSS ${rr}x"
    bench_goal "$shape: peak RSS <= $GOAL_RSS x the output at $big MiB" "$GOAL_RSS" "$per"
    bench_goal "$shape: growth <= ${GOAL_GROWTH}x" "$GOAL_GROWTH" "$tr" "$rr"
done
exit $status
