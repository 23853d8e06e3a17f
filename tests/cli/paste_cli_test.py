#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Paste-ready output: every text report for people (compare, ab's report,
show, summary) fits 72 columns on the repository's own inputs, or --width
N; compare --brief gives one line per metric on the nine GfxBench tests;
times are shown in a readable unit (JSON keeps the recorded one); with
more inputs than the plot draws a line says so; summary of a results file
of several metrics summarises each."""

import glob
import json
import re
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import check, finish, paths, run, write  # noqa: E402

PY = sys.executable


def widest(text):
    return max((len(line) for line in text.splitlines()), default=0)


def fits(what, text, width):
    w = widest(text)
    long = [line for line in text.splitlines() if len(line) > width][:3]
    return check(w <= width, f"{what}: longest line {w} > {width}: {long}")


def main():
    g, src = paths()
    d = tempfile.mkdtemp(prefix="gfxstat-paste-")
    results = sorted(glob.glob(os.path.join(src, "tests/data/results/*.json")))
    check(len(results) >= 7, f"the repository's results files: {results}")

    # Imports of real exports: hyperfine (seconds), a CSV of three metrics
    # whose labels hold a comma and a long name.
    hf = os.path.join(d, "hyperfine.json")
    rc, _, err = run([g, "import", "--from", "hyperfine", os.path.join(src, "tests/data/import/hyperfine/scan.json"),
                      "-o", hf])
    check(rc == 0, f"import hyperfine: {err}")
    csvr = os.path.join(d, "csv.json")
    rc, _, err = run([g, "import", "--from", "csv", os.path.join(src, "tests/data/import/csv/runs.csv"), "-o", csvr])
    check(rc == 0, f"import csv: {err}")
    inputs = results + [hf, csvr]

    # 1. Every text report fits 72 columns by default and --width N.
    for path in inputs:
        name = os.path.basename(path)
        for cmd in (["show"], ["summary"], ["compare", "--bootstrap", "200"], ["compare", "--brief", "--bootstrap", "200"]):
            rc, out, err = run([g, *cmd, path])
            if not check(rc == 0, f"{cmd[0]} {name}: rc {rc}: {err[-300:]}"):
                continue
            fits(f"{' '.join(cmd)} {name}", out, 72)
            for width in (40, 100):
                rc, out, _ = run([g, *cmd, "--width", str(width), path])
                check(rc == 0, f"{cmd[0]} --width {width} {name}: rc {rc}")
                fits(f"{' '.join(cmd)} --width {width} {name}", out, width)
    for cmd in ("show", "summary", "compare"):
        for bad in ("39", "1001", "x"):
            rc, _, err = run([g, cmd, "--width", bad, results[0]])
            check(rc == 2 and "--width" in err, f"{cmd} --width {bad} is refused: {rc} {err!r}")
    # The text compare wraps to the width, so a wider width gives fewer lines.
    campaign = os.path.join(src, "tests/data/results/campaign.json")
    _, narrow, _ = run([g, "compare", "--full", "--bootstrap", "0", campaign])
    _, wide, _ = run([g, "compare", "--full", "--bootstrap", "0", "--width", "160", campaign])
    check(len(wide.splitlines()) < len(narrow.splitlines()) and widest(wide) > 72,
          f"--width 160 uses the width: {len(wide.splitlines())} vs {len(narrow.splitlines())} lines")

    # ab's final report is compare's: 72 columns too.
    abr = os.path.join(d, "ab.json")
    noisy = [PY, "-c", "import os, random; print(float(os.environ['M']) + random.gauss(0, 1))"]
    rc, out, err = run([g, "ab", "-o", abr, "--variant", "A", "--variant", "B", "--env", "A:M=100", "--env", "B:M=110",
                        "--higher-is-better", "--metric-name", "fps", "--seed", "7", "--", *noisy])
    if check(rc == 0, f"ab: rc {rc}: {err[-300:]}"):
        fits("ab's report", out, 72)
        rc, out, _ = run([g, "ab", "-o", os.path.join(d, "ab2.json"), "--variant", "A", "--variant", "B", "--env",
                          "A:M=100", "--env", "B:M=110", "--higher-is-better", "--metric-name", "fps", "--seed", "7",
                          "--brief", "--", *noisy])
        check(rc == 0 and len(out.splitlines()) <= 6 and sum(line.startswith("fps ") for line in out.splitlines()) == 1,
              f"ab --brief: one row: {out!r}")

    # 2. --brief on the nine GfxBench tests: one line per metric.
    gfx = os.path.join(src, "tests/data/results/gfxbench9.json")
    tests = ["gl_4", "gl_manhattan", "gl_trex", "gl_alu2", "gl_driver2", "gl_4_off", "gl_manhattan_off",
             "gl_trex_off", "gl_alu2_off"]
    rc, full, _ = run([g, "compare", "--full", gfx])
    rc2, brief, err = run([g, "compare", "--brief", gfx])
    check(rc == 0 and rc2 == 0, f"compare gfxbench9: {rc} {rc2} {err[-300:]}")
    lines = brief.splitlines()
    check(len(full.splitlines()) > 200, f"the full report is long ({len(full.splitlines())} lines)")
    rows = [line for line in lines if line.split() and line.split()[0] in tests]
    check(len(rows) == 9, f"brief: one row per test: {lines}")
    # header (wrapped), column heads, 9 rows, the geomean, the note count
    check(len(lines) <= 9 + 6, f"brief: {len(lines)} lines: {lines}")
    manhattan = next((line for line in rows if line.split()[0] == "gl_manhattan"), "")
    check("1144 -> 1202" in manhattan and "means, fps" in brief and "+5.07% [" in manhattan and manhattan.rstrip().endswith("inconclusive"),
          f"brief row: means, change with its interval, verdict: {manhattan!r}")
    check("before vs after" in lines[0] and "Holm-adjusted p over 9" in " ".join(" ".join(lines[:3]).split()),
          f"brief header: {lines[:3]}")
    check(any("note" in line and "without --brief" in line for line in lines[-2:]), f"brief note count: {lines[-2:]}")
    fits("brief", brief, 72)
    rc, md, _ = run([g, "compare", "--brief", "--format", "markdown", gfx])
    md_rows = [line for line in md.splitlines() if line.startswith("| gl_")]
    check(rc == 0 and len(md_rows) == 9 and "| metric | candidate | means |" in md, f"brief markdown: {md}")
    rc, js, _ = run([g, "compare", "--brief", "--format", "json", gfx])
    check(rc == 0 and len(json.loads(js)["comparisons"]) == 9, "--brief is ignored by json: the whole report")
    # A name too long for the column is cut with "~" and given whole below.
    longname = "gfxbench_" + "x" * 80
    lr = os.path.join(d, "long.json")
    with open(gfx) as f, open(lr, "w") as o:
        o.write(f.read().replace('"gl_alu2_off"', json.dumps(longname)))
    rc, out, _ = run([g, "compare", "--brief", lr])
    check(rc == 0 and "~" in out and longname in out.replace("\n  ", ""), f"brief: a long name whole below: {out}")
    fits("brief, long name", out, 72)

    # 3. Readable units: times recorded in s at the millisecond scale.
    times = write(d, "times.csv", "variant,run,frame\n" + "".join(
        f"{v},{i},{base + 0.00001 * ((i * 7) % 5)}\n"
        for v, base in (("before", 0.00187), ("after", 0.00205)) for i in range(8)))
    tr = os.path.join(d, "times.json")
    rc, _, err = run([g, "import", "--from", "csv", "--unit", "s", "--lower-is-better", times, "-o", tr])
    check(rc == 0, f"import times: {err}")
    rc, out, _ = run([g, "compare", "--full", "--bootstrap", "200", tr])
    check(rc == 0 and "(ms, recorded in s," in out, f"compare: the unit shown: {out[:300]}")
    diff = next((line for line in out.splitlines() if line.strip().startswith("difference")), "")
    # 0.00018 s apart: the difference reads in us, its own magnitude's unit.
    check(" us (" in diff and "+0.00" not in diff, f"compare: the difference in us: {diff!r}")
    check("0.00187" not in out, "compare: no value left in seconds")
    rc, out, _ = run([g, "compare", "--brief", tr])
    check(rc == 0 and "means, ms" in out and "1.89 -> 2.07" in out,
          f"brief: means in ms: {out}")
    rc, js, _ = run([g, "compare", "--format", "json", tr])
    c = json.loads(js)["comparisons"][0] if rc == 0 else {}
    check(c.get("unit") == "s" and c.get("baseline", {}).get("mean", 1) < 0.01, f"json keeps seconds: {c.get('unit')}")
    rc, out, _ = run([g, "summary", tr])
    check(rc == 0 and "recorded in s" in out and "1.87 " in out and "0.00187" not in out, f"summary in ms: {out}")

    # 3b. A difference read in its own unit: 2.000 s vs 2.001 s differ by
    # about a millisecond, a 5000 B difference of MiB sizes by KiB.
    secs = write(d, "secs.csv", "variant,run,t\n" + "".join(
        f"{v},{i},{base + 0.0001 * ((i * 3) % 4)}\n"
        for v, base in (("before", 2.000), ("after", 2.001)) for i in range(8)))
    sr = os.path.join(d, "secs.json")
    rc, _, err = run([g, "import", "--from", "csv", "--unit", "s", "--lower-is-better", secs, "-o", sr])
    check(rc == 0, f"import secs: {err}")
    rc, out, _ = run([g, "compare", "--full", sr])
    flat = " ".join(out.split())
    m = re.search(r"change (.*?) difference [-+]", flat)
    change = m.group(1) if m else ""
    check(rc == 0 and " ms)" in change and " s)" not in change and "0.000" not in change,
          f"compare: the change in ms: {change!r}")
    # The tests' lines (below the table, which has ministat's digits) are
    # rounded like the rest: no "[0.116247, 2.63245]".
    tests = out.split("vs x", 1)[-1]
    long = [n for n in re.findall(r"\d+\.\d+", tests) if len(n.replace(".", "").lstrip("0")) > 4]
    check(not long, f"compare: no number with more than 4 significant digits: {long}: {tests}")
    rc, md, _ = run([g, "compare", "--format", "markdown", sr])
    check(rc == 0 and re.search(r"change: .*\(\+1(\.\d+)? ms\)", md), f"markdown: the change in ms: {md}")
    rc, brief, _ = run([g, "compare", "--brief", sr])
    m_full = re.search(r"CI ([-+][\d.]+%) to ([-+][\d.]+%)", change)
    m_brief = re.search(r"\[([-+][\d.]+%), ([-+][\d.]+%)\]", brief)
    check(m_full and m_brief and m_full.groups() == m_brief.groups(),
          f"brief and full report round the interval alike: {change!r} / {brief!r}")
    sizes = write(d, "sizes.csv", "variant,run,rss\n" + "".join(
        f"{v},{i},{base + 100 * ((i * 3) % 4)}\n"
        for v, base in (("before", 5000000), ("after", 5005000)) for i in range(8)))
    zr = os.path.join(d, "sizes.json")
    rc, _, err = run([g, "import", "--from", "csv", "--unit", "B", "--lower-is-better", sizes, "-o", zr])
    check(rc == 0, f"import sizes: {err}")
    rc, out, _ = run([g, "compare", "--full", zr])
    diff = next((line for line in out.splitlines() if line.strip().startswith("difference")), "")
    check(rc == 0 and "KiB" in diff and "MiB" not in diff, f"compare: a size difference in KiB: {diff!r}")

    # 4. More inputs than the plot draws: a line says so, no '?' keys.
    files = [write(d, f"set{i}.txt", "".join(f"{100 + i + (k % 4) * 0.5}\n" for k in range(8))) for i in range(9)]
    rc, out, err = run([g, "compare", "--full", "--bootstrap", "0", *files])
    check(rc == 0 and "the plot draws at most 7 data sets; 9 given: see the table" in out,
          f"compare of 9: the overflow line: {rc} {err[-200:]} {out[:400]}")
    check(not any(line.startswith("? ") for line in out.splitlines()), "compare of 9: no '?' keys")
    check(any(line.startswith("9 ") and "set8.txt" in line for line in out.splitlines()), "compare of 9: numbered keys")
    fits("compare of 9", out, 72)
    rc, out, _ = run([g, "compare", "--brief", "--bootstrap", "0", *files])
    check(rc == 0 and sum(1 for line in out.splitlines() if "->" in line) == 8 and "8 candidates" in out,
          f"brief of 9: one line per candidate: {out}")
    fits("brief of 9", out, 72)
    rc, out, _ = run([g, "summary", *files])
    check(rc == 0 and not any(line.startswith("x ") and "set7" in line for line in out.splitlines()),
          f"summary of 9: symbols do not repeat: {out}")
    fits("summary of 9", out, 72)
    rc, out, _ = run([g, "ministat", *files[:7]])
    check(rc == 0, "ministat takes 7")

    # 5. summary of a results file of several metrics: a table per metric.
    rc, out, err = run([g, "summary", csvr])
    check(rc == 0, f"summary of three metrics: rc {rc}: {err}")
    heads = [line for line in out.splitlines() if line and not line[0].isspace() and "better" in line or "unknown" in line]
    check(len(heads) == 3, f"summary: a heading per metric: {heads}\n{out}")
    rc, js, _ = run([g, "summary", "--json", csvr])
    doc = json.loads(js) if rc == 0 else {}
    check(len(doc.get("metrics", [])) == 3 and all(m.get("inputs") for m in doc.get("metrics", [])),
          f"summary --json: an array per metric: {doc.get('metrics')}")
    check(len(doc.get("inputs", [])) == sum(len(m["inputs"]) for m in doc.get("metrics", [])),
          "summary --json: inputs holds every row")
    rc, js, _ = run([g, "summary", "--json", "--metric", "fps", csvr])
    doc = json.loads(js) if rc == 0 else {}
    check(rc == 0 and "metrics" not in doc and {i.get("metric") for i in doc.get("inputs", [])} == {"fps"},
          "summary --metric selects one")
    rc, out, _ = run([g, "summary", campaign])
    check(rc == 0 and "latency (us, lower is better)" in out and "max (ms, recorded in us, lower is better)" in out,
          f"summary of campaign.json: both metrics: {out}")
    # A single-metric file keeps its table without a heading.
    rc, out, _ = run([g, "summary", os.path.join(src, "tests/data/results/clustered.json")])
    check(rc == 0 and out.startswith("x baseline\n") and "better" not in out.split("Stddev")[0],
          f"summary of one metric: no heading: {out[:200]}")

    # A label longer than the width: shown whole, over several lines.
    label = "mesa-" + "y" * 90
    lbl = write(d, "label.csv", "variant,run,fps\n" + "".join(
        f"{v},{i},{60 + (i % 3) + (2 if v == label else 0)}\n" for v in ("base", label) for i in range(6)))
    lj = os.path.join(d, "label.json")
    rc, _, err = run([g, "import", "--from", "csv", lbl, "-o", lj])
    check(rc == 0, f"import label: {err}")
    for cmd in (["show"], ["summary"], ["compare", "--bootstrap", "0"]):
        rc, out, _ = run([g, *cmd, lj])
        fits(f"{cmd[0]} of a long label", out, 72)
        joined = "".join(line.strip() for line in out.splitlines())
        check(label in joined, f"{cmd[0]}: the long label whole: {out}")

    return finish("paste-ready output: passed")


if __name__ == "__main__":
    sys.exit(main())
