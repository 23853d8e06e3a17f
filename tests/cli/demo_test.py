#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make demo tells its story in at most 40 lines of at most 72 columns:
what it measured, the answer (compare's short answer for the median and
the worst wake-up), why the direction may surprise, and where the whole
report, the page and the raw runs are. scripts/demo.sh runs here as make
demo runs it, on gfxstat's own wake-up latency workload (no GPU), in a
directory of its own; the files it names exist."""

import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402
import subprocess  # noqa: E402
from testlib import check, finish  # noqa: E402


def main():
    g, src = testlib.paths()
    with tempfile.TemporaryDirectory(prefix="gfxstat-demo-") as d:
        os.symlink(os.path.abspath(g), os.path.join(d, "gfxstat"))
        p = subprocess.run(["sh", os.path.join(os.path.abspath(src), "scripts", "demo.sh"), "./gfxstat", ".", "2"], cwd=d,
                           capture_output=True, text=True, timeout=240)
        rc, out, err = p.returncode, p.stdout, p.stderr
        lines = out.splitlines()
        check(rc == 0, f"the demo exits 0 ({rc}): {err[-600:]}")
        check(len(lines) <= 40, f"at most 40 lines ({len(lines)}):\n{out}")
        check(all(len(l) <= 72 for l in lines), f"every line at most 72 columns:\n{out}")
        check(err == "", f"nothing on stderr (ab's progress goes to its log): {err[-600:]}")
        check(lines and lines[0].startswith("gfxstat demo: "), f"it starts by saying what it asks: {lines[:2]}")
        check("unladen vs loaded: 2 metrics; blocked" in out and "latency_median (us, lower is better)" in out,
              f"the answer: compare's short text of the two latencies:\n{out}")
        verdicts = [l for l in lines if l.rstrip().endswith(("improvement", "regression", "inconclusive",
                                                             "no_change", "inconclusive*", "regression*",
                                                             "improvement*", "no_change*"))]
        check(len(verdicts) == 2, f"a verdict for the median and the worst wake-up: {verdicts}")
        said = " ".join(out.split())
        check(any(w in said for w in ("Why is 'loaded' faster?", "'loaded' wakes later")) or
              "inconclusive\n" in out, f"why the direction may surprise (or compare's inconclusive):\n{out}")
        check("./gfxstat compare --full ./demo-ab.json" in out and "./demo-ab.html" in out,
              f"where the whole report and the page are:\n{out}")
        for f in ("demo-ab.json", "demo-ab.html", "demo-ab.log"):
            check(os.path.exists(os.path.join(d, f)) and os.path.getsize(os.path.join(d, f)) > 0, f"{f} is there")
        with open(os.path.join(d, "demo-ab.log")) as f:
            log = f.read()
        check("gfxstat ab: settled after" in log or "gfxstat ab: inconclusive after" in log,
              f"ab's progress is in the log: {log[-400:]}")
    return finish("demo: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
