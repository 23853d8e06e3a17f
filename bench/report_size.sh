#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Size, peak memory and time of `gfxstat report`'s page for a results file
# of N runs and of 10 N (two variants, a and b, half the runs each, over 10
# boots), and how the page grows past N: the page once drew one circle with
# a tooltip per run in two charts (about 209 bytes a run); past 2,000 runs
# a variant it draws bins, so its size stops growing with the runs.
#
#   goal: (page bytes at 10 N - page bytes at N) / (9 N) <= 40 bytes a run
#         (with N = 10,000: at most 40 bytes per run past 10,000 runs)
#
# Each page is also checked to be self-contained (no script, no URL but
# the XHTML and SVG namespaces) and, at 10 N, to say that it drew bins.
#
# Usage: bench/report_size.sh [--strict] [--runs N]
#   --strict   exit 1 when the goal is missed (default: report only)
#   --runs N   timed runs per size after one warm-up; best wall kept (default 3)
# Environment: GFXSTAT (default build/gfxstat), BENCH_DIR (default
# /tmp/gfxstat-bench), BENCH_N (runs of the small file, default 10000; an
# even number).
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_start 2,20 3 BENCH_N=10000 "$@"

GOAL=40

[ $((BENCH_N % 2)) -eq 0 ] || { echo "$0: BENCH_N must be even" >&2; exit 2; }

# results_file N: the results file of N runs (generated once into BENCH_DIR).
results_file() {
    local n="$1" data="$BENCH_DIR/report-size-n$1"
    local stamp="v1 seed=20261206 n=$n normal(16,0.5) and normal(16.2,0.5) %.3f, 10 boots"
    if bench_data_stale "$data" "$stamp"; then
        echo "generating $n runs in $data ..." >&2
        mkdir -p "$data"
        rm -f "$data/.complete"
        python3 - "$data/runs.json" "$n" <<'PY'
import json, random, sys
out, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(20261206)
with open(out, "w") as f:
    f.write(json.dumps({"format": "gfxstat-results", "version": 1, "id": "c" * 32,
                        "created": "2026-12-06T00:00:00.000000Z", "generator": "bench"},
                       separators=(",", ":")) + "\n")
    f.write('{"type":"metric","name":"frame_ms","unit":"ms","direction":"lower"}\n')
    for r in range(n):
        v = "ab"[r % 2]
        boot = "%08x-0000-4000-8000-%012x" % (r * 10 // n, r * 10 // n)
        f.write('{"type":"run","variant":"%s","run":%d,"boot":"%s","exit":{"class":"ok","code":0},'
                '"metrics":{"frame_ms":%.3f}}\n' % (v, r // 2, boot, rng.gauss(16.0 if v == "a" else 16.2, 0.5)))
PY
        echo "$stamp" > "$data/.complete"
    fi
    echo "$data/runs.json"
}

small=$BENCH_N
large=$((BENCH_N * 10))
declare -A bytes
printf '%-8s %12s %10s %10s %8s\n' runs "page bytes" "RSS MiB" "wall s" "bins"
for n in "$small" "$large"; do
    file="$(results_file "$n")"
    page="$work/page-$n.html"
    bench_best "$work" "report-$n" "$GFXSTAT" report "$file" -o "$page"
    bench_page "$page" "the page of $n runs"
    bytes[$n]=$page_bytes
    printf '%-8s %12s %10.1f %10s %8s\n' "$n" "${bytes[$n]}" "$(bench_mib "$peak_rss")" "$best_wall" "$binned"
done
per_run=$(awk -v a="${bytes[$small]}" -v b="${bytes[$large]}" -v n=$((large - small)) \
    'BEGIN { printf "%.1f", (b - a) / n }')
echo "bytes per run past $small runs: $per_run"
bench_goal "page bytes per run past $small runs <= $GOAL" "$GOAL" "$per_run"
exit "$status"
