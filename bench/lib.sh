# SPDX-License-Identifier: MIT
# What the bench scripts share (sourced, not run): the --strict / --runs
# options (or --reps for the simulations), best-of-N timing with peak RSS,
# the set-up of paths and sizes, and the goal lines, so that every script
# times, checks and reports the same way.
#
# A script sources it as `. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"`; it
# sets `here`, the bench folder (the scripts' own), as an absolute path.

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# bench_parse_args HELP_LINES DEFAULT_RUNS "$@": sets strict (0/1), runs and
# status (0: what the script exits with unless a goal is missed, bench_judge);
# --help prints lines HELP_LINES (sed range, e.g. 2,20) of the calling script.
bench_parse_args() {
    local help="$1"
    strict=0
    status=0
    runs="$2"
    shift 2
    while [ $# -gt 0 ]; do
        case "$1" in
            --strict) strict=1 ;;
            --runs)
                [ $# -ge 2 ] || { echo "$0: --runs needs a number" >&2; exit 2; }
                runs="$2"; shift ;;
            --runs=*) runs="${1#--runs=}" ;;
            -h|--help) sed -n "${help}p" "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
            *) echo "$0: unknown argument: $1 (try --help)" >&2; exit 2 ;;
        esac
        shift
    done
    case "$runs" in ''|*[!0-9]*|0) echo "$0: --runs needs a positive integer" >&2; exit 2 ;; esac
}

# bench_run WORKDIR TAG CMD...: runs CMD with stdout to WORKDIR/TAG.out; sets
# last_wall (seconds, from the shell's microsecond clock), last_rss (KiB,
# GNU time) and last_cpu (user + sys seconds, GNU time). A failing command
# ends the script with its stderr.
bench_run() {
    local work="$1" tag="$2"
    shift 2
    local t0 t1 rc=0
    t0=$EPOCHREALTIME
    /usr/bin/time -f '%e %M %U %S' -o "$work/$tag.time" "$@" >"$work/$tag.out" 2>"$work/$tag.err" || rc=$?
    t1=$EPOCHREALTIME
    if [ "$rc" -ne 0 ]; then
        echo "$0: '$*' failed with status $rc:" >&2
        cat "$work/$tag.err" >&2
        exit 1
    fi
    last_wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
    last_rss=$(awk 'END { print $2 }' "$work/$tag.time")
    last_cpu=$(awk 'END { printf "%.2f", $3 + $4 }' "$work/$tag.time")
}

# bench_best WORKDIR TAG CMD...: one warm-up run (it also fills the page
# cache), then $runs timed runs; sets best_wall (min), best_cpu (min) and
# peak_rss (max).
bench_best() {
    local work="$1" tag="$2" i
    shift 2
    bench_run "$work" "$tag" "$@"
    best_wall=""; best_cpu=""; peak_rss=0
    for ((i = 0; i < runs; i++)); do
        bench_run "$work" "$tag" "$@"
        if [ -z "$best_cpu" ] || awk -v a="$last_cpu" -v b="$best_cpu" 'BEGIN { exit !(a < b) }'; then
            best_cpu=$last_cpu
        fi
        if [ -z "$best_wall" ] || awk -v a="$last_wall" -v b="$best_wall" 'BEGIN { exit !(a < b) }'; then
            best_wall=$last_wall
        fi
        if [ "$last_rss" -gt "$peak_rss" ]; then peak_rss=$last_rss; fi
    done
}

# bench_env SCRIPT_DIR SIZE_VAR: sets GFXSTAT (default build/gfxstat) and
# BENCH_DIR (default /tmp/gfxstat-bench, created), checks that the
# environment variable named SIZE_VAR holds a positive integer and that
# gfxstat is there.
bench_env() {
    local here="$1" size_var="$2"
    GFXSTAT="${GFXSTAT:-$(dirname "$here")/build/gfxstat}"
    BENCH_DIR="${BENCH_DIR:-/tmp/gfxstat-bench}"
    case "${!size_var}" in ''|*[!0-9]*|0) echo "$0: $size_var must be a positive integer" >&2; exit 2 ;; esac
    [ -x "$GFXSTAT" ] || { echo "$0: gfxstat not found at $GFXSTAT (build it, or set GFXSTAT=...)" >&2; exit 2; }
    mkdir -p "$BENCH_DIR"
}

# bench_tool VAR DEFAULT NAME: sets VAR to its value from the environment,
# or DEFAULT; ends the script (status 2) when that is not an executable,
# naming the Debian package NAME that has it (hyperfine, ministat).
bench_tool() {
    local var="$1" default="$2" name="$3"
    printf -v "$var" '%s' "${!var:-$default}"
    [ -x "${!var}" ] || { echo "$0: $name not found at ${!var} (apt-get install $name)" >&2; exit 2; }
}

# bench_setup SCRIPT_DIR SIZE_VAR: what the scripts that time with
# bench_best start with: bench_env, a check that GNU time is there, and
# `work`, a scratch directory removed on exit.
bench_setup() {
    bench_env "$1" "$2"
    [ -x /usr/bin/time ] || { echo "$0: GNU time not found at /usr/bin/time (apt-get install time)" >&2; exit 2; }
    work="$(mktemp -d "${TMPDIR:-/tmp}/gfxstat-bench.XXXXXX")"
    # shellcheck disable=SC2064
    trap "rm -rf '$work'" EXIT
}

# bench_start HELP_LINES DEFAULT_RUNS SIZE_VAR=DEFAULT "$@": how the timing
# scripts start: bench_parse_args, the size variable defaulted, bench_setup
# (with `here`, the calling script's folder).
bench_start() {
    local help="$1" default_runs="$2" size="${3%%=*}" size_default="${3#*=}"
    shift 3
    bench_parse_args "$help" "$default_runs" "$@"
    printf -v "$size" '%s' "${!size:-$size_default}"
    bench_setup "$here" "$size"
}

# bench_measure CMD...: bench_best, printed as "best-wall-seconds
# peak-rss-KiB"; the command's output stays in $work/last.out.
bench_measure() {
    bench_best "$work" last "$@"
    echo "$best_wall $peak_rss"
}

# bench_data_stale DIR STAMP: true when DIR holds no data generated under
# STAMP (the generator's version, seed and size, written to DIR/.complete
# once the data is whole), so the data is generated again.
bench_data_stale() {
    [ ! -f "$1/.complete" ] || [ "$(cat "$1/.complete")" != "$2" ]
}

# bench_generate DIR STAMP FILE CMD...: unless DIR holds data generated
# under STAMP (bench_data_stale), runs CMD with DIR/FILE as its last
# argument to write it, then marks DIR complete under STAMP.
bench_generate() {
    local dir="$1" stamp="$2" file="$3"
    shift 3
    bench_data_stale "$dir" "$stamp" || return 0
    echo "generating $dir/$file ..." >&2
    mkdir -p "$dir"
    rm -f "$dir/.complete"
    "$@" "$dir/$file"
    echo "$stamp" > "$dir/.complete"
}

# bench_ms_per_step BEST STEPS CMD...: runs CMD once (its output dropped; a
# failure ends the script) and sets the variable named BEST to its wall
# time divided by STEPS, in milliseconds, when BEST is empty or that is
# less (the best of several tries).
bench_ms_per_step() {
    local best="$1" steps="$2" t0 t1 ms
    shift 2
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || { echo "$0: '$*' failed" >&2; exit 1; }
    t1=$(date +%s.%N)
    ms=$(awk "BEGIN{print ($t1 - $t0) / $steps * 1000}")
    if [ -z "${!best}" ] || awk -v a="$ms" -v b="${!best}" 'BEGIN { exit !(a < b) }'; then printf -v "$best" '%s' "$ms"; fi
}

# bench_mib KIB: KiB in MiB, as awk prints it (for a printf "%.1f").
bench_mib() { awk -v k="$1" 'BEGIN { print k / 1024 }'; }

# bench_page PAGE WHAT: sets page_bytes (PAGE's size) and binned (yes when
# the page says it drew runs as bins, else no); ends the script when the
# page is not self-contained (a script, or a URL but the XHTML and SVG
# namespaces), naming it as WHAT ("the page of 10000 runs").
bench_page() {
    page_bytes=$(stat -c %s "$1")
    if grep -q '<script' "$1" || grep -o 'http[s]*://[^"]*' "$1" | grep -qv '^http://www.w3.org/'; then
        echo "$0: $2 is not self-contained" >&2
        exit 1
    fi
    binned=no
    if grep -q 'drawn as bins' "$1"; then binned=yes; fi
}

# bench_growth BEFORE AFTER [DIGITS]: AFTER / BEFORE with DIGITS decimals
# (default 1), 0 when BEFORE is 0: how much a time or size grew.
bench_growth() {
    awk -v a="$1" -v b="$2" -v d="${3:-1}" 'BEGIN { printf "%." d "f", (a > 0 ? b / a : 0) }'
}

# bench_judge LIMIT VALUE...: sets judged to "met" when every VALUE is at
# most LIMIT, else to "MISSED" (and status to 1 with --strict).
bench_judge() {
    local limit="$1" v
    shift
    judged=met
    for v in "$@"; do
        if ! awk -v v="$v" -v g="$limit" 'BEGIN { exit !(v <= g) }'; then judged=MISSED; fi
    done
    if [ "$judged" = MISSED ] && [ "$strict" -eq 1 ]; then status=1; fi
    return 0
}

# bench_goal WORDS LIMIT VALUE...: bench_judge, printed as
# "goal (WORDS): met" or "goal (WORDS): MISSED".
bench_goal() {
    local words="$1"
    shift
    bench_judge "$@"
    echo "goal ($words): $judged"
}

# bench_simulation_args HELP_LINES "$@": the options of the scripts that run
# a simulation program (bench/*_efficiency.cpp): sets strict (0/1), reps
# (default BENCH_REPS, else 2000) and extra (the arguments after --, for
# the program); --help prints lines HELP_LINES of the calling script.
bench_simulation_args() {
    local help="$1"
    shift
    reps="${BENCH_REPS:-2000}"
    strict=0
    extra=()
    while [ $# -gt 0 ]; do
        case "$1" in
            --strict) strict=1 ;;
            --reps) [ $# -ge 2 ] || { echo "$0: --reps needs a number" >&2; exit 2; }; reps="$2"; shift ;;
            --) shift; extra=("$@"); break ;;
            -h|--help) sed -n "${help}p" "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
            *) echo "$0: unknown argument: $1 (try --help)" >&2; exit 2 ;;
        esac
        shift
    done
    case "$reps" in ''|*[!0-9]*) echo "$0: --reps needs a positive integer" >&2; exit 2 ;; esac
}

# bench_simulation TARGET: builds the simulation program TARGET
# (tests/calibration/) and runs it with --reps, --threads and the extra
# arguments; its output goes to the terminal and to the file $out (removed
# on exit), which bench_found reads.
bench_simulation() {
    bench_build_target "$here" "$1"
    out="$(mktemp)"
    # shellcheck disable=SC2064
    trap "rm -f '$out'" EXIT
    "./$BUILD/tests/calibration/$1" --reps "$reps" --threads "$JOBS" "${extra[@]}" | tee "$out"
}

# bench_found PATTERN MESSAGE: true, MESSAGE printed, when the simulation's
# output holds PATTERN (grep's basic regular expression): a goal missed.
bench_found() {
    grep -q "$1" "$out" || return 1
    echo "$2"
}

# bench_build_target SCRIPT_DIR TARGET: sets BUILD (default build) and JOBS
# (default 2), goes to the source tree and builds TARGET there
# (RelWithDebInfo), for the scripts whose measure is a program of ours.
bench_build_target() {
    BUILD="${BUILD:-build}"
    JOBS="${JOBS:-2}"
    cd "$(dirname "$1")"
    cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    cmake --build "$BUILD" -j "$JOBS" --target "$2" >/dev/null
}
