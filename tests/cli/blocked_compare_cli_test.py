#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gfxstat compare on results files of a blocked design (as gfxstat ab
writes them, here written by hand): the design line in text, markdown and
JSON, the confidence sequence's verdict for the metric the stop rule
watched, the paired t on the blocks for the others and for fixed designs,
the anytime-valid p, the design's confidence and threshold unless given,
exit statuses under --gate, and files without designs left as they were."""

import json
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402
from testlib import check, finish, run  # noqa: E402

HEADER = {"format": "gfxstat-results", "version": 1, "id": "0123456789abcdef0123456789abcdef",
          "created": "2026-12-01T00:00:00Z", "generator": "test"}
DESIGN_ID = "design-00112233aabbccdd"


def design_file(d, name, blocks, change, sd=0.004, stopping="sequential", seed=1, with_design=True,
                failed_block=None, confidence=0.95, threshold=0.01, variants=("A", "B")):
    """A results file of `blocks` blocks of A and B (B = A * (1 + change)
    plus noise), fps (higher is better) and frame_ms (lower is better)."""
    rng = random.Random(seed)
    lines = [HEADER]
    if with_design:
        design = {"type": "design", "id": DESIGN_ID, "kind": "ab", "variants": list(variants), "order": "random",
                  "seed": 42, "stopping": stopping, "method": "t-mixture confidence sequence", "metric": "fps",
                  "confidence": confidence, "threshold": threshold}
        design["max_runs" if stopping == "sequential" else "runs"] = 50 if stopping == "sequential" else blocks
        lines.append(design)
    lines.append({"type": "metric", "name": "fps", "unit": "fps", "direction": "higher"})
    lines.append({"type": "metric", "name": "frame_ms", "unit": "ms", "direction": "lower"})
    index = {v: 0 for v in variants}
    for b in range(blocks):
        drift = 1 + 0.02 * rng.uniform(-1, 1)  # shared by the block: cancels in its ratio
        order = list(variants)
        rng.shuffle(order)
        for pos, v in enumerate(order):
            factor = 1 + (change if v != variants[0] else 0)
            fps = round(60 * drift * factor * (1 + rng.gauss(0, sd)), 4)
            run = {"type": "run", "variant": v, "run": index[v], "exit": {"class": "ok"},
                   "metrics": {"fps": fps, "frame_ms": round(1000 / fps * (1 + rng.gauss(0, sd)), 4)}}
            if failed_block == b and v != variants[0]:
                run["exit"] = {"class": "fail", "code": 1}
                run["metrics"] = {}
            if with_design:
                run.update({"design": DESIGN_ID, "block": b, "position": pos})
            index[v] += 1
            lines.append(run)
    return testlib.write(d, name, "".join(json.dumps(x) + "\n" for x in lines))


def compare(g, path, *extra):
    return run([g, "compare", "--full", path, "--bootstrap", "0", *extra])


def comparisons(g, path, *extra):
    rc, out, err = compare(g, path, "--format", "json", *extra)
    if not check(rc in (0, 1, 3), f"compare --format json {extra} exits {rc}: {err}"):
        return rc, {}
    return rc, {c["metric"]: c for c in json.loads(out)["comparisons"]}


def main():
    g, src = testlib.paths()
    with tempfile.TemporaryDirectory() as d:
        # Sequential, B 3% faster, block 4 of B failed.
        seq = design_file(d, "seq.json", 20, 0.03, failed_block=4)
        rc, out, err = compare(g, seq)
        check(rc == 0, f"sequential compare exits 0: {rc} {err}")
        flat = " ".join(out.split())
        check("design blocked, 19 blocks and 1 incomplete left out (gfxstat ab, random order, sequential: "
              "t-mixture confidence sequence at 95%)" in flat, "text names the blocked design:\n" + out)
        check("IMPROVEMENT by t-mixture confidence sequence on blocks" in flat, "fps improves by the sequence")
        check("anytime-valid p" in flat, "the p is named anytime-valid")
        check("not the metric the design's stop rule watched" in flat, "frame_ms is secondary, and why")
        check("95% confidence sequence" in flat, "the interval is a confidence sequence")
        rc, cs = comparisons(g, seq)
        fps, ft = cs.get("fps", {}), cs.get("frame_ms", {})
        if check(fps and ft, "both metrics compared"):
            v = fps["verdict"]
            check(v["primary_test"] == "sequential_blocks", f"fps: {v['primary_test']}")
            check(v["outcome"] == "improvement", f"fps: {v['outcome']}: {v['reason']}")
            check(v["p_label"] == "anytime-valid p" and v["adjusted"] is False, f"fps p: {v['p_label']}")
            check(fps["role"] == "primary", "fps is primary")
            check(fps["design"]["kind"] == "blocked" and fps["design"]["blocks"] == 19 and
                  fps["design"]["incomplete_blocks"] == 1 and fps["design"]["id"] == DESIGN_ID,
                  f"fps design: {fps['design']}")
            check(fps["design"]["sequential"]["call"] == "changed", f"{fps['design']['sequential']}")
            check(abs(fps["verdict"]["relative_change"] - 0.03) < 0.01, f"fps change {v['relative_change']}")
            check(ft["role"] == "secondary" and ft["secondary_why"] == "not the metric the design's stop rule watched",
                  f"frame_ms role: {ft['role']} {ft['secondary_why']}")
            check(ft["verdict"]["primary_test"] == "paired_blocks", f"frame_ms: {ft['verdict']['primary_test']}")
            check(ft["verdict"]["outcome"] == "improvement", f"frame_ms: {ft['verdict']['reason']}")
            check(ft["design"]["sequential"] is None, "frame_ms has no sequential look")
        rc, out, _ = compare(g, seq, "--format", "markdown")
        check("design: blocked, 19 blocks" in out, "markdown names the design")
        check("(anytime-valid)" in out, "markdown marks the anytime-valid p")

        rc, out, _ = run([g, "show", seq])
        check(rc == 0 and "designs" in out and DESIGN_ID in out and "sequential on fps" in out,
              "show lists the design:\n" + out)

        # A sequential regression fails the gate; with --strict an unsettled one exits 3.
        worse = design_file(d, "worse.json", 20, -0.03, seed=2)
        rc, _, err = compare(g, worse, "--gate")
        check(rc == 1, f"a sequential regression exits 1 under --gate: {rc} {err}")
        rc, cs = comparisons(g, worse)
        check(cs.get("fps", {}).get("verdict", {}).get("outcome") == "regression", "fps regressed")
        short = design_file(d, "short.json", 6, 0.0, sd=0.02, seed=3)
        rc, _, err = compare(g, short, "--gate", "--strict")
        check(rc == 3, f"an unsettled sequential design exits 3 under --gate --strict: {rc} {err}")
        rc, cs = comparisons(g, short)
        v = cs.get("fps", {}).get("verdict", {})
        check(v.get("outcome") == "inconclusive", f"short: {v.get('outcome')}")
        check("confidence sequence" in v.get("reason", ""), f"short reason: {v.get('reason')}")
        check(v.get("unit") == "blocks", f"short unit: {v.get('unit')}")

        # Fixed blocks: the paired t on the block log ratios, at the design's
        # threshold unless one is given.
        fixed = design_file(d, "fixed.json", 12, 0.03, stopping="fixed", seed=4, threshold=0.02)
        rc, out, err = compare(g, fixed)
        flat = " ".join(out.split())
        check("design blocked, 12 blocks (gfxstat ab, random order, fixed: 12 blocks)" in flat,
              "text names the fixed design:\n" + out)
        check("IMPROVEMENT by paired t on block log ratios" in flat, "fixed: paired t")
        rc, out, _ = compare(g, fixed, "--format", "json")
        doc = json.loads(out)
        check(doc["threshold"] == 0.02 and doc["confidence"] == 0.95, f"design's threshold: {doc['threshold']}")
        cs = {c["metric"]: c for c in doc["comparisons"]}
        v = cs["fps"]["verdict"]
        check(v["primary_test"] == "paired_blocks" and v["p_label"] != "anytime-valid p", f"fixed fps: {v}")
        check(cs["fps"]["role"] == "primary" and cs["frame_ms"]["role"] == "primary", "fixed: both primary")
        check(cs["fps"]["design"]["log_ratio"] is True, "log ratios")
        rc, out, _ = compare(g, fixed, "--format", "json", "--threshold", "5", "--confidence", "0.9")
        doc = json.loads(out)
        check(doc["threshold"] == 0.05 and doc["confidence"] == 0.9, "the user's threshold and confidence win")
        rc, _, _ = compare(g, design_file(d, "fixed_worse.json", 12, -0.05, stopping="fixed", seed=5), "--gate")
        check(rc == 1, f"a fixed-design regression exits 1 under --gate: {rc}")

        # Three variants: Bonferroni over the two candidates for the sequence.
        three = design_file(d, "three.json", 20, 0.03, seed=6, variants=("A", "B", "C"))
        rc, cs = comparisons(g, three)
        lv = cs.get("fps", {}).get("design", {}).get("confidence")
        check(lv is not None and abs(lv - 0.975) < 1e-12, f"per-comparison confidence {lv}")

        # The same runs without a design: compared as before, no design line.
        plain = design_file(d, "plain.json", 20, 0.03, failed_block=4, with_design=False)
        rc, out, err = compare(g, plain)
        check(rc == 0 and "design" not in out, "no design line without a design:\n" + out)
        check("by paired t on block" not in out and "confidence sequence" not in out, "no block tests")
        rc, out, _ = compare(g, plain, "--format", "markdown")
        check("design:" not in out, "markdown without a design line")
        rc, cs = comparisons(g, plain)
        check(cs.get("fps", {}).get("design", {}).get("kind") == "independent",
              f"json design kind: {cs.get('fps', {}).get('design')}")
        check(cs.get("fps", {}).get("verdict", {}).get("primary_test") in ("welch", "mann_whitney"),
              "an independent-samples test")
        # Interleaved in shared boots, no design record: paired by boot, and named so.
        rng = random.Random(7)
        lines = [HEADER, {"type": "metric", "name": "fps", "unit": "fps", "direction": "higher"}]
        index = {"A": 0, "B": 0}
        for boot in range(5):
            mode = 1 + 0.08 * rng.uniform(-1, 1)
            for _ in range(6):
                for v in ("A", "B"):
                    fps = round(60 * mode * (1.02 if v == "B" else 1) * (1 + rng.gauss(0, 0.002)), 4)
                    lines.append({"type": "run", "variant": v, "run": index[v], "boot": f"boot-{boot}",
                                  "exit": {"class": "ok"}, "metrics": {"fps": fps}})
                    index[v] += 1
        inter = testlib.write(d, "inter.json", "".join(json.dumps(x) + "\n" for x in lines))
        rc, out, err = compare(g, inter)
        flat = " ".join(out.split())
        check("design interleaved in 5 shared boots (paired by boot)" in flat, "interleaved design named:\n" + out)
        rc, cs = comparisons(g, inter)
        dj = cs.get("fps", {}).get("design", {})
        check(dj.get("kind") == "interleaved", f"json interleaved: {dj}")
        check(cs.get("fps", {}).get("verdict", {}).get("primary_test") == "paired_boot_means", "paired by boot")
    return finish("blocked compare: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
