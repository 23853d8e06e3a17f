#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Per-run overhead of `gfxstat run` beside hyperfine: both run `true` N
# times without a shell. gfxstat also probes the environment, keeps each
# run's stdout and stderr, and appends each run to the results file with
# fdatasync before the next starts (that is what makes a kill -9 or a GPU
# hang that takes the kernel down lose nothing); hyperfine keeps its
# samples in memory. The results file goes on tmpfs and on a disk, for
# 300 and 3,000 runs (the cost of a run must not grow with the file); the
# two tools take turns, so that both see the same load.
#
#   goal: gfxstat run per-run wall <= 1.2 x hyperfine's, on tmpfs
#   (on the disk the fdatasync of every run is added: reported, no goal)
#
# Usage: bench/run_overhead.sh [--strict] [--runs N]
#   --strict   exit 1 when the goal is missed (default: report only)
#   --runs N   timed repetitions of each tool and size, best kept (default 3)
# Environment: GFXSTAT (default build/gfxstat), GFXSTAT_BEFORE (another
# build, timed in the same turns: its columns are added), HYPERFINE
# (default /usr/bin/hyperfine), BENCH_SIZES (runs of `true` per repetition,
# default "300 3000"), BENCH_TMPFS (default /dev/shm), BENCH_DISK (default
# /var/tmp: ext4 on most machines; /tmp may be tmpfs).
#
# The CPU columns (user + sys of the tool and its children, per run) are
# printed with their ratio too: on a shared machine the wall ratio moves
# with the load, the CPU ratio much less.
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_parse_args 2,26 3 "$@"

BENCH_SIZES="${BENCH_SIZES:-300 3000}"
BENCH_N="${BENCH_SIZES%% *}"
bench_env "$here" BENCH_N
bench_tool HYPERFINE /usr/bin/hyperfine hyperfine
[ -x /usr/bin/time ] || { echo "$0: GNU time not found at /usr/bin/time (apt-get install time)" >&2; exit 2; }
tmpfs="${BENCH_TMPFS:-/dev/shm}"
disk="${BENCH_DISK:-/var/tmp}"
before="${GFXSTAT_BEFORE:-}"
if [ -n "$before" ] && [ ! -x "$before" ]; then
    echo "$0: GFXSTAT_BEFORE is not an executable: $before" >&2
    exit 2
fi

work_dirs=()
# shellcheck disable=SC2064
trap 'rm -rf "${work_dirs[@]}"' EXIT
new_work() {  # new_work VAR PARENT: a scratch directory under PARENT
    local d
    d="$(mktemp -d "$2/gfxstat-run-overhead.XXXXXX")"
    work_dirs+=("$d")
    printf -v "$1" '%s' "$d"
}

# timed WALL CPU STEPS CMD...: runs CMD (a failure ends the script); keeps in
# the variables named WALL and CPU the smaller of what they hold and this
# run's wall and CPU (user + sys, GNU time, children included) per step, ms.
timed() {
    local wall_var="$1" cpu_var="$2" steps="$3" t0 t1 wall cpu
    shift 3
    t0=$EPOCHREALTIME
    /usr/bin/time -f '%U %S' -o "$timefile" "$@" >/dev/null 2>&1 || { echo "$0: '$*' failed" >&2; exit 1; }
    t1=$EPOCHREALTIME
    wall=$(awk -v a="$t0" -v b="$t1" -v n="$steps" 'BEGIN { print (b - a) / n * 1000 }')
    cpu=$(awk -v n="$steps" 'END { print ($1 + $2) / n * 1000 }' "$timefile")
    if [ -z "${!wall_var}" ] || awk -v a="$wall" -v b="${!wall_var}" 'BEGIN { exit !(a < b) }'; then
        printf -v "$wall_var" '%s' "$wall"
    fi
    if [ -z "${!cpu_var}" ] || awk -v a="$cpu" -v b="${!cpu_var}" 'BEGIN { exit !(a < b) }'; then
        printf -v "$cpu_var" '%s' "$cpu"
    fi
}

fstype() { df --output=fstype "$1" | tail -n 1; }

new_work t_dir "$tmpfs"
new_work d_dir "$disk"
timefile="$t_dir/time"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); tmpfs: $tmpfs ($(fstype "$tmpfs")), disk: $disk ($(fstype "$disk"))"
printf '%-8s %-22s %12s %12s %12s %12s %7s %9s' runs where "gfxstat ms" "hyperfine ms" "gfxstat cpu" "hyperf. cpu" ratio "cpu ratio"
[ -n "$before" ] && printf ' %10s %10s %7s %9s' "before ms" "before cpu" "b. ratio" "b. cpu r."
printf '\n'
ratios=()
for n in $BENCH_SIZES; do
    for place in tmpfs disk; do
        if [ "$place" = tmpfs ]; then dir=$t_dir; else dir=$d_dir; fi
        gw="" gc="" hw="" hc="" bw="" bc=""
        for _ in $(seq "$runs"); do
            rm -rf "$dir/r.json" "$dir/r.json.logs"
            timed gw gc "$n" "$GFXSTAT" run --parser time --runs "$n" -o "$dir/r.json" -- true
            timed hw hc "$n" "$HYPERFINE" --runs "$n" -N --style none true
            if [ -n "$before" ]; then
                rm -rf "$dir/r.json" "$dir/r.json.logs"
                timed bw bc "$n" "$before" run --parser time --runs "$n" -o "$dir/r.json" -- true
            fi
        done
        ratio=$(bench_growth "$hw" "$gw" 2)
        printf '%-8s %-22s %12.3f %12.3f %12.3f %12.3f %7s %9s' "$n" "$place ($(fstype "$dir"))" \
            "$gw" "$hw" "$gc" "$hc" "$ratio" "$(bench_growth "$hc" "$gc" 2)"
        [ -n "$before" ] && printf ' %10.3f %10.3f %7s %9s' "$bw" "$bc" "$(bench_growth "$hw" "$bw" 2)" \
            "$(bench_growth "$hc" "$bc" 2)"
        printf '\n'
        if [ "$place" = tmpfs ]; then ratios+=("$ratio"); tmpfs_ms=$gw; else
            echo "  the disk's durable appends: about $(awk -v a="$gw" -v b="$tmpfs_ms" 'BEGIN { printf "%.3f", a - b }') ms per run more than on tmpfs"
        fi
    done
done
rm -rf "$t_dir/r.json" "$t_dir/r.json.logs" "$d_dir/r.json" "$d_dir/r.json.logs"
bench_goal "gfxstat run <= 1.2 x hyperfine -N per run, tmpfs" 1.2 "${ratios[@]}"
exit $status
