#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Times `gfxstat ministat -A a b` against Debian's /usr/bin/ministat on two
# files of 5,000,000 values each, checks that both print byte-identical
# tables, and reports wall-clock and CPU time, peak RSS and whether the
# goals hold:
#
#   speed-up     = ministat wall / gfxstat wall   >= 20
#   memory ratio = gfxstat RSS  / ministat RSS    <= 0.7
#
# The CPU ratio (ministat user+sys / gfxstat user+sys, best of the runs)
# is printed beside the wall-clock one: gfxstat reads the files in
# parallel, so on a busy machine its wall-clock speed-up falls towards the
# CPU one.
#
# Usage: bench/ministat_speed.sh [--strict] [--runs N]
#   --strict   exit 1 when a goal is missed (default: report only)
#   --runs N   timed runs per tool after one warm-up run; best wall is kept
#              (default 3)
# Environment:
#   GFXSTAT    gfxstat binary (default: build/gfxstat next to this script)
#   MINISTAT   reference ministat (default: /usr/bin/ministat)
#   BENCH_DIR  where the data files are generated and kept for reuse
#              (default: /tmp/gfxstat-bench)
#   BENCH_N    values per file (default: 5000000)
#
# Exit status: 0 when the tables are identical (and, with --strict, every goal
# is met); 1 when the tables differ, a tool fails, or --strict and a goal is
# missed; 2 on a usage error or a missing tool.
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_start 2,28 3 BENCH_N=5000000 "$@"

SPEEDUP_GOAL=20
MEMORY_GOAL=0.7

bench_tool MINISTAT /usr/bin/ministat ministat
command -v python3 >/dev/null || { echo "$0: python3 is needed to generate the data" >&2; exit 2; }
GFXSTAT="$(cd "$(dirname "$GFXSTAT")" && pwd)/$(basename "$GFXSTAT")"

# --- data: generated once, reused while the marker matches ----------------
data="$BENCH_DIR/n$BENCH_N"
marker="$data/.complete"
stamp="v1 seed=20261130 n=$BENCH_N a=normal(1000,50) b=normal(1001,50) fmt=%.3f"
if bench_data_stale "$data" "$stamp" || [ ! -f "$data/a" ] || [ ! -f "$data/b" ]; then
    echo "generating 2 x $BENCH_N values in $data ..." >&2
    mkdir -p "$data"
    rm -f "$marker"
    python3 - "$data" "$BENCH_N" <<'EOF'
import os, random, sys
out, n = sys.argv[1], int(sys.argv[2])
for name, mean, seed in (("a", 1000.0, 20261130), ("b", 1001.0, 20261131)):
    rng = random.Random(seed)
    gauss = rng.gauss
    tmp = os.path.join(out, name + ".tmp")
    with open(tmp, "w") as f:
        left = n
        while left:
            k = min(left, 100000)
            f.write("".join("%.3f\n" % gauss(mean, 50.0) for _ in range(k)))
            left -= k
    os.replace(tmp, os.path.join(out, name))
EOF
    printf '%s\n' "$stamp" > "$marker"
fi

echo "timing: warm-up + best of $runs, $BENCH_N values per file, $(nproc) cores" >&2
cd "$data"  # the tables name the files as given: a and b
bench_best "$work" ministat "$MINISTAT" -A a b
m_wall=$best_wall m_rss=$peak_rss m_cpu=$best_cpu
bench_best "$work" gfxstat "$GFXSTAT" ministat -A a b
g_wall=$best_wall g_rss=$peak_rss g_cpu=$best_cpu

# The tables (legend, header, one line per data set) must be identical.
# The comparison block below them is not compared: with df far above 100
# ministat uses the normal quantile 1.960 where gfxstat uses the exact t
# quantile (docs/ministat-compat.md, deviation 3), and the sets here are
# even-sized (deviation 2, the median, which the data usually hides).
table_of() { grep -v -e $'^\t' -e '^Difference at' -e '^No difference proven' "$1"; }
identical=1
if ! cmp -s <(table_of "$work/ministat.out") <(table_of "$work/gfxstat.out"); then
    identical=0
fi
if ! cmp -s "$work/ministat.out" "$work/gfxstat.out"; then
    echo "note: the comparison lines differ, as documented (exact t at df > 100):" >&2
    diff "$work/ministat.out" "$work/gfxstat.out" | grep -e '^[<>]' >&2 || true
fi

awk -v mw="$m_wall" -v mr="$m_rss" -v gw="$g_wall" -v gr="$g_rss" -v mc="$m_cpu" -v gc="$g_cpu" \
    -v sg="$SPEEDUP_GOAL" -v mg="$MEMORY_GOAL" -v same="$identical" '
BEGIN {
    printf "%-10s %10s %10s %15s\n", "tool", "wall s", "CPU s", "peak RSS MiB"
    printf "%-10s %10.3f %10.2f %15.1f\n", "ministat", mw, mc, mr / 1024
    printf "%-10s %10.3f %10.2f %15.1f\n", "gfxstat", gw, gc, gr / 1024
    speed = (gw > 0) ? mw / gw : 1e9
    cpu = (gc > 0) ? mc / gc : 1e9
    mem = gr / mr
    printf "\nspeed-up     %8.2fx   goal >= %s   %s   (CPU: %.2fx)\n", speed, sg, (speed >= sg) ? "met" : "MISSED", cpu
    printf "memory ratio %8.3f    goal <= %s  %s\n", mem, mg, (mem <= mg) ? "met" : "MISSED"
    printf "tables       %s\n", same ? "identical" : "DIFFER"
    exit !(speed >= sg && mem <= mg)
}' && goals_met=1 || goals_met=0

if [ "$identical" -ne 1 ]; then
    echo >&2
    echo "$0: the tables differ (ministat < > gfxstat):" >&2
    diff <(table_of "$work/ministat.out") <(table_of "$work/gfxstat.out") >&2 || true
    exit 1
fi
if [ "$goals_met" -ne 1 ] && [ "$strict" -eq 1 ]; then
    echo "$0: a goal was missed (--strict)" >&2
    exit 1
fi
exit 0
