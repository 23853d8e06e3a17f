#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Costs of `gfxstat compare` over a suite that must stay linear in the
suite's size: the suite table of 300 and 3,000 benchmarks measured 3 times
a side, a suite measured once a side (paired by benchmark) of 1,000 and
10,000 benchmarks, --filter on 100,000 and 1,000,000 observations, and
--summaries on tables of 100 and 1,000 rows. Each pair is 10 times apart.

As in scaling_cli_test.py, checks are on peak memory (each child's own,
from wait4: ten times the input may cost at most 15 times the memory) and
on what the commands print (every benchmark has its row), never on wall
time: these machines are shared and noisy. Each command has a generous
time limit only so that a cost that grows faster than the input fails
instead of hanging. The statistics are not the point here: --bootstrap 0
and --no-diagnostics keep the time on the table."""

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402
from testlib import check, finish  # noqa: E402

LIMIT_S = 60
# Ten times the input, at most this many times the peak memory.
MEMORY_RATIO = 15
TABLE = ["--bootstrap", "0", "--no-diagnostics"]


# A child's peak memory as wait4 reports it is at least the memory of the
# process that forked it: Linux carries the parent's resident pages into the
# child's high-water mark across exec (this script's 20 MB would hide a
# small command's 9). GNU time forks the command from a small process, so
# its figure is the command's own; without it the figure is an upper bound
# for the small inputs, which only makes the ratio checks more lenient.
GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


def measured(args, d, tag):
    """(status, stdout, stderr, peak RSS in KiB) of `args`; status None when
    it ran past LIMIT_S (then it is killed). As scaling_cli_test.py's, with
    the peak from GNU time where there is one."""
    out_path, err_path = os.path.join(d, tag + ".out"), os.path.join(d, tag + ".err")
    rss_path = os.path.join(d, tag + ".rss")
    command = [GNU_TIME, "-q", "-f", "%M", "-o", rss_path, *args] if GNU_TIME else args
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        p = subprocess.Popen(command, stdout=out, stderr=err, start_new_session=True)
        deadline = time.monotonic() + LIMIT_S
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                os.killpg(p.pid, signal.SIGKILL)
                os.wait4(p.pid, 0)
                return None, "", f"still running after {LIMIT_S} s", 0
            time.sleep(0.02)
    with open(out_path, errors="replace") as f:
        text = f.read()
    with open(err_path, errors="replace") as f:
        errors = f.read()
    kib = usage.ru_maxrss
    if GNU_TIME:
        with open(rss_path) as f:
            kib = int(f.read().split()[-1])
    return os.waitstatus_to_exitcode(status), text, errors, kib


def suite_file(path, names, runs, tags=None):
    """A results file: `names` as metrics (fps, higher is better), `runs`
    runs of each of the variants before and after, each run measuring every
    metric; `tags(r)` gives run r's environment tags. Values differ from run
    to run, cycling through a few rows of text so that writing a million
    observations takes a fraction of a second."""
    cycle = 7
    rows = {}
    for vi, variant in enumerate(("before", "after")):
        for k in range(cycle):
            rows[variant, k] = ",".join(f'"{n}":{100 + i % 50 + vi * 0.5 + k * 0.125:.3f}'
                                        for i, n in enumerate(names))
    with open(path, "w") as f:
        f.write(json.dumps({"format": "gfxstat-results", "version": 1, "id": "0" * 31 + "5",
                            "created": "2026-12-03T00:00:00Z", "generator": "suite_scaling_cli_test"}) + "\n")
        for n in names:
            f.write(f'{{"type":"metric","name":"{n}","unit":"fps","direction":"higher"}}\n')
        environments = {}
        for r in range(runs):
            env = ""
            if tags:
                key = json.dumps(tags(r), sort_keys=True)
                if key not in environments:
                    environments[key] = "env-%016x" % (len(environments) + 1)
                    f.write(json.dumps({"type": "environment", "id": environments[key], "tags": tags(r)}) + "\n")
                env = f',"environment":"{environments[key]}"'
            for variant in ("before", "after"):
                f.write(f'{{"type":"run","variant":"{variant}","run":{r},"exit":{{"class":"ok"}}{env},'
                        f'"metrics":{{{rows[variant, (r * 3 + len(variant)) % cycle]}}}}}\n')
    return path


def table_rows(text, prefix):
    """The suite table's rows of benchmarks named `prefix`N."""
    return len(re.findall(rf"^{prefix}\d+ ", text, re.M))


def check_linear(what, rss, small, large):
    """Ten times the input costs less than MEMORY_RATIO times the memory
    (when both commands finished: one that did not has failed already)."""
    if not (rss[small] and rss[large]):
        return
    print(f"{what}: peak RSS {rss[small]} KiB at {small:,}, {rss[large]} KiB at {large:,}")
    check(rss[large] < MEMORY_RATIO * rss[small],
          f"{what}: memory grows about linearly: {rss[small]} -> {rss[large]} KiB")


def test_suite_table(g, d):
    """compare on one results file of 300 and 3,000 benchmarks, 2 variants
    x 3 runs: the suite table, one row per benchmark."""
    rss = {}
    for n in (300, 3000):
        path = suite_file(os.path.join(d, f"suite{n}.json"), [f"bench_{i}" for i in range(n)], 3)
        rc, out, err, kib = measured([g, "compare", *TABLE, path], d, f"suite{n}")
        rows = table_rows(out, "bench_")
        check(rc == 0 and f"before vs after: {n} benchmarks" in out and rows == n,
              f"suite table of {n} benchmarks: rc {rc}, {rows} rows: {err[-2000:]}")
        rss[n] = kib
    check_linear("suite table", rss, 300, 3000)


def test_suite_once(g, d):
    """compare on a suite measured once a side, 1,000 and 10,000
    benchmarks: paired by benchmark, one row per benchmark."""
    rss = {}
    for n in (1000, 10000):
        path = suite_file(os.path.join(d, f"once{n}.json"), [f"bench_{i}" for i in range(n)], 1)
        rc, out, err, kib = measured([g, "compare", *TABLE, path], d, f"once{n}")
        rows = table_rows(out, "bench_")
        check(rc == 0 and "paired by benchmark" in out and rows == n,
              f"suite of {n} benchmarks once a side: rc {rc}, {rows} rows: {err[-2000:]}")
        rss[n] = kib
    check_linear("suite once a side", rss, 1000, 10000)


def test_filter(g, d):
    """--filter '/x/ OR kernel:6.9' on 100 metrics x 2 variants x 500 and
    5,000 runs (100,000 and 1,000,000 observations), every other run on
    kernel 6.9: the metrics with an x in their name keep every run, the
    others the runs on 6.9."""
    names = [f"gl_{'x' if i % 10 == 0 else 'm'}{i}" for i in range(100)]
    rss = {}
    for runs in (500, 5000):
        path = suite_file(os.path.join(d, f"filter{runs}.json"), names, runs,
                          tags=lambda r: {"kernel": "6.9" if r % 2 else "6.8"})
        rc, out, err, kib = measured([g, "compare", *TABLE, "--format", "json", "--filter", "/x/ OR kernel:6.9", path],
                                     d, f"filter{runs}")
        observations = 2 * runs * len(names)
        n = {}
        if rc == 0:
            for c in json.loads(out)["comparisons"]:
                n[c["metric"]] = (c["baseline"]["n"], c["candidate"]["n"])
        check(rc == 0 and len(n) == 100 and n.get("gl_x10") == (runs, runs) and
              n.get("gl_m11") == (runs // 2, runs // 2),
              f"--filter on {observations:,} observations: rc {rc}, gl_x10 {n.get('gl_x10')}, "
              f"gl_m11 {n.get('gl_m11')}: {err[-2000:]}")
        rss[observations] = kib
    check_linear("--filter", rss, 100000, 1000000)


def test_summaries(g, d):
    """compare --summaries on a table of 100 and 1,000 rows (a benchmark
    column, 2 variants): a report per benchmark."""
    rss = {}
    for rows in (100, 1000):
        path = os.path.join(d, f"summaries{rows}.csv")
        with open(path, "w") as f:
            f.write("benchmark,variant,n,mean,sd\n")
            for i in range(rows // 2):
                f.write(f"bench_{i},before,8,{100 + i % 50}.25,0.42\nbench_{i},after,8,{100 + i % 50}.75,0.51\n")
        rc, out, err, kib = measured([g, "compare", "--summaries", path], d, f"summaries{rows}")
        reports = len(re.findall(r"^bench_\d+: before -> after$", out, re.M))
        check(rc == 0 and reports == rows // 2 and f"over {rows // 2} comparisons" in out,
              f"--summaries on {rows} rows: rc {rc}, {reports} reports: {err[-2000:]}")
        rss[rows] = kib
    check_linear("--summaries", rss, 100, 1000)


def main():
    g, _ = testlib.paths()
    with tempfile.TemporaryDirectory() as d:
        test_suite_table(g, d)
        test_suite_once(g, d)
        test_filter(g, d)
        test_summaries(g, d)
    return finish("suite scaling: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
