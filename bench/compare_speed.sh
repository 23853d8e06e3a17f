#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Times `gfxstat compare` on 1,000,000 vs 1,000,000 values with every
# statistic (Student and Welch t, Mann-Whitney U and the Hodges-Lehmann
# interval, 9,999 bootstrap resamples of the median difference and ratio,
# effect sizes, TOST, and the diagnostics: dip test, two-normal mixture,
# drift, change point, outliers), beside `ministat -A` on the same files
# (which computes only the pooled t). CPU seconds (user + sys, both
# threads counted: GNU time), best of N; then the same at a tenth of the
# size, for the shape (a tenth of the values should take about a tenth of
# the time). With GFXSTAT_BEFORE, that build's `compare` runs too, in turn
# with the others in every round (interleaved: a change of load touches
# both alike), and the table gives both.
#
#   goal: gfxstat compare CPU <= 1.0 s (user + sys)
#
# Usage: bench/compare_speed.sh [--strict] [--runs N]
#   --strict   exit 1 when the goal is missed (default: report only)
#   --runs N   timed runs after one warm-up; least CPU kept (default 3)
# Environment: GFXSTAT (default build/gfxstat), GFXSTAT_BEFORE (another
# gfxstat, e.g. a build of main, measured beside it), MINISTAT (default
# /usr/bin/ministat), BENCH_DIR (default /tmp/gfxstat-bench), BENCH_N
# (values per file, default 1000000).
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_start 2,20 3 BENCH_N=1000000 "$@"

GOAL=1.0

bench_tool MINISTAT /usr/bin/ministat ministat

# data N: sets `data`, a folder with files a and b of N values each
# (normal(1000, 50) and normal(1002, 50), %.3f, fixed seeds), generated once.
data_of() {
    data="$BENCH_DIR/compare-n$1"
    local stamp="v1 seed=20261130 n=$1 a=normal(1000,50) b=normal(1002,50) %.3f"
    if bench_data_stale "$data" "$stamp"; then
        echo "generating 2 x $1 values in $data ..." >&2
        mkdir -p "$data"
        python3 - "$data" "$1" <<'PY'
import os, random, sys
out, n = sys.argv[1], int(sys.argv[2])
for name, mean, seed in (("a", 1000.0, 20261130), ("b", 1002.0, 20261131)):
    rng = random.Random(seed)
    with open(os.path.join(out, name), "w") as f:
        f.write("".join("%.3f\n" % rng.gauss(mean, 50.0) for _ in range(n)))
PY
        echo "$stamp" > "$data/.complete"
    fi
}

if [ -n "${GFXSTAT_BEFORE:-}" ] && [ ! -x "$GFXSTAT_BEFORE" ]; then
    echo "$0: GFXSTAT_BEFORE is not an executable: $GFXSTAT_BEFORE" >&2
    exit 2
fi

# cmd_of NAME: sets cmd to the command timed under NAME at one size (data:
# the folder of data_of).
cmd_of() {
    case "$1" in
        before) cmd=("$GFXSTAT_BEFORE" compare --format json "$data/a" "$data/b") ;;
        compare) cmd=("$GFXSTAT" compare --format json "$data/a" "$data/b") ;;
        plain) cmd=("$GFXSTAT" compare --no-diagnostics --format json "$data/a" "$data/b") ;;
        ministat) cmd=("$MINISTAT" -A "$data/a" "$data/b") ;;
    esac
}

# cpu_of NAME...: one warm-up of each (which also fills the page cache),
# then $runs rounds of all of them in turn; sets cpu[NAME] to the least
# user + sys seconds of each.
declare -A cpu
cpu_of() {
    local i name c cmd
    for name in "$@"; do
        cmd_of "$name"
        "${cmd[@]}" >/dev/null
        cpu[$name]=""
    done
    for ((i = 0; i < runs; i++)); do
        for name in "$@"; do
            cmd_of "$name"
            /usr/bin/time -f '%U %S' -o "$work/time" "${cmd[@]}" >/dev/null
            c=$(awk 'END { printf "%.2f", $1 + $2 }' "$work/time")
            if [ -z "${cpu[$name]}" ] || awk -v a="$c" -v b="${cpu[$name]}" 'BEGIN { exit !(a < b) }'; then cpu[$name]=$c; fi
        done
    done
}

# row N: one line of the table, CPU seconds at N values a side; sets g_cpu.
row() {
    data_of "$1"
    local names=(compare plain ministat)
    [ -n "${GFXSTAT_BEFORE:-}" ] && names=(before "${names[@]}")
    cpu_of "${names[@]}"
    g_cpu=${cpu[compare]}
    printf '%9s %8s %10s %16s %13s %17s\n' "$1" "${cpu[before]:--}" "$g_cpu" "${cpu[plain]}" "${cpu[ministat]}" \
        "$(bench_growth "${cpu[ministat]}" "$g_cpu" 2)"
}

echo "CPU seconds (user + sys), least of $runs after a warm-up; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%9s %8s %10s %16s %13s %17s\n' "n a side" before compare "--no-diagnostics" "ministat -A" "compare/ministat"
small=$((BENCH_N / 10))
row "$small"
small_cpu=$g_cpu
row "$BENCH_N"
echo "growth at 10x the values: $(bench_growth "$small_cpu" "$g_cpu")x (linear: 10x; n log n: about 12x)"
bench_goal "gfxstat compare CPU <= ${GOAL} s at n = $BENCH_N" "$GOAL" "$g_cpu"
exit $status
