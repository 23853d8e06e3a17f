# SPDX-License-Identifier: MIT
# What the bench scripts share (sourced, not run): the --strict / --runs
# options, and best-of-N timing with peak RSS.

# bench_parse_args HELP_LINES DEFAULT_RUNS "$@": sets strict (0/1) and runs;
# --help prints lines HELP_LINES (sed range, e.g. 2,20) of the calling script.
bench_parse_args() {
    local help="$1"
    strict=0
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
# last_wall (seconds, from the shell's microsecond clock) and last_rss (KiB,
# GNU time). A failing command ends the script with its stderr.
bench_run() {
    local work="$1" tag="$2"
    shift 2
    local t0 t1 rc=0
    t0=$EPOCHREALTIME
    /usr/bin/time -f '%e %M' -o "$work/$tag.time" "$@" >"$work/$tag.out" 2>"$work/$tag.err" || rc=$?
    t1=$EPOCHREALTIME
    if [ "$rc" -ne 0 ]; then
        echo "$0: '$*' failed with status $rc:" >&2
        cat "$work/$tag.err" >&2
        exit 1
    fi
    last_wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
    last_rss=$(awk 'END { print $2 }' "$work/$tag.time")
}

# bench_best WORKDIR TAG CMD...: one warm-up run (it also fills the page
# cache), then $runs timed runs; sets best_wall (min) and peak_rss (max).
bench_best() {
    local work="$1" tag="$2" i
    shift 2
    bench_run "$work" "$tag" "$@"
    best_wall=""; peak_rss=0
    for ((i = 0; i < runs; i++)); do
        bench_run "$work" "$tag" "$@"
        if [ -z "$best_wall" ] || awk -v a="$last_wall" -v b="$best_wall" 'BEGIN { exit !(a < b) }'; then
            best_wall=$last_wall
        fi
        if [ "$last_rss" -gt "$peak_rss" ]; then peak_rss=$last_rss; fi
    done
}

# bench_setup SCRIPT_DIR SIZE_VAR: what the scaling scripts start with.
# Sets GFXSTAT (default build/gfxstat) and BENCH_DIR (default
# /tmp/gfxstat-bench, created), checks that the environment variable named
# SIZE_VAR holds a positive integer, that gfxstat and GNU time are there,
# and makes `work`, a scratch directory removed on exit.
bench_setup() {
    local here="$1" size_var="$2"
    GFXSTAT="${GFXSTAT:-$(dirname "$here")/build/gfxstat}"
    BENCH_DIR="${BENCH_DIR:-/tmp/gfxstat-bench}"
    case "${!size_var}" in ''|*[!0-9]*|0) echo "$0: $size_var must be a positive integer" >&2; exit 2 ;; esac
    [ -x "$GFXSTAT" ] || { echo "$0: gfxstat not found at $GFXSTAT (build it, or set GFXSTAT=...)" >&2; exit 2; }
    [ -x /usr/bin/time ] || { echo "$0: GNU time not found at /usr/bin/time (apt-get install time)" >&2; exit 2; }
    work="$(mktemp -d "${TMPDIR:-/tmp}/gfxstat-bench.XXXXXX")"
    # shellcheck disable=SC2064
    trap "rm -rf '$work'" EXIT
    mkdir -p "$BENCH_DIR"
}
