#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Times `gfxstat compare` on 1,000,000 vs 1,000,000 values with every
# statistic (Student and Welch t, Mann-Whitney U and the Hodges-Lehmann
# interval, 9,999 bootstrap resamples of the median difference and ratio,
# effect sizes, TOST, and the diagnostics: dip test, two-normal mixture,
# drift, change point, outliers), beside `ministat -A` on the same files (which
# computes only the pooled t), and reports peak RSS.
#
#   goal: gfxstat compare wall <= 3 s
#
# Usage: bench/compare_speed.sh [--strict] [--runs N]
#   --strict   exit 1 when the goal is missed (default: report only)
#   --runs N   timed runs after one warm-up; best wall kept (default 3)
# Environment: GFXSTAT (default build/gfxstat), MINISTAT (default
# /usr/bin/ministat), BENCH_DIR (default /tmp/gfxstat-bench), BENCH_N
# (values per file, default 1000000).
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_start 2,19 3 BENCH_N=1000000 "$@"

GOAL=3

MINISTAT="${MINISTAT:-/usr/bin/ministat}"

data="$BENCH_DIR/compare-n$BENCH_N"
stamp="v1 seed=20261130 n=$BENCH_N a=normal(1000,50) b=normal(1002,50) %.3f"
if bench_data_stale "$data" "$stamp"; then
    echo "generating 2 x $BENCH_N values in $data ..." >&2
    mkdir -p "$data"
    python3 - "$data" "$BENCH_N" <<'PY'
import os, random, sys
out, n = sys.argv[1], int(sys.argv[2])
for name, mean, seed in (("a", 1000.0, 20261130), ("b", 1002.0, 20261131)):
    rng = random.Random(seed)
    with open(os.path.join(out, name), "w") as f:
        f.write("".join("%.3f\n" % rng.gauss(mean, 50.0) for _ in range(n)))
PY
    echo "$stamp" > "$data/.complete"
fi

# row LABEL CMD...: one line of the table, the best wall and peak RSS of CMD;
# sets wall to the best wall.
row() {
    local label="$1" rss
    shift
    read -r wall rss < <(bench_measure "$@")
    printf '%-34s %8s %9.1f\n' "$label" "$wall" "$(bench_mib "$rss")"
}

printf '%-34s %8s %9s\n' command "wall s" "RSS MiB"
row "gfxstat compare (every statistic)" "$GFXSTAT" compare --format json "$data/a" "$data/b"
g_wall=$wall
row "gfxstat compare --bootstrap 0" "$GFXSTAT" compare --bootstrap 0 --format json "$data/a" "$data/b"
row "gfxstat compare --no-diagnostics" "$GFXSTAT" compare --no-diagnostics --format json "$data/a" "$data/b"
if [ -x "$MINISTAT" ]; then
    row "ministat -A (pooled t only)" "$MINISTAT" -A "$data/a" "$data/b"
fi
bench_goal "<= ${GOAL} s" "$GOAL" "$g_wall"
exit $status
