#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""compare's default text is the short answer a mail reply can hold, and
--full the whole report. The input is a recorded glmark2 comparison:
tests/data/results/glmark2-four-scenes.json, made on llvmpipe under Xvfb
with `gfxstat ab --parser glmark2 --max-runs 16 --seed 4 --env
patched:LP_NUM_THREADS=1 -- glmark2-es2 -s 160x120 -b build:duration=0.4
-b shading:shading=phong:duration=0.4 -b texture:duration=0.4 -b
refract:duration=0.4` (main: every llvmpipe thread; patched: one).

Goals: one metric in at most 30 lines, the four scenes' nine metrics in
at most 60, every line at most 72 columns; each metric in a table row
with its verdict; one sentence per diagnostic; the last line says how to
get the whole report, which still holds every test."""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402
from testlib import check, finish, run  # noqa: E402


def main():
    g, src = testlib.paths()
    four = os.path.join(src, "tests", "data", "results", "glmark2-four-scenes.json")

    rc, out, err = run([g, "compare", four])
    lines = out.splitlines()
    check(rc == 0, f"compare exits 0 ({rc}: {err})")
    check(len(lines) <= 60, f"four scenes in at most 60 lines ({len(lines)}):\n{out}")
    wide = [l for l in lines if len(l) > 72]
    check(not wide, f"every line at most 72 columns: {wide}")
    check(lines[0].startswith("main vs patched: 9 metrics; blocked, 16 blocks"),
          f"the header says what was compared and how: {lines[:3]}")
    # The histogram of the primary metric, and only that one.
    check(out.count("+------") == 2 and "score (higher is better)" in out,
          f"one histogram, of the primary metric (score): {out}")
    # A table per ending, titled with the parts every row shares.
    check("fps (higher is better), each duration_0.4" in out and
          "frame_time (ms, lower is better), each duration_0.4" in out, f"a table per group: {out}")
    rows = {}
    for title in ("fps", "frame_time"):
        block = out.split(f"\n{title} (", 1)[1].split("\n\n", 1)[0].splitlines()[2:]
        # A name too long for its column is on the line above its row.
        joined, name = [], None
        for l in block:
            if re.match(r"^[a-z][\w.]*$", l):
                name = l
            elif name is not None:
                joined.append(name + " " + l.strip())
                name = None
            else:
                joined.append(l)
        rows[title] = {r.split()[0]: r for r in joined if r and not r.startswith("*")}
    for title, table in rows.items():
        check(sorted(table) == ["build", "refract", "shading.shading_phong", "texture"],
              f"{title}: a row per scene, named by what tells them apart: {sorted(table)}")
        for name, row in table.items():
            check(re.search(r"[-+][\d.]+% \[[-+][\d.]+%, [-+][\d.]+%\] +[<\d.e-]+ +"
                            r"(regression|improvement|inconclusive|no_change)\*$", row) is not None,
                  f"{title} {name}: means, change, interval, p and a secondary verdict: {row!r}")
    check(re.search(r"^score +1483 +1592 +\+7\.35% \[-1\.1%, \+16\.5%\] +0\.11 +inconclusive$", out, re.M),
          f"the primary metric's row: {out}")
    # The verdicts agree with the whole report's summary table.
    rc, full, _ = run([g, "compare", "--full", four])
    check(rc == 0 and len(full.splitlines()) > 300 and full.count("Welch t") == 9,
          f"--full prints the whole report: {len(full.splitlines())} lines")
    summary = full.split("\nsummary (", 1)[-1]
    for verdict in ("regression", "improvement"):
        check(summary.count(verdict) == out.count(verdict + "*"),
              f"the tables' {verdict}s are the whole report's: {summary}")
    # One sentence per diagnostic: the advice on the threshold, the
    # outliers once for all the metrics they were found on.
    sentences = [l for l in lines if l.startswith("- ")]
    check(len(sentences) == 2 and sentences[0].startswith("- On score, at this noise +-1% cannot likely"),
          f"one sentence per diagnostic that fired: {sentences}")
    check(len(re.findall(r"has \d+ outliers? on", out)) == 1 and "'patched' has 5 outliers on" in out,
          f"the outliers said once: {out}")
    check(lines[-1] == "--full: every test, effect size and diagnostic", f"the last line: {lines[-1]!r}")

    # One metric: at most 30 lines.
    rc, one, _ = run([g, "compare", "--metric", "score", four])
    check(rc == 0 and len(one.splitlines()) <= 30 and max(len(l) for l in one.splitlines()) <= 72,
          f"one metric in at most 30 lines of 72 columns ({len(one.splitlines())}):\n{one}")
    # A wider reply: the same answer, lines up to --width.
    rc, wide_out, _ = run([g, "compare", "--width", "100", four])
    check(rc == 0 and max(len(l) for l in wide_out.splitlines()) <= 100 and
          "shading.shading_phong  " in wide_out, f"--width 100 puts every name beside its numbers:\n{wide_out}")
    # A narrow one: no line past 40, nothing cut.
    rc, narrow, _ = run([g, "compare", "--width", "40", four])
    check(rc == 0 and max(len(l) for l in narrow.splitlines()) <= 40 and "shading.shading_phong" in narrow,
          f"--width 40: every line fits, names whole:\n{narrow}")
    # --brief is still one line per metric.
    rc, brief, _ = run([g, "compare", "--brief", four])
    check(rc == 0 and "inconclusive" in brief and "+------" not in brief, f"--brief unchanged: {brief}")
    return finish("short_answer_cli: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
