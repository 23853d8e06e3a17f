#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The results store at a CI farm's scale (docs/store.md): 10^7 samples,
# generated as 2,000 nightly builds of main x 10 machines, one results file
# per build and machine (one boot, 10 runs x 50 metrics each: 20,000
# files), pushed into a store of each backend, then read as CI jobs and
# developers read it. For SQLite and PostgreSQL:
#
#   push rate     samples/s; one file a `gfxstat store push` call (what a CI
#                 job does: measured on the first --sample files) and many
#                 files a call (--batch files: how the rest are pushed)
#   size          on disk: SQLite's file + its WAL; PostgreSQL's
#                 pg_database_size
#   history       `gfxstat history 'store:machine:m03 variant:main'
#                 --metric m00`: one metric, one machine, every build;
#                 median wall time of --runs timed runs after a warm-up
#                 (and the median CPU time, user + sys, beside it)
#   compare       `gfxstat compare --store URL --baseline 'machine:m03
#                 last:10' candidate.json`: one new boot against the last
#                 10 builds of that machine, 50 metrics; as history
#
#   goals: history <= 200 ms, compare <= 300 ms (at --scale 1)
#
# A part this gfxstat cannot run (no PostgreSQL backend, no store
# selections in the readers, no PostgreSQL server installed) is skipped
# with a line saying which and why; it is never given a figure, and with
# --strict a skipped goal counts as missed.
#
# Usage: bench/store_scale.sh [--strict] [--runs N] [--scale F] [--backend B]
#                             [--batch N] [--sample N]
#   --strict     exit 1 when a goal is missed or not measured
#   --runs N     timed runs of each query after one warm-up (default 5)
#   --scale F    the number of builds times F (default 1: 2,000 builds;
#                0.01: 20 builds, 10^5 samples, a check in seconds); at
#                least 11 builds, so that last:10 has a build before it
#   --backend B  sqlite, postgresql or both (default both)
#   --batch N    files per call of the bulk push (default 500)
#   --sample N   files pushed one per call, first (default 100)
#   --reuse-store  keep the SQLite store in BENCH_DIR, and time the queries
#                on the one an earlier run pushed whole (no push figures)
# Environment: GFXSTAT (default build/gfxstat), BENCH_DIR (default
# /tmp/gfxstat-bench: the generated files, kept while their stamp
# matches; about 10 KiB a file), BENCH_SCALE (as --scale), PG_SERVER (the
# helper that starts a PostgreSQL server in a temporary directory,
# default tests/store/pg_server.py). Needs python3, sqlite3's file layout
# (no tool), and psql for the PostgreSQL size.
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

strict=0
reuse=0
status=0
runs=5
scale="${BENCH_SCALE:-1}"
backend=both
batch=500
sample=100
while [ $# -gt 0 ]; do
    case "$1" in
        --strict) strict=1 ;;
        --reuse-store) reuse=1 ;;
        --runs|--scale|--backend|--batch|--sample)
            [ $# -ge 2 ] || { echo "$0: $1 needs a value" >&2; exit 2; }
            printf -v "${1#--}" '%s' "$2"; shift ;;
        -h|--help) sed -n '2,44p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "$0: unknown argument: $1 (try --help)" >&2; exit 2 ;;
    esac
    shift
done
for v in runs batch sample; do
    case "${!v}" in ''|*[!0-9]*|0) echo "$0: --$v needs a positive integer" >&2; exit 2 ;; esac
done
case "$backend" in sqlite|postgresql|both) ;; *) echo "$0: --backend is sqlite, postgresql or both" >&2; exit 2 ;; esac
awk -v s="$scale" 'BEGIN { exit !(s + 0 > 0 && s + 0 <= 100) }' </dev/null ||
    { echo "$0: --scale needs a number in (0, 100]" >&2; exit 2; }

BUILDS=$(awk -v s="$scale" 'BEGIN { b = int(2000 * s + 0.5); print (b < 11 ? 11 : b) }')
MACHINES=10
METRICS=50
RUNS=10
SEED=20261207
HISTORY_GOAL=200
COMPARE_GOAL=300
FILES=$((BUILDS * MACHINES))
SAMPLES_PER_FILE=$((METRICS * RUNS))
SAMPLES=$((FILES * SAMPLES_PER_FILE))
[ "$sample" -le "$FILES" ] || sample=$FILES

bench_setup "$here" BUILDS
repo="$(dirname "$here")"
PG_SERVER="${PG_SERVER:-$repo/tests/store/pg_server.py}"

data="$BENCH_DIR/store-scale-b$BUILDS"
if bench_data_stale "$data" "v1 seed=$SEED $BUILDS builds x $MACHINES machines x $METRICS metrics x $RUNS runs"; then
    echo "generating $FILES results files in $data ..." >&2
    rm -rf "$data"
    python3 "$here/store_scale_gen.py" "$data" "$BUILDS" "$MACHINES" "$METRICS" "$RUNS" "$SEED"
    echo "v1 seed=$SEED $BUILDS builds x $MACHINES machines x $METRICS metrics x $RUNS runs" > "$data/.complete"
fi
files=("$data"/b*.json)  # b<build>-m<machine>: build order
[ "${#files[@]}" -eq "$FILES" ] || { echo "$0: $data holds ${#files[@]} files, not $FILES" >&2; exit 1; }

# ms_since T0: milliseconds from T0 ($EPOCHREALTIME) to now.
ms_since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", (b - a) * 1000 }'; }

# median V...: the median of the values.
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { printf "%.1f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# first_line FILE: the first line of FILE that says something, for a skip.
first_line() { grep -m1 . "$1" || echo "(no message)"; }

skipped=()
# skip WHAT WHY: a part not measured, said now and again at the end.
skip() {
    echo "  skipped: $1: $2"
    skipped+=("$1: $2")
}

# goal_line WORDS LIMIT VALUE: bench_goal, or "not measured" for an empty VALUE.
goal_line() {
    if [ -z "$3" ]; then
        echo "goal ($1): not measured (skipped, above)"
        [ "$strict" -eq 0 ] || status=1
    else
        bench_goal "$1" "$2" "$3"
    fi
}

# push_all URL: pushes every file, the first $sample one per call, the rest
# $batch per call; prints the rates; false (after a skip line) when the
# first push fails.
push_all() {
    local url="$1" t0 ms i n
    if ! "$GFXSTAT" store push --store "$url" "${files[0]}" >"$work/push.out" 2>"$work/push.err"; then
        skip "push" "gfxstat store push failed: $(first_line "$work/push.err")"
        return 1
    fi
    t0=$EPOCHREALTIME
    for ((i = 1; i < sample; i++)); do
        "$GFXSTAT" store push --store "$url" "${files[i]}" >/dev/null 2>"$work/push.err" ||
            { echo "$0: store push of ${files[i]} failed: $(first_line "$work/push.err")" >&2; exit 1; }
    done
    ms=$(ms_since "$t0")
    n=$((sample - 1))
    if [ "$n" -gt 0 ]; then
        printf '  push, one file a call (%d files): %.1f calls/s, %.0f samples/s\n' "$n" \
            "$(awk -v n="$n" -v ms="$ms" 'BEGIN { print n / ms * 1000 }')" \
            "$(awk -v n="$n" -v s="$SAMPLES_PER_FILE" -v ms="$ms" 'BEGIN { print n * s / ms * 1000 }')"
    fi
    t0=$EPOCHREALTIME
    for ((i = sample; i < FILES; i += batch)); do
        "$GFXSTAT" store push --store "$url" "${files[@]:i:batch}" >/dev/null 2>"$work/push.err" ||
            { echo "$0: store push of ${files[i]} and after failed: $(first_line "$work/push.err")" >&2; exit 1; }
    done
    ms=$(ms_since "$t0")
    n=$((FILES - sample))
    if [ "$n" -gt 0 ]; then
        printf '  push, %d files a call (%d files): %.0f samples/s (%.1f s)\n' "$batch" "$n" \
            "$(awk -v n="$n" -v s="$SAMPLES_PER_FILE" -v ms="$ms" 'BEGIN { print n * s / ms * 1000 }')" \
            "$(awk -v ms="$ms" 'BEGIN { print ms / 1000 }')"
    fi
    # Nothing lost: the store counts every sample pushed.
    "$GFXSTAT" store ls --store "$url" >"$work/ls.out" 2>&1 || { echo "$0: store ls failed:" >&2; cat "$work/ls.out" >&2; exit 1; }
    grep -q "\b$SAMPLES samples\b" "$work/ls.out" ||
        { echo "$0: the store does not hold the $SAMPLES samples pushed; store ls says:" >&2; head -5 "$work/ls.out" >&2; exit 1; }
}

# time_query NAME CMD...: one warm-up run, then $runs timed runs; sets
# query_ms to the median in milliseconds, or to "" (after a skip line)
# when the warm-up fails. Exit status 1 is an answer (history found a
# change, compare a difference), not a failure.
time_query() {
    local name="$1" rc=0 t0 i
    shift
    query_ms=""
    "$@" >"$work/$name.out" 2>"$work/$name.err" || rc=$?
    if [ "$rc" -gt 1 ]; then
        skip "$name" "exit $rc: $(first_line "$work/$name.err")"
        return 0
    fi
    local times=() cpus=()
    for ((i = 0; i < runs; i++)); do
        rc=0
        t0=$EPOCHREALTIME
        /usr/bin/time -f '%U %S' -o "$work/$name.time" "$@" >/dev/null 2>&1 || rc=$?
        times+=("$(ms_since "$t0")")
        cpus+=("$(awk 'END { printf "%.0f", ($1 + $2) * 1000 }' "$work/$name.time")")
        [ "$rc" -le 1 ] || { echo "$0: $name failed (exit $rc) after a warm-up that did not" >&2; exit 1; }
    done
    query_ms=$(median "${times[@]}")
    query_cpu=$(median "${cpus[@]}")
}

# queries URL LABEL: the history and compare timings of one store, with
# their goal lines.
queries() {
    local url="$1" label="$2" h c
    time_query "$label-history" "$GFXSTAT" history --store "$url" 'store:machine:m03 variant:main' --metric m00
    h=$query_ms
    if [ -n "$h" ]; then
        printf '  history, m00 on m03, %d builds: %s ms (CPU %s ms; median of %d; %s of the goal)\n' "$BUILDS" "$h" \
            "$query_cpu" "$runs" "$(bench_growth "$HISTORY_GOAL" "$h" 2)"
    fi
    time_query "$label-compare" "$GFXSTAT" compare --store "$url" --baseline 'machine:m03 last:10' "$data/candidate.json"
    c=$query_ms
    if [ -n "$c" ]; then
        printf '  compare, candidate.json against m03 last:10: %s ms (CPU %s ms; median of %d; %s of the goal)\n' "$c" \
            "$query_cpu" "$runs" "$(bench_growth "$COMPARE_GOAL" "$c" 2)"
    fi
    results+=("$(goal_line "$label history <= $HISTORY_GOAL ms" "$HISTORY_GOAL" "$h")")
    results+=("$(goal_line "$label compare <= $COMPARE_GOAL ms" "$COMPARE_GOAL" "$c")")
    # goal_line ran in a subshell: its status did not reach this one.
    if [ "$strict" -eq 1 ] && printf '%s\n' "${results[@]}" | grep -q 'MISSED\|not measured'; then status=1; fi
}

results=()
echo "store_scale: $BUILDS builds x $MACHINES machines x $METRICS metrics x $RUNS runs = $SAMPLES samples in $FILES files"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"

if [ "$backend" != postgresql ]; then
    echo "sqlite:"
    db="$work/store.sqlite"
    pushed=0
    if [ "$reuse" -eq 1 ]; then
        db="$data/store.sqlite"
        if [ -f "$data/store.complete" ] && [ -f "$db" ]; then
            echo "  push: not measured (--reuse-store: the store an earlier run pushed)"
            pushed=1
        else
            rm -f "$db" "$db-wal" "$db-shm" "$data/store.complete"
        fi
    fi
    if [ "$pushed" -eq 1 ] || { push_all "sqlite:$db" && { [ "$reuse" -eq 0 ] || touch "$data/store.complete"; }; }; then
        size=$(( $(stat -c %s "$db") + $( [ -f "$db-wal" ] && stat -c %s "$db-wal" || echo 0) ))
        printf '  size: %.1f MiB (database %.1f, WAL %.1f), %.1f bytes a sample\n' \
            "$(bench_mib $((size / 1024)))" "$(bench_mib $(($(stat -c %s "$db") / 1024)))" \
            "$(bench_mib $(( ( $( [ -f "$db-wal" ] && stat -c %s "$db-wal" || echo 0) ) / 1024)))" \
            "$(awk -v b="$size" -v n="$SAMPLES" 'BEGIN { print b / n }')"
        queries "sqlite:$db" sqlite
    else
        results+=("$(goal_line "sqlite history <= $HISTORY_GOAL ms" 0 "")" "$(goal_line "sqlite compare <= $COMPARE_GOAL ms" 0 "")")
        [ "$strict" -eq 0 ] || status=1
    fi
fi

if [ "$backend" != sqlite ]; then
    echo "postgresql:"
    pg_ok=1
    if [ ! -f "$PG_SERVER" ]; then
        skip "postgresql" "no PostgreSQL server helper at $PG_SERVER (it comes with gfxstat's PostgreSQL backend)"
        pg_ok=0
    elif ! command -v psql >/dev/null; then
        skip "postgresql" "psql not found (apt-get install postgresql-client-15)"
        pg_ok=0
    elif ! chmod 711 "$work" || ! pg_url=$(python3 "$PG_SERVER" start "$work/pg" 2>"$work/pg.err"); then
        skip "postgresql" "no server could be started: $(first_line "$work/pg.err")"
        pg_ok=0
    else
        # shellcheck disable=SC2064
        trap "python3 '$PG_SERVER' stop '$work/pg' >/dev/null 2>&1 || true; rm -rf '$work'" EXIT
        # The helper's server is the tests' (no fsync): made durable here, as
        # a farm's server is, so that its pushes pay what SQLite's pay.
        psql "$pg_url" -qAt -c 'ALTER SYSTEM SET fsync = on' -c 'ALTER SYSTEM SET synchronous_commit = on' \
            -c 'ALTER SYSTEM SET full_page_writes = on' -c 'SELECT pg_reload_conf()' >/dev/null
        echo "  server: $(psql "$pg_url" -qAt -c 'SHOW server_version' | cut -d' ' -f1), fsync $(psql "$pg_url" -qAt \
            -c 'SHOW fsync'), synchronous_commit $(psql "$pg_url" -qAt -c 'SHOW synchronous_commit'), shared_buffers $(psql \
            "$pg_url" -qAt -c 'SHOW shared_buffers') (started by $(basename "$PG_SERVER"))"
        if ! "$GFXSTAT" store init --store "$pg_url" >"$work/pginit.out" 2>&1; then
            skip "postgresql" "this gfxstat does not open a PostgreSQL store: $(first_line "$work/pginit.out")"
            pg_ok=0
        fi
    fi
    if [ "$pg_ok" -eq 1 ] && push_all "$pg_url"; then
        bytes=$(psql "$pg_url" -Atqc 'SELECT pg_database_size(current_database())')
        printf '  size: %.1f MiB (pg_database_size), %.1f bytes a sample\n' "$(bench_mib $((bytes / 1024)))" \
            "$(awk -v b="$bytes" -v n="$SAMPLES" 'BEGIN { print b / n }')"
        queries "$pg_url" postgresql
    else
        results+=("$(goal_line "postgresql history <= $HISTORY_GOAL ms" 0 "")" "$(goal_line "postgresql compare <= $COMPARE_GOAL ms" 0 "")")
        [ "$strict" -eq 0 ] || status=1
    fi
fi

printf '%s\n' "${results[@]}"
if [ "${#skipped[@]}" -gt 0 ]; then
    echo "not measured:"
    printf '  %s\n' "${skipped[@]}"
fi
exit "$status"
