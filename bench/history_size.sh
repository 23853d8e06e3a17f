#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Size, peak memory and CPU of `gfxstat history --html`'s page for 10 builds
# of N runs each and of 10 N each (one results file, a build per variant,
# the level 2% higher from the sixth build on), and how the page grows past
# 10 N runs: the history chart once drew one circle with a tooltip per run
# (about 95 bytes a run); past 2,000 runs in a chart it draws each build's
# runs as a column of bins, so its size stops growing with the runs.
#
#   goal: (page bytes at 100 N - page bytes at 10 N) / (90 N) <= 40 bytes a run
#         (with N = 1,000: at most 40 bytes per run past 10,000 runs)
#
# Each page is also checked to be self-contained (no script, no URL but
# the XHTML and SVG namespaces) and said whether it drew bins.
#
# Usage: bench/history_size.sh [--strict] [--runs N]
#   --strict   exit 1 when the goal is missed (default: report only)
#   --runs N   timed runs per size after one warm-up; least CPU kept (default 3)
# Environment: GFXSTAT (default build/gfxstat), BENCH_DIR (default
# /tmp/gfxstat-bench), BENCH_N (runs a build of the small file, default 1000).
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_start 2,20 3 BENCH_N=1000 "$@"

GOAL=40
BUILDS=10

# write_results N FILE: BUILDS builds (variants b00 to b09) of N runs each
# (run by bench_generate).
# shellcheck disable=SC2317
write_results() {
    python3 - "$2" "$1" "$BUILDS" <<'PY'
import random, sys
out, n, builds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(20261206)
head = ('{"format":"gfxstat-results","version":1,"id":"%s","created":"2026-12-06T00:00:00.000000Z",'
        '"generator":"bench"}\n{"type":"metric","name":"frame_ms","unit":"ms","direction":"lower"}\n' % ("e" * 32))
run = '{"type":"run","variant":"b%02d","run":%d,"exit":{"class":"ok","code":0},"metrics":{"frame_ms":%.3f}}\n'
with open(out, "w") as f:
    f.write(head)
    for b in range(builds):
        level = 16.0 if b < builds // 2 else 16.32  # the change: +2% from the middle build on
        f.writelines(run % (b, r, rng.gauss(level, 0.5)) for r in range(n))
PY
}

# results_file N: the results file of BUILDS x N runs (generated once into BENCH_DIR).
results_file() {
    local data="$BENCH_DIR/history-size-n$1"
    bench_generate "$data" "v1 seed=20261206 $BUILDS builds x $1 normal(16,0.5), +2% from build 6, %.3f" \
        runs.json write_results "$1" >&2
    echo "$data/runs.json"
}

# page_of N: history --html of BUILDS x N runs, timed, checked and printed
# as a row; sets page_bytes.
page_of() {
    local file page="$work/page-$1.html"
    file="$(results_file "$1")"
    # history exits 1 when it finds a change point (it does here): run it
    # through a shell that turns that into 0.
    bench_best "$work" "history-$1" sh -c '"$@" || [ $? -eq 1 ]' sh "$GFXSTAT" history --html "$page" "$file"
    bench_page "$page" "the page of $BUILDS x $1 runs"
    printf '%-8s %12s %10.1f %8s %8s\n' "$((BUILDS * $1))" "$page_bytes" "$(bench_mib "$peak_rss")" "$best_cpu" "$binned"
}

printf '%-8s %12s %10s %8s %8s\n' runs "page bytes" "RSS MiB" "CPU s" "bins"
page_of "$BENCH_N"
at_1x=$page_bytes
page_of $((BENCH_N * 10))
at_10x=$page_bytes
past=$((BUILDS * BENCH_N))
per_run=$(awk -v a="$at_1x" -v b="$at_10x" -v n=$((9 * past)) 'BEGIN { printf "%.1f", (b - a) / n }')
echo "bytes per run past $past runs: $per_run (page at 10x the runs: $(bench_growth "$at_1x" "$at_10x" 2)x)"
bench_goal "page bytes per run past $past runs <= $GOAL" "$GOAL" "$per_run"
exit "$status"
