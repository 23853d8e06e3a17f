#!/bin/sh
# SPDX-License-Identifier: MIT
# make demo: gfxstat's main job on a built-in default, told as a story in
# at most 40 lines of 72 columns. It measures timer wake-up latency (the
# gem_syslatency experiment, on the CPU) unladen and with every core busy,
# interleaved in random blocks until the answer is known (gfxstat ab),
# prints compare's short answer for the latencies, says why the answer's
# direction may surprise, and where the whole report, the page and the
# raw runs are.
#
# Usage: scripts/demo.sh GFXSTAT BUILD_DIR CPUS
set -eu
gfxstat=$1
build=$2
cpus=$3
results=$build/demo-ab.json
log=$build/demo-ab.log
page=$build/demo-ab.html

rm -rf "$results" "$results.logs" "$log" "$page"
cat <<EOT
gfxstat demo: does a busy machine wake a sleeping thread later?
A thread sleeps to deadlines 1 ms apart and records how late it wakes
(IGT's gem_syslatency), idle ('unladen') and with all $cpus CPUs busy
('loaded'), in random blocks until the median's change is known (ab).

EOT
if ! "$gfxstat" ab -o "$results" --variant unladen --variant loaded \
        --workload wakeup-latency --load "loaded:cpu:$cpus" --duration 0.25 --warmup 1 \
        --max-runs 20 --target-metric latency_median >/dev/null 2>"$log"; then
    echo "gfxstat ab failed; its last words ($log):"
    tail -n 5 "$log"
    exit 1
fi
# Why the answer may surprise, when there is one.
verdict=$("$gfxstat" compare --format json --metric latency_median "$results" 2>>"$log" |
    grep -o '"outcome": *"[a-z_]*"' | head -n 1)
case $verdict in
*improvement*)
    why="
Why is 'loaded' faster? Idle CPUs sleep deeply and wake slowly (more
so on a VM); busy ones are awake. Load shows in the worst wake-ups."
    ;;
*regression*)
    why="
'loaded' wakes later: the woken thread waits for a busy CPU. (On a VM,
idle CPUs that sleep deeply can turn this around.)"
    ;;
*)
    # Not settled: compare's sentence below the table says what would.
    why=""
    ;;
esac
"$gfxstat" report "$results" -o "$page" 2>>"$log"
# Paths of a deep build directory may not fit 72 columns: folded at spaces.
where=$(fold -s -w 72 <<EOT

the whole report  $gfxstat compare --full $results
the picture       $page
the raw runs      $results, and ab's progress $log
EOT
)
lines_of() { [ -z "$1" ] && echo 0 || printf '%s\n' "$1" | wc -l; }
# compare's short answer for the median (the stop rule's metric) and the
# worst wake-up; its last line, how to get the whole report, is said below.
# The story stays within 40 lines: on a noisy machine more diagnostics
# fire (two modes, outliers, drift, the load), so the notes under the
# table are kept whole, in compare's order, while they fit, and the rest
# are counted in one line that points at the whole report.
budget=$((40 - 5 - $(lines_of "$why") - $(lines_of "$where")))
"$gfxstat" compare --metric latency_median --metric latency_max "$results" 2>>"$log" |
    sed -e '/^--full:/d' | awk -v budget="$budget" '
    { line[NR] = $0 }
    END {
        n = NR
        while (n > 0 && line[n] == "") n--
        first = 0
        for (i = 1; i <= n && !first; i++) if (line[i] ~ /^- /) first = i
        if (n <= budget || !first) { for (i = 1; i <= n; i++) print line[i]; exit }
        for (i = 1; i < first; i++) print line[i]
        used = first - 1; cut = 0
        for (i = first; i <= n; i = j) {
            for (j = i + 1; j <= n && line[j] !~ /^- /; j++) ;
            if (!cut && used + (j - i) <= budget - 1) {
                for (k = i; k < j; k++) print line[k]
                used += j - i
            } else cut++
        }
        if (cut) printf "- %d more note%s in the whole report.\n", cut, (cut > 1 ? "s" : "")
    }'
[ -z "$why" ] || printf '%s\n' "$why"
printf '%s\n' "$where"
