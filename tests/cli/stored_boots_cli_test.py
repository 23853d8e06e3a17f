#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gfxstat compare of one new CI boot against stored history, with results
files: a baseline file holding B boots of main on one machine (several runs
a boot, each boot at its own level, as a merge of nightly files holds
them) and a candidate file of k boots of a merge request, written here
from seeded draws. Checked: the stored-boots design and its numbers in
JSON (against the prediction t computed here, its p in closed form for
B = 5), the verdict where the runs alone would call a regression and the
boots do not, the design's words in text, --full, --brief and markdown,
--gate's exit statuses, and the sentence instead of a verdict for a
baseline from another machine and for too few baseline boots."""

import json
import math
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402
from testlib import check, finish, run  # noqa: E402

SHIFTS = [-2, 1.5, 0.5, -1, 2, -0.5, 1, -1.5]  # the stored boots' levels around 100 (sd 1.46)


def results_file(d, name, variant, levels, runs, host, seed, prefix):
    """One run record per run: boot i at 100 + levels[i], runs N(0, 0.3)
    around it; every boot in an environment of its own whose machine id
    changes (as a LAVA device's can) and whose hostname is `host`."""
    rng = random.Random(seed)
    lines = [{"format": "gfxstat-results", "version": 1, "id": "%032x" % seed, "created": "2026-12-01T00:00:00Z",
              "generator": "test"},
             {"type": "metric", "name": "fps", "unit": "fps", "direction": "higher"}]
    values = []
    index = 0
    for b, level in enumerate(levels):
        env = f"env-{prefix}-{b}"
        lines.append({"type": "environment", "id": env, "hostname": host, "machine": "%016x" % (seed * 100 + b),
                      "kernel_release": "6.12.0"})
        for _ in range(runs):
            v = round(100 + level + rng.gauss(0, 0.3), 4)
            values.append((b, v))
            lines.append({"type": "run", "variant": variant, "run": index, "boot": f"boot-{prefix}-{b}",
                          "environment": env, "exit": {"class": "ok"}, "metrics": {"fps": v}})
            index += 1
    return testlib.write(d, name, "".join(json.dumps(x) + "\n" for x in lines)), values


def prediction(base, cand):
    """The prediction t of docs/compare-format.md, written out again here."""
    def boots(values):
        by = {}
        for b, v in values:
            by.setdefault(b, []).append(v)
        return list(by.values())
    a, c = boots(base), boots(cand)
    B, k = len(a), len(c)
    ma = [sum(x) / len(x) for x in a]
    mc = [sum(x) / len(x) for x in c]
    Y, Z = sum(ma) / B, sum(mc) / k
    s2 = sum((m - Y) ** 2 for m in ma) / (B - 1)
    sw2 = sum(sum((v - m) ** 2 for v in x) for x, m in zip(a, ma)) / sum(len(x) - 1 for x in a)
    h = sum(1 / len(x) for x in a) / B
    hc = sum(1 / len(x) for x in c) / k
    sb2 = max(0.0, s2 - sw2 * h)
    se = math.sqrt(s2 / B + (sb2 + sw2 * hc) / k)
    return {"d": Z - Y, "se": se, "t": (Z - Y) / se, "df": B - 1, "sb": math.sqrt(sb2), "sw": math.sqrt(sw2)}


def p_df4(t):
    """Two-sided p of Student's t with 4 df, in closed form."""
    x = t * t / 4
    cdf = 0.5 + 3 / 8 * (abs(t) / math.sqrt(1 + x)) * (1 - x / (3 * (1 + x)))
    return 2 * (1 - cdf)


def close(got, want, rel, what):
    return check(got is not None and abs(got - want) <= rel * max(abs(want), 1e-12), f"{what}: {got} != {want}")


def compare(g, *args):
    return run([g, "compare", "--bootstrap", "0", *args])


def as_json(g, base, cand):
    rc, out, err = compare(g, base, cand, "--format", "json")
    check(rc == 0, f"compare --format json exits 0: {rc} {err}")
    return json.loads(out)["comparisons"][0] if rc == 0 else {}


def main():
    g, _ = testlib.paths()
    with tempfile.TemporaryDirectory() as d:
        base, bv = results_file(d, "main.json", "main", SHIFTS, 4, "dut-3", 1, "main")
        bad, badv = results_file(d, "mr-bad.json", "mr", [-6], 4, "dut-3", 2, "bad")
        near, nearv = results_file(d, "mr-near.json", "mr", [-2], 4, "dut-3", 3, "near")

        # A 6% drop in one new boot against 8 stored boots: a regression.
        c = as_json(g, base, bad)
        design, v = c.get("design", {}), c.get("verdict", {})
        check(design.get("kind") == "stored_boots" and design.get("name") == "stored_boots", f"the design: {design}")
        check(design.get("baseline_boots") == 8 and design.get("candidate_boots") == 1, f"B and k: {design}")
        check(design.get("judged") is True and design.get("not_judged") is None, f"judged: {design}")
        ref = prediction(bv, badv)
        close(design.get("t"), ref["t"], 1e-9, "t")
        close(design.get("stderr"), ref["se"], 1e-9, "standard error")
        close(design.get("s_between"), ref["sb"], 1e-9, "s_between")
        close(design.get("s_within"), ref["sw"], 1e-9, "s_within")
        check(design.get("df") == 7, f"df B - 1: {design.get('df')}")
        check(design.get("candidate_machine") == "dut-3" and design.get("other_machines") == [],
              f"one machine by hostname, whatever its machine ids: {design}")
        check(v.get("primary_test") == "stored_boots" and v.get("outcome") == "regression", f"verdict: {v}")
        check(v.get("unit") == "boots", f"the unit is the boot: {v.get('unit')}")
        close(v.get("change"), ref["d"], 1e-9, "change: difference of boot means")
        rc, _, _ = compare(g, base, bad, "--gate")
        check(rc == 1, f"--gate fails on the regression: {rc}")

        # A 2% drop: the runs alone (Welch, every run independent) call it
        # significant; against the boots' own spread it is not.
        c = as_json(g, base, near)
        v = c.get("verdict", {})
        check(c.get("tests", {}).get("welch", {}).get("p", 1) < 0.001, f"run-level Welch p: {c.get('tests')}")
        check(v.get("outcome") == "inconclusive" and v.get("p", 0) > 0.05, f"no verdict from one boot: {v}")
        lo, hi = v.get("relative_change_ci") or [None, None]
        check(lo is not None and lo < 0 < hi, f"the interval holds 0%: {lo} {hi}")
        rc, _, _ = compare(g, base, near, "--gate")
        check(rc == 0, f"--gate passes: {rc}")

        # The design in every format's words.
        words = "1 new boot against 8 stored boots, none shared (prediction t on boot means, 7 df"
        rc, out, _ = compare(g, base, bad)
        check(rc == 0 and words in " ".join(out.split()), "the header names the design:\n" + out)
        rc, out, _ = compare(g, base, bad, "--full")
        flat = " ".join(out.split())
        check(rc == 0 and "design " + words in flat, "--full's design line:\n" + out)
        check("prediction t on boot means" in flat and "REGRESSION" in flat, "--full's verdict:\n" + out)
        rc, out, _ = compare(g, base, bad, "--brief")
        check(rc == 0 and "regression" in out.lower() and words in " ".join(out.split()), "--brief:\n" + out)
        rc, out, _ = compare(g, base, bad, "--format", "markdown")
        check(rc == 0 and "design: " + words in " ".join(out.split()), "markdown's design line:\n" + out)

        # B = 5: the p against Student's t with 4 df in closed form.
        five, fv = results_file(d, "main5.json", "main", SHIFTS[:5], 3, "dut-3", 4, "five")
        c = as_json(g, five, bad)
        ref = prediction(fv, badv)
        close(c.get("design", {}).get("p"), p_df4(ref["t"]), 1e-9, "p with 4 df")
        close(c.get("verdict", {}).get("p"), p_df4(ref["t"]), 1e-9, "the verdict's p")

        # Two new boots: boots as clusters, k = 2.
        two, twov = results_file(d, "mr-two.json", "mr", [-6, -5], 4, "dut-3", 5, "two")
        c = as_json(g, base, two)
        check(c.get("design", {}).get("candidate_boots") == 2, f"k = 2: {c.get('design')}")
        close(c.get("design", {}).get("t"), prediction(bv, twov)["t"], 1e-9, "t with 2 new boots")

        # The candidate on another machine: a sentence, and no gate fails.
        other, _ = results_file(d, "mr-other.json", "mr", [-6], 4, "dut-9", 6, "other")
        c = as_json(g, base, other)
        design, v = c.get("design", {}), c.get("verdict", {})
        check(design.get("judged") is False and design.get("not_judged") == "other_machine", f"other: {design}")
        check(design.get("other_machines") == ["dut-3"] and design.get("candidate_machine") == "dut-9",
              f"the machines named: {design}")
        check(v.get("outcome") == "inconclusive" and v.get("p") is None, f"no verdict: {v}")
        check(v.get("reason", "").startswith("not judged: baseline boots ran on another machine (dut-3)"),
              f"the sentence: {v.get('reason')}")
        for extra in (["--gate"], ["--gate", "--strict"]):
            rc, out, _ = compare(g, base, other, *extra)
            check(rc == 0, f"{' '.join(extra)} does not fail on another machine's baseline: {rc}")
        rc, out, _ = compare(g, base, other, "--full")
        check("not judged: baseline boots ran on another machine" in " ".join(out.split()), "--full says it:\n" + out)

        # Three stored boots: too few, a sentence.
        three, _ = results_file(d, "main3.json", "main", SHIFTS[:3], 4, "dut-3", 7, "three")
        c = as_json(g, three, bad)
        design, v = c.get("design", {}), c.get("verdict", {})
        check(design.get("not_judged") == "too_few_baseline_boots" and design.get("baseline_boots") == 3,
              f"too few: {design}")
        check(v.get("reason", "").startswith("not judged: the baseline holds 3 boots"), f"the sentence: {v}")
        rc, _, _ = compare(g, three, bad, "--gate", "--strict")
        check(rc == 0, f"--gate --strict does not fail on too few boots: {rc}")
        rc, out, _ = compare(g, three, bad, "--brief")
        check("too few baseline boots" in " ".join(out.split()), "--brief names why:\n" + out)
    finish("stored-boots compare: verdicts, words, JSON and gates")


if __name__ == "__main__":
    main()
