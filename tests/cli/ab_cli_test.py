#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gfxstat ab with real commands: interleaved blocks in random (seeded),
alternate and abba order, per-variant environment, commands and hooks,
the stop rule settling a large change within a handful of blocks, an A/A
experiment that never reports a regression, a fixed --runs design, the
design record and each run's block and position, compare on the file
giving ab's final verdict, the gate's exit statuses, failures, and the
errors that leave the results file untouched."""

import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import check, finish, paths, run  # noqa: E402

GFXSTAT, SRC = paths()
PY = sys.executable
# A run prints one value: MEAN plus normal noise of sd SD (from the
# variant's environment, so that one shared command serves both). The
# noise is seeded by a count of runs kept in NOISE_COUNTER, so the whole
# test is reproducible: its A/A checks must not trip by chance.
NOISY = [PY, "-c", "import os, random; p = os.environ['NOISE_COUNTER']; "
         "n = int(open(p).read()) if os.path.exists(p) else 0; open(p, 'w').write(str(n + 1)); random.seed(n); "
         "print(float(os.environ['M']) + random.gauss(0, float(os.environ.get('SD', '1'))))"]


def records(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.endswith("\n")]


def runs_of(path):
    return [r for r in records(path) if r.get("type") == "run"]


def designs_of(path):
    return [r for r in records(path) if r.get("type") == "design"]


def verdicts(report):
    """The verdict paragraphs of a text report, lower-cased."""
    out, inside = [], False
    for line in report.split("\n"):
        if line.strip().startswith("verdict"):
            inside = True
        elif not line.startswith("    "):
            inside = False
        if inside:
            out.append(line.strip().lower())
    return " ".join(" ".join(line.split()) for line in out)


def ab(out, *args, command=NOISY):
    return run([GFXSTAT, "ab", "-o", out, *args, "--", *command])


def main():
    d = tempfile.mkdtemp(prefix="gfxstat-ab-")
    os.environ["NOISE_COUNTER"] = os.path.join(d, "noise-count")

    # A 10% change with 1% noise: settled as changed within a handful of
    # blocks; higher is better, so it is an improvement and the gate passes.
    out = os.path.join(d, "big.json")
    rc, so, se = ab(out, "--variant", "A", "--variant", "B", "--env", "A:M=100", "--env", "B:M=110",
                    "--higher-is-better", "--metric-name", "fps", "--seed", "7", "--gate", "--full")
    check(rc == 0, f"a large improvement passes the gate (rc {rc}: {se[-600:]})")
    runs = [r for r in runs_of(out) if not r.get("warmup")]
    blocks = sorted({r.get("block") for r in runs})
    check(2 <= len(blocks) <= 12, f"a 10% change at 1% noise settles within a handful of blocks ({len(blocks)})")
    check("settled after" in se, f"ab says it settled: {se[-400:]}")
    check(verdicts(so).startswith("verdict improvement"), f"the report's verdict is an improvement: {verdicts(so)}")
    ds = designs_of(out)
    check(len(ds) == 1, f"one design record ({len(ds)})")
    if ds:
        dr = ds[0]
        check(dr.get("variants") == ["A", "B"] and dr.get("order") == "random" and dr.get("seed") == 7,
              f"the design records variants, order and seed: {dr}")
        check(dr.get("stopping") == "sequential" and dr.get("metric") == "fps" and "confidence sequence" in dr.get("method", ""),
              f"the design records the stop rule and its metric: {dr}")
        check(all(r.get("design") == dr.get("id") for r in runs), "every measured run names the design")
    by_block = {}
    for r in runs:
        by_block.setdefault(r["block"], []).append(r)
    check(all(sorted(x["position"] for x in rs) == [0, 1] and sorted(x["variant"] for x in rs) == ["A", "B"]
              for rs in by_block.values()), "each block holds every variant once, at positions 0 and 1")
    # Progress: a line per block with the estimate and its interval.
    check(se.count("block ") >= len(blocks) and "B vs A fps +" in se, f"a progress line per block: {se[:500]}")

    # compare on the file gives ab's verdict (same options).
    rc2, so2, _ = run([GFXSTAT, "compare", out, "--gate", "--full"])
    check(rc2 == rc and so2 == so, "compare on the file reproduces ab's report and status")
    # The short answer, ab's default: its table's row says improvement, and
    # its last line names the compare command that prints the whole report.
    rc3, short, _ = run([GFXSTAT, "compare", out, "--gate"])
    check(rc3 == rc and re.search(r"^fps +[0-9.]+ +[0-9.]+ .* improvement$", short, re.M) is not None and "--full:" in short,
          f"compare's short answer: {short}")
    rcj, js, _ = run([GFXSTAT, "compare", out, "--format", "json"])
    check(rcj == 0 and '"improvement"' in js, "compare --format json: the same verdict")

    # The same change with lower-is-better: a regression, and the gate trips.
    out = os.path.join(d, "regress.json")
    rc, so, se = ab(out, "--variant", "A", "--variant", "B", "--env", "A:M=100", "--env", "B:M=110",
                    "--lower-is-better", "--seed", "8", "--gate", "--full")
    check(rc == 1, f"a regression beyond the threshold fails the gate with 1 (rc {rc}: {se[-300:]})")
    check(verdicts(so).startswith("verdict regression"), f"the report says regression: {verdicts(so)}")

    # A/A: the same environment under two labels never reports a regression.
    for seed in range(1, 6):
        out = os.path.join(d, f"aa{seed}.json")
        rc, so, se = ab(out, "--variant", "X", "--variant", "Y", "--env", "X:M=100", "--env", "Y:M=100",
                        "--env", "X:SD=2", "--env", "Y:SD=2", "--lower-is-better", "--threshold", "2",
                        "--max-runs", "12", "--seed", str(seed), "--gate")
        check(rc == 0 and "verdict regression" not in verdicts(so), f"A/A seed {seed}: no regression (rc {rc}) {verdicts(so)}")
        check(len({r.get("block") for r in runs_of(out) if not r.get("warmup")}) <= 12, "A/A: at most --max-runs blocks")

    # --max-runs reached: inconclusive, with how many more blocks would settle it.
    out = os.path.join(d, "short.json")
    rc, so, se = ab(out, "--variant", "A", "--variant", "B", "--env", "A:M=100", "--env", "B:M=100.5",
                    "--env", "A:SD=3", "--env", "B:SD=3", "--lower-is-better", "--max-runs", "3", "--seed", "3",
                    "--gate", "--strict")
    check("inconclusive after 3 blocks" in se and "more blocks would likely settle it" in se,
          f"at --max-runs ab says inconclusive and how many more blocks: {se[-400:]}")
    check(rc == 3, f"--gate --strict: inconclusive exits 3 (rc {rc})")
    check(len(runs_of(out)) == 6, "3 blocks of 2 runs")

    # A/A at ~10% noise and the default +-1%: out of --max-runs' reach. ab
    # says so within its first 10 blocks, once more at most, with the
    # threshold that would likely settle, and goes on at +-1%; compare's
    # inconclusive verdict says the same.
    out = os.path.join(d, "noisy-aa.json")
    rc, so, se = ab(out, "--variant", "A", "--variant", "B", "--env", "A:M=100", "--env", "B:M=100",
                    "--env", "A:SD=10", "--env", "B:SD=10", "--max-runs", "30", "--seed", "5", "--full")
    lines = se.split("\n")
    advice = [i for i, line in enumerate(lines) if line.startswith("gfxstat ab: advice: B vs A: ")]
    check(1 <= len(advice) <= 2, f"the advice is said once, twice at most ({len(advice)}): {se[-1500:]}")
    blocks_before = [line for line in lines[:advice[0]] if re.match(r"gfxstat ab: block \d+/30", line)] if advice else []
    check(1 <= len(blocks_before) <= 10, f"the advice comes within the first 10 blocks ({len(blocks_before)})")
    said = " ".join(" ".join(line.split()) for line in lines[advice[0]:advice[0] + 6]) if advice else ""
    m = re.search(r"at this noise \+-1% cannot likely be settled within --max-runs 30 \(it would need "
                  r"about (\d+) runs a variant\); \+-([0-9.]+)% would likely settle in about (\d+) runs a variant; "
                  r"ab goes on at \+-1%", said)
    check(m is not None, f"the advice says what +-1% needs and what would settle: {said}")
    if m:
        check(int(m.group(1)) > 30 and 1 < float(m.group(2)) < 100 and int(m.group(3)) <= 30,
              f"+-1% needs more than the budget, the proposed threshold settles within it: {m.groups()}")
    check(all(len(line) <= 72 for line in lines[advice[0]:advice[0] + 6] if line.startswith(("gfxstat ab: advice", "  "))) if advice else False,
          "the advice's lines fit 72 columns")
    check("inconclusive after 30 blocks" in se, f"ab went on to --max-runs at +-1%: {se[-300:]}")
    check(rc == 0 and "would likely settle in about" in verdicts(so) and "cannot likely be settled within --max-runs 30" in verdicts(so),
          f"compare's inconclusive verdict adds the advice (rc {rc}): {verdicts(so)}")
    rc2, short, _ = run([GFXSTAT, "compare", out])
    flat = " ".join(short.split())
    check(rc2 == 0 and "At this noise +-1% cannot likely be settled within --max-runs 30" in flat and
          "would likely settle in about" in flat, f"the short answer gives the advice too: {short}")
    # Every report that gives the verdict's reason gives the advice with it.
    noisy = out
    ADVICE = "cannot likely be settled within --max-runs 30"
    rep = {k: os.path.join(d, "noisy." + k) for k in ("xml", "kcidb", "md", "json")}
    rc3, _, se3 = run([GFXSTAT, "compare", noisy, "--gate", "--strict", "--junit", rep["xml"], "--kcidb", rep["kcidb"],
                       "--markdown", rep["md"], "--json", rep["json"]])
    check(rc3 == 3, f"--gate --strict on the inconclusive A/A exits 3 (rc {rc3}): {se3[-300:]}")
    reports = {}
    for k, p in rep.items():
        with open(p) as f:
            reports[k] = f.read()
    junit = " ".join(reports["xml"].split())
    check(re.search(r"<system-out>[^<]*inconclusive[^<]*" + re.escape(ADVICE) + r"[^<]*would likely settle in about \d+ runs a variant",
                    junit) is not None, f"JUnit's system-out gives the reason with the advice: {junit[:1500]}")
    kcidb = json.loads(reports["kcidb"])
    cand = [t for t in kcidb["tests"] if t["misc"].get("role") == "candidate"]
    check(len(cand) == 1 and ADVICE in cand[0]["misc"]["reason"] and "would likely settle in about" in cand[0]["misc"]["reason"],
          f"KCIDB's misc.reason gives the advice: {[t['misc'].get('reason') for t in cand]}")
    check(ADVICE in " ".join(reports["md"].split()), f"the markdown report gives the advice: {reports['md'][:1500]}")
    js = json.loads(reports["json"])
    v = js["comparisons"][0]["verdict"]
    st = v.get("settling")
    check(v["outcome"] == "inconclusive" and ADVICE in v["reason"], f"JSON's reason keeps the advice: {v.get('reason')}")
    check(isinstance(st, dict) and sorted(st) == ["blocks_needed", "max_blocks", "settling_blocks", "settling_threshold", "threshold"],
          f"JSON's verdict has a settling object with its five fields: {st}")
    if isinstance(st, dict) and m:
        check(st["max_blocks"] == 30 and st["threshold"] == 0.01 and st["blocks_needed"] > 30 and
              0.01 < st["settling_threshold"] < 1 and 0 < st["settling_blocks"] <= 30,
              f"the settling figures: the budget, +-1%, more blocks than it, a threshold within it: {st}")
        said_pct = "+-%g%%" % (100 * st["settling_threshold"])
        check(f"about {st['blocks_needed']} runs a variant" in v["reason"] and
              f"{said_pct} would likely settle in about {st['settling_blocks']} runs a variant" in v["reason"],
              f"the object holds the figures the words say: {st} / {v['reason']}")
    rc4, brief_md, _ = run([GFXSTAT, "compare", noisy, "--brief", "--format", "markdown"])
    check(rc4 == 0 and "value, B: at this noise +-1% " + ADVICE in " ".join(brief_md.split()).replace("\\", ""),
          f"--brief markdown gives the advice under its table: {brief_md}")
    rc5, brief_txt, _ = run([GFXSTAT, "compare", noisy, "--brief"])
    check(rc5 == 0 and ADVICE in " ".join(brief_txt.split()) and all(len(line) <= 72 for line in brief_txt.split("\n")),
          f"--brief text gives the advice in 72 columns: {brief_txt}")
    rc6, table, _ = run([GFXSTAT, "compare", noisy, "--table"])
    check(rc6 == 0 and ADVICE in " ".join(table.split()), f"the suite table's note on the ? row gives the advice: {table}")
    # 1% noise at +-5%: within reach, no advice.
    out = os.path.join(d, "quiet-aa.json")
    rc, so, se = ab(out, "--variant", "A", "--variant", "B", "--env", "A:M=100", "--env", "B:M=100",
                    "--env", "A:SD=1", "--env", "B:SD=1", "--threshold", "5", "--max-runs", "30", "--seed", "5")
    check(rc == 0 and "settled after" in se and "advice:" not in se and "cannot likely" not in so,
          f"a quiet A/A at +-5% settles without advice (rc {rc}): {se[-600:]}")
    # An inconclusive verdict within --max-runs' reach has no advice
    # anywhere: no words, and JSON's settling is null.
    out = os.path.join(d, "short-reach.json")
    rc, so, se = ab(out, "--variant", "A", "--variant", "B", "--env", "A:M=100", "--env", "B:M=100",
                    "--env", "A:SD=1", "--env", "B:SD=1", "--threshold", "5", "--max-runs", "3", "--seed", "5")
    rep = {k: os.path.join(d, "reach." + k) for k in ("xml", "kcidb", "md", "json")}
    rc3, _, se3 = run([GFXSTAT, "compare", out, "--junit", rep["xml"], "--kcidb", rep["kcidb"],
                       "--markdown", rep["md"], "--json", rep["json"]])
    texts = []
    for p in rep.values():
        with open(p) as f:
            texts.append(f.read())
    js = json.loads(texts[3])
    v = js["comparisons"][0]["verdict"]
    check(rc3 == 0 and v["outcome"] == "inconclusive" and "settling" in v and v["settling"] is None,
          f"an inconclusive verdict within reach: JSON's settling is null: {v}")
    check(not any("cannot likely" in t or "would likely settle in about" in t for t in texts),
          "no report gives settling words without advice")

    # Fixed design: --runs 4, alternate order, warm-ups and a per-variant command.
    out = os.path.join(d, "fixed.json")
    rc, so, se = ab(out, "--variant", "A", "--variant", "B", "--env", "A:M=10", "--env", "B:M=10",
                    "--command", "B:" + PY + " -c 'print(20)'", "--runs", "4", "--order", "alternate",
                    "--warmup", "1")
    check(rc == 0, f"--runs 4 (rc {rc}: {se[-300:]})")
    rs = runs_of(out)
    meas = [r for r in rs if not r.get("warmup")]
    check(len([r for r in rs if r.get("warmup")]) == 2, "one warm-up of each variant first")
    check(len(meas) == 8 and [r["variant"] for r in meas] == ["A", "B"] * 4, "alternate: AB AB AB AB")
    check(all(r["metrics"]["value"] == 20 for r in meas if r["variant"] == "B"), "B ran its own --command")
    ds = designs_of(out)
    check(ds and ds[0].get("stopping") == "fixed" and ds[0].get("runs") == 4, f"the design says fixed, 4: {ds}")
    check("the 4 blocks asked for are done" in se, "ab says the fixed blocks are done")

    # abba, three variants, --prepare for one variant only, --switch-warmup.
    out = os.path.join(d, "abba.json")
    marker = os.path.join(d, "prepared")
    rc, so, se = ab(out, "--variant", "A", "--variant", "B", "--variant", "C", "--env", "A:M=10", "--env", "B:M=10",
                    "--env", "C:M=10", "--runs", "2", "--order", "abba", "--prepare", "C:echo x >> " + marker,
                    "--switch-warmup", "1")
    check(rc == 0, f"three variants, abba (rc {rc}: {se[-300:]})")
    meas = [r for r in runs_of(out) if not r.get("warmup")]
    check([r["variant"] for r in meas] == ["A", "B", "C", "C", "B", "A"], f"abba: ABC CBA ({[r['variant'] for r in meas]})")
    with open(marker) as f:
        prepared = f.read().count("x")
    ran_c = len([r for r in runs_of(out) if r["variant"] == "C"])
    check(prepared == ran_c, f"--prepare C: ran before each of C's runs only ({prepared} vs {ran_c})")
    warm = [r for r in runs_of(out) if r.get("warmup")]
    check(len(warm) == 4, f"--switch-warmup 1: a warm-up after each switch (4 switches, {len(warm)})")

    # Random order is seeded: the same seed gives the same orders.
    orders = []
    for i in range(2):
        out = os.path.join(d, f"seeded{i}.json")
        ab(out, "--variant", "A", "--variant", "B", "--env", "A:M=1", "--env", "B:M=1", "--runs", "8", "--seed", "99")
        orders.append([r["variant"] for r in runs_of(out)])
    check(orders[0] == orders[1], "the same --seed gives the same order")
    check(orders[0] != ["A", "B"] * 8 and orders[0] != ["B", "A"] * 8, f"random order varies between blocks: {orders[0]}")

    # --target-metric: the stop rule watches the metric named, and the
    # design says so; one the parser does not have is refused.
    out = os.path.join(d, "target.json")
    two = [PY, "-c", "import os; print('a', os.environ['M']); print('b', 2 * float(os.environ['M']))"]
    rc, so, se = ab(out, "--variant", "A", "--variant", "B", "--env", "A:M=1", "--env", "B:M=1",
                    "--metric", r"a=^a (\S+)", "--metric", r"b=^b (\S+)", "--target-metric", "b", "--runs", "3",
                    command=two)
    check(rc == 0 and designs_of(out) and designs_of(out)[0].get("metric") == "b",
          f"--target-metric b: the design's metric (rc {rc}: {se[-300:]})")
    check("B vs A b " in se, "the progress lines follow b")
    out = os.path.join(d, "target-missing.json")
    rc, so, se = ab(out, "--variant", "A", "--variant", "B", "--env", "A:M=1", "--env", "B:M=1",
                    "--metric", r"a=^a (\S+)", "--target-metric", "c", command=two)
    check(rc == 2 and "'c'" in se and not os.path.exists(out), f"--target-metric of no such metric: exit 2 ({se[:200]})")
    # A parser whose metrics come from the output: a missing target metric
    # stops after the first run that lacks it.
    out = os.path.join(d, "target-lines.json")
    rc, so, se = ab(out, "--variant", "A", "--variant", "B", "--env", "A:M=1", "--env", "B:M=1",
                    "--parser", "glmark2", "--target-metric", "score", command=[PY, "-c", "print('no glmark2 here')"])
    check(rc != 0 and se.startswith("gfxstat ab:"), f"a target metric the output lacks stops ab (rc {rc}: {se[-300:]})")

    # The first measured run fails: it is recorded, and compare still sees
    # one blocked experiment (failed runs are no samples, in the design or
    # not: ab declares its design with the first run that measured the
    # watched metric when the parser names its metrics only then).
    out = os.path.join(d, "first-fails.json")
    flag = os.path.join(d, "failed-once")
    flaky = [PY, "-c", "import os, sys, random\n"
             f"if not os.path.exists({flag!r}): open({flag!r}, 'w').close(); sys.exit(1)\n"
             "f = int(float(os.environ['M']) + random.gauss(0, 3))\n"
             "print(f'[build] use-vbo=false: FPS: {f} FrameTime: {1000 / f:.3f} ms')\n"
             "print('glmark2 Score:', f)"]
    rc, so, se = ab(out, "--variant", "A", "--variant", "B", "--env", "A:M=100", "--env", "B:M=100",
                    "--parser", "glmark2", "--runs", "4", "--seed", "2", "--full", command=flaky)
    rs = runs_of(out)
    check(rc == 0 and rs and rs[0]["exit"]["class"] == "fail", f"the failed first run is recorded (rc {rc}: {se[-300:]})")
    check("design       blocked" in so, f"compare still sees the blocked design: {so[:600]}")

    # A variant whose runs all fail to parse: exit 4 (the runs failed), the
    # variant and its last failure named; without a terminal each failed
    # run is said as it happens.
    out = os.path.join(d, "unparsed.json")
    rc, so, se = ab(out, "--variant", "A", "--variant", "B", "--env", "A:M=1", "--env", "B:M=1",
                    "--command", "B:echo not-a-number", "--runs", "2", "--max-failures", "5", "--seed", "4")
    check(rc == 4 and "variant 'B': 0 measured runs ended ok" in se and "not-a-number" in se,
          f"a variant without usable runs: exit 4 with its reason (rc {rc}: {se[-400:]})")
    check(se.count("B: fail (") == 2, f"each failed run is said: {se[-400:]}")

    # Plain differences (a value <= 0): the interval is shown in the
    # metric's units when the baseline's mean is 0.
    out = os.path.join(d, "zero.json")
    rc, so, se = ab(out, "--variant", "A", "--variant", "B", "--env", "A:M=0", "--env", "B:M=1", "--env", "A:SD=0",
                    "--max-runs", "7", "--seed", "6")
    # The last look (the stop rule may settle it before block 7).
    last = [line for line in se.splitlines() if re.search(r"block [0-9]+/7 ", line)][-1:]
    check(last and re.search(r"B vs A value [+-][0-9.]+ \[[+-][0-9.e+-]+, [+-][0-9.e+-]+\]", last[0]) and "%" not in last[0].split(":")[2],
          f"differences in units: {last}")

    # Failures: a variant whose command fails stops the experiment (exit 4).
    out = os.path.join(d, "failing.json")
    rc, so, se = ab(out, "--variant", "A", "--variant", "B", "--env", "A:M=1", "--env", "B:M=1",
                    "--command", "B:false", "--max-failures", "2", "--seed", "1")
    check(rc == 4 and "variant 'B'" in se and "did not succeed" in se, f"a failing variant stops ab (rc {rc}: {se[-300:]})")

    # Errors: nothing is written, and the file is left as it was.
    out = os.path.join(d, "errors.json")
    for args, what in [(["--variant", "A"], "one variant"),
                       (["--variant", "A", "--variant", "A"], "a label twice"),
                       (["--variant", "A", "--variant", "B", "--env", "Z:M=1"], "--env for an unknown variant"),
                       (["--variant", "A", "--variant", "B", "--runs", "3", "--max-runs", "5"], "--runs with --max-runs"),
                       (["--variant", "A", "--variant", "B", "--command", "B:'unclosed"], "an unclosed quote"),
                       (["--variant", "A", "--variant", "new:gl"], "a label with ':'"),
                       (["--variant", "A", "--variant", "B", "--runs", "1"], "--runs 1"),
                       (["--variant", "A", "--variant", "B", "--seed", "9223372036854775808"], "a seed beyond 2^63-1")]:
        rc, so, se = ab(out, *args)
        check(rc == 2 and (se.startswith("gfxstat ab:") or "--seed" in se), f"{what}: exit 2 with a message (rc {rc}: {se[:200]})")
        check(not os.path.exists(out), f"{what}: no results file is created")
    out = os.path.join(d, "big.json")
    before = open(out).read()
    rc, so, se = ab(out, "--variant", "A", "--variant", "B", "--env", "A:M=1", "--env", "B:M=1")
    check(rc == 2 and "already holds runs of variant 'A'" in se, f"existing variants are refused ({se[:200]})")
    check(open(out).read() == before, "the refused file is unchanged")

    return finish("ab: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
