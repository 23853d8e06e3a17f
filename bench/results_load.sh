#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Times loading 1,000,000 samples from a results file against loading the
# same values from a plain column file, with `gfxstat summary --json --no-diagnostics` (read,
# parse, select, quartiles), and checks both give identical statistics.
#
#   goal: results-file wall / column-file wall <= 3
#
# Layouts measured (all hold the same 1,000,000 values, printed %.3f):
#   one-run     `gfxstat import --from lines` of the column file: one run
#               whose metric is an array of every value
#   runs-x-reps 1,000 runs of 1,000 repetitions each, with boot id, start
#               time, duration, exit and environment, as a campaign of
#               `gem_exec_nop -r 1000` records it
#   scalar-runs 1,000,000 runs of one value each, every run a full record;
#               reported for information (each value costs a ~90-byte
#               record here), not held to the goal
#
# Usage: bench/results_load.sh [--strict] [--runs N]
#   --strict   exit 1 when the goal is missed (default: report only)
#   --runs N   timed runs per file after one warm-up; best wall kept (default 5)
# Environment: GFXSTAT (default build/gfxstat), BENCH_DIR (default
# /tmp/gfxstat-bench), BENCH_N (values, default 1000000; a multiple of 1000).
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_start 2,25 5 BENCH_N=1000000 "$@"

GOAL=3

[ $((BENCH_N % 1000)) -eq 0 ] || { echo "$0: BENCH_N must be a multiple of 1000" >&2; exit 2; }

data="$BENCH_DIR/results-n$BENCH_N"
stamp="v1 seed=20261130 n=$BENCH_N normal(23,2) %.3f"
if bench_data_stale "$data" "$stamp"; then
    echo "generating $BENCH_N values in $data ..." >&2
    mkdir -p "$data"
    rm -f "$data/.complete" "$data/one-run.json"
    python3 - "$data" "$BENCH_N" <<'PY'
import json, os, random, sys
out, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(20261130)
vals = ["%.3f" % rng.gauss(23.0, 2.0) for _ in range(n)]
def header(f):
    f.write(json.dumps({"format": "gfxstat-results", "version": 1, "id": "b" * 32,
                        "created": "2026-11-30T00:00:00.000000Z", "generator": "bench"},
                       separators=(",", ":")) + "\n")
    f.write('{"type":"metric","name":"latency","unit":"us","direction":"lower"}\n')
with open(os.path.join(out, "column.txt"), "w") as f:
    f.write("\n".join(vals) + "\n")
with open(os.path.join(out, "runs-x-reps.json"), "w") as f:
    header(f)
    f.write('{"type":"environment","id":"env-00000000000000b1","hostname":"bench",'
            '"kernel_release":"6.9.0","gpu_driver":"i915"}\n')
    for r in range(n // 1000):
        f.write('{"type":"run","variant":"a","run":%d,"boot":"5d1c0a2e-3b4f-4e8a-9c61-0f2d7e8a9b10",'
                '"start":"2026-11-30T01:%02d:%02d.000000Z","duration_s":1.5,"exit":{"class":"ok","code":0},'
                '"environment":"env-00000000000000b1","metrics":{"latency":[%s]}}\n'
                % (r, r // 60 % 60, r % 60, ",".join(vals[r * 1000:(r + 1) * 1000])))
with open(os.path.join(out, "scalar-runs.json"), "w") as f:
    header(f)
    for r in range(n):
        f.write('{"type":"run","variant":"a","run":%d,"exit":{"class":"ok","code":0},'
                '"metrics":{"latency":%s}}\n' % (r, vals[r]))
PY
    "$GFXSTAT" import --from lines "$data/column.txt" --label a --metric latency -o "$data/one-run.json" 2>/dev/null
    echo "$stamp" > "$data/.complete"
fi

read -r col_wall col_rss < <(bench_measure "$GFXSTAT" summary --json --no-diagnostics "$data/column.txt")
cp "$work/last.out" "$work/column.json"
status=0
printf '%-12s %10s %10s %8s %8s  %s\n' layout "wall s" "RSS MiB" ratio goal stats
printf '%-12s %10s %10.1f %8s %8s  %s\n' column "$col_wall" "$(bench_mib "$col_rss")" 1.00 - reference
for layout in one-run runs-x-reps scalar-runs; do
    f="$data/$layout.json"
    read -r wall rss < <(bench_measure "$GFXSTAT" summary --json --no-diagnostics "$f")
    cp "$work/last.out" "$work/$layout.json"
    # Identical statistics (names aside) or the timing means nothing.
    if python3 - "$work/column.json" "$work/$layout.json" <<'PY'
import json, sys
a, b = (json.load(open(p))["inputs"][0] for p in sys.argv[1:])
keys = ("n", "min", "q1", "median", "q3", "max", "mean", "stddev")
sys.exit(0 if all(a[k] == b[k] for k in keys) else 1)
PY
    then same=identical; else same=DIFFERENT; status=1; fi
    ratio=$(bench_growth "$col_wall" "$wall" 2)
    goal="<= $GOAL"
    verdict=""
    if [ "$layout" = scalar-runs ]; then
        goal="(info)"
    else
        bench_judge "$GOAL" "$ratio"
        verdict=" $judged"
    fi
    printf '%-12s %10s %10.1f %8s %8s  %s\n' "$layout" "$wall" "$(bench_mib "$rss")" \
        "${ratio}x" "$goal$verdict" "$same"
done
exit $status
