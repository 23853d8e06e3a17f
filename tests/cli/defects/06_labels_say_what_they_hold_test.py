#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Labels say what is under them.

The wrong answers guarded against:
  * `gfxstat report`'s section heading "latency_max (us)" over charts whose
    axes are in ms: the heading now names the unit the charts and compare's
    text show ("latency_max (ms, recorded in us)"), and every chart of the
    metric uses that one unit;
  * markdown's summary column "Holm-adjusted p" holding unadjusted values
    of secondary metrics (and a family of one's plain p): the column is
    named for what all its values are, else "p" with each value saying
    what it is;
  * a metric that is 0 in every run of both sides (cycles=0) called
    "inconclusive" (and failing --gate --strict): it is "no_change
    (constant)".
"""

import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import check, finish, paths, run, write  # noqa: E402

GFXSTAT, SRC = paths()

HEADER = ('{"format":"gfxstat-results","version":1,"id":"0123456789abcdef0123456789abcdef",'
          '"created":"2026-12-01T10:00:00Z","generator":"gfxstat test"}')


def results(d, name, metrics, runs):
    """A results file: metrics as (name, unit, direction, extra), runs as
    (variant, {metric: value})."""
    lines = [HEADER]
    for m, unit, direction, extra in metrics:
        decl = {"type": "metric", "name": m, "unit": unit, "direction": direction}
        decl.update(extra)
        lines.append(json.dumps(decl))
    counters = {}
    for variant, values in runs:
        k = counters.get(variant, 0)
        counters[variant] = k + 1
        lines.append(json.dumps({"type": "run", "variant": variant, "run": k, "exit": {"class": "ok", "code": 0},
                                 "metrics": values}))
    return write(d, name, "\n".join(lines) + "\n")


BASE = [1812.5, 1790.1, 1835.7, 1801.0, 1822.4, 1795.3, 1808.8, 1830.2, 1799.6, 1817.9]
CAND = [1901.4, 1880.2, 1922.8, 1893.5, 1910.0, 1887.7, 1899.1, 1915.6, 1890.3, 1905.2]

with tempfile.TemporaryDirectory() as d:
    # 1. The HTML heading's unit is the charts' unit.
    lat = results(d, "lat.json", [("latency_max", "us", "lower", {})],
                  [("base", {"latency_max": v}) for v in BASE] + [("patch", {"latency_max": v}) for v in CAND])
    page = os.path.join(d, "lat.html")
    rc, out, err = run([GFXSTAT, "report", lat, "-o", page])
    check(rc == 0, f"report: rc {rc}, {err}")
    if rc == 0:
        html = open(page, encoding="utf-8").read()
        heads = re.findall(r"<h2>(latency_max[^<]*)</h2>", html)
        check(heads == ["latency_max (ms, recorded in us)"], f"the section's heading names the shown unit: {heads}")
        # Every axis that names the metric (distributions, run order) says ms.
        axes = re.findall(r">(latency_max \([^)<]*\))<", html)
        chart_axes = [a for a in axes if "recorded" not in a]
        check(len(chart_axes) >= 2 and all(a == "latency_max (ms)" for a in chart_axes),
              f"the charts under it are in ms: {axes}")
        check("latency_max (us)" not in html, "no label says us over values shown in ms")

    # 2. Markdown's p column: primary (Holm-adjusted over 2) and secondary
    #    (unadjusted) rows together.
    mixed = results(d, "mixed.json",
                    [("frame", "ms", "lower", {"primary": True}), ("gpu", "ms", "lower", {"primary": True}),
                     ("cpu", "ms", "lower", {"primary": False})],
                    [("a", {"frame": 10 + i * 0.1, "gpu": 8 + i * 0.1, "cpu": 5 + i * 0.1}) for i in range(6)] +
                    [("b", {"frame": 11 + i * 0.1, "gpu": 8.9 + i * 0.1, "cpu": 5.8 + i * 0.1}) for i in range(6)])
    # --full: the per-metric report (2+ metrics are otherwise the suite table).
    rc, md, err = run([GFXSTAT, "compare", "--full", "--bootstrap", "0", "--format", "markdown", mixed])
    check(rc == 0, f"markdown: rc {rc}, {err}")
    rc, js, err = run([GFXSTAT, "compare", "--bootstrap", "0", "--format", "json", mixed])
    labels = {c["metric"]: c["verdict"]["p_label"] for c in json.loads(js)["comparisons"]} if rc == 0 else {}
    check(labels == {"frame": "Holm-adjusted p", "gpu": "Holm-adjusted p", "cpu": "unadjusted p"},
          f"the JSON's p labels: {labels}")
    lines = md.splitlines()
    head = [x.strip() for x in lines[0].split("|")[1:-1]] if lines else []
    check(len(head) == 6 and head[4] == "p", f"the column of mixed p values is 'p', not {head}")
    rows = {r.split("|")[1].strip(): [x.strip() for x in r.split("|")[1:-1]] for r in lines[2:5] if r.startswith("| ")}
    check(rows.get("frame", [""] * 6)[4].endswith("(Holm-adjusted)"), f"frame's p says Holm-adjusted: {rows}")
    check(rows.get("gpu", [""] * 6)[4].endswith("(Holm-adjusted)"), f"gpu's p says Holm-adjusted: {rows}")
    check(rows.get("cpu", [""] * 6)[4].endswith("(unadjusted)"), f"cpu's p says unadjusted: {rows}")

    # All rows Holm-adjusted: the column says so once.
    primaries = results(d, "primaries.json",
                        [("frame", "ms", "lower", {"primary": True}), ("gpu", "ms", "lower", {"primary": True})],
                        [("a", {"frame": 10 + i * 0.1, "gpu": 8 + i * 0.1}) for i in range(6)] +
                        [("b", {"frame": 11 + i * 0.1, "gpu": 8.9 + i * 0.1}) for i in range(6)])
    rc, md, err = run([GFXSTAT, "compare", "--full", "--bootstrap", "0", "--format", "markdown", primaries])
    head = [x.strip() for x in md.splitlines()[0].split("|")[1:-1]] if rc == 0 and md else []
    check(len(head) == 6 and head[4] == "Holm-adjusted p", f"all adjusted: 'Holm-adjusted p': {head}")
    # A family of one is a plain p, not an adjusted one.
    one = results(d, "one.json", [("frame", "ms", "lower", {})],
                  [("a", {"frame": 10 + i * 0.1}) for i in range(6)] + [("b", {"frame": 11 + i * 0.1}) for i in range(6)])
    rc, md, err = run([GFXSTAT, "compare", "--bootstrap", "0", "--format", "markdown", one])
    head = [x.strip() for x in md.splitlines()[0].split("|")[1:-1]] if rc == 0 and md else []
    check(len(head) == 6 and head[4] == "p", f"a family of one: 'p': {head}")

    # 3. cycles = 0 in every run of both sides: no change (constant).
    cyc = results(d, "cyc.json", [("fps", "fps", "higher", {}), ("cycles", "", "lower", {})],
                  # fps in no run order trend (a drifting side is inconclusive).
                  [("base", {"fps": 100 + k * 0.3, "cycles": 0}) for k in (0, 5, 2, 7, 1, 6, 3, 4)] +
                  [("patch", {"fps": 100.1 + k * 0.3, "cycles": 0}) for k in (4, 1, 6, 3, 7, 0, 5, 2)])
    rc, js, err = run([GFXSTAT, "compare", "--bootstrap", "0", "--format", "json", cyc])
    cs = {c["metric"]: c for c in json.loads(js)["comparisons"]} if rc == 0 else {}
    v = cs.get("cycles", {}).get("verdict", {})
    check(v.get("outcome") == "no_change" and v.get("constant") is True and v.get("p") is None,
          f"cycles=0 throughout: no change (constant), no p: {v}")
    rc, out, err = run([GFXSTAT, "compare", "--full", "--bootstrap", "0", cyc])
    check(re.search(r"cycles\s+patch\s+\+0\s+-\s+no_change \(constant\)", out) is not None,
          f"the text summary says no_change (constant):\n{out}")
    check("NO_CHANGE (CONSTANT)" in out and "INCONCLUSIVE" not in out,
          f"the text verdict says NO_CHANGE (CONSTANT):\n{out}")
    rc, out, err = run([GFXSTAT, "compare", "--full", "--bootstrap", "0", "--metric", "cycles", cyc])
    check(re.search(r"NO_CHANGE \(CONSTANT\): every run", out) is not None and
          not re.search(r"NO_CHANGE \(CONSTANT\) by ", out),
          f"the constant verdict names no test (none was run):\n{out}")
    rc, md, err = run([GFXSTAT, "compare", "--bootstrap", "0", "--format", "markdown", cyc])
    check(any(l.startswith("| cycles |") and l.endswith("| no_change (constant) |") for l in md.splitlines()),
          f"the markdown summary says no_change (constant):\n{md}")
    rc, out, err = run([GFXSTAT, "compare", "--full", "--bootstrap", "0", "--gate", "--strict", cyc])
    check(rc == 0, f"--gate --strict passes over a metric that did not move: rc {rc}")
    # Two different constants stay inconclusive.
    a = write(d, "a", "3.366\n3.366\n")
    b = write(d, "b", "3.418\n3.418\n")
    rc, js, err = run([GFXSTAT, "compare", "--format", "json", a, b])
    v = json.loads(js)["comparisons"][0]["verdict"] if rc == 0 else {}
    check(v.get("outcome") == "inconclusive" and v.get("constant") is False, f"3.366 vs 3.418: inconclusive: {v}")

sys.exit(finish("labels say what they hold"))
