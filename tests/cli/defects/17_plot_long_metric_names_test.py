#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`compare --plot` and `history --plot` with several metrics write one
file per metric, named after the metric. The wrong answer this guards
against: a long metric name (a PTS test's title, a suite's path) made a
file name past the 255 bytes a file name may have, and the command failed
with "File name too long" (exit 2) after the whole comparison. Long names
are cut and end in a hash of the whole name (distinct for names cut alike,
the same in every run), short names are kept as they were, and each
picture still names its metric whole."""

import glob
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import testlib  # noqa: E402
from testlib import check, finish  # noqa: E402

# Two names of 304 bytes that differ only in their last byte, and a short one.
LONG_A = "gl/" + "very_long_benchmark_name_" * 12 + "A"
LONG_B = "gl/" + "very_long_benchmark_name_" * 12 + "B"
SHORT = "fps"
NAMES = [LONG_A, LONG_B, SHORT]


def results(path, label, base, commit=None):
    """A results file: the three metrics, five runs of `label`."""
    with open(path, "w") as f:
        f.write(json.dumps({"format": "gfxstat-results", "version": 1, "id": "%032x" % (base * 7919),
                            "created": "2026-12-06T00:00:00Z", "generator": "test"}) + "\n")
        if commit:
            f.write(json.dumps({"type": "environment", "id": "e", "tags": {"commit": commit}}) + "\n")
        for n in NAMES:
            f.write(json.dumps({"type": "metric", "name": n, "unit": "ms", "direction": "lower"}) + "\n")
        for i in range(5):
            run = {"type": "run", "variant": label, "run": i, "exit": {"class": "ok"},
                   "metrics": {n: base * (k + 1) + i % 3 for k, n in enumerate(NAMES)}}
            if commit:
                run["environment"] = "e"
            f.write(json.dumps(run) + "\n")


def check_files(written, stem, what):
    """One file per metric, beside `stem`, each name within NAME_MAX."""
    base = os.path.basename(stem)
    names = sorted(os.path.basename(p) for p in written)
    check(len(names) == 3, f"{what}: three pictures: {names}")
    check(all(len(n.encode()) <= 255 for n in names), f"{what}: every file name within 255 bytes: {names}")
    check(base + "-fps.svg" in names, f"{what}: a short name is kept as it was: {names}")
    long_ones = [n for n in names if n != base + "-fps.svg"]
    check(len(long_ones) == 2 and all(re.search(r"-[0-9a-f]{12}\.svg$", n) for n in long_ones),
          f"{what}: long names cut and ended with a hash: {long_ones}")
    for n in long_ones:
        with open(os.path.join(os.path.dirname(stem), n)) as f:
            svg = f.read()
        desc = re.search(r"<desc>(.*?)</desc>", svg, re.S)
        check(desc is not None and (LONG_A in desc.group(1)) != (LONG_B in desc.group(1)),
              f"{what}: {n} names its metric whole in <desc>: {desc.group(1)[:80] if desc else None}")
    return names


def main():
    g, _ = testlib.paths()
    with tempfile.TemporaryDirectory() as d:
        a, b = os.path.join(d, "a.json"), os.path.join(d, "b.json")
        results(a, "a", 10)
        results(b, "b", 12)

        out = os.path.join(d, "one")
        os.mkdir(out)
        stem = os.path.join(out, "cmp")
        rc, _, err = testlib.run([g, "compare", a, b, "--plot", stem + ".svg"])
        check(rc == 0, f"compare --plot with long metric names: exit {rc}: {err.strip()[-300:]}")
        first = check_files(glob.glob(stem + "-*.svg"), stem, "compare --plot")

        # The same names in another run: a script can find them again.
        again = os.path.join(d, "two")
        os.mkdir(again)
        rc, _, err = testlib.run([g, "compare", a, b, "--plot", os.path.join(again, "cmp.svg")])
        check(rc == 0 and sorted(os.listdir(again)) == first,
              f"compare --plot: the same file names every run: {sorted(os.listdir(again))} {first}")

        # A long name of the user's own leaves less room: still within NAME_MAX.
        long_stem = os.path.join(d, "three", "p" * 180)
        os.mkdir(os.path.dirname(long_stem))
        rc, _, err = testlib.run([g, "compare", a, b, "--plot", long_stem + ".svg"])
        check(rc == 0, f"compare --plot with a 180-byte file name: exit {rc}: {err.strip()[-300:]}")
        check_files(glob.glob(long_stem + "-*.svg"), long_stem, "compare --plot, long stem")

        # history --plot: a series of four builds, each in a file of its own.
        builds = []
        for i, level in enumerate([10, 10, 20, 20]):
            p = os.path.join(d, f"b{i}.json")
            results(p, "bench", level, commit=f"c{i}")
            builds.append(p)
        hist = os.path.join(d, "four")
        os.mkdir(hist)
        hstem = os.path.join(hist, "hist")
        p = subprocess.run([g, "history", *builds, "--plot", hstem + ".svg"], capture_output=True, text=True)
        check(p.returncode in (0, 1), f"history --plot with long metric names: exit {p.returncode}: "
                                      f"{p.stderr.strip()[-300:]}")
        check_files(glob.glob(hstem + "-*.svg"), hstem, "history --plot")
    return finish("plots of long metric names get file names that fit, with the whole name inside")


if __name__ == "__main__":
    sys.exit(main())
