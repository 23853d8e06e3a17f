#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gfxstat compare --summaries: summary-statistics input gives Welch's t, df,
p and interval equal to the raw-data result on the same samples.

  * the raw samples (examples/bdw-syslatency-mean-a.txt and -b.txt) through
    `gfxstat compare --format json`, against their N, mean and sd computed
    here exactly (fractions, one rounding each) and written as CSV: every
    Welch (and Student, TOST, Hedges' g) number agrees to a relative 1e-9,
    and with scipy on the raw samples (tests/data/summaries/
    summary_reference.json, "raw");
  * the same samples as `gfxstat ministat` prints them, pasted: the numbers
    read are the printed digits exactly, and the raw result lies within
    what those digits allow (the statistics at the corners of the box the
    rounding leaves, computed by gfxstat from summaries);
  * the pasted fixtures in tests/data/summaries against scipy (the
    reference script there), to a relative 1e-9, with the verdict their
    numbers call for;
  * the report's first words, width, markdown and JSON, exit statuses, errors
    with file and line, standard input, labels, benchmarks.
"""

import argparse
import itertools
import json
import math
import os
import re
import sys
import tempfile
from decimal import Decimal, getcontext
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import check, finish, run, write  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--gfxstat", required=True)
ap.add_argument("--source", required=True)
ARGS = ap.parse_args()
GFXSTAT, SRC = ARGS.gfxstat, ARGS.source
HERE_DATA = os.path.join(SRC, "tests", "data", "summaries")
REF = json.load(open(os.path.join(HERE_DATA, "summary_reference.json")))
A = os.path.join(SRC, "examples", "bdw-syslatency-mean-a.txt")
B = os.path.join(SRC, "examples", "bdw-syslatency-mean-b.txt")


CMD = [GFXSTAT, "compare", "--summaries"]


def summaries(*args, stdin=b""):
    return run(CMD + list(args), stdin=stdin)


def summaries_json(*args):
    rc, out, err = summaries("--format", "json", *args)
    if not check(rc == 0, "summaries %s: rc %d, %s" % (args, rc, err)):
        return None
    return json.loads(out)


def close(a, b, rel=1e-9, abs_=1e-300):
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=rel, abs_tol=abs_)


def check_close(got, want, what, rel=1e-9, abs_=1e-300):
    check(close(got, want, rel, abs_), "%s: got %r, expected %r (rel %g)" % (what, got, want, rel))


def column_values(path):
    """The exact decimals of a column file (comments and blank lines skipped)."""
    vals = []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            vals += [Fraction(w) for w in line.split()]
    return vals


def exact_summary(vals):
    """(n, mean, sd): the mean and sd each rounded once from the exact values."""
    n = len(vals)
    mean = sum(vals) / n
    var = sum((v - mean) ** 2 for v in vals) / (n - 1)
    getcontext().prec = 60
    sd = (Decimal(var.numerator) / Decimal(var.denominator)).sqrt()
    return n, float(mean), float(sd)


# ---- the test: summaries equal raw data ------------------------------

rc, out, err = run([GFXSTAT, "compare", "--format", "json", A, B])
check(rc == 0, "raw compare: rc %d %s" % (rc, err))
raw = json.loads(out)["comparisons"][0]
raw_welch, raw_student = raw["tests"]["welch"], raw["tests"]["student"]

with tempfile.TemporaryDirectory() as tmp:
    na, ma, sa = exact_summary(column_values(A))
    nb, mb, sb = exact_summary(column_values(B))
    csv = write(tmp, "bdw.csv", "label,n,mean,sd\nbefore,%d,%r,%r\nafter,%d,%r,%r\n" % (na, ma, sa, nb, mb, sb))
    doc = summaries_json(csv)
    if doc:
        check(doc["from"] == "summaries", "JSON says it is from summaries")
        check(isinstance(doc.get("gfxstat_version"), str) and doc["gfxstat_version"], "JSON has gfxstat_version")
        c = doc["comparisons"][0]
        check(c["n"] == [na, nb] and c["mean"] == [ma, mb] and c["sd"] == [sa, sb], "CSV read exactly: %r" % c)
        for key in ("t", "df", "p"):
            check_close(c["welch"][key], raw_welch[key], "Welch %s from summaries vs raw compare" % key)
            check_close(c["welch"][key], REF["raw"]["welch"][key], "Welch %s from summaries vs scipy on raw" % key)
            check_close(c["student"][key], raw_student[key], "Student %s from summaries vs raw compare" % key)
        check_close(c["welch"]["difference"], raw["difference"], "difference from summaries vs raw compare")
        check_close(c["welch"]["difference"], REF["raw"]["welch"]["difference"], "difference vs scipy on raw")
        for i in range(2):
            check_close(c["welch"]["ci"][i], raw_welch["ci"][i], "Welch CI[%d] vs raw compare" % i)
            check_close(c["welch"]["ci"][i], REF["raw"]["welch"]["ci"][i], "Welch CI[%d] vs scipy on raw" % i)
            check_close(c["student"]["ci"][i], raw_student["ci"][i], "Student CI[%d] vs raw compare" % i)
        check_close(c["equivalence"]["p"], raw["tests"]["equivalence"]["p"], "TOST p vs raw compare")
        check_close(c["equivalence"]["margin"], raw["tests"]["equivalence"]["margin"], "TOST margin vs raw")
        check_close(c["hedges_g"], raw["effect"]["hedges_g"], "Hedges' g vs raw compare")
        check_close(c["cohens_d"], raw["effect"]["cohens_d"], "Cohen's d vs raw compare")
        check_close(c["relative_change"], raw["relative_difference"], "relative change vs raw compare")
        # The relative interval is Fieller's for the ratio of means with
        # Welch's df (analysis/ratio_interval.h): from the raw Welch test's
        # quantile and the raw samples' means and variances of the means.
        q = (raw_welch["ci"][1] - raw["difference"]) / raw_welch["stderr"]
        va, vb = sa * sa / na, sb * sb / nb
        fa, fb, fc = ma * ma - q * q * va, ma * mb, mb * mb - q * q * vb
        root = (fb * fb - fa * fc) ** 0.5
        for i, ratio in enumerate(((fb - root) / fa, (fb + root) / fa)):
            check_close(c["relative_ci"][i], ratio - 1, "relative CI[%d] vs Fieller on raw Welch" % i)
        # On these runs compare's own verdict is the rank test's (the
        # baseline is skewed): what summaries cannot see. Where compare
        # decides by Welch's t, the verdicts must agree.
        if raw["verdict"]["primary_test"] == "welch":
            check(c["verdict"]["outcome"] == raw["verdict"]["outcome"],
                  "verdict from summaries %s, raw %s" % (c["verdict"]["outcome"], raw["verdict"]["outcome"]))

    # ---- the same samples pasted as gfxstat ministat prints them ---------
    rc, pasted, err = run([GFXSTAT, "ministat", A, B])
    check(rc == 0, "gfxstat ministat: rc %d %s" % (rc, err))
    rows = re.findall(r"^([x+])\s+(\d+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)$", pasted, re.M)
    check(len(rows) == 2, "two ministat rows in %r" % pasted)
    paste = write(tmp, "paste.txt", "".join("> " + line + "\n" for line in pasted.splitlines()))
    doc = summaries_json(paste)
    if doc and len(rows) == 2:
        c = doc["comparisons"][0]
        check(c["baseline"] == A and c["candidate"] == B, "labels from the legend: %r" % [c["baseline"], c["candidate"]])
        check(c["n"] == [int(rows[0][1]), int(rows[1][1])], "N as printed")
        check(c["mean"] == [float(rows[0][5]), float(rows[1][5])], "Avg as printed, exactly")
        check(c["sd"] == [float(rows[0][6]), float(rows[1][6])], "Stddev as printed, exactly")

        def half_unit(text):
            """Half a unit in the last printed digit of `text`."""
            mant = text.lower().split("e")[0]
            exp = int(text.lower().split("e")[1]) if "e" in text.lower() else 0
            decimals = len(mant.split(".")[1]) if "." in mant else 0
            return 0.5 * 10.0 ** (exp - decimals)

        box = []
        for r in rows:
            box.append([(float(r[5]) + s * half_unit(r[5])) for s in (-1, 1)])
            box.append([(float(r[6]) + s * half_unit(r[6])) for s in (-1, 1)])
        lines = ["bench,label,n,mean,sd"]
        for k, (m0, s0, m1, s1) in enumerate(itertools.product(*box)):
            lines.append("c%d,base,%s,%r,%r" % (k, rows[0][1], m0, s0))
            lines.append("c%d,cand,%s,%r,%r" % (k, rows[1][1], m1, s1))
        corners = summaries_json(write(tmp, "corners.csv", "\n".join(lines) + "\n"))
        if corners:
            got = {"t": c["welch"]["t"], "df": c["welch"]["df"], "p": c["welch"]["p"],
                   "ci0": c["welch"]["ci"][0], "ci1": c["welch"]["ci"][1]}
            want = {"t": raw_welch["t"], "df": raw_welch["df"], "p": raw_welch["p"],
                    "ci0": raw_welch["ci"][0], "ci1": raw_welch["ci"][1]}
            for key in got:
                vals = [k["welch"][key] if key in ("t", "df", "p") else k["welch"]["ci"][int(key[-1])]
                        for k in corners["comparisons"]]
                lo, hi = min(vals), max(vals)
                slack = 1e-9 * max(abs(lo), abs(hi))
                check(lo - slack <= want[key] <= hi + slack,
                      "raw Welch %s %r within what ministat's digits allow [%r, %r]" % (key, want[key], lo, hi))
                check(lo - slack <= got[key] <= hi + slack,
                      "pasted Welch %s %r within [%r, %r]" % (key, got[key], lo, hi))
                # The box is the printed precision, not a tolerance that cannot fail.
                check((hi - lo) <= 1e-4 * max(abs(want[key]), 1e-3),
                      "the rounding box of %s is narrow: [%r, %r]" % (key, lo, hi))

# ---- the pasted fixtures against scipy ---------------------------------------

for name, comps in REF["fixtures"].items():
    doc = summaries_json("--higher-is-better", os.path.join(HERE_DATA, name))
    if not doc:
        continue
    got = doc["comparisons"]
    if not check(len(got) == len(comps), "%s: %d comparisons, expected %d" % (name, len(got), len(comps))):
        continue
    check(doc["family_size"] == len(comps), "%s: family of %d" % (name, len(comps)))
    alpha = 1 - REF["confidence"]
    for g, w in zip(got, comps):
        what = "%s %s/%s" % (name, w["bench"], w["candidate"])
        check([g["bench"], g["baseline"], g["candidate"]] == [w["bench"], w["baseline"], w["candidate"]],
              "%s: names %r" % (what, [g["bench"], g["baseline"], g["candidate"]]))
        check(g["n"] == w["n"] and g["mean"] == w["mean"] and g["sd"] == w["sd"],
              "%s: read %r %r %r" % (what, g["n"], g["mean"], g["sd"]))
        for test in ("welch", "student"):
            for key in ("t", "df", "p", "difference"):
                check_close(g[test][key], w[test][key], "%s: %s %s vs scipy" % (what, test, key))
            for i in range(2):
                check_close(g[test]["ci"][i], w[test]["ci"][i], "%s: %s ci[%d] vs scipy" % (what, test, i))
        check_close(g["relative_change"], w["relative_change"], what + ": relative change")
        for i in range(2):
            check_close(g["relative_ci"][i], w["relative_ci"][i], what + ": relative CI")
        check_close(g["equivalence"]["p"], w["equivalence"]["p"], what + ": TOST p vs scipy", abs_=1e-15)
        check_close(g["equivalence"]["margin"], w["equivalence"]["margin"], what + ": TOST margin")
        check(g["equivalence"]["equivalent"] == w["equivalence"]["equivalent"], what + ": equivalent")
        check_close(g["cohens_d"], w["cohens_d"], what + ": Cohen's d")
        check_close(g["hedges_g"], w["hedges_g"], what + ": Hedges' g")
        check_close(g["p_adjusted"], w["p_adjusted"], what + ": Holm-adjusted p vs the reference")
        # The verdict's rules in order (analysis/verdict.h): equivalence
        # shown is no change; a significant adjusted p a change, its
        # direction (higher is better here) saying which; else inconclusive.
        if w["equivalence"]["equivalent"]:
            expected = "no_change"
        elif w["p_adjusted"] < alpha:
            expected = "improvement" if w["welch"]["difference"] > 0 else "regression"
        else:
            expected = "inconclusive"
        check(g["verdict"]["outcome"] == expected, "%s: verdict %s, expected %s" % (what, g["verdict"]["outcome"], expected))

# ---- text, markdown, JSON -------------------------------------------------------

three = os.path.join(HERE_DATA, "ministat-three.txt")
rc, out, err = summaries(three)
check(rc == 0, "text: rc %d %s" % (rc, err))
lines = out.splitlines()
check(lines and lines[0].startswith("From summary statistics (N, mean, sd): Welch's t."), "first line: %r" % lines[:1])
flat = " ".join(out.split())
check("No diagnostics are possible" in flat and "outliers and boots are not visible in summaries" in flat,
      "the report says what summaries cannot show")
check(all(len(l) <= 72 for l in lines), "text fits 72 columns: %r" % [l for l in lines if len(l) > 72])
for key in ("drm-tip.txt -> patched.txt", "drm-tip.txt -> revert.txt", "Holm-adjusted p", "df = ", "verdict"):
    check(key in out, "text has %r" % key)
rc, out, err = summaries("--width", "40", three)
check(rc == 0 and all(len(l) <= 40 for l in out.splitlines()),
      "--width 40: %r" % [l for l in out.splitlines() if len(l) > 40])
rc, out, err = summaries("--format", "markdown", os.path.join(HERE_DATA, "benches.csv"))
check(rc == 0, "markdown: rc %d %s" % (rc, err))
check(out.startswith("From summary statistics (N, mean, sd): Welch's t."), "markdown says it first")
check("| benchmark | baseline | candidate |" in out, "markdown table header: %r" % out[:400])
check("| unigine/heaven, 1080p | mesa-24.0 | mesa-24.1 |" in out, "markdown row of the quoted benchmark")

# ---- exit statuses ------------------------------------------------------------

with tempfile.TemporaryDirectory() as tmp:
    worse = write(tmp, "worse.csv", "label,n,mean,sd\nbase,10,100,1\npatch,10,95,1\n")
    check(summaries("--gate", "--higher-is-better", worse)[0] == 1, "a 5% regression fails --gate")
    check(summaries("--higher-is-better", worse)[0] == 0, "without --gate: 0")
    check(summaries("--gate", "--lower-is-better", worse)[0] == 0, "an improvement passes --gate")
    check(summaries("--gate", "--threshold", "10", "--higher-is-better", worse)[0] == 0,
          "a regression within --threshold 10 passes --gate")
    bdw = os.path.join(HERE_DATA, "ministat-bdw.txt")
    check(summaries("--gate", "--lower-is-better", bdw)[0] == 0, "inconclusive passes --gate")
    check(summaries("--gate", "--strict", "--lower-is-better", bdw)[0] == 3, "inconclusive fails --gate --strict")
    same = write(tmp, "same.csv", "label,n,mean,sd\nbase,5,7,0\npatch,5,7,0\n")
    doc = summaries_json(same)
    if doc:
        c = doc["comparisons"][0]
        check(c["welch"]["defined"] is False and c["welch"]["t"] is None and c["p_adjusted"] is None,
              "no variability: Welch undefined, no p: %r" % c["welch"])
        check(c["verdict"]["outcome"] == "no_change" and c["verdict"]["constant"],
              "the same constant on both sides: no change (constant): %r" % c["verdict"])
    check(summaries("--gate", "--strict", same)[0] == 0, "the same constant passes --gate --strict")
    differ = write(tmp, "differ.csv", "label,n,mean,sd\nbase,5,7,0\npatch,5,8,0\n")
    doc = summaries_json(differ)
    if doc:
        check(doc["comparisons"][0]["verdict"]["outcome"] == "inconclusive", "two different constants: inconclusive")
    check(summaries("--gate", "--strict", differ)[0] == 3, "two different constants fail --gate --strict")
    rc, out, err = summaries(same)
    check(rc == 0 and "TOST undefined" in out and "(equivalent)" not in out,
          "no variability: TOST is not called equivalent beside an inconclusive verdict: %r" % out)

    # ---- scale: t, df and p do not depend on the unit ------------------
    # Standard deviations near 1e-311 square to 0 in double; the rows are
    # tested at a scale where they do not, and the absolute numbers are
    # scaled back.
    unit = write(tmp, "unit.csv", "label,n,mean,sd\nbase,5,1,0.1\npatch,6,1.2,0.15\n")
    tiny = write(tmp, "tiny.csv", "label,n,mean,sd\nbase,5,1e-310,1e-311\npatch,6,1.2e-310,1.5e-311\n")
    huge = write(tmp, "huge.csv", "label,n,mean,sd\nbase,5,1e300,1e299\npatch,6,1.2e300,1.5e299\n")
    ref = summaries_json(unit)
    for path, k in ((tiny, 1e-310), (huge, 1e300)):
        doc = summaries_json(path)
        if ref and doc:
            a, b = ref["comparisons"][0]["welch"], doc["comparisons"][0]["welch"]
            check(b["defined"] is True, "%s: Welch defined: %r" % (path, b))
            if b["defined"]:
                for key in ("t", "df", "p"):
                    check_close(b[key], a[key], "%s: Welch %s at any scale" % (path, key), rel=1e-9)
                check_close(b["ci"][0], a["ci"][0] * k, "%s: the interval scaled back" % path, rel=1e-6)

    # ---- errors: file, line, what was expected; nothing on stdout -------
    def refused(args, needle, stdin=b""):
        rc, out, err = summaries(*args, stdin=stdin)
        check(rc == 2 and out == "" and needle in err, "%s: rc %d, stdout %r, stderr %r (wanted %r)" %
              (args, rc, out[:80], err, needle))

    one = write(tmp, "one.csv", "label,n,mean,sd\nbase,1,100,0\npatch,10,95,1\n")
    refused([one], one + ":2: column 'n' is 1: Welch's t needs at least 2 values a side")
    refused([os.path.join(HERE_DATA, "mail-archive-mangled.txt")], "mail-archive-mangled.txt:19: ministat's table header")
    lonely = write(tmp, "lonely.csv", "label,n,mean,sd\nbase,5,100,1\n")
    refused([lonely], "holds the only data set")
    nobase = write(tmp, "nobase.csv", "bench,label,n,mean,sd\nx,base,5,1,1\nx,patch,5,1,1\ny,patch,5,1,1\n")
    refused([nobase], nobase + ":4: benchmark 'y' has no row of the baseline 'base'")
    nocand = write(tmp, "nocand.csv", "bench,label,n,mean,sd\nx,base,5,1,1\nx,patch,5,1,1\ny,base,5,1,1\n")
    refused([nocand], nocand + ":4: benchmark 'y' has only the baseline 'base'")
    refused([nobase, lonely], "names no benchmarks, but")
    refused([os.path.join(tmp, "missing.csv")], "missing.csv")
    refused(["-"], "<stdin>:2: column 'sd'", stdin=b"label,n,mean,sd\na,3,1,-1\n")
    refused(["--baseline", "nope", worse], "--baseline 'nope': no data set has that label")
    # A number-keyed row whose fields are not all numbers is not a row (the
    # reader once went on reading the fields it had dropped: run under
    # AddressSanitizer, this is its regression test).
    numkey = write(tmp, "numkey.txt", "N Min Max Median Avg Stddev\n12 x 1 2 3 4 5\n")
    refused([numkey], numkey + ":1: the ministat table has no rows")

    # ---- inputs: standard input, labels from files, several files ------
    with open(os.path.join(HERE_DATA, "mail-reply-quoted.txt"), "rb") as f:
        rc, out, err = summaries("--format", "json", "-", stdin=f.read())
    if check(rc == 0, "quoted reply on stdin: rc %d %s" % (rc, err)):
        c = json.loads(out)["comparisons"]
        check([x["candidate"] for x in c] == ["patched.txt", "revert.txt"], "labels from the quoted legend")
        check(c[0]["lines"] == ["<stdin>:14", "<stdin>:15"], "rows located: %r" % c[0]["lines"])
    before = write(tmp, "before.csv", "n,mean,sd\n5,10,1\n")
    after = write(tmp, "after.csv", "n,mean,sd\n5,11,1\n")
    doc = summaries_json(before, after)
    if doc:
        c = doc["comparisons"][0]
        check([c["baseline"], c["candidate"]] == [before, after], "a file of one row is named by the file")
    bare = ("    N           Min           Max        Median           Avg        Stddev\n"
            "x   5             1             3             2             2             1\n")
    p1, p2 = write(tmp, "p1.txt", bare), write(tmp, "p2.txt", bare.replace("x   5", "x   6"))
    doc = summaries_json(p1, p2)
    if doc:
        c = doc["comparisons"][0]
        check([c["baseline"], c["candidate"]] == [p1 + ":x", p2 + ":x"], "repeated labels told apart: %r" %
              [c["baseline"], c["candidate"]])
    doc = summaries_json("--baseline", "patched.txt", three)
    if doc:
        check([(x["baseline"], x["candidate"]) for x in doc["comparisons"]] ==
              [("patched.txt", "drm-tip.txt"), ("patched.txt", "revert.txt")], "--baseline picks the baseline")

sys.exit(finish("summary_compare_cli: all checks passed"))
