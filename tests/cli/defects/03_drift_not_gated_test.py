#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A side whose runs drift is not gated as a regression. The recipe
docs/mesa.md led with ran one build ten times, then the other (`gfxstat
run` twice, then `compare`); an A/A check made that way, the same build
twice while another program started part-way, exited 1 from `compare
--gate` with `REGRESSION by Welch t` beside compare's own warning that one
side drifts, and the warning guessed "thermal or power throttling" while
the runs' records showed the load average rising. Guards against: --gate
failing (or any change or equivalence verdict) on a comparison with a
drifting side; a verdict that does not say why and what to do (`gfxstat
ab`); a drift sentence that ignores the recorded load average or guesses
throttling when nothing recorded says so; the gate no longer failing on
a steady regression; docs/mesa.md not leading with `gfxstat ab`."""

import json
import os
import random
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import check, finish, paths, run  # noqa: E402

GFXSTAT, SRC = paths()


def results(path, base, cand, loads=None):
    """glmark2's score of aa1 then aa2 in one boot; each run's environment
    with its load average when `loads` (one per run) is given."""
    lines = [{"format": "gfxstat-results", "version": 1, "id": "0" * 32,
              "created": "2026-11-30T05:00:00.000000Z", "generator": "test"},
             {"type": "metric", "name": "score", "unit": "", "direction": "higher", "primary": True}]
    n = 0
    for variant, values in (("aa1", base), ("aa2", cand)):
        for v in values:
            r = {"type": "run", "variant": variant, "run": n, "boot": "b1", "exit": {"class": "ok", "code": 0},
                 "metrics": {"score": v}}
            if loads:
                env = "env-%016x" % (n + 1)
                lines.append({"type": "environment", "id": env, "hostname": "h",
                              "load_average": "%.2f 0.50 0.40" % loads[n], "temp_coretemp": "52.0"})
                r["environment"] = env
            lines.append(r)
            n += 1
    with open(path, "w") as f:
        f.write("".join(json.dumps(x) + "\n" for x in lines))


def verdict_of(out):
    """The verdict paragraph of compare's text report, on one line."""
    m = re.search(r"^  verdict +(.*?)(?=^  \S|\Z)", out, re.S | re.M)
    return " ".join(m.group(1).split()) if m else ""


def main():
    rng = random.Random(7)
    flat = [round(318 + rng.gauss(0, 3)) for _ in range(10)]
    # The second run's score falls run after run as another program takes
    # the CPU: its load average rises from 0.3 to about 4.
    drifting = [round(320 - 6 * k + rng.gauss(0, 3)) for k in range(10)]
    loads = [0.3] * 10 + [0.3 + 0.4 * k for k in range(10)]
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "runs_aa.json")
        results(f, flat, drifting, loads)
        rc, out, err = run([GFXSTAT, "compare", "--full", "--gate", f, "--metric", "score"])
        check(rc == 0, f"compare --gate on an A/A pair with a drifting side exits 0, not {rc}: {out} {err}")
        v = verdict_of(out)
        check(v.startswith("INCONCLUSIVE"), f"the verdict is inconclusive: {v}")
        check("candidate drifts: run the variants interleaved, `gfxstat ab`" in v,
              f"the verdict says why and what to do: {v}")
        text = " ".join(out.split())
        check("drifts downward" in text, f"the drift is reported: {text}")
        check(re.search(r"the load average rose from \d+\.\d+ to \d+\.\d+", text) is not None,
              f"the drift sentence names the recorded load average: {text}")
        check("thermal" not in text, f"no guess of thermal throttling when nothing recorded says so: {text}")

        js = os.path.join(d, "c.json")
        rc, _, err = run([GFXSTAT, "compare", "--full", "--gate", "--json", js, f, "--metric", "score"])
        doc = json.load(open(js)) if os.path.exists(js) else {}
        outcomes = [c.get("verdict", {}).get("outcome") for c in doc.get("comparisons", [])]
        check(rc == 0 and outcomes == ["inconclusive"], f"JSON verdict inconclusive, exit 0: {rc} {outcomes}")

        # The same runs without environment records: nothing to name.
        f2 = os.path.join(d, "imported.json")
        results(f2, flat, drifting)
        rc, out, err = run([GFXSTAT, "compare", "--full", "--gate", f2])
        text = " ".join(out.split())
        check(rc == 0, f"without records, still not gated: exit {rc}")
        check("recorded no load average" in text and "thermal" not in text,
              f"without records the sentence says nothing was recorded, and guesses nothing: {text}")

        # The baseline's frame time falling run after run (lower is
        # better): the candidate looked like a regression.
        f3 = os.path.join(d, "frame_time.json")
        results(f3, [round(10 - 0.2 * k + rng.gauss(0, 0.05), 2) for k in range(10)],
                [round(10 + rng.gauss(0, 0.05), 2) for _ in range(10)])
        rc, out, err = run([GFXSTAT, "compare", "--full", "--gate", "--lower-is-better", f3])
        v = verdict_of(out)
        check(rc == 0 and "baseline drifts: run the variants interleaved" in v,
              f"a drifting baseline: exit {rc}, verdict {v}")

        # A steady regression still fails the gate.
        f4 = os.path.join(d, "regression.json")
        results(f4, flat, [round(x * 0.95) for x in flat], [0.3] * 20)
        rc, out, err = run([GFXSTAT, "compare", "--full", "--gate", f4])
        check(rc == 1 and verdict_of(out).startswith("REGRESSION"),
              f"a steady 5% regression still gates: exit {rc}, {verdict_of(out)}")

        # A change far beyond what the drift could make stands: the
        # candidate at half the score, its runs drifting by 2%.
        f5 = os.path.join(d, "halved.json")
        results(f5, flat, [round(160 - 0.4 * k + rng.gauss(0, 0.2), 1) for k in range(10)], [0.3] * 20)
        rc, out, err = run([GFXSTAT, "compare", "--full", "--gate", f5])
        check(rc == 1 and verdict_of(out).startswith("REGRESSION"),
              f"a -50% change beside a 2% drift still gates: exit {rc}, {verdict_of(out)}")

    # The Mesa recipe leads with gfxstat ab.
    with open(os.path.join(SRC, "docs", "mesa.md")) as doc:
        first = next((l.strip() for l in doc if l.lstrip().startswith("gfxstat ")), "")
    check(first.startswith("gfxstat ab "), f"docs/mesa.md's first command is gfxstat ab: {first}")
    return finish("a drifting side makes the verdict inconclusive and names what moved")


if __name__ == "__main__":
    sys.exit(main())
