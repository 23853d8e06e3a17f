#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Names cut to their column must stay unique. glmark2's metrics of one
scene differ only at their ends (`shading.duration_1.shading_phong.fps`
and `....frame_time`); compare's summary table cut all eight of four
scenes to `shading.duration_1.~`, eight rows no reader could tell apart,
and the HTML report's forest plot drew eight identical labels, cut past
the page's left edge. Guards against: two different metrics shown under
one name in compare's summary, --brief, the forest plot
of `gfxstat report` and `compare --plot`; a forest label wider than the
room left of the chart."""

import json
import os
import random
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import check, finish, paths, run  # noqa: E402

GFXSTAT, SRC = paths()

SCENES = ["shading.duration_1.shading_gouraud", "shading.duration_1.shading_blinn-phong-inf",
          "shading.duration_1.shading_phong", "shading.duration_1.shading_cel"]
METRICS = [s + suffix for s in SCENES for suffix in (".fps", ".frame_time")]


def results_file(path):
    """Eight runs a variant of four glmark2 scenes, fps and frame_time each."""
    rng = random.Random(5)
    lines = [{"format": "gfxstat-results", "version": 1, "id": "0" * 32,
              "created": "2026-11-30T05:00:00.000000Z", "generator": "test"}]
    for s in SCENES:
        lines.append({"type": "metric", "name": s + ".fps", "unit": "fps", "direction": "higher", "primary": True})
        lines.append({"type": "metric", "name": s + ".frame_time", "unit": "ms", "direction": "lower",
                      "primary": True})
    n = 0
    for variant, factor in (("main", 1.0), ("patched", 1.05)):
        for _ in range(8):
            m = {}
            for j, s in enumerate(SCENES):
                fps = (100 + 10 * j) * factor * (1 + rng.gauss(0, 0.01))
                m[s + ".fps"] = round(fps, 2)
                m[s + ".frame_time"] = round(1000 / fps, 3)
            lines.append({"type": "run", "variant": variant, "run": n, "exit": {"class": "ok", "code": 0},
                          "metrics": m})
            n += 1
    with open(path, "w") as f:
        f.write("".join(json.dumps(x) + "\n" for x in lines))


def legend_of(lines):
    """{as cut: whole} from a report's "CUT is WHOLE" lines (wrapped ones joined)."""
    text = " ".join(l.strip() for l in lines)
    return dict(re.findall(r"(\S+~\d*) is (\S+)", text))


def check_rows(what, names, legend):
    """Each row's name stands for one metric, and every metric has a row."""
    check(len(names) == len(METRICS), f"{what}: {len(METRICS)} rows, got {names}")
    check(len(set(names)) == len(names), f"{what}: rows cannot be told apart: {names}")
    wholes = [legend.get(n, n) for n in names]
    check(sorted(wholes) == sorted(METRICS), f"{what}: rows name {wholes}, legend {legend}")


def main():
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "gl.json")
        results_file(f)

        rc, out, err = run([GFXSTAT, "compare", "--full", f])
        check(rc == 0, f"compare: exit {rc}: {err}")
        lines = out.splitlines()
        # The summary table: "  NAME  patched  +5.65%  1.84e-08  improvement".
        start = next((i for i, l in enumerate(lines) if l.startswith("summary")), None)
        check(start is not None, "compare prints its summary table")
        if start is not None:
            tail = lines[start:]
            rows = [l.split()[0] for l in tail if re.search(r"\s(improvement|regression|inconclusive|no_change)$", l)]
            check_rows("summary table", rows, legend_of(tail))

        rc, out, err = run([GFXSTAT, "compare", "--brief", f])
        check(rc == 0, f"compare --brief: exit {rc}: {err}")
        lines = out.splitlines()
        rows = [l.split()[0] for l in lines if re.search(r"\s(improvement|regression|inconclusive|no change)$", l)]
        check_rows("--brief", rows, legend_of(lines))

        # The forest plot of the HTML page and of compare --plot.
        page = os.path.join(d, "gl.html")
        rc, _, err = run([GFXSTAT, "report", "-o", page, f])
        check(rc == 0, f"report: exit {rc}: {err}")
        svg = os.path.join(d, "forest.svg")
        rc, _, err = run([GFXSTAT, "compare", "--plot", svg, "--plot-kind", "forest", f])
        check(rc == 0, f"compare --plot forest: exit {rc}: {err}")
        for path in (page, svg):
            text = open(path).read() if os.path.exists(path) else ""
            labels = re.findall(r'<text x="([\d.]+)"[^>]*class="row-label"[^>]*>([^<]*)</text>', text)
            names = [name for _, name in labels]
            check(len(names) == len(METRICS), f"{path}: {len(METRICS)} forest labels, got {names}")
            check(len(set(names)) == len(names), f"{path}: forest labels cannot be told apart: {names}")
            for x, name in labels:
                # 12 px sans-serif: about 7 px a character; anchored at its end.
                check(len(name) * 7 <= float(x), f"{path}: label '{name}' ending at x={x} passes the left edge")
            # The ends, which tell a scene's metrics apart, are kept.
            check(sum(n.endswith(".fps") for n in names) == 4 and sum(n.endswith("frame_time") for n in names) == 4,
                  f"{path}: forest labels keep the metric's end: {names}")
    return finish("cut names stay unique in every table and plot")


if __name__ == "__main__":
    sys.exit(main())
