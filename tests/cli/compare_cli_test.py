#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gfxstat compare from the command line: every statistic in its JSON
output checked against R 4.2 on the reference cases (tests/data/
reference_cases.json, a copy of shared/reference/cases.json), the verdicts
and the --gate exit statuses on data whose answer is known, the text
report's width and histogram height, markdown, and errors."""

import argparse
import json
import math
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402
from testlib import check, finish, run  # noqa: E402


def close(x, want, rel=1e-6, abs_=1e-12):
    if want is None or (isinstance(want, float) and math.isnan(want)):
        return x is None
    if x is None:
        return False
    return abs(x - want) <= max(abs_, rel * abs(want))


def write(d, name, values):
    """A column file of `values`, each as Python's shortest round trip."""
    return testlib.write(d, name, "".join(f"{v!r}\n" for v in values))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gfxstat", required=True)
    ap.add_argument("--source", required=True)
    args = ap.parse_args()
    g, src = args.gfxstat, args.source
    with open(os.path.join(src, "tests/data/reference_cases.json")) as f:
        ref = json.load(f)

    with tempfile.TemporaryDirectory() as d:
        for case in ref["cases"]:
            cid = case["id"]
            a = write(d, "a", case["a"])
            b = write(d, "b", case["b"])
            rc, out, err = run([g, "compare", "--format", "json", "--bootstrap", "0", a, b])
            if not check(rc == 0, f"{cid}: rc {rc}: {err}"):
                continue
            c = json.loads(out)["comparisons"][0]
            rc, text, err = run([g, "compare", "--bootstrap", "200", a, b])
            check(rc == 0 and not any(w in text.lower() for w in ("nan", " inf", "-inf")),
                  f"{cid}: the text report prints no NaN or inf: {text}{err}")
            ts = case["two_sample"]
            sa, sb = case["stats_a"], case["stats_b"]
            for side, st in (("baseline", sa), ("candidate", sb)):
                for k in ("n", "min", "max", "median", "mean"):
                    check(close(c[side][k], st[k]), f"{cid}: {side} {k} {c[side][k]} vs R {st[k]}")
                check(close(c[side]["stddev"], st["sd"]), f"{cid}: {side} sd")
            st = c["tests"]["student"]
            if st["defined"] and sa["mean"] != 0:
                want = [x / abs(sa["mean"]) * 100 for x in ts["student_pooled"]["ci95"]]
                check(close(st["relative_ci_percent"][0], want[0], rel=1e-6, abs_=1e-9) and
                      close(st["relative_ci_percent"][1], want[1], rel=1e-6, abs_=1e-9),
                      f"{cid}: relative CI {st['relative_ci_percent']} vs {want}")
            huge = cid.startswith("huge_offset")
            for name, key in (("student", "student_pooled"), ("welch", "welch")):
                want = ts[key]
                if huge:  # R loses digits here; the exact rational values are the target
                    want = dict(ts["exact_rational_t"]["pooled" if name == "student" else "welch"])
                got = c["tests"][name]
                if want.get("statistic") is None or not got["defined"]:
                    check(not got["defined"] or want.get("statistic") is not None,
                          f"{cid}: {name} defined mismatch")
                    # An undefined test has no p and no interval: null, never NaN
                    # (nor p = 0, which a script would read as significant).
                    check("NaN" not in out and got["p"] is None and got["ci"] is None,
                          f"{cid}: {name}: undefined, p and ci null: {got}")
                    continue
                check(close(got["t"], want["statistic"]), f"{cid}: {name} t {got['t']} vs {want['statistic']}")
                check(close(got["df"], want["df"]), f"{cid}: {name} df")
                check(close(got["p"], want["p_value"]), f"{cid}: {name} p {got['p']} vs {want['p_value']}")
                check(close(got["ci"][0], want["ci95"][0]) and close(got["ci"][1], want["ci95"][1]),
                      f"{cid}: {name} ci95 {got['ci']} vs {want['ci95']}")
            mw = ts["mann_whitney"]
            got = c["tests"]["mann_whitney"]
            check(close(got["u"], mw["W_b"]), f"{cid}: U {got['u']} vs {mw['W_b']}")
            if mw["R_default"].get("p_value") is not None:
                check(close(got["p"], mw["R_default"]["p_value"]),
                      f"{cid}: Mann-Whitney p {got['p']} vs R {mw['R_default']['p_value']}")
            check(close(c["tests"]["hodges_lehmann"]["estimate"], mw["hodges_lehmann"], rel=1e-9, abs_=1e-12),
                  f"{cid}: Hodges-Lehmann {c['tests']['hodges_lehmann']['estimate']} vs {mw['hodges_lehmann']}")
            n_a, n_b = len(case["a"]), len(case["b"])
            check(close(c["effect"]["probability_of_superiority"], mw["W_b"] / (n_a * n_b)),
                  f"{cid}: probability of superiority")
            if c["effect"]["cohens_d"] is not None:
                pooled = math.sqrt(((n_a - 1) * sa["var"] + (n_b - 1) * sb["var"]) / (n_a + n_b - 2))
                check(close(c["effect"]["cohens_d"], ts["diff_means"] / pooled, rel=1e-6),
                      f"{cid}: Cohen's d")

        # Known answers for the verdict and the gate.
        rng = random.Random(20261130)
        base = [round(rng.gauss(100.0, 1.0), 3) for _ in range(40)]
        slower = [round(rng.gauss(105.0, 1.0), 3) for _ in range(40)]
        same = [round(rng.gauss(100.0, 0.2), 3) for _ in range(200)]
        same2 = [round(rng.gauss(100.0, 0.2), 3) for _ in range(200)]
        few_a, few_b = [100.0, 103.0, 98.0], [101.0, 97.0, 104.0]
        pa, pb = write(d, "base", base), write(d, "slower", slower)
        rc, out, _ = run([g, "compare", "--format", "json", "--lower-is-better", "--gate", "--bootstrap", "0", pa, pb])
        v = json.loads(out)["comparisons"][0]["verdict"]
        check(rc == 1 and v["outcome"] == "regression" and v["beyond_threshold"],
              f"5% slower, lower is better: regression, gate 1: rc {rc} {v}")
        rc, out, _ = run([g, "compare", "--format", "json", "--higher-is-better", "--gate", "--bootstrap", "0", pa, pb])
        v = json.loads(out)["comparisons"][0]["verdict"]
        check(rc == 0 and v["outcome"] == "improvement", f"5% higher, higher is better: improvement: {rc} {v}")
        rc, out, _ = run([g, "compare", "--format", "json", "--bootstrap", "0", pa, pb])
        check(rc == 0 and json.loads(out)["comparisons"][0]["verdict"]["outcome"] == "changed",
              "direction unknown: changed, exit 0 without --gate")
        sa_, sb_ = write(d, "same", same), write(d, "same2", same2)
        rc, out, _ = run([g, "compare", "--format", "json", "--lower-is-better", "--gate", "--strict",
                          "--bootstrap", "0", sa_, sb_])
        v = json.loads(out)["comparisons"][0]["verdict"]
        check(rc == 0 and v["outcome"] == "no_change", f"equal within 1%: no_change: {rc} {v}")
        fa, fb = write(d, "fa", few_a), write(d, "fb", few_b)
        rc, out, _ = run([g, "compare", "--format", "json", "--lower-is-better", "--gate", "--strict",
                          "--bootstrap", "0", fa, fb])
        v = json.loads(out)["comparisons"][0]["verdict"]
        check(rc == 3 and v["outcome"] == "inconclusive" and v["runs_needed"] and v["runs_needed"] > 3,
              f"3 vs 3 noisy runs: inconclusive, --strict exit 3, runs needed: {rc} {v}")
        rc, _, _ = run([g, "compare", "--lower-is-better", "--gate", "--bootstrap", "0", fa, fb])
        check(rc == 0, "inconclusive without --strict: exit 0")

        # A negative baseline: -10 -> -5 is worse when lower is better. A zero
        # baseline: the change has no relative size but still a direction.
        neg_a = write(d, "neg_a", [round(rng.gauss(-10, 0.1), 3) for _ in range(20)])
        neg_b = write(d, "neg_b", [round(rng.gauss(-5, 0.1), 3) for _ in range(20)])
        rc, out, _ = run([g, "compare", "--format", "json", "--lower-is-better", "--gate", "--bootstrap", "0",
                          neg_a, neg_b])
        c = json.loads(out)["comparisons"][0]
        check(rc == 1 and c["verdict"]["outcome"] == "regression" and c["relative_difference"] > 0.4,
              f"negative baseline, lower is better, -10 -> -5: regression: {rc} {c['verdict']}")
        zero_a = write(d, "zero_a", [-1.0, 1.0, -0.5, 0.5, 0.0, -0.25, 0.25, 0.0])
        zero_b = write(d, "zero_b", [9.0, 11.0, 9.5, 10.5, 10.0, 9.75, 10.25, 10.0])
        rc, out, _ = run([g, "compare", "--format", "json", "--lower-is-better", "--gate", "--bootstrap", "0",
                          zero_a, zero_b])
        v = json.loads(out)["comparisons"][0]["verdict"]
        check(rc == 1 and v["outcome"] == "regression" and v["beyond_threshold"] and v["relative_change"] is None,
              f"zero baseline: regression beyond any threshold: {rc} {v}")

        # Text: never wider than --width; histogram capped at 20 rows.
        big_a = write(d, "big_a", [round(rng.gauss(10, 1), 2) for _ in range(5000)])
        big_b = write(d, "big_b", [round(rng.gauss(10.1, 1), 2) for _ in range(5000)])
        rc, out, err = run([g, "compare", "--width", "72", "--bootstrap", "200", big_a, big_b])
        lines = out.splitlines()
        check(rc == 0, f"text report: {err}")
        check(max(len(l) for l in lines) <= 72, f"width 72: longest line {max(len(l) for l in lines)}")
        plot_rows = [l for l in lines if l.startswith("|") and l.endswith("|")]
        check(len(plot_rows) <= 22, f"histogram capped: {len(plot_rows)} rows")
        check(any("histogram scaled" in l for l in lines), "scaling is said, not silent")
        rc, out, _ = run([g, "compare", "--format", "markdown", "--bootstrap", "0", pa, pb])
        check(rc == 0 and out.startswith("| metric | baseline | candidate |"), "markdown summary table")

        # Several metrics from one results file: Holm adjustment and summary.
        campaign = os.path.join(src, "tests/data/results/campaign.json")
        rc, out, err = run([g, "compare", "--full", "--bootstrap", "0", campaign])
        check(rc == 0 and "summary (Holm-adjusted p" in out and "geomean" in out,
              f"several metrics, --full: summary table: {err}")
        # Without --full two metrics of one unit are a suite: one table
        # (tests/cli/suite_cli_test.py).
        rc, out, err = run([g, "compare", "--bootstrap", "0", campaign])
        check(rc == 0 and out.splitlines()[4].startswith("benchmark") and "geomean" in out,
              f"several metrics: the suite table: {out} {err}")
        rc, out, _ = run([g, "compare", "--format", "json", "--bootstrap", "0", campaign])
        cs = json.loads(out)["comparisons"]
        ps = sorted(c["verdict"]["p"] for c in cs)
        adj = sorted(c["verdict"]["p_adjusted"] for c in cs)
        check(len(cs) == 2 and close(adj[0], min(1, 2 * ps[0])), f"Holm: smallest p doubled: {ps} {adj}")
        for full in ([], ["--full"]):
            rc, out, _ = run([g, "compare", "--width", "60", "--bootstrap", "0", campaign] + full)
            check(rc == 0 and max(len(l) for l in out.splitlines()) <= 60,
                  f"width 60 with several metrics {full}: longest {max(len(l) for l in out.splitlines())}")
        rc, out, _ = run([g, "compare", "--format", "json", "--fdr", "--bootstrap", "0", campaign])
        cs = json.loads(out)["comparisons"]
        check(json.loads(out)["adjustment"] == "benjamini-hochberg", "--fdr names BH")

        # Errors: exit 2, always.
        rc, _, err = run([g, "compare", pa])
        check(rc == 2, f"one column file: exit 2: {err}")
        rc, _, err = run([g, "compare", pa, campaign])
        check(rc == 2 and "mixing" in err, f"mixed inputs: {err}")
        one = write(d, "one", [1.0])
        rc, _, err = run([g, "compare", pa, one])
        check(rc == 2 and "at least 2" in err, f"n = 1: {err}")
        rc, _, err = run([g, "compare", "--confidence", "95", pa, pb])
        check(rc == 2, f"confidence outside (0, 1): {err}")
        rc, _, err = run([g, "compare", "--confidence", "0.5", campaign])
        check(rc == 2, f"confidence 0.5 (TOST needs more): exit 2, not a crash: {rc} {err}")
        rc, _, err = run([g, "compare", "--metric", "latency", "--metric", "latency", campaign])
        check(rc == 2 and "twice" in err, f"a metric given twice: {err}")
        rc, _, err = run([g, "compare", "--bootstrap", "1", pa, pb])
        check(rc == 2, f"--bootstrap 1: {err}")
        rc, _, err = run([g, "compare", "--metric", "nope", campaign])
        check(rc == 2 and "no metric 'nope'" in err, f"unknown metric: {err}")

    return finish("compare CLI: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
