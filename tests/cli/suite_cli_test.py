#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gfxstat compare over a suite of benchmarks: the suite table (text within
72 columns, markdown, CSV, JSON), its marks and counts against compare's
own verdicts, sorting and --only-changed, --filter/--row/--col, and the
suite measured once a side, tested as pairs (one per benchmark), against
values computed independently (scipy 1.10, kept below)."""

import csv
import io
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import check, finish, paths, run, write  # noqa: E402

GFXSTAT, SRC = paths()
GFXBENCH9 = os.path.join(SRC, "tests/data/results/gfxbench9.json")

# Independent values (scipy.stats 1.10 on Debian 12: ttest_1samp on the log
# ratios, wilcoxon(zero_method="wilcox", correction=True, method="approx"),
# ttest_ind(equal_var=False)) for the gem_fence_upload rates of a 2014
# intel-gfx thread (the 11 rows before the 64-tiled cliff) and the GfxBench
# 4.0 per-test averages of a 2018 mesa-dev thread.
FENCE_BEFORE = [8127, 8607, 8127, 8611, 8114, 8601, 8110, 8595, 8104, 8589, 8107, 2013]
FENCE_AFTER = [8134, 8625, 8127, 8602, 8124, 8603, 8123, 8606, 8121, 8605, 8121, 3017]
FENCE11 = {"t_p": 0.004670543861077457, "welch_p": 0.9343787594370896, "wilcoxon_p": 0.014432823938841786,
           "geomean": 1.0010852508832477, "geomean_ci": (1.0004175853995465, 1.001753361958075)}
FENCE12 = {"t_p": 0.32413072491955663, "wilcoxon_p": 0.008719255452889258, "geomean": 1.035323572557361,
           "geomean_ci": (0.9614563355055551, 1.1148659177843068)}
GFX_TESTS = ["gl_4", "gl_manhattan", "gl_trex", "gl_alu2", "gl_driver2", "gl_4_off", "gl_manhattan_off",
             "gl_trex_off", "gl_alu2_off", "gl_driver2_off"]
GFX_BEFORE = [577, 1144, 2224, 1213, 104, 727, 1709, 2969, 2607, 208]
GFX_AFTER = [583, 1202, 2152, 1154, 103, 726, 1728, 3047, 2625, 205]
GFX10 = {"t_p": 0.9597041851338025, "welch_p": 0.9924743908739274, "wilcoxon_p": 1.0,
         "geomean": 0.9995332613975867, "geomean_ci": (0.9794186325507332, 1.0200609907105738)}


def close(a, b, rel=1e-9):
    return a is not None and b is not None and abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def results_file(d, name, metrics, runs):
    """A results file: metrics as (name, unit, direction); runs as
    (variant, {metric: value}, tags)."""
    lines = [{"format": "gfxstat-results", "version": 1, "id": "0" * 31 + "1", "created": "2026-12-03T00:00:00Z",
              "generator": "suite_cli_test"}]
    for m, unit, direction in metrics:
        lines.append({"type": "metric", "name": m, "unit": unit, "direction": direction})
    envs = {}
    counters = {}
    for variant, values, tags in runs:
        key = json.dumps(tags, sort_keys=True)
        if key not in envs:
            envs[key] = "env-%016x" % (len(envs) + 1)
            lines.append({"type": "environment", "id": envs[key], "tags": tags})
        i = counters.get(variant, 0)
        counters[variant] = i + 1
        lines.append({"type": "run", "variant": variant, "run": i, "exit": {"class": "ok", "code": 0},
                      "environment": envs[key], "metrics": values})
    return write(d, name, "".join(json.dumps(x) + "\n" for x in lines))


def paired_file(d, name, tests, before, after, unit="fps", direction="higher"):
    runs = [("before", {t: v for t, v in zip(tests, before)}, {}), ("after", {t: v for t, v in zip(tests, after)}, {})]
    return results_file(d, name, [(t, unit, direction) for t in tests], runs)


def compare_json(args):
    rc, out, err = run([GFXSTAT, "compare", "--format", "json"] + args)
    if not check(rc == 0, f"compare {args}: exit {rc}: {err}"):
        return None
    return json.loads(out)


def table_rows(text):
    """The rows of the text table: lines between the blank line after the
    header and the next blank line."""
    blocks = text.split("\n\n")
    return blocks[1].splitlines() if len(blocks) > 1 else []


def test_table_default(d):
    rc, out, err = run([GFXSTAT, "compare", GFXBENCH9])
    check(rc == 0, f"gfxbench9: exit {rc}: {err}")
    lines = out.splitlines()
    check(all(len(line) <= 72 for line in lines), "suite table: a line over 72 columns:\n" + out)
    check(len(lines) < 60, f"suite table: {len(lines)} lines, the full report has 278")
    check("each benchmark tested on its own, Holm-adjusted p over 9" in out, "suite header names the design:\n" + out)
    check("gl_manhat~ is gl_manhattan" in out, "a name cut to fit is given whole below:\n" + out)
    rc, out, err = run([GFXSTAT, "compare", "--width", "120", GFXBENCH9])
    rows = table_rows(out)
    names = [r.split()[0] for r in rows[1:]]
    check(names[:9] == ["gl_4", "gl_manhattan", "gl_trex", "gl_alu2", "gl_driver2", "gl_4_off",
                        "gl_manhattan_off", "gl_trex_off", "gl_alu2_off"] and names[9] == "geomean",
          f"suite rows in input order, geomean last: {names}")
    # The marks agree with compare's own verdicts.
    doc = compare_json([GFXBENCH9])
    if not doc:
        return
    verdicts = {c["metric"]: c["verdict"]["outcome"] for c in doc["comparisons"]}
    mark_of = {"improvement": "+", "regression": "-", "no_change": "=", "changed": "!"}
    suite = doc["suite"]
    check(suite and suite["design"] == "per_benchmark" and len(suite["rows"]) == 9, "JSON suite: 9 rows")
    for row in suite["rows"]:
        c = row["candidates"][0]
        want = mark_of.get(verdicts[row["benchmark"]])
        if want:
            check(c["mark"] == want, f"{row['benchmark']}: mark {c['mark']} for {verdicts[row['benchmark']]}")
        else:
            check(c["mark"] in "~?", f"{row['benchmark']}: mark {c['mark']} for inconclusive")
        # The same mark in the text row.
        text_row = next(r for r in rows if r.split()[0] == row["benchmark"])
        check(f" {c['mark']}" in text_row, f"text row of {row['benchmark']} shows {c['mark']}: {text_row}")
    counts = suite["counts"][0]
    total = sum(counts[k] for k in ("better", "worse", "changed", "equivalent", "no_significant_change", "untold"))
    check(total == 9, f"counts add up to the 9 benchmarks: {counts}")
    check(f"after: {counts['better']} better (+), {counts['worse']} worse (-)" in out.replace("\n  ", " "),
          "the counts line:\n" + out)
    # The geomean row is compare's geomean (higher is better: not turned).
    g = doc["geomean"][0]
    gc = suite["geomean"]["candidates"][0]
    check(close(gc["change"], g["ratio"] - 1), f"geomean row {gc['change']} vs geomean {g['ratio']}")
    check(close(gc["change_ci"][0], g["ci"][0] - 1) and close(gc["change_ci"][1], g["ci"][1] - 1),
          "geomean row's interval")
    # --full keeps a report per benchmark; --brief stays brief.
    rc, full, _ = run([GFXSTAT, "compare", "--full", GFXBENCH9])
    check(rc == 0 and len(full.splitlines()) > 150, "--full: a report per benchmark")
    rc, brief, _ = run([GFXSTAT, "compare", "--brief", GFXBENCH9])
    check(rc == 0 and any(line.startswith("metric ") and "verdict" in line for line in brief.splitlines()),
          "--brief is still the brief table:\n" + brief)
    # One benchmark: a report as before, --table makes it a one-row table.
    rc, one, _ = run([GFXSTAT, "compare", "--metric", "gl_4", GFXBENCH9])
    check(rc == 0 and "benchmark" not in one.splitlines()[0], "one benchmark: the full report")
    rc, one, _ = run([GFXSTAT, "compare", "--table", "--metric", "gl_4", GFXBENCH9])
    check(rc == 0 and len(table_rows(one)) == 2, "--table with one benchmark: one row:\n" + one)
    doc = compare_json(["--table", "--metric", "gl_4", GFXBENCH9])
    check(doc and doc["suite"] and len(doc["suite"]["rows"]) == 1, "--table: JSON has the one-row suite")


def test_formats_and_order(d):
    doc = compare_json([GFXBENCH9])
    if not doc:
        return
    marks = {r["benchmark"]: r["candidates"][0]["mark"] for r in doc["suite"]["rows"]}
    rc, out, err = run([GFXSTAT, "compare", "--format", "csv", GFXBENCH9])
    check(rc == 0, f"csv: exit {rc}: {err}")
    rows = list(csv.DictReader(io.StringIO(out)))
    check(len(rows) == 10 and rows[-1]["benchmark"] == "geomean", f"csv: 9 rows and the geomean: {len(rows)}")
    for r in rows[:-1]:
        check(r["mark"] == marks[r["benchmark"]], f"csv mark of {r['benchmark']}")
        check(r["candidate"] == "after" and r["baseline"] == "before", "csv names the variants")
    rc, md, _ = run([GFXSTAT, "compare", "--format", "markdown", GFXBENCH9])
    check(rc == 0 and sum(1 for line in md.splitlines() if line.startswith("| ")) == 12,
          "markdown: head, rule, 9 rows and the geomean:\n" + md)
    # Sorting.
    by_name = compare_json(["--sort", "name", GFXBENCH9])
    names = [r["benchmark"] for r in by_name["suite"]["rows"]]
    check(names == sorted(names), f"--sort name: {names}")
    by_p = compare_json(["--sort", "p", GFXBENCH9])
    ps = [r["candidates"][0]["p"] for r in by_p["suite"]["rows"]]
    check(ps == sorted(ps), f"--sort p: {ps}")
    by_change = compare_json(["--sort", "change", GFXBENCH9])
    ch = [r["candidates"][0]["change"] for r in by_change["suite"]["rows"]]  # higher is better: worst first
    check(ch == sorted(ch), f"--sort change, worst first: {ch}")
    # --only-changed keeps the rows marked + - or !.
    only = compare_json(["--only-changed", GFXBENCH9])
    kept = [r["benchmark"] for r in only["suite"]["rows"]]
    want = [b for b, m in marks.items() if m in "+-!"]
    check(sorted(kept) == sorted(want) and only["suite"]["hidden"] == 9 - len(want),
          f"--only-changed: {kept} vs {want}")
    # The filter narrows the family: Holm over the kept benchmarks only.
    off = compare_json(["--filter", "/_off$/", GFXBENCH9])
    check(off and [r["benchmark"] for r in off["suite"]["rows"]] ==
          ["gl_4_off", "gl_manhattan_off", "gl_trex_off", "gl_alu2_off"] and off["family_size"] == 4,
          "--filter /_off$/: four rows, Holm over four")
    rc, _, err = run([GFXSTAT, "compare", "--filter", "name:(gl_4", GFXBENCH9])
    check(rc == 2 and "--filter" in err and "column" in err, f"a bad filter: exit 2 naming where: {rc} {err}")
    rc, _, err = run([GFXSTAT, "compare", "--filter", "name:nothing", GFXBENCH9])
    check(rc == 2 and "keeps none" in err, f"a filter that keeps nothing: exit 2: {rc} {err}")


def test_projection(d):
    # An IGT-like run: 30 subtests, 3 variants (each on its own kernel), 5
    # runs; patch-b makes the tiled subtests 5% faster.
    subtests = [f"{size}/upload-{n}-{kind}" for size in ("4KiB", "1MiB") for n in (2, 4, 8, 16, 32)
                for kind in ("linear", "tiled", "wc")]
    metrics = [(s, "MiB/s", "higher") for s in subtests]
    runs = []
    kernels = {"baseline": "6.9", "patch-a": "6.10", "patch-b": "6.11"}
    for r in range(5):
        for variant in ("baseline", "patch-a", "patch-b"):
            values = {}
            for i, s in enumerate(subtests):
                base = 1000 + 10 * i + (r % 3 - 1) * 2.5 + (r % 2) * 1.5
                values[s] = base * (1.05 if variant == "patch-b" and "tiled" in s else 1.0)
            runs.append((variant, values, {"kernel": kernels[variant], "gpu": "adl"}))
    path = results_file(d, "igt30.json", metrics, runs)
    doc = compare_json([path])
    if not doc:
        return
    suite = doc["suite"]
    check(len(suite["rows"]) == 30 and suite["candidates"] == ["patch-a", "patch-b"], "30 rows, 2 candidates")
    for row in suite["rows"]:
        cells = {c["candidate"]: c for c in row["candidates"]}
        want = "+" if "tiled" in row["benchmark"] else "="
        check(cells["patch-b"]["mark"] in (want, "~") and (want != "+" or cells["patch-b"]["mark"] == "+"),
              f"{row['benchmark']}: patch-b mark {cells['patch-b']['mark']}")
    check(doc["suite"]["counts"][1]["better"] == 10, f"patch-b: 10 better: {doc['suite']['counts'][1]}")
    # Filters on tags and names.
    f = compare_json(["--filter", "kernel:(6.9 OR 6.11) /tiled/", path])
    check(f and f["suite"]["candidates"] == ["patch-b"] and len(f["suite"]["rows"]) == 10,
          "filter on a tag and a name regex")
    f = compare_json(["--filter", "-variant:patch-a AND name:/^4KiB/", path])
    check(f and f["suite"]["candidates"] == ["patch-b"] and len(f["suite"]["rows"]) == 15, "negation and AND")
    # --col on a tag: the kernels are the columns.
    c = compare_json(["--col", "kernel", path])
    check(c and c["suite"]["baseline"] == "6.9" and c["suite"]["candidates"] == ["6.10", "6.11"],
          f"--col kernel: {c and c['suite']['candidates']}")
    # --row name,gpu: the rows carry the tag.
    r = compare_json(["--row", "name,gpu", path])
    check(r and r["suite"]["rows"][0]["benchmark"] == "4KiB/upload-2-linear gpu=adl", "--row name,gpu")
    rc, out, err = run([GFXSTAT, "compare", "--col", "gpu", path])
    check(rc == 2 or "pooled" in out + err, f"--col gpu pools the variants and says so: {rc} {err}")


def test_paired(d):
    fence = [f"{n} {k}" for n in (2, 4, 8, 16, 32, 64) for k in ("linear", "tiled")]
    p11 = paired_file(d, "fence11.json", fence[:11], FENCE_BEFORE[:11], FENCE_AFTER[:11], unit="MiB/s")
    doc = compare_json([p11])
    if doc:
        check(doc["suite"]["design"] == "paired_by_benchmark", "one value a side: paired by benchmark")
        p = doc["paired"][0]
        check(close(p["paired_t"]["p"], FENCE11["t_p"], 1e-9), f"fence11 paired t p {p['paired_t']['p']}")
        check(close(p["unpaired_welch_p"], FENCE11["welch_p"], 1e-9), f"fence11 Welch p {p['unpaired_welch_p']}")
        check(close(p["wilcoxon"]["p"], FENCE11["wilcoxon_p"], 1e-9), f"fence11 Wilcoxon p {p['wilcoxon']['p']}")
        check(close(p["geomean_ratio"], FENCE11["geomean"], 1e-12), "fence11 geomean")
        check(close(p["geomean_ci"][0], FENCE11["geomean_ci"][0], 1e-9) and
              close(p["geomean_ci"][1], FENCE11["geomean_ci"][1], 1e-9), "fence11 geomean interval")
        # +0.1% on every rate: real (p < 0.05) and within the 1% threshold.
        check(p["verdict"]["outcome"] == "no_change" and p["verdict"]["p_adjusted"] < 0.05,
              f"fence11: a real but negligible change: {p['verdict']}")
    tight = compare_json(["--threshold", "0.05", p11])
    if tight:
        check(tight["paired"][0]["verdict"]["outcome"] == "improvement",
              f"fence11 at a 0.05% threshold: improvement: {tight['paired'][0]['verdict']}")
    rc, full, err = run([GFXSTAT, "compare", "--full", p11])
    check(rc == 0 and "paired by benchmark" in full, f"--full on a suite measured once a side: still its table: {err}")
    rc, out, err = run([GFXSTAT, "compare", p11])
    check(rc == 0 and "paired by benchmark" in out and "Welch p = 0.93" in out.replace("\n  ", " "),
          "fence11 text: the design and the unpaired p:\n" + out)
    check(all(len(line) <= 72 for line in out.splitlines()), "paired text within 72 columns:\n" + out)
    p12 = paired_file(d, "fence12.json", fence, FENCE_BEFORE, FENCE_AFTER, unit="MiB/s")
    doc = compare_json([p12])
    if doc:
        p = doc["paired"][0]
        check(close(p["paired_t"]["p"], FENCE12["t_p"], 1e-9), "fence12 paired t p")
        check(close(p["wilcoxon"]["p"], FENCE12["wilcoxon_p"], 1e-9), "fence12 Wilcoxon p")
        check(p["verdict"]["primary_test"] == "signed_rank_benchmarks",
              f"fence12: the cliff makes the signed-rank test primary: {p['verdict']['primary_test']}")
    g = paired_file(d, "gfx10.json", GFX_TESTS, GFX_BEFORE, GFX_AFTER)
    doc = compare_json([g])
    if doc:
        p = doc["paired"][0]
        check(close(p["paired_t"]["p"], GFX10["t_p"], 1e-9), "gfx10 paired t p")
        check(close(p["wilcoxon"]["p"], GFX10["wilcoxon_p"], 1e-9), "gfx10 Wilcoxon p")
        check(close(p["geomean_ratio"], GFX10["geomean"], 1e-12), "gfx10 geomean")
        check(close(p["geomean_ci"][0], GFX10["geomean_ci"][0], 1e-9), "gfx10 geomean interval")
        check(p["verdict"]["outcome"] == "inconclusive", f"gfx10: no change shown: {p['verdict']['outcome']}")
    # Lower is better: a 5% slowdown on every benchmark is a regression that gates.
    slow = paired_file(d, "slow.json", GFX_TESTS, GFX_BEFORE, [v * (1.05 + 0.002 * (i % 3)) for i, v in
                                                               enumerate(GFX_BEFORE)], unit="ms", direction="lower")
    rc, out, err = run([GFXSTAT, "compare", "--gate", slow])
    check(rc == 1, f"paired regression beyond the threshold gates: exit {rc}\n{out}{err}")
    rc, out, err = run([GFXSTAT, "compare", "--gate", "--format", "json", slow])
    if rc == 1:
        doc = json.loads(out)
        gm = doc["suite"]["geomean"]["candidates"][0]
        check(gm["change"] > 0.04 and gm["mark"] == "-", f"lower is better: geomean shown +5%, marked worse: {gm}")
    # One benchmark once a side: nothing to pair.
    one = paired_file(d, "one.json", ["gl_4"], [577], [583])
    rc, _, err = run([GFXSTAT, "compare", one])
    check(rc == 2 and "at least 2 a side" in err, f"one benchmark once a side: exit 2: {rc} {err}")


def test_wide_csv_import(d):
    """A wide CSV of per-test averages, imported and compared: the paired
    design from the thread's own table."""
    wide = os.path.join(SRC, "tests/data/import/csv/gfxbench4-avg-wide.csv")
    if not os.path.exists(wide):
        check(False, "fixture gfxbench4-avg-wide.csv is missing")
        return
    out = os.path.join(d, "wide.json")
    rc, _, err = run([GFXSTAT, "import", "--from", "csv", "--bench-col", "test", "--unit", "fps",
                      "--higher-is-better", wide, "-o", out])
    if not check(rc == 0, f"import of the wide CSV: {err}"):
        return
    doc = compare_json([out])
    if doc:
        p = doc["paired"][0]
        check(close(p["paired_t"]["p"], GFX10["t_p"], 1e-9) and close(p["geomean_ratio"], GFX10["geomean"], 1e-12),
              "the wide CSV gives the thread's paired result")


def test_summaries_refuse_run_options(d):
    """Summaries hold no runs: an option about runs or tables is refused, not ignored."""
    table = write(d, "summary.csv", "label,n,mean,sd\nbefore,9,1614.5,361.8\nafter,8,1545.3,285.2\n")
    rc, out, err = run([GFXSTAT, "compare", "--summaries", table])
    check(rc == 0 and "Welch" in out, f"--summaries: {rc} {err}")
    for extra in (["--metric", "x"], ["--filter", "x"], ["--table"], ["--no-diagnostics"], ["-C", "2"]):
        rc, out, err = run([GFXSTAT, "compare", "--summaries"] + extra + [table])
        check(rc == 2 and "does not apply to --summaries" in err and out == "", f"--summaries {extra}: {rc} {err}")


def test_labels(d):
    """compare names its data sets as benchstat users write them."""
    a = write(d, "a.txt", "".join(f"x {v}\n" for v in range(1, 11)))
    b = write(d, "b.txt", "".join(f"x {v + 1}\n" for v in range(1, 11)))
    doc = compare_json([f"old={a}:2", f"new={b}:2"])
    if doc:
        c = doc["comparisons"][0]
        check(c["baseline"]["label"] == "old" and c["candidate"]["label"] == "new" and c["baseline"]["mean"] == 5.5,
              f"LABEL=FILE:N: {c['baseline']['label']} {c['candidate']['label']} {c['baseline']['mean']}")
    one = results_file(d, "one.json", [("t", "fps", "higher")], [("v", {"t": x}, {}) for x in (1.0, 2.0, 3.0)])
    two = results_file(d, "two.json", [("t", "fps", "higher")], [("v", {"t": x}, {}) for x in (2.0, 3.0, 4.0)])
    doc = compare_json([f"drm-tip={one}", f"patched={two}"])
    if doc:
        c = doc["comparisons"][0]
        check(c["baseline"]["label"] == "drm-tip" and c["candidate"]["label"] == "patched",
              "a label names a results file's one variant")
    rc, _, err = run([GFXSTAT, "compare", f"x={GFXBENCH9}"])
    check(rc == 2 and "a label names one data set" in err, f"a label on a file compared within itself: {rc} {err}")


def main():
    with tempfile.TemporaryDirectory() as d:
        test_table_default(d)
        test_formats_and_order(d)
        test_projection(d)
        test_paired(d)
        test_wide_csv_import(d)
        test_summaries_refuse_run_options(d)
        test_labels(d)
    return finish("suite_cli: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
