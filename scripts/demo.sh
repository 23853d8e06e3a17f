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
# compare's short answer for the median (the stop rule's metric) and the
# worst wake-up; its last line, how to get the whole report, is said below.
"$gfxstat" compare --metric latency_median --metric latency_max "$results" 2>>"$log" |
    sed -e '/^--full:/d' | awk '{ line[NR] = $0 } END { n = NR; while (n > 0 && line[n] == "") n--
                                                         for (i = 1; i <= n; i++) print line[i] }'
# Why the answer may surprise, when there is one.
verdict=$("$gfxstat" compare --format json --metric latency_median "$results" 2>>"$log" |
    grep -o '"outcome": *"[a-z_]*"' | head -n 1)
case $verdict in
*improvement*)
    cat <<'EOT'

Why is 'loaded' faster? Idle CPUs sleep deeply and wake slowly (more
so on a VM); busy ones are awake. Load shows in the worst wake-ups.
EOT
    ;;
*regression*)
    cat <<'EOT'

'loaded' wakes later: the woken thread waits for a busy CPU. (On a VM,
idle CPUs that sleep deeply can turn this around.)
EOT
    ;;
*)
    # Not settled: compare's sentence above says what would settle it.
    ;;
esac
"$gfxstat" report "$results" -o "$page" 2>>"$log"
# Paths of a deep build directory may not fit 72 columns: folded at spaces.
fold -s -w 72 <<EOT

the whole report  $gfxstat compare --full $results
the picture       $page
the raw runs      $results, and ab's progress $log
EOT
