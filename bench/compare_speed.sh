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

GOAL=3
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
bench_parse_args 2,19 3 "$@"

root="$(dirname "$here")"
GFXSTAT="${GFXSTAT:-$root/build/gfxstat}"
MINISTAT="${MINISTAT:-/usr/bin/ministat}"
BENCH_DIR="${BENCH_DIR:-/tmp/gfxstat-bench}"
BENCH_N="${BENCH_N:-1000000}"
TIME=/usr/bin/time
case "$BENCH_N" in ''|*[!0-9]*|0) echo "$0: BENCH_N must be a positive integer" >&2; exit 2 ;; esac
[ -x "$GFXSTAT" ] || { echo "$0: gfxstat not found at $GFXSTAT" >&2; exit 2; }
[ -x "$TIME" ] || { echo "$0: GNU time not found at $TIME (apt-get install time)" >&2; exit 2; }

data="$BENCH_DIR/compare-n$BENCH_N"
stamp="v1 seed=20261130 n=$BENCH_N a=normal(1000,50) b=normal(1002,50) %.3f"
if [ ! -f "$data/.complete" ] || [ "$(cat "$data/.complete")" != "$stamp" ]; then
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

work="$(mktemp -d "${TMPDIR:-/tmp}/gfxstat-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# measure CMD...: prints "best-wall-seconds peak-rss-KiB" (bench/lib.sh);
# the command's output stays in $work/last.out.
measure() {
    bench_best "$work" last "$@"
    echo "$best_wall $peak_rss"
}

read -r g_wall g_rss < <(measure "$GFXSTAT" compare --format json "$data/a" "$data/b")
printf '%-34s %8s %9s\n' command "wall s" "RSS MiB"
printf '%-34s %8s %9.1f\n' "gfxstat compare (every statistic)" "$g_wall" "$(awk "BEGIN{print $g_rss/1024}")"
read -r n_wall n_rss < <(measure "$GFXSTAT" compare --bootstrap 0 --format json "$data/a" "$data/b")
printf '%-34s %8s %9.1f\n' "gfxstat compare --bootstrap 0" "$n_wall" "$(awk "BEGIN{print $n_rss/1024}")"
read -r d_wall d_rss < <(measure "$GFXSTAT" compare --no-diagnostics --format json "$data/a" "$data/b")
printf '%-34s %8s %9.1f\n' "gfxstat compare --no-diagnostics" "$d_wall" "$(awk "BEGIN{print $d_rss/1024}")"
if [ -x "$MINISTAT" ]; then
    read -r m_wall m_rss < <(measure "$MINISTAT" -A "$data/a" "$data/b")
    printf '%-34s %8s %9.1f\n' "ministat -A (pooled t only)" "$m_wall" "$(awk "BEGIN{print $m_rss/1024}")"
fi
if awk "BEGIN{exit !($g_wall <= $GOAL)}"; then
    echo "goal (<= ${GOAL} s): met"
else
    echo "goal (<= ${GOAL} s): MISSED"
    [ "$strict" -eq 1 ] && exit 1
fi
exit 0
