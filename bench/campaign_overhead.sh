#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Per-step overhead of a campaign beside `gfxstat run` and hyperfine: each
# runs `true` N times without a shell. A campaign step adds to a `gfxstat
# run` run an intent and a done line in the journal (each fdatasync'd) and
# a fold of the journal so far (which is how a resume notices a `stop`), so
# its cost grows slowly with the campaign's length; BENCH_N sets that.
#
#   goal: campaign per-step wall <= 2 x gfxstat run per-run wall
#         (a step writes three durable records where a run writes one)
#
# Usage: bench/campaign_overhead.sh [--strict] [--runs N]
#   --strict   exit 1 when the goal is missed (default: report only)
#   --runs N   timed repetitions of each tool, best kept (default 3)
# Environment: GFXSTAT (default build/gfxstat), HYPERFINE (default
# /usr/bin/hyperfine), BENCH_N (steps, default 300), BENCH_DIR (default
# /tmp/gfxstat-bench).
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_parse_args 2,17 3 "$@"

BENCH_N="${BENCH_N:-300}"
bench_env "$here" BENCH_N
[ "$BENCH_N" -gt 1 ] || { echo "$0: BENCH_N must be an integer above 1" >&2; exit 2; }
bench_tool HYPERFINE /usr/bin/hyperfine hyperfine

# Two switchable variants in one boot (no reboot), N/2 runs each.
plan="$BENCH_DIR/campaign-plan.json"
cat > "$plan" <<JSON
{"variants": [{"label": "a", "reboot": false}, {"label": "b", "reboot": false}],
 "workload": {"command": ["true"], "parser": "time"},
 "runs_per_boot": $((BENCH_N / 2)), "boots_per_variant": 1, "warmup_runs": 0,
 "reboot_first": false, "reboot_command": ["true"]}
JSON
steps=$((BENCH_N / 2 * 2))

best_c="" best_g="" best_h=""
for _ in $(seq "$runs"); do
    dir="$BENCH_DIR/campaign"
    rm -rf "$dir"
    "$GFXSTAT" campaign init "$plan" -d "$dir" >/dev/null
    bench_ms_per_step best_c "$steps" "$GFXSTAT" campaign resume "$dir"
    out="$BENCH_DIR/campaign-run.json"
    rm -rf "$out" "$out.logs"
    bench_ms_per_step best_g "$steps" "$GFXSTAT" run --parser time --runs "$steps" -o "$out" -- true
    bench_ms_per_step best_h "$steps" "$HYPERFINE" --runs "$steps" -N --style none true
done
rm -rf "$BENCH_DIR/campaign" "$BENCH_DIR/campaign-run.json" "$BENCH_DIR/campaign-run.json.logs" "$plan"

printf '%-44s %12s\n' "command ($steps runs of true)" "ms per run"
printf '%-44s %12.3f\n' "gfxstat campaign resume (one boot)" "$best_c"
printf '%-44s %12.3f\n' "gfxstat run --parser time -- true" "$best_g"
printf '%-44s %12.3f\n' "hyperfine -N --runs N true" "$best_h"
printf 'ratio campaign/run: %.2f, campaign/hyperfine: %.2f\n' \
    "$(awk "BEGIN{print $best_c / $best_g}")" "$(awk "BEGIN{print $best_c / $best_h}")"
bench_goal "campaign step <= 2 x run" "$(awk "BEGIN{print 2 * $best_g}")" "$best_c"
exit $status
