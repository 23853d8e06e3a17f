#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""An undefined test has no p in any output.

The wrong answer guarded against: two constant samples (3.366 twice vs
3.418 twice) gave `"welch": {"defined": false, "p": 0.0}` (Student and
TOST alike) in compare's JSON; the text said "undefined" and the verdict
was inconclusive, but a CI script reading `p` saw a significant result.
Undefined statistics are null in JSON (docs/compare-format.md): here the
t tests' and TOST's p and interval, in compare's JSON, compare
--summaries' JSON and KCIDB's misc; OpenMetrics leaves the p out and
markdown prints `–`.
"""

import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import check, finish, paths, run, write  # noqa: E402

GFXSTAT, SRC = paths()


def compare_json(*args):
    rc, out, err = run([GFXSTAT, "compare", "--format", "json"] + list(args))
    check(rc == 0, f"compare {args}: rc {rc}, {err}")
    return json.loads(out) if rc == 0 else None


def no_p(what, t, keys=("p", "ci")):
    for k in keys:
        check(k in t and t[k] is None, f"{what}: {k} is null, not {t.get(k)!r}")


with tempfile.TemporaryDirectory() as d:
    a = write(d, "a", "3.366\n3.366\n")
    b = write(d, "b", "3.418\n3.418\n")
    z1 = write(d, "z1", "0\n0\n0\n")
    z2 = write(d, "z2", "0\n0\n0\n")

    # 1. compare's JSON, for constants that differ and constants that do not.
    for x, y, why in ((a, b, "3.366 vs 3.418"), (z1, z2, "0 vs 0")):
        doc = compare_json(x, y)
        if doc:
            c = doc["comparisons"][0]
            check(c["tests"]["welch"]["defined"] is False, f"{why}: Welch undefined")
            no_p(f"{why}: Welch", c["tests"]["welch"])
            no_p(f"{why}: Student", c["tests"]["student"], ("p", "ci", "relative_ci_percent"))
            no_p(f"{why}: TOST", c["tests"]["equivalence"])
            check(c["tests"]["equivalence"]["equivalent"] is False, f"{why}: TOST shows no equivalence")
            check(c["verdict"]["p"] is None and c["verdict"]["p_adjusted"] is None, f"{why}: verdict without p")
            check(c["verdict"]["outcome"] == ("no_change" if x == z1 else "inconclusive"),
                  f"{why}: {c['verdict']['outcome']}")
            # The defined tests keep their p: Mann-Whitney's is a real p.
            check(isinstance(c["tests"]["mann_whitney"]["p"], float), f"{why}: Mann-Whitney keeps its p")

    # A defined test still has its p and interval.
    v1 = write(d, "v1", "10\n11\n12\n10.5\n")
    v2 = write(d, "v2", "10.2\n11.1\n12.3\n10.4\n")
    doc = compare_json(v1, v2)
    if doc:
        w = doc["comparisons"][0]["tests"]["welch"]
        check(isinstance(w["p"], float) and 0 < w["p"] <= 1 and isinstance(w["ci"], list),
              f"a defined Welch test keeps p and ci: {w}")

    # 2. The CI exports: KCIDB misc p null, OpenMetrics without gfxstat_p.
    kcidb, om = os.path.join(d, "k.json"), os.path.join(d, "om.txt")
    rc, out, err = run([GFXSTAT, "compare", a, b, "--kcidb", kcidb, "--openmetrics", om])
    check(rc == 0, f"compare with exports: rc {rc}, {err}")
    if rc == 0:
        tests = json.load(open(kcidb))["tests"]
        cand = [t for t in tests if t["misc"].get("role") == "candidate"]
        check(len(cand) == 1, f"one candidate test in KCIDB: {len(cand)}")
        for t in cand:
            check("p" in t["misc"] and t["misc"]["p"] is None, f"KCIDB misc p is null: {t['misc'].get('p', 'absent')!r}")
            check(t["misc"].get("relative_change_ci", "absent") is None, "KCIDB misc relative_change_ci is null")
        text = open(om).read()
        check("gfxstat_p" not in text, "OpenMetrics has no p for an undefined test:\n" + text)
        check(text.endswith("# EOF\n"), "OpenMetrics ends with # EOF")

    # 3. Markdown: the summary's p and each undefined test's p and CI are "–".
    rc, out, err = run([GFXSTAT, "compare", "--format", "markdown", a, b])
    check(rc == 0, f"markdown: rc {rc}, {err}")
    rows = [line for line in out.splitlines() if line.startswith("| ")]
    summary = [r for r in rows if r.startswith("| value | ")]
    check(len(summary) == 1 and summary[0].split("|")[5].strip() == "–",
          f"markdown summary p cell is –: {summary}")
    for name in ("Welch t", "Student t", "TOST within"):
        row = [r for r in rows if r.startswith("| " + name)]
        cells = [x.strip() for x in row[0].split("|")[1:-1]] if row else []
        check(len(cells) == 4 and cells[2] == "–" and cells[3] == "–",
              f"markdown {name}: p and CI are –, not {cells}")

    # 4. compare --summaries: both sds 0.
    s = write(d, "s.csv", "label,n,mean,sd\nbefore,3,3.366,0\nafter,3,3.418,0\n")
    doc = compare_json("--summaries", s)
    if doc:
        c = doc["comparisons"][0]
        check(c["welch"]["defined"] is False, "summaries: Welch undefined")
        no_p("summaries: Welch", c["welch"])
        no_p("summaries: Student", c["student"])
        no_p("summaries: TOST", c["equivalence"])
        check(c["relative_ci"] is None and c["p_adjusted"] is None, "summaries: no relative CI, no adjusted p")

sys.exit(finish("undefined tests have no p in any output"))
