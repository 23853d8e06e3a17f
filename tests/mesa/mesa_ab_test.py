#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gfxstat ab on real Mesa: glmark2-es2 under an Xvfb of its own, softpipe
against llvmpipe (GALLIUM_DRIVER, one llvmpipe thread), the two Mesa
drivers standing in for two builds as in docs/mesa.md: the stop rule must
settle on the large score change within a handful of blocks, and compare on
the results file must give the same verdict. (docs/ab.md's example, one
llvmpipe thread against two, needs a second core that a shared machine
under CPU steal cannot promise; softpipe is about six times slower on one
core, a change that steal does not hide.) Then an A/A experiment (the
same environment under two labels) must not report a regression. Skips with its reason where glmark2-es2 or
Xvfb is missing (scripts/install-deps.sh installs them)."""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "cli"))
import testlib  # noqa: E402
from testlib import check, finish  # noqa: E402
from xvfb_display import XvfbDisplay, XvfbUnavailable  # noqa: E402

GLMARK2 = ["glmark2-es2", "--size", "320x240", "-b", "shading:shading=phong:duration=1"]


def runs_of(path):
    with open(path) as f:
        return [r for r in (json.loads(line) for line in f if line.endswith("\n")) if r.get("type") == "run"]


def gfxstat(binary, env, *args, timeout=240):
    p = subprocess.run([binary, *args], capture_output=True, env=env, timeout=timeout)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def main():
    g, _ = testlib.paths()
    if not shutil.which("glmark2-es2"):
        print("SKIP: glmark2-es2 is not installed (glmark2-es2-x11)")
        return finish("mesa_ab: skipped")
    base = dict(os.environ)
    base.pop("DISPLAY", None)
    base.pop("WAYLAND_DISPLAY", None)
    base.pop("GALLIUM_DRIVER", None)
    base["LP_NUM_THREADS"] = "1"
    try:
        with XvfbDisplay() as x, tempfile.TemporaryDirectory() as d:
            env = dict(base, DISPLAY=x.display)
            out = os.path.join(d, "drivers.json")
            t0 = time.monotonic()
            rc, so, se = gfxstat(g, env, "ab", "-o", out, "--variant", "softpipe", "--variant", "llvmpipe",
                                 "--env", "softpipe:GALLIUM_DRIVER=softpipe",
                                 "--env", "llvmpipe:GALLIUM_DRIVER=llvmpipe",
                                 "--parser", "glmark2", "--gate", "--max-runs", "12", "--", *GLMARK2)
            print(se)
            print(so[:1500])
            blocks = {r.get("block") for r in runs_of(out) if not r.get("warmup")} if os.path.exists(out) else set()
            print(f"softpipe against llvmpipe: rc {rc}, {len(blocks)} blocks, {time.monotonic() - t0:.1f} s")
            check(rc == 0, f"llvmpipe against softpipe: the gate passes (an improvement): rc {rc}")
            check("settled after" in se, "the stop rule settled it")
            check(0 < len(blocks) <= 10, f"within a handful of blocks: {len(blocks)}")
            # The short answer: the watched metric's row of its table.
            check(re.search(r"^score +[\d.]+ +[\d.]+ .* improvement$", so, re.M) is not None,
                  "the verdict is an improvement")
            rc2, so2, _ = gfxstat(g, env, "compare", out, "--gate")
            # The same answer; only the last lines differ, on how to get the
            # whole report ("--full", and ab's "gfxstat compare --full FILE").
            check(rc2 == rc and so2.rsplit("\n\n", 1)[0] == so.rsplit("\n\n", 1)[0],
                  "compare on the file gives ab's report")

            out = os.path.join(d, "aa.json")
            t0 = time.monotonic()
            rc, so, se = gfxstat(g, env, "ab", "-o", out, "--variant", "same1", "--variant", "same2",
                                 "--env", "same1:GALLIUM_DRIVER=llvmpipe", "--env", "same2:GALLIUM_DRIVER=llvmpipe",
                                 "--parser", "glmark2", "--gate", "--max-runs", "6", "--", *GLMARK2)
            print(se)
            print(f"A/A: rc {rc}, {time.monotonic() - t0:.1f} s")
            check(rc == 0, f"A/A: the gate passes: rc {rc}")
            # The watched metric (the report's first) gates and its error
            # rate is the stop rule's; the secondary metrics' paired t is
            # unadjusted and does not gate, so under A/A one of them calls a
            # regression in a few percent of runs (more on a loaded machine):
            # only the first verdict is held to "no regression".
            verdicts = [line for line in so.lower().splitlines() if re.match(r"score +[\d.]+ +[\d.]+ ", line)]
            check(len(verdicts) == 1, f"A/A: a verdict for the watched metric: {so[:1500]}")
            check(bool(verdicts) and "regression" not in verdicts[0],
                  f"A/A: no regression reported for the watched metric: {so[:1500]}")
            # llvmpipe's noise (several percent a run) puts the default +-1%
            # out of 6 blocks' reach: ab says so as soon as its interval is
            # finite, within its first 10 blocks, and goes on.
            lines = se.splitlines()
            advice = [i for i, line in enumerate(lines) if line.startswith("gfxstat ab: advice: same2 vs same1: ")]
            before = [l for l in lines[:advice[0]] if re.match(r"gfxstat ab: block \d+/", l)] if advice else []
            check(bool(advice) and 1 <= len(before) <= 10,
                  f"A/A at the default threshold: the early advice within 10 blocks ({len(before)}): {se[-1500:]}")
    except XvfbUnavailable as e:
        print(f"SKIP: {e}")
    return finish("mesa_ab: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
