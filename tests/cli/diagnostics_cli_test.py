#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Diagnostics from the command line (docs/diagnostics.md): compare on the
R reference clustered cases tests boot means and reports the ICC, design
effect and effective n as R does; a single boot per variant is called
confounded; the reference bimodal sample is found, with its mixture modes
as mclust fits them, and switches the test to Mann-Whitney; outliers are
listed and --drop-outliers says what it dropped; summary and show carry
the same diagnostics; --no-diagnostics turns them off."""

import json
import math
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402
from testlib import check, finish, run  # noqa: E402


def close(x, want, rel=1e-9):
    return x is not None and abs(x - want) <= rel * max(1.0, abs(want))


def column(d, name, values):
    return testlib.write(d, name, "".join(f"{v!r}\n" for v in values))


def compare_json(g, *args):
    rc, out, err = run([g, "compare", "--format", "json", "--bootstrap", "0", *args])
    check(rc == 0, f"compare {args}: exit {rc}: {err}")
    return json.loads(out) if rc == 0 else None, err


def check_sample_diagnostics(d, what):
    """The documented shape of a sample's diagnostics object."""
    b = d.get("bimodality", {})
    for key in ("judged", "dip", "dip_p", "coefficient", "mixture", "bimodal", "modes"):
        check(key in b, f"{what}: bimodality.{key} missing")
    check(set(d.get("drift", {})) == {"unit", "trend", "change_point", "within_boots", "first_run"}, f"{what}: drift keys {d.get('drift')}")
    for key in ("count", "by_modified_z", "by_tukey", "far_out", "median", "mad", "fences", "far_fences", "listed"):
        check(key in d.get("outliers", {}), f"{what}: outliers.{key} missing")
    check("boots" in d, f"{what}: boots missing")


def main():
    g, src = testlib.paths()
    ref = testlib.load_json(src, "tests/data/reference_cases.json")
    cases = {c["id"]: c for c in ref["cases"]}
    clustered = {c["id"]: c for c in ref["clustered_cases"]}
    results = os.path.join(src, "tests/data/results")

    # Boot clustering on the R reference cases: boots are the unit.
    for fixture, case_id in (("clustered.json", "clustered_balanced_5x6"),
                             ("clustered_null.json", "clustered_balanced_3x10_null")):
        doc, _ = compare_json(g, os.path.join(results, fixture))
        if not doc:
            continue
        c = doc["comparisons"][0]
        r = clustered[case_id]
        k = c["clustering"]
        check(k["known"] and k["unit"] == "boots" and not k["confounded"], f"{fixture}: clustering {k}")
        for side, key in (("baseline", "icc_build_a"), ("candidate", "icc_build_b")):
            got, want = k[side], r[key]
            for name, ref_name in (("icc", "icc"), ("design_effect", "design_effect"),
                                   ("effective_n", "n_eff"), ("sigma2_between", "sigma2_between"),
                                   ("sigma2_within", "sigma2_within")):
                check(close(got[name], want[ref_name]), f"{fixture} {side} {name}: {got[name]} vs R {want[ref_name]}")
            build = "a" if side == "baseline" else "b"
            check(got["boots"] == len(set(b for b, bb in zip(r["data"]["boot"], r["data"]["build"]) if bb == build)),
                  f"{fixture} {side} boots {got['boots']}")
            check(c[side]["diagnostics"]["boots"]["icc"] == got["icc"], f"{fixture}: {side} diagnostics.boots")
        v = c["verdict"]
        w = r["welch_t_on_boot_means"]
        check(v["primary_test"] == "welch_boot_means", f"{fixture}: primary {v['primary_test']}")
        check(close(v["p"], w["p_value"], 1e-7), f"{fixture}: boot-means p {v['p']} vs R {w['p_value']}")
        check(k["boot_means_test"]["test"] == "welch" and k["paired"] is False, f"{fixture}: Welch on boot means")
        check(close(k["boot_means_test"]["df"], w["df"], 1e-7), f"{fixture}: boot-means df")
        check(close(k["boot_means_test"]["ci"][0], w["ci95"][0], 1e-7), f"{fixture}: boot-means CI")
        # The verdict's equivalence test is the one on boot means, shown.
        check(f"TOST p = {k['boot_means_equivalence']['p']:.3g}" in v["reason"] or v["outcome"] != "inconclusive",
              f"{fixture}: the reason quotes the boot-means TOST: {v['reason']} / {k['boot_means_equivalence']}")
        check_sample_diagnostics(c["baseline"]["diagnostics"], fixture)
        # The drift of a clustered sample is judged on its boot means.
        check(c["baseline"]["diagnostics"]["drift"]["unit"] == "boots", f"{fixture}: drift unit")
    doc, _ = compare_json(g, os.path.join(results, "clustered.json"))
    if doc:
        check(doc["comparisons"][0]["verdict"]["outcome"] == "regression", "clustered: +2.2% lower-is-better")
    doc, _ = compare_json(g, os.path.join(results, "clustered_null.json"))
    if doc:
        v = doc["comparisons"][0]["verdict"]
        check(v["outcome"] == "inconclusive" and "boots per side" in v["reason"],
              f"clustered null: boots needed, not runs: {v['reason']}")
    rc, out, _ = run([g, "compare", "--full", "--bootstrap", "0", os.path.join(results, "clustered.json")])
    check("The verdict compares boot means (5 baseline and 5 candidate boots)" in " ".join(out.split()),
          f"clustered text names the unit:\n{out}")
    check(max(len(line) for line in out.splitlines()) <= 74, "clustered text fits 74 columns")

    # An interleaved A/B: both variants in the same 4 boots, each boot at its
    # own level. The paired t on per-boot differences, computed here.
    doc, _ = compare_json(g, os.path.join(results, "shared_boots.json"))
    if doc:
        c = doc["comparisons"][0]
        k = c["clustering"]
        runs = [json.loads(line) for line in open(os.path.join(results, "shared_boots.json"))][2:]
        diffs = []
        for boot in dict.fromkeys(r["boot"] for r in runs):
            mean = {v: sum(r["metrics"]["y"] for r in runs if r["boot"] == boot and r["variant"] == v) /
                    sum(1 for r in runs if r["boot"] == boot and r["variant"] == v) for v in ("baseline", "candidate")}
            diffs.append(mean["candidate"] - mean["baseline"])
        n = len(diffs)
        m = sum(diffs) / n
        sd = math.sqrt(sum((x - m) ** 2 for x in diffs) / (n - 1))
        t = m / (sd / math.sqrt(n))
        # Student t with 3 df has a closed-form CDF.
        u = t / math.sqrt(3)
        p = 2 * (0.5 - (u / (1 + u * u) + math.atan(u)) / math.pi)
        test = k.get("boot_means_test", {})
        check(k["paired"] is True and k["shared_boots"] == 4 and test.get("test") == "paired",
              f"shared boots are paired: {k}")
        check(close(test.get("t"), t, 1e-9) and test.get("df") == 3 and close(test.get("p"), p, 1e-7),
              f"paired t {test} vs t = {t}, p = {p}")
        check(all(close(a, b, 1e-9) for a, b in zip(k.get("boot_differences", []), diffs)), "boot differences")
        check(c["verdict"]["primary_test"] == "paired_boot_means" and c["verdict"]["outcome"] == "regression",
              f"paired verdict: {c['verdict']}")
    rc, out, _ = run([g, "compare", "--full", "--bootstrap", "0", os.path.join(results, "shared_boots.json")])
    check("pairs the variants boot by boot (4 boots ran both)" in " ".join(out.split()), f"paired text:\n{out}")

    # One candidate run without a boot id: boots cannot be the unit, said.
    doc, _ = compare_json(g, os.path.join(results, "partial_boots.json"))
    if doc:
        k = doc["comparisons"][0]["clustering"]
        check(k["known"] is False and k["unknown_side"] == "candidate" and k["boots_matter"] is True,
              f"partial boots: {k}")
    rc, out, _ = run([g, "compare", "--full", "--bootstrap", "0", os.path.join(results, "partial_boots.json")])
    check("carry no boot ids" in " ".join(out.split()), f"partial boots text:\n{out}")

    # One boot per variant: confounded, said in words and JSON.
    doc, _ = compare_json(g, os.path.join(results, "confounded.json"))
    if doc:
        k = doc["comparisons"][0]["clustering"]
        check(k["confounded"] and k["unit"] == "runs" and k["baseline"]["boots"] == 1, f"confounded: {k}")
    rc, out, _ = run([g, "compare", "--full", "--bootstrap", "0", os.path.join(results, "confounded.json")])
    check("boot and variant are confounded" in " ".join(out.split()), f"confounded text:\n{out}")

    # The shipped campaign: two boots per kernel, and the latency mode set
    # per boot (ICC above 0.9), so its 2 + 2 boot means are what counts.
    doc, _ = compare_json(g, os.path.join(results, "campaign.json"), "--metric", "latency")
    if doc:
        k = doc["comparisons"][0]["clustering"]
        check(k["unit"] == "boots" and k["baseline"]["boots"] == 2 and k["candidate"]["boots"] == 2
              and k["baseline"]["icc"] > 0.9, f"campaign clustering {k}")

    # Column files: boots unknown.
    with tempfile.TemporaryDirectory() as d:
        doc, _ = compare_json(g, column(d, "x", [1.0, 2.0, 3.0, 4.0]), column(d, "y", [2.0, 3.0, 4.0, 5.0]))
        if doc:
            k = doc["comparisons"][0]["clustering"]
            check(k["known"] is False and k["unit"] == "runs" and k["baseline"] is None, f"column files: {k}")

    with tempfile.TemporaryDirectory() as d:
        # The reference bimodal sample (82.5% / 17.5%): found, with mclust's
        # modes, and the rank test becomes primary.
        c = cases["bimodal_vs_unimodal_n40"]
        a, b = column(d, "a", c["a"]), column(d, "b", c["b"])
        doc, _ = compare_json(g, a, b)
        if doc:
            cmp_ = doc["comparisons"][0]
            bim = cmp_["baseline"]["diagnostics"]["bimodality"]
            check(bim["bimodal"] is True, f"reference mixture called bimodal: {bim}")
            check(bim["dip"] == c["stats_a"]["dip"], f"dip {bim['dip']} vs R {c['stats_a']['dip']}")
            check(abs(bim["dip_p"] - c["stats_a"]["dip_p_table"]) < 0.01, f"dip p {bim['dip_p']}")
            check(close(bim["coefficient"], c["stats_a"]["bimodality_coefficient"]), "bimodality coefficient")
            v2 = c["stats_a"]["gmm"]["V2"]
            for i in range(2):
                check(abs(bim["modes"][i]["mean"] - v2["mean"][i]) < 1e-3 * abs(v2["mean"][i]) and
                      abs(bim["modes"][i]["weight"] - v2["pro"][i]) < 1e-3,
                      f"mode {i}: {bim['modes'][i]} vs mclust {v2['mean'][i]}, {v2['pro'][i]}")
            check(cmp_["candidate"]["diagnostics"]["bimodality"]["bimodal"] is False, "unimodal candidate")
            check(cmp_["verdict"]["primary_test"] == "mann_whitney" and
                  "bimodal" in cmp_["verdict"]["primary_test_reason"], f"bimodal → rank test: {cmp_['verdict']}")
            w = cmp_["candidate"].get("weights_in_baseline_modes")
            check(w is not None and abs(sum(w) - 1) < 1e-9, f"candidate's weights in the baseline's modes: {w}")
        rc, out, _ = run([g, "compare", "--full", "--bootstrap", "0", a, b])
        flat = " ".join(out.split())
        check(f"baseline '{a}' is bimodal" in flat and "modes at 100.198 and 108.677" in flat and
              f"into the modes of baseline '{a}'" in flat, f"bimodal text:\n{out}")
        check("outlier" not in flat, f"a bimodal sample's second mode is not called outliers:\n{out}")
        rc, out, _ = run([g, "compare", "--bootstrap", "0", "--format", "markdown", a, b])
        check(f"\n- baseline '{a}' is bimodal" in out, f"markdown lists diagnostics:\n{out}")
        doc, _ = compare_json(g, "--no-diagnostics", a, b)
        if doc:
            cmp_ = doc["comparisons"][0]
            check(cmp_["baseline"]["diagnostics"] is None and cmp_["clustering"]["known"] is False,
                  "--no-diagnostics: no diagnostics")

        # Outliers: listed, kept, and dropped only when asked, saying so.
        c = cases["outliers_n12"]
        a, b = column(d, "oa", c["a"]), column(d, "ob", c["b"])
        doc, _ = compare_json(g, a, b)
        if doc:
            o = doc["comparisons"][0]["candidate"]["diagnostics"]["outliers"]
            check([x["index"] for x in o["listed"] if x["modified_z_flag"]] == [10, 11], f"outliers of b: {o}")
            check(doc["comparisons"][0]["candidate"]["n"] == 12, "outliers kept by default")
        doc, err = compare_json(g, "--drop-outliers", a, b)
        if doc:
            cand = doc["comparisons"][0]["candidate"]
            check(cand["n"] == 10 and [x["index"] for x in cand["dropped_outliers"]] == [10, 11],
                  f"--drop-outliers: {cand['n']} {cand['dropped_outliers']}")
            check(sorted(x["value"] for x in cand["dropped_outliers"]) == sorted(c["b"][10:12]),
                  "dropped values are the flagged ones")
            check("ob: dropped 2 outliers" in err, f"--drop-outliers on stderr: {err}")
        rc, out, _ = run([g, "compare", "--full", "--bootstrap", "0", "--drop-outliers", a, b])
        check("dropped" in out and "(--drop-outliers)" in out, f"text says what was dropped:\n{out}")
        # Quantised values (MAD 0): the next quantum is not dropped.
        q1, q2 = column(d, "q1", [16.0] * 10 + [17.0] * 2), column(d, "q2", [16.0] * 9 + [17.0] * 3)
        doc, err = compare_json(g, "--drop-outliers", q1, q2)
        if doc:
            check(doc["comparisons"][0]["baseline"]["n"] == 12 and "nothing dropped" in err,
                  f"MAD 0: nothing dropped: {err}")

        # The sentence and --drop-outliers use one rule: a modified z-score
        # beyond the calibrated c(n) (JSON: "reported", "cutoff"). 100.8
        # among values within 0.2 of 100 is 5.4 robust sds out: flagged by
        # the classical 3.5, but clean samples of 10 cross 5.4 too often to
        # call it an outlier, so it is neither named nor dropped.
        mild = column(d, "mild", [100, 100.2, 99.8, 100.1, 99.9, 100.0, 100.1, 99.9, 100.0, 100.8])
        calm = column(d, "calm", [100, 100.2, 99.8, 100.1, 99.9, 100.0, 100.1, 99.9, 100.0, 100.05])
        doc, err = compare_json(g, "--drop-outliers", calm, mild)
        if doc:
            cand = doc["comparisons"][0]["candidate"]
            o = cand["diagnostics"]["outliers"]
            check([(x["index"], x["modified_z_flag"], x["reported"]) for x in o["listed"]] == [(9, True, False)]
                  and o["reported"] == 0 and o["cutoff"] > 5.4,
                  f"classical flag without the sentence: {o}")
            check(cand["n"] == 10 and cand["dropped_outliers"] == [], f"nothing dropped: {cand}")
        rc, out, _ = run([g, "compare", "--full", "--bootstrap", "0", calm, mild])
        check("outlier" not in out, f"no outlier sentence for 100.8:\n{out}")
        # After dropping, values keep their place in the original run: 1000
        # (value 2) is dropped; among the 5 left, 101.5 is now far from the
        # tighter median and MAD, and is value 6 of the file, not value 5.
        steady = column(d, "steady", [100, 100.2, 99.8, 100.1, 99.9, 100.0])
        spiky = column(d, "spiky", [100, 1000, 100.1, 99.9, 100.05, 101.5])
        rc, out, _ = run([g, "compare", "--full", "--bootstrap", "0", steady, spiky])
        flat = " ".join(out.split())
        check("1000 (value 2, z = " in flat and "They are kept; --drop-outliers leaves it out and says so." in flat
              and "101.5 (value" not in flat, f"before dropping:\n{out}")
        rc, out, err = run([g, "compare", "--full", "--bootstrap", "0", "--drop-outliers", steady, spiky])
        flat = " ".join(out.split())
        check("1 outlier of " + spiky + " (--drop-outliers): 1000 (value 2)" in flat, f"dropped line:\n{out}")
        check("After --drop-outliers left out 1 value, candidate '" + spiky + "' still has 1 outlier among the 5 left"
              in flat and "101.5 (value 6, z = " in flat and "numbered in the original run order" in flat,
              f"after dropping, numbered in the original order:\n{out}")
        check("They are kept; --drop-outliers leaves" not in flat, f"no 'they are kept' after dropping:\n{out}")
        check("spiky: dropped 1 outlier: 1000 (value 2)" in " ".join(err.split()), f"stderr note: {err}")
        rc, out, _ = run([g, "compare", "--bootstrap", "0", "--format", "markdown", "--drop-outliers", steady, spiky])
        check("1000 (value 2)" in out and "101.5 (value 6, z = " in out, f"markdown numbering:\n{out}")
        doc, _ = compare_json(g, "--drop-outliers", steady, spiky)
        listed = doc["comparisons"][0]["candidate"]["diagnostics"]["outliers"]["listed"] if doc else []
        check(any(x["value"] == 101.5 and x["index"] == 5 for x in listed),
              f"JSON numbering in the original run order (0-based 5): {listed}")

        # summary: diagnostics per input, in JSON and in words.
        rc, out, err = run([g, "summary", "--json", os.path.join(results, "clustered.json")])
        check(rc == 0, f"summary clustered: {err}")
        if rc == 0:
            inputs = json.loads(out)["inputs"]
            check(len(inputs) == 2 and all(i["diagnostics"]["boots"]["boots"] == 5 for i in inputs),
                  f"summary boots: {[i.get('diagnostics', {}).get('boots') for i in inputs]}")
            check(close(inputs[0]["diagnostics"]["boots"]["icc"],
                        clustered["clustered_balanced_5x6"]["icc_build_a"]["icc"]), "summary ICC")
            for i in inputs:
                check_sample_diagnostics(i["diagnostics"], "summary " + i["name"])
        rc, out, _ = run([g, "summary", os.path.join(results, "clustered.json")])
        check("clusters by boot" in " ".join(out.split()), f"summary words:\n{out}")
        rc, out, _ = run([g, "summary", "--json", "--no-diagnostics", os.path.join(results, "clustered.json")])
        check(rc == 0 and all("diagnostics" not in i for i in json.loads(out)["inputs"]), "summary --no-diagnostics")

        # show: every metric and variant.
        rc, out, err = run([g, "show", "--json", os.path.join(results, "clustered.json")])
        check(rc == 0, f"show --json: {err}")
        if rc == 0:
            diag = json.loads(out)["diagnostics"]
            check([(x["metric"], x["variant"]) for x in diag] == [("y", "baseline"), ("y", "candidate")],
                  f"show diagnostics entries: {diag}")
        rc, out, _ = run([g, "show", os.path.join(results, "clustered.json")])
        check("\ndiagnostics\n" in out and "design effect" in out and "clusters by boot" in " ".join(out.split()),
              f"show text:\n{out}")
        section = out[out.find("\ndiagnostics\n"):]
        check(max(len(line) for line in section.splitlines()) <= 80, f"show diagnostics stay narrow:\n{section}")
        rc, out, _ = run([g, "show", os.path.join(results, "campaign.json")])
        check("\ndiagnostics\n" in out, f"show campaign:\n{out}")

        # A drift over the series is reported with its size.
        drifting = [100 * (1 + 0.1 * i / 39) + (0.3 if i % 2 else -0.3) for i in range(40)]
        rc, out, _ = run([g, "summary", column(d, "drift", drifting)])
        flat = " ".join(out.split())
        check("'" + os.path.join(d, "drift") + "' drifts upward over its 40 values: +9.6% from first to last" in flat
              and "changes level" not in flat, f"drift sentence, and no change point for a steady drift:\n{out}")
        # A step: the change point, not a drift.
        step = [100 + (5 if i >= 25 else 0) + (0.3 if i % 2 else -0.3) for i in range(40)]
        rc, out, _ = run([g, "summary", column(d, "step", step)])
        flat = " ".join(out.split())
        check("changes level at value 26 of 40: median 99.7 before, 105.3 after (+5.6%" in flat
              and "drifts" not in flat, f"step sentence:\n{out}")

    return finish("all diagnostics command-line checks passed")


if __name__ == "__main__":
    sys.exit(main())
