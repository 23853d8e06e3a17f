#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Peak memory of the commands that keep every run of a results file in
# memory (`gfxstat show` and `gfxstat compare`: whole-file readers, unlike
# summary's streaming one) on files of N/10 and N runs of one value each,
# two variants alternating, every run a full record of ~95 bytes as
# `gfxstat run` of a one-number workload writes it; bytes per run, and how
# it grows. What a run costs is its RunRecord, its metric's values and
# its identity, beside the file's text (~95 bytes a run) held while read.
#
#   goals: peak RSS at N = 1,000,000 <= 280 bytes a run (a third of the
#   ~850 it was); RSS growth for 10x the runs <= 10x
#
# Usage: bench/whole_file_memory.sh [--strict] [--runs N]
#   --strict   exit 1 when a goal is missed (default: report only)
#   --runs N   timed runs per size after one warm-up; highest RSS kept (default 1)
# Environment: GFXSTAT (default build/gfxstat), BENCH_DIR (default
# /tmp/gfxstat-bench), BENCH_N (the large run count, default 1000000; a
# multiple of 10).
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_start 2,19 1 BENCH_N=1000000 "$@"

GOAL_BYTES_PER_RUN=280
GOAL_GROWTH=10

[ $((BENCH_N % 10)) -eq 0 ] || { echo "$0: BENCH_N must be a multiple of 10" >&2; exit 2; }
small=$((BENCH_N / 10))

declare -A rss bytes
for n in "$small" "$BENCH_N"; do
    data="$BENCH_DIR/two-variant-runs-$n"
    stamp="v1 seed=20261206 n=$n variants=a,b normal(23,2) %.3f"
    if bench_data_stale "$data" "$stamp"; then
        echo "generating $n runs in $data ..." >&2
        mkdir -p "$data"
        rm -f "$data/.complete"
        python3 - "$data/runs.json" "$n" <<'PY'
import random, sys
path, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(20261206)
with open(path, "w") as f:
    f.write('{"format":"gfxstat-results","version":1,"id":"%s","created":"2026-12-06T00:00:00.000000Z",'
            '"generator":"bench"}\n' % ("c" * 32))
    f.write('{"type":"metric","name":"latency","unit":"us","direction":"lower"}\n')
    for r in range(n):
        f.write('{"type":"run","variant":"%s","run":%d,"exit":{"class":"ok","code":0},'
                '"metrics":{"latency":%.3f}}\n' % ("ab"[r % 2], r // 2, rng.gauss(23.0, 2.0)))
PY
        echo "$stamp" > "$data/.complete"
    fi
    bytes[$n]=$(stat -c %s "$data/runs.json")
    for cmd in show compare; do
        bench_best "$work" "$cmd" "$GFXSTAT" "$cmd" "$data/runs.json"
        rss[$cmd,$n]=$peak_rss
    done
done

printf '%-8s %-10s %10s %10s %12s\n' command runs "file MiB" "RSS MiB" "RSS B/run"
for cmd in show compare; do
    for n in "$small" "$BENCH_N"; do
        printf '%-8s %-10s %10.1f %10.1f %12.0f\n' "$cmd" "$n" "$(awk "BEGIN{print ${bytes[$n]}/1048576}")" \
            "$(bench_mib "${rss[$cmd,$n]}")" "$(awk "BEGIN{print ${rss[$cmd,$n]} * 1024 / $n}")"
    done
done
for cmd in show compare; do
    rr=$(bench_growth "${rss[$cmd,$small]}" "${rss[$cmd,$BENCH_N]}")
    echo "$cmd: growth for 10x the runs: peak RSS ${rr}x"
    per_run=$(awk "BEGIN{printf \"%.0f\", ${rss[$cmd,$BENCH_N]} * 1024 / $BENCH_N}")
    bench_goal "$cmd: peak RSS <= $GOAL_BYTES_PER_RUN bytes a run at $BENCH_N runs" "$GOAL_BYTES_PER_RUN" "$per_run"
    bench_goal "$cmd: RSS growth <= ${GOAL_GROWTH}x" "$GOAL_GROWTH" "$rr"
done
exit $status
