#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What a verdict may claim at small n: an undefined test gives no p-value
and no verdict; exact (deterministic) metrics; which metrics form the
multiplicity family and gate; the geomean turned so that above 1 is better;
one headline change, with its interval, in every format; labels that say
what a p-value and an interval are."""

import json
import math
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402
from testlib import check, finish, run, write  # noqa: E402

HEADER = ('{"format":"gfxstat-results","version":1,"id":"0123456789abcdef0123456789abcdef",'
          '"created":"2026-12-01T10:00:00Z","generator":"gfxstat test"}')


def results(d, name, metrics, runs):
    """A results file: metrics as (name, unit, direction, extra dict), runs
    as (variant, {metric: value})."""
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


def main():
    g, _ = testlib.paths()
    with tempfile.TemporaryDirectory() as d:
        # 1. Both sides constant (gem_exec_nop pasted, n = 2 a side): no p,
        #    no regression, no gate failure; the reason says why.
        a = write(d, "a", "3.366\n3.366\n")
        b = write(d, "b", "3.418\n3.418\n")
        rc, out, err = run([g, "compare", "--full", "--gate", "--lower-is-better", a, b])
        check(rc == 0, f"constant samples: --gate must not fail: rc {rc} {err}")
        check("REGRESSION" not in out and not re.search(r"p = 0(?![.0-9])", out), f"constant samples: no regression, no p = 0:\n{out}")
        check("INCONCLUSIVE" in out and "no variability" in out and "--exact" in out,
              f"constant samples: inconclusive, says why and what to do:\n{out}")
        rc, out, _ = run([g, "compare", "--format", "json", "--lower-is-better", a, b])
        v = json.loads(out)["comparisons"][0]["verdict"]
        check(v["outcome"] == "inconclusive" and v["p"] is None and v["p_adjusted"] is None and not v["defined"],
              f"constant samples, JSON: no p: {v}")
        rc, out, _ = run([g, "compare", "--format", "markdown", "--lower-is-better", a, b])
        check("| – | inconclusive |" in out, f"constant samples, markdown: no p (–):\n{out}")
        same = write(d, "same", "0\n0\n")
        rc, out, _ = run([g, "compare", "--format", "json", "--lower-is-better", same, same])
        v = json.loads(out)["comparisons"][0]["verdict"]
        check(v["outcome"] == "no_change" and v["constant"] and v["p"] is None and "every run" in v["reason"],
              f"0 vs 0 is no change (constant), unlike 3.366 vs 3.418: {v}")

        # 2. Exact metrics: any difference is a change, one run a side.
        rc, out, err = run([g, "compare", "--full", "--gate", "--lower-is-better", "--exact", a, b])
        check(rc == 1 and "REGRESSION by exact comparison" in out, f"--exact: a regression that gates: {rc}\n{out}")
        check("Welch t " not in out, f"--exact: no tests printed for an exact metric:\n{out}")
        one_a = write(d, "one_a", "1048576\n")
        one_b = write(d, "one_b", "1048576\n")
        one_c = write(d, "one_c", "1049600\n")
        rc, out, err = run([g, "compare", "--format", "json", "--gate", "--lower-is-better", "--exact", one_a, one_b])
        j = json.loads(out)["comparisons"][0] if rc == 0 else {}
        check(rc == 0 and j.get("verdict", {}).get("outcome") == "no_change" and j.get("tests") is None,
              f"--exact, one value a side, equal: no change: {rc} {err} {j.get('verdict')}")
        rc, out, err = run([g, "compare", "--full", "--gate", "--threshold", "0", "--lower-is-better", "--exact", one_a, one_c])
        check(rc == 1 and "+0.0977%" in out, f"--exact: +1024 bytes of 1 MiB is a regression: {rc} {err}\n{out}")
        rc, _, err = run([g, "compare", "--full", "--lower-is-better", one_a, one_c])
        check(rc == 2 and "--exact" in err, f"one value a side without --exact: refused, pointing at --exact: {err}")
        varies = write(d, "varies", "100\n101\n100\n")
        rc, out, _ = run([g, "compare", "--full", "--lower-is-better", "--exact", varies, one_c])
        check("declared exact, but" in out and "2 distinct values" in out,
              f"--exact: variation within a side is suspicious:\n{out}")
        exact_file = results(d, "exact.json", [("text_bytes", "B", "lower", {"exact": True})],
                             [("old", {"text_bytes": 4096}), ("new", {"text_bytes": 4160})])
        rc, out, err = run([g, "compare", "--full", "--gate", exact_file])
        check(rc == 1 and "exact comparison" in out, f"a metric declared exact in the file: {rc} {err}\n{out}")

        # 3. Geomean: fps +9.68% (higher is better) and frame time -8.82%
        #    (lower is better) are two improvements.
        runs = []
        for i, (f, t) in enumerate([(100.0, 10.0), (101.0, 10.1), (99.0, 9.9), (100.5, 10.05), (99.5, 9.95)]):
            runs.append(("base", {"fps": f, "frametime": t}))
        for f, t in [(109.68, 9.118), (110.68, 9.218), (108.68, 9.018), (110.18, 9.168), (109.18, 9.068)]:
            runs.append(("patch", {"fps": f, "frametime": t}))
        two = results(d, "two.json", [("fps", "fps", "higher", {}), ("frametime", "ms", "lower", {})], runs)
        rc, out, err = run([g, "compare", "--full", "--bootstrap", "0", two])
        check(rc == 0 and "geomean of the ratios of means: 1" not in out and "different things" in out,
              f"fps and frame time: no geomean over different units by default: {err}\n{out}")
        rc, out, err = run([g, "compare", "--bootstrap", "0", "--format", "json", "--geomean", "fps",
                            "--geomean", "frametime", two])
        gm = json.loads(out)["geomean"] if rc == 0 else []
        want = math.sqrt((109.68 / 100.0) * (10.0 / 9.118))
        check(len(gm) == 1 and abs(gm[0]["ratio"] - want) < 1e-9 and gm[0]["ci"][0] > 1,
              f"--geomean fps frametime: {want:.6g}, both improvements, CI above 1: {rc} {err} {gm}")
        rc, out, _ = run([g, "compare", "--bootstrap", "0", "--format", "markdown", "--geomean", "fps",
                          "--geomean", "frametime", two])
        check("**geomean**" in out and f"{want:.4g}" in out, f"geomean in markdown:\n{out}")
        rc, out, _ = run([g, "compare", "--full", "--bootstrap", "0", "--geomean", "fps", "--geomean", "frametime", two])
        check(f"patch: {want:.4g}" in out and "above 1 is better" in out, f"geomean in text:\n{out}")
        rc, _, err = run([g, "compare", "--full", "--geomean", "nosuch", two])
        check(rc == 2 and "nosuch" in err, f"--geomean of an unknown metric: refused: {err}")

        # 6. The family: a constant metric and a metric without a direction
        #    must not move the primary metric's p.
        runs = []
        base = [11.2, 10.1, 12.3, 10.8, 11.9, 10.4, 11.1, 12.0]
        cand = [11.9, 10.9, 12.6, 11.5, 12.8, 11.0, 11.7, 12.4]
        for x in base:
            runs.append(("base", {"latency_mean": x, "cycles": 0, "samples": 1000 + int(x * 10)}))
        for x in cand:
            runs.append(("patch", {"latency_mean": x, "cycles": 0, "samples": 1000 + int(x * 10)}))
        syslat = results(d, "syslat.json", [("latency_mean", "us", "lower", {}), ("cycles", "", "lower", {}),
                                            ("samples", "", "unknown", {})], runs)
        rc, out, _ = run([g, "compare", "--bootstrap", "0", "--format", "json", syslat])
        cs = {c["metric"]: c for c in json.loads(out)["comparisons"]}
        lm = cs["latency_mean"]["verdict"]
        check(lm["p_adjusted"] == lm["p"] and json.loads(out)["family_size"] == 1,
              f"latency_mean alone in the family: p not moved by cycles=0 or samples: {lm}")
        check(cs["samples"]["role"] == "secondary" and cs["cycles"]["verdict"]["p"] is None,
              f"samples (no direction) secondary; cycles (constant) has no p: {cs['samples']['role']}")
        declared = results(d, "declared.json", [("wall", "s", "lower", {"primary": True}),
                                                ("user", "s", "lower", {"primary": False})],
                           [("a", {"wall": w, "user": u}) for w, u in [(1.0, 0.5), (1.1, 0.6), (0.9, 0.4)]] +
                           [("b", {"wall": w, "user": u}) for w, u in [(1.0, 0.9), (1.1, 1.0), (0.95, 0.95)]])
        rc, out, err = run([g, "compare", "--gate", "--bootstrap", "0", "--format", "json", declared])
        cs = {c["metric"]: c for c in json.loads(out)["comparisons"]} if out.startswith("{") else {}
        check(rc == 0 and cs and cs["user"]["role"] == "secondary" and cs["user"]["verdict"]["outcome"] == "regression",
              f"a secondary regression is reported but does not gate: {rc} {err}")
        rc, out, err = run([g, "compare", "--full", "--gate", "--bootstrap", "0", "--metric", "user", declared])
        check(rc == 1, f"--metric user makes it primary, and it gates: {rc} {err}")

        # 7. Labels: the adjusted p says so; each markdown interval says its
        #    level (TOST's is 90%); the headline change is the same in text
        #    and markdown.
        many = results(d, "many.json", [("a", "us", "lower", {}), ("b", "us", "lower", {})],
                       [("x", {"a": v, "b": v * 2}) for v in base] +
                       [("y", {"a": v, "b": v * 2.1}) for v in cand])
        rc, out, _ = run([g, "compare", "--full", "--bootstrap", "0", many])
        check("Holm-adjusted p =" in out, f"text: the verdict's p says it is Holm-adjusted:\n{out}")
        rc, md, _ = run([g, "compare", "--full", "--bootstrap", "0", "--format", "markdown", many])
        check("90%: [" in md and "| TOST" in md and "95% CI |" not in md, f"markdown: TOST's interval is 90%:\n{md}")
        text_change = [l for l in out.splitlines() if l.strip().startswith("change")][0].split("change", 1)[1].strip()
        md_change = [l for l in md.splitlines() if l.startswith("change: ")][0][len("change: "):]
        check(md_change.startswith(text_change.split(" ")[0]),
              f"one headline change: text {text_change!r}, markdown {md_change!r}")
        tail = write(d, "tail", "".join(f"{v}\n" for v in [10, 10.2, 10.1, 10.3, 10.2, 10.1, 10.0, 10.2, 10.1, 14.0]))
        tail2 = write(d, "tail2", "".join(f"{v}\n" for v in [9.8, 9.9, 9.7, 9.9, 9.8, 9.7, 9.8, 9.9, 9.8, 13.5]))
        rc, out, _ = run([g, "compare", "--bootstrap", "0", "--format", "json", tail, tail2])
        c = json.loads(out)["comparisons"][0]
        v = c["verdict"]
        want = c["tests"]["hodges_lehmann"]["estimate"] if v["primary_test"] == "mann_whitney" else c["difference"]
        check(v["change"] == want and v["change_ci"] is not None and v["change_ci"][0] <= v["change"] <= v["change_ci"][1],
              f"the headline change is the primary test's estimate, with its interval: {v}")

        # What n = 3 can see: an inconclusive verdict says the size.
        s1 = write(d, "s1", "100\n106\n97\n")
        s2 = write(d, "s2", "101\n99\n104\n")
        rc, out, _ = run([g, "compare", "--format", "json", "--lower-is-better", s1, s2])
        v = json.loads(out)["comparisons"][0]["verdict"]
        check(v["outcome"] == "inconclusive" and "cannot be told from noise" in v["reason"] and
              v["detectable_change"] > 0.05, f"n = 3: the change this n can see: {v}")
    return finish("verdict command-line checks passed")


if __name__ == "__main__":
    sys.exit(main())
