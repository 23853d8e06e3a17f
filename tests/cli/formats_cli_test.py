#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""formats/ from the command line: every output parser also imports saved
outputs (`import --from igt-exec-nop`, several EzBench runs in one file),
`time` and the file formats are refused with the reason, and the gbench
and gotest parsers read a run's stdout (printed here by `cat` of the
importers' fixtures: no Go or Google Benchmark needed)."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402
from testlib import check, finish, run  # noqa: E402


def records(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def runs_of(path):
    return [r for r in records(path) if r.get("type") == "run"]


def declared(path):
    return {r["name"]: r for r in records(path) if r.get("type") == "metric"}


def main():
    g, src = testlib.paths()
    outputs = os.path.join(src, "tests/data/run_outputs")
    imports = os.path.join(src, "tests/data/import")
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ)
        boot_file = testlib.write(d, "boot_id", "11111111-2222-3333-4444-555555555555\n")
        env["GFXSTAT_BOOT_ID_FILE"] = boot_file

        def grun(*a):
            p = subprocess.run([g, "run", *a], capture_output=True, env=env, timeout=120)
            return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")

        # A saved gem_exec_nop output (the seed thread's SKL run), imported
        # with the parser `run --parser igt-exec-nop` uses.
        saved = os.path.join(d, "saved.txt")
        shutil.copy(os.path.join(outputs, "gem_exec_nop.basic.skl_guc6.1.txt"), saved)
        out = os.path.join(d, "nop.json")
        rc, _, err = run([g, "import", "--from", "igt-exec-nop", saved, "-o", out])
        check(rc == 0, f"import --from igt-exec-nop: exit {rc}: {err}")
        if rc == 0:
            runs = runs_of(out)
            check(len(runs) == 1 and runs[0]["variant"] == "saved", f"one run labelled 'saved': {runs}")
            check(runs and runs[0]["metrics"].get("render") == 3.366, f"the engines' metrics: {runs}")
            check(declared(out).get("render", {}).get("unit") == "us" and
                  declared(out)["render"].get("primary") is True, f"render declared in us: {declared(out)}")
            check("1 run " in err, f"the summary line: {err}")

        # Two EzBench runs in one file: one run per status line.
        two = testlib.write(d, "two.txt", "render: float(16.7) ms\n: str(completed)\n"
                                          "render: float(16.9) ms\n: str(failed)\n")
        out = os.path.join(d, "ez.json")
        rc, _, err = run([g, "import", "--from", "ezbench", two, "-o", out])
        check(rc == 0, f"import --from ezbench of two runs: exit {rc}: {err}")
        if rc == 0:
            runs = runs_of(out)
            check([r["metrics"].get("render") for r in runs] == [16.7, 16.9], f"two runs' values: {runs}")
            check([r["exit"]["class"] for r in runs] == ["ok", "fail"], f"each run's status: {runs}")
            check([r.get("source") for r in runs] == [two + ":1", two + ":3"], f"each run's source line: {runs}")

        # `time` has nothing in a saved file to import.
        rc, _, err = run([g, "import", "--from", "time", saved, "-o", os.path.join(d, "time.json")])
        check(rc == 2 and "'time' reads a live run only" in err and "gfxstat run --parser time" in err,
              f"import --from time refused with the reason: {rc} {err}")
        check(not os.path.exists(os.path.join(d, "time.json")), "nothing written for --from time")
        rc, _, err = run([g, "import", "--from", "no-such", saved, "-o", os.path.join(d, "x.json")])
        check(rc == 2 and "unknown format 'no-such'; known: lines, " in err, f"unknown --from: {rc} {err}")

        # A file format is not a run's output.
        rc, _, err = grun("--runs", "1", "--parser", "hyperfine", "-o", os.path.join(d, "h.json"), "--", "true")
        check(rc == 2 and "hyperfine is a file format: use gfxstat import --from hyperfine" in err,
              f"run --parser hyperfine refused: {rc} {err}")
        check(not os.path.exists(os.path.join(d, "h.json")), "nothing written for --parser hyperfine")

        # go test's output on stdout, three runs of one process each.
        bench = os.path.join(imports, "gotest/bench.txt")
        out = os.path.join(d, "go.json")
        rc, _, err = grun("--runs", "3", "--parser", "gotest", "-o", out, "--", "cat", bench)
        check(rc == 0, f"run --parser gotest: exit {rc}: {err}")
        if rc == 0:
            runs = runs_of(out)
            check(len(runs) == 3, f"three runs: {runs}")
            check(all(r["metrics"].get("BenchmarkDecode/small-16:ns/op") == [2345, 2351, 2398, 2339, 2347]
                      for r in runs), f"each run holds -count's repetitions: {runs[:1]}")
            decl = declared(out).get("BenchmarkDecode/small-16:ns/op", {})
            check(decl.get("unit") == "ns/op" and decl.get("direction") == "lower" and decl.get("primary") is True,
                  f"ns/op declared: {decl}")
            # What the output says about the run joins the environment, but
            # never overrules what gfxstat probed: this machine's CPU is not
            # the fixture's Ryzen.
            envs = [r for r in records(out) if r.get("type") == "environment"]
            fields = envs[0] if envs else {}
            check(fields.get("go_pkg") == "example.com/gfx/decode", f"go's pkg line recorded: {fields}")
            probed = ""
            with open("/proc/cpuinfo") as f:
                for line in f:
                    if line.startswith("model name"):
                        probed = line.split(":", 1)[1].strip()
                        break
            if probed and "Ryzen 7 5800X" not in probed:
                check(fields.get("cpu_model") == probed, f"the probed cpu_model stays: {fields.get('cpu_model')!r}")
        out = os.path.join(d, "go-bad.json")
        rc, _, err = grun("--runs", "1", "--parser", "gotest", "-o", out, "--", "echo", "PASS")
        check(rc != 0 and "no benchmark result lines" in err, f"run --parser gotest on no result: {rc} {err}")

        # Google Benchmark's JSON on stdout.
        out = os.path.join(d, "gb.json")
        rc, _, err = grun("--runs", "2", "--parser", "gbench", "-o", out, "--", "cat",
                          os.path.join(imports, "gbench/repetitions.json"))
        check(rc == 0, f"run --parser gbench: exit {rc}: {err}")
        if rc == 0:
            runs = runs_of(out)
            check(len(runs) == 2 and all(any(k.endswith(":cpu_time") for k in r["metrics"]) for r in runs),
                  f"two runs with real and cpu time: {runs[:1]}")

        # A saved output of many runs: import --from cuts it into one run per
        # replayer summary line and names each run's first line. 40000 runs
        # took 46 s when every run's line was counted from the top of the
        # file; counted on from the previous run it is well under a second.
        many = testlib.write(d, "many.txt", "".join(
            f"Rendered 47 frames in 0.140169 secs, average of {300 + i % 50}.309 fps\n" for i in range(40000)))
        out = os.path.join(d, "many.json")
        t0 = time.monotonic()
        rc, _, err = run([g, "import", "--from", "apitrace", many, "-o", out])
        took = time.monotonic() - t0
        check(rc == 0 and "40000 runs" in err, f"import of 40000 saved replays: {rc} {err}")
        check(took < 10, f"import of 40000 saved replays is linear: {took:.1f} s")
        if rc == 0:
            sources = [r["source"] for r in runs_of(out)]
            check(sources[0].endswith("many.txt:1") and sources[-1].endswith("many.txt:40000") and
                  len(set(sources)) == 40000, f"each run names its own line: {sources[:2]} ... {sources[-1:]}")
    return finish("formats from the command line: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
