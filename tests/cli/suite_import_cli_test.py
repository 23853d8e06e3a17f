#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A suite's results from CSV (`gfxstat import --from csv --bench-col ...`):
the long table (a row per observation: variant,test,fps, as pandas' melt
writes it) and the wide one (a row per benchmark, a column per variant)
give byte for byte the same results file (but for its id and creation
time) whatever the rows' order and the columns' order; the column roles
(--variant-cols, --run-col, --boot-col, several --value-col with --unit
COL=UNIT, --metric, --label); the errors (exit 2, FILE:LINE and what was
expected, no output file); the fixtures of tests/data/import/csv/; and
the suites other formats hold: a saved IGT output of every
gem_fence_upload subtest and a PTS composite.xml of several results, one
metric per subtest line or result."""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import check, finish, paths, run, write  # noqa: E402

GFXBENCH = ["gl_4", "gl_manhattan", "gl_trex", "gl_alu2", "gl_driver2",
            "gl_4_off", "gl_manhattan_off", "gl_trex_off", "gl_alu2_off", "gl_driver2_off"]
FPS = ["--unit", "fps", "--higher-is-better"]


def run_in(cwd, args):
    """(exit status, stdout, stderr) of a command run in directory `cwd`."""
    p = subprocess.run(args, capture_output=True, cwd=cwd)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def records(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def without_identity(path):
    """The file's bytes, its header's "id" and "created" members cut out."""
    with open(path, "rb") as f:
        data = f.read()
    header, _, rest = data.partition(b"\n")
    cut = re.sub(rb'"(id|created)":"[^"]*",', b"", header)
    check(len(cut) < len(header) - 40, f"{path}: a header with id and created: {header!r}")
    return cut + b"\n" + rest


def import_as(g, d, name, text, flags):
    """Writes `text` to d/NAME/suite.csv and imports it from there, so that
    every shape's runs have the same source ("suite.csv"); returns the
    results file's path, or None when the import failed."""
    sub = os.path.join(d, name)
    os.makedirs(sub)
    write(sub, "suite.csv", text)
    rc, _, err = run_in(sub, [g, "import", "--from", "csv", *flags, "suite.csv", "-o", "out.json"])
    if not check(rc == 0, f"{name}: import exits 0 (got {rc}: {err})"):
        return None
    return os.path.join(sub, "out.json")


def same_files(label, a, b):
    if a is None or b is None:
        return
    ta, tb = without_identity(a), without_identity(b)
    check(ta == tb, f"{label}: byte-identical results files but for id and created:\n{ta}\n---\n{tb}")


def long_equals_wide(g, src, d):
    with open(os.path.join(src, "tests/data/import/csv/gfxbench4-avg-wide.csv")) as f:
        wide_text = f.read()
    rows = [line.split(",") for line in wide_text.splitlines()[1:]]
    by_variant = "variant,test,fps\n" + "".join(f"{v},{r[0]},{r[k]}\n" for v, k in (("before", 1), ("after", 2))
                                                for r in rows)
    # melt()'s own column order, rows interleaved as the passes ran.
    melt_order = "test,variant,fps\n" + "".join(f"{r[0]},{v},{r[k]}\n" for r in rows
                                                for v, k in (("before", 1), ("after", 2)))
    with open(os.path.join(src, "tests/data/import/csv/gfxbench4-avg-long.csv")) as f:
        check(f.read() == by_variant, "gfxbench4-avg-long.csv is gfxbench4-avg-wide.csv's table as a long one")
    long_flags = ["--variant-col", "variant", "--bench-col", "test", "--value-col", "fps", *FPS]
    wide = import_as(g, d, "wide", wide_text, ["--bench-col", "test", *FPS])
    same_files("long by variant = wide", import_as(g, d, "long", by_variant, long_flags), wide)
    same_files("long in melt's column order, interleaved = wide",
               import_as(g, d, "melt", melt_order, long_flags), wide)

    recs = records(wide) if wide else []
    check([r["name"] for r in recs if r.get("type") == "metric"] == GFXBENCH,
          f"one metric per test, in the file's order: {recs}")
    check(all(r["unit"] == "fps" and r["direction"] == "higher" for r in recs if r.get("type") == "metric"),
          f"--unit and --higher-is-better declared: {recs}")
    runs = [r for r in recs if r.get("type") == "run"]
    check([(r["variant"], r["run"], r["source"]) for r in runs] ==
          [("before", 0, "suite.csv"), ("after", 0, "suite.csv")], f"one run of 10 metrics per variant: {runs}")
    check(runs and runs[1]["metrics"]["gl_trex_off"] == 3047, f"values kept: {runs}")

    # Repetitions: 3 passes of 2 tests, long (passes in the rows' order)
    # and wide (each test's rows repeated), interleaved by pass.
    passes = [("gl_manhattan", [(1144, 1202), (1139, 1195), (1150, 1208)]),
              ("gl_trex", [(2224, 2152), (2231, 2160), (2219, 2147)])]
    wide3 = "test,before,after\n" + "".join(f"{t},{b},{a}\n" for k in range(3) for t, v in passes
                                           for b, a in [v[k]])
    long3 = "variant,test,fps\n" + "".join(f"{var},{t},{v[k][i]}\n" for var, i in (("before", 0), ("after", 1))
                                           for t, v in passes for k in range(3))
    w3 = import_as(g, d, "wide3", wide3, ["--bench-col", "test"])
    same_files("3 passes, long = wide", import_as(g, d, "long3", long3,
                                                  ["--variant-col", "variant", "--bench-col", "test",
                                                   "--value-col", "fps"]), w3)
    runs = [r for r in records(w3) if r.get("type") == "run"] if w3 else []
    check([(r["variant"], r["run"]) for r in runs] ==
          [("before", 0), ("after", 0), ("before", 1), ("after", 1), ("before", 2), ("after", 2)],
          f"runs by index, then variant: {runs}")
    check([r["metrics"]["gl_trex"] for r in runs] == [2224, 2152, 2231, 2160, 2219, 2147], f"values: {runs}")


def column_roles(g, src, d):
    csvdir = os.path.join(src, "tests/data/import/csv")
    out = os.path.join(d, "roles.json")

    def imported(flags, name):
        if os.path.exists(out):
            os.remove(out)
        rc, _, err = run([g, "import", "--from", "csv", *flags, os.path.join(csvdir, name), "-o", out])
        if not check(rc == 0, f"import {flags} {name} exits 0 (got {rc}: {err})"):
            return [], []
        recs = records(out)
        return [r for r in recs if r.get("type") == "metric"], [r for r in recs if r.get("type") == "run"]

    # Two value columns, a unit each; the pass column as the run index.
    flags = ["--variant-col", "variant", "--bench-col", "test", "--value-col", "score", "--value-col", "fps",
             "--unit", "score=frames", "--unit", "fps=fps", "--higher-is-better"]
    metrics, runs = imported(flags, "gfxbench-3-passes-long.csv")
    check([(m["name"], m["unit"], m["direction"]) for m in metrics] ==
          [("gl_manhattan/score", "frames", "higher"), ("gl_manhattan/fps", "fps", "higher"),
           ("gl_trex/score", "frames", "higher"), ("gl_trex/fps", "fps", "higher")],
          f"BENCH/COLUMN metrics with their columns' units: {metrics}")
    check(len(runs) == 6 and runs[5] == {"type": "run", "variant": "after", "run": 2, "exit": {"class": "ok"},
                                         "metrics": {"gl_manhattan/score": 1208, "gl_manhattan/fps": 19.48,
                                                     "gl_trex/score": 2147, "gl_trex/fps": 38.34},
                                         "source": os.path.join(csvdir, "gfxbench-3-passes-long.csv")},
          f"3 runs per variant, interleaved: {runs}")
    _, by_pass = imported(flags + ["--run-col", "pass"], "gfxbench-3-passes-long.csv")
    check(by_pass == runs, f"--run-col pass says what the rows' order says: {by_pass}")
    metrics, runs = imported(flags + ["--metric", "gl_trex/fps"], "gfxbench-3-passes-long.csv")
    check([m["name"] for m in metrics] == ["gl_trex/fps"] and len(runs) == 6 and
          all(list(r["metrics"]) == ["gl_trex/fps"] for r in runs), f"--metric keeps one: {metrics} {runs}")

    # A long table without a variant column: --label names its one variant.
    metrics, runs = imported(["--bench-col", "test", "--value-col", "fps", "--label", "mesa"],
                             "gfxbench-3-passes-long.csv")
    check({r["variant"] for r in runs} == {"mesa"} and len(runs) == 6, f"--label: {runs}")

    # Wide: --variant-cols picks; empty cells are no values; boots.
    _, runs = imported(["--bench-col", "surfaces", "--variant-cols", "after"], "fence-upload-wide.csv")
    check([(r["variant"], r["run"]) for r in runs] == [("after", 0)], f"--variant-cols after: {runs}")
    _, runs = imported(["--bench-col", "test"], "suite_wide_gaps.csv")
    check([(r["variant"], r["run"], r["metrics"]) for r in runs] ==
          [("before", 0, {"gl_4": 577, "gl_trex": 2224}), ("after", 0, {"gl_4": 583}),
           ("before", 1, {"gl_4": 580}), ("after", 1, {"gl_trex": 2150})], f"gaps in a wide table: {runs}")
    boots = write(d, "boots.csv", "variant,boot,test,fps\na,b1,x,1\na,b1,y,2\nb,b2,x,3\nb,b2,y,4\n")
    rc, _, err = run([g, "import", "--from", "csv", "--variant-col", "variant", "--bench-col", "test",
                      "--value-col", "fps", "--boot-col", "boot", boots, "-o", out + ".boots"])
    runs = [r for r in records(out + ".boots") if r.get("type") == "run"] if rc == 0 else []
    check(rc == 0 and [(r["variant"], r.get("boot")) for r in runs] == [("a", "b1"), ("b", "b2")],
          f"--boot-col: {rc} {err} {runs}")

    # Appended: run indices continue per variant.
    wide = os.path.join(csvdir, "gfxbench4-avg-wide.csv")
    first = os.path.join(d, "append.json")
    run([g, "import", "--from", "csv", "--bench-col", "test", *FPS, wide, "-o", first])
    rc, _, err = run([g, "import", "--from", "csv", "--bench-col", "test", *FPS, "--append", wide, "-o", first])
    runs = [r for r in records(first) if r.get("type") == "run"]
    check(rc == 0 and [(r["variant"], r["run"]) for r in runs] ==
          [("before", 0), ("after", 0), ("before", 1), ("after", 1)], f"--append continues: {err} {runs}")


def errors(g, src, d):
    csvdir = os.path.join(src, "tests/data/import/csv")
    out = os.path.join(d, "bad.json")
    long_flags = ["--variant-col", "variant", "--bench-col", "test", "--value-col", "fps"]
    cases = [
        # (flags, file, what stderr must hold)
        (["--variant-col", "variant", "--bench-col", "tset", "--value-col", "fps"], "gfxbench4-avg-long.csv",
         "gfxbench4-avg-long.csv:1: no column 'tset' for --bench-col (the header has: variant, test, fps); "
         "did you mean test?"),
        (["--variant-col", "varaint", "--bench-col", "test", "--value-col", "fps"], "gfxbench4-avg-long.csv",
         "gfxbench4-avg-long.csv:1: no column 'varaint' for --variant-col (the header has: variant, test, fps); "
         "did you mean variant?"),
        (["--bench-col", "test", "--variant-cols", "before,xyz"], "gfxbench4-avg-wide.csv",
         "gfxbench4-avg-wide.csv:1: no column 'xyz' for --variant-cols (the header has: test, before, after)\n"),
        (long_flags, "suite_empty_bench.csv",
         "suite_empty_bench.csv:3: empty cell in column 'test' (--bench-col): expected the benchmark's name"),
        (long_flags, "suite_empty_variant.csv",
         "suite_empty_variant.csv:3: empty cell in column 'variant' (--variant-col): expected the variant's label"),
        (["--bench-col", "test"], "suite_bad_number.csv",
         "suite_bad_number.csv:3: expected a number in column 'after', found \"fast\""),
        (["--bench-col", "test", "--run-col", "run"], "suite_duplicate.csv",
         "suite_duplicate.csv:3: benchmark 'gl_4' of run 0 of variant 'before' is recorded twice (also on line 2)"),
        (long_flags + ["--boot-col", "boot", "--run-col", "run"], "suite_two_boots.csv",
         "suite_two_boots.csv:3: run 0 of variant 'before' is in boot \"b2\" here but in boot \"b1\" on line 2"),
        (long_flags + ["--label", "mine"], "gfxbench4-avg-long.csv",
         "gfxbench4-avg-long.csv:1: --variant-col names the column 'variant' and --label also names the variant"),
        (["--bench-col", "test", "--label", "mine"], "gfxbench4-avg-wide.csv",
         "gfxbench4-avg-wide.csv:1: --label names one variant, but in a wide table each variant column is a "
         "variant (before, after)"),
        (long_flags + ["--metric", "gl_5"], "gfxbench4-avg-long.csv",
         "gfxbench4-avg-long.csv: no metric 'gl_5'; the file has: gl_4, gl_manhattan,"),
        # The command line's: no file read.
        (["--value-col", "fps"], "gfxbench4-avg-long.csv",
         "gfxstat import: --value-col describes a suite's table and needs --bench-col"),
        (["--bench-col", "test", "--variant-cols", "before", "--value-col", "fps"], "gfxbench4-avg-wide.csv",
         "gfxstat import: --variant-cols picks the variant columns of a wide table (a row per benchmark); "
         "--variant-col and --value-col describe a long one"),
        (["--bench-col", "test", "--variant-col", "variant"], "gfxbench4-avg-long.csv",
         "gfxstat import: --variant-col describes a long table (a row per observation) and needs --value-col"),
        (["--bench-col", "test", "--run-col", "test"], "gfxbench4-avg-wide.csv",
         "gfxstat import: column 'test' is named by --bench-col and by --run-col: a column has one role"),
        (long_flags + ["--value-col", "x", "--unit", "ms=ms"], "gfxbench4-avg-long.csv",
         "gfxstat import: --unit ms=ms: 'ms' is not a --value-col (value columns: fps, x)"),
        (long_flags + ["--value-col", "x", "--unit", "fps", "--unit", "ms"], "gfxbench4-avg-long.csv",
         "gfxstat import: --unit given twice ('fps', 'ms'): give one unit, or COL=UNIT for each --value-col"),
    ]
    for flags, name, want in cases:
        if os.path.exists(out):
            os.remove(out)
        rc, _, err = run([g, "import", "--from", "csv", *flags, os.path.join(csvdir, name), "-o", out])
        check(rc == 2, f"{flags} {name}: exit 2 (got {rc}: {err})")
        check(want in err, f"{flags} {name}: stderr holds {want!r}; got {err!r}")
        check(not os.path.exists(out), f"{flags} {name}: no output file")
    rc, _, err = run([g, "import", "--from", "lines", "--bench-col", "test",
                      os.path.join(csvdir, "gfxbench4-avg-wide.csv"), "-o", out])
    check(rc == 2 and "use them with --from csv" in err, f"--bench-col with --from lines: {rc} {err}")
    # Not a crash on any bytes: a table cut anywhere, odd quoting.
    with open(os.path.join(csvdir, "gfxbench4-avg-long.csv"), "rb") as f:
        text = f.read()
    odd = os.path.join(d, "odd.csv")
    for cut in range(0, len(text) + 1, 13):
        for tail in (b"", b"\"", b",,\n", b"\x00"):
            with open(odd, "wb") as f:
                f.write(text[:cut] + tail)
            for flags in (["--variant-col", "variant", "--bench-col", "test", "--value-col", "fps"],
                          ["--bench-col", "test"], ["--bench-col", "test", "--run-col", "fps"]):
                rc, _, err = run([g, "import", "--from", "csv", *flags, odd, "-o", "-"])
                if not check(rc in (0, 2) and ("odd.csv" in err or rc == 0),
                             f"cut at {cut} + {tail!r} {flags}: exit 0 or 2 naming the file (got {rc}: {err})"):
                    return


def fixtures(g, src, d):
    csvdir = os.path.join(src, "tests/data/import/csv")
    out = os.path.join(d, "fence.json")
    rc, _, err = run([g, "import", "--from", "csv", "--bench-col", "surfaces", "--unit", "MiB/s",
                      "--higher-is-better", os.path.join(csvdir, "fence-upload-wide.csv"), "-o", out])
    check(rc == 0 and "2 runs (24 samples) of 2 variants" in err, f"fence-upload-wide.csv: {rc} {err}")
    recs = records(out) if rc == 0 else []
    names = [r["name"] for r in recs if r.get("type") == "metric"]
    check(names == [f"{n} {k}" for n in (2, 4, 8, 16, 32, 64) for k in ("linear", "tiled")],
          f"12 metrics named by their rows: {names}")
    runs = [r for r in recs if r.get("type") == "run"]
    check(len(runs) == 2 and runs[0]["metrics"]["64 tiled"] == 2013 and runs[1]["metrics"]["64 tiled"] == 3017,
          f"64 tiled 2013 -> 3017 MiB/s: {runs}")
    rc, out_text, err = run([g, "show", out])
    check(rc == 0, f"show reads the imported file: {rc} {err}")


# gem_fence_upload's subtests as today's IGT prints them (its format
# strings; the rates made up).
FENCE_UPLOAD_OUTPUT = """IGT-Version: 1.28-g0123456 (x86_64) (Linux: 6.8.0-31-generic x86_64)
Starting subtest: performance
Upload rate for 2 linear surfaces:\t8127.123MiB/s
Upload rate for 2 tiled surfaces:\t8607.456MiB/s
Subtest performance: SUCCESS (2.046s)
Starting subtest: thread-contention
Contended upload rate for 1 linear threads:\t1201.250MiB/s
Contended upload rate for 1 tiled threads:\t1100.500MiB/s
Subtest thread-contention: SUCCESS (1.020s)
Starting subtest: wc-contention
Contended upload rate for 1 linear threads/wc:\t 901.000MiB/s
Contended upload rate for 1 tiled threads/wc:\t 851.000MiB/s
Subtest wc-contention: SUCCESS (0.998s)
Starting subtest: thread-performance-read
Download rate for 2 linear surfaces, 2 threads:\t 400.000MiB/s
Download rate for 2 tiled surfaces, 2 threads:\t 380.000MiB/s
Subtest thread-performance-read: SUCCESS (0.301s)
Starting subtest: thread-performance-write
Upload rate for 2 linear surfaces, 2 threads:\t 500.000MiB/s
Upload rate for 2 tiled surfaces, 2 threads:\t 480.000MiB/s
Subtest thread-performance-write: SUCCESS (0.299s)
Starting subtest: thread-performance-both
Combined rate for 2 linear surfaces, 4 threads:\t 450.000MiB/s
Combined rate for 2 tiled surfaces, 4 threads:\t 430.000MiB/s
Subtest thread-performance-both: SUCCESS (0.305s)
"""


def other_suites(g, src, d):
    saved = write(d, "fence_upload.txt", FENCE_UPLOAD_OUTPUT)
    out = os.path.join(d, "igt.json")
    rc, _, err = run([g, "import", "--from", "igt-fence-upload", saved, "-o", out])
    recs = records(out) if rc == 0 else []
    names = [r["name"] for r in recs if r.get("type") == "metric"]
    check(rc == 0 and names == ["linear_2", "tiled_2", "contended_linear_threads_1", "contended_tiled_threads_1",
                                "contended_wc_linear_threads_1", "contended_wc_tiled_threads_1",
                                "download_linear_2_threads_2", "download_tiled_2_threads_2",
                                "linear_2_threads_2", "tiled_2_threads_2",
                                "combined_linear_2_threads_4", "combined_tiled_2_threads_4"],
          f"one metric per subtest line: {rc} {err} {names}")
    runs = [r for r in recs if r.get("type") == "run"]
    check(len(runs) == 1 and all(not isinstance(v, list) for v in runs[0]["metrics"].values()),
          f"one value each, none pooled: {runs}")

    out = os.path.join(d, "pts.json")
    rc, _, err = run([g, "import", "--from", "pts", os.path.join(src, "tests/data/import/pts/composite.xml"),
                      "-o", out])
    names = [r["name"] for r in records(out) if r.get("type") == "metric"] if rc == 0 else []
    check(rc == 0 and names == [
        "Unigine Heaven (Resolution: 1920 x 1080 - Mode: Fullscreen - Renderer: OpenGL)",
        "Timed Mesa Compilation (Time To Compile)"], f"one metric per PTS result: {rc} {err} {names}")


def main():
    g, src = paths()
    g, src = os.path.abspath(g), os.path.abspath(src)  # some imports run in another directory
    d = tempfile.mkdtemp(prefix="gfxstat-suite-import-")
    try:
        long_equals_wide(g, src, d)
        column_roles(g, src, d)
        errors(g, src, d)
        fixtures(g, src, d)
        other_suites(g, src, d)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return finish("suite_import_cli: long = wide, column roles, errors, fixtures, IGT and PTS suites")


if __name__ == "__main__":
    sys.exit(main())
