#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""compare's image verdicts on results files with image_check records
(docs/image-checks.md, "In compare, ab and CI exports"): equal images leave
the verdict to the timing; a faster candidate whose stable frames differ
"renders differently", is never an improvement, and fails --gate unless
--allow-image-change; unstable frames never fail; a nondeterministic
variant and too few checking runs are not judged. In every text form, in
JSON, JUnit and KCIDB (valid under the v5.3 subset), in one file and in
one file a variant."""

import argparse
import json
import os
import sys
import tempfile
import xml.etree.ElementTree as ET

from testlib import check, finish, run

GFX = None
SRC = None


def gfx(*args):
    """(exit status, stdout with its lines joined and spaces squeezed, stderr):
    the reports wrap where the width says."""
    rc, out, err = run([GFX] + list(args))
    return rc, " ".join(out.split()), err


def fixture_lines():
    with open(os.path.join(SRC, "tests/data/results/image_checks.json")) as f:
        return [json.loads(line) for line in f if line.strip()]


def write_lines(path, lines):
    with open(path, "w") as f:
        for line in lines:
            f.write(json.dumps(line, separators=(",", ":")) + "\n")
    return path


def variant_file(d, name, lines, variants, change=None):
    """The fixture's records of `variants` (the header and metric kept),
    each image check passed through `change` first."""
    out = []
    for line in lines:
        if line.get("type") in ("run", "image_check") and line["variant"] not in variants:
            continue
        if line.get("type") == "image_check" and change:
            line = change(json.loads(json.dumps(line)))
            if line is None:
                continue
        out.append(line)
    return write_lines(os.path.join(d, name), out)


def main():
    global GFX, SRC
    ap = argparse.ArgumentParser()
    ap.add_argument("--gfxstat", required=True)
    ap.add_argument("--source", required=True)
    a = ap.parse_args()
    GFX, SRC = a.gfxstat, a.source
    fixture = os.path.join(SRC, "tests/data/results/image_checks.json")
    lines = fixture_lines()
    d = tempfile.mkdtemp(prefix="gfxstat-images-")
    differ_words = "renders differently: 3 of 119 frames (first: 42)"

    # ---- equal images: the timing decides -------------------------------
    rc, out, err = gfx("compare", fixture, "--variant", "tidy", "--gate")
    check(rc == 0, "equal images, faster: --gate passes (rc %d: %s)" % (rc, err))
    check("improvement" in out, "equal images: the timing's verdict stands:\n" + out)
    check("tidy vs main: images equal: 119 frames" in out, "equal images: the line under the table:\n" + out)
    check("frames unstable in main: 1 (first: 1)" in out, "main's unstable first frame is reported:\n" + out)

    # ---- differing images: never an improvement, the gate fails ---------
    rc, out, err = gfx("compare", fixture, "--variant", "patched")
    check(rc == 0, "without --gate the exit status is 0 (rc %d)" % rc)
    check("improvement" not in out, "a candidate that renders differently is no improvement:\n" + out)
    check("renders differently" in out.split("patched vs main")[0], "the table's verdict reads renders differently:\n" + out)
    check("patched vs main: " + differ_words in out, "the line under the table names the frames:\n" + out)
    check("+10" in out, "the timing's change stays visible:\n" + out)
    rc, out, err = gfx("compare", fixture, "--variant", "patched", "--gate")
    check(rc == 1, "differ + faster: --gate exits 1 (rc %d: %s)" % (rc, err))
    rc, out, err = gfx("compare", fixture, "--variant", "patched", "--gate", "--allow-image-change")
    check(rc == 0, "differ with --allow-image-change: exit 0 (rc %d: %s)" % (rc, err))
    check(differ_words in out, "--allow-image-change still says the images differ:\n" + out)
    rc, out, err = gfx("compare", fixture, "--gate")
    check(rc == 1, "both candidates: the one that renders differently fails the gate (rc %d)" % rc)

    for extra, what in ((["--full"], "--full"), (["--brief"], "--brief"), (["--format", "markdown"], "markdown"),
                        (["--brief", "--format", "markdown"], "--brief markdown")):
        rc, out, err = gfx("compare", fixture, *extra)
        check(rc == 0 and differ_words in out, "%s says %r:\n%s%s" % (what, differ_words, out, err))
        check("images equal: 119 frames" in out, "%s says tidy's images are equal" % what)
        check("RENDERS DIFFERENTLY" in out if what == "--full" else "renders differently" in out,
              "%s: the verdict of patched reads renders differently" % what)

    # ---- JSON ------------------------------------------------------------
    rc, out, err = gfx("compare", fixture, "--format", "json")
    doc = json.loads(out) if rc == 0 else {"comparisons": []}
    by = {c["candidate"]["label"]: c["verdict"] for c in doc["comparisons"]}
    p, t = by.get("patched", {}), by.get("tidy", {})
    check(p.get("images") == "differ" and p.get("outcome") == "changed" and
          p.get("timing_outcome") == "improvement", "JSON: patched differs, no improvement: %r" % p)
    ic = p.get("image_check", {})
    check(ic.get("compared") == 119 and ic.get("differing") == 3 and ic.get("first_differing") == 42 and
          ic.get("unstable", {}).get("baseline") == 1 and ic.get("unstable", {}).get("baseline_first") == 1 and
          ic.get("not_judged") is None and ic.get("words") == differ_words, "JSON image_check: %r" % ic)
    check(t.get("images") == "equal" and t.get("outcome") == "improvement" and "timing_outcome" not in t,
          "JSON: tidy is equal and an improvement: %r" % t)

    # ---- unstable frames never fail -------------------------------------
    def unstable(c):
        # patched's differing frames differ between its own checks too.
        if c["variant"] == "patched":
            for f in ("42", "43", "50"):
                c["images"][f] = ("%x" % (c["check"] + 1)) * 32
        return c
    f = variant_file(d, "unstable.json", lines, ("main", "patched"), unstable)
    rc, out, err = gfx("compare", f, "--gate")
    check(rc == 0, "frames unstable in the candidate never fail the gate (rc %d):\n%s" % (rc, out))
    check("patched vs main: images equal: 116 frames" in out and "frames unstable in patched: 4 (first: 1)" in out,
          "unstable frames are reported, not compared:\n" + out)

    # ---- every frame unstable: nondeterministic, not judged -------------
    def noisy(c):
        if c["variant"] == "patched":
            c["images"] = {k: ("%x" % (c["check"] + 1)) * 32 for k in c["images"]}
        return c
    f = variant_file(d, "noisy.json", lines, ("main", "patched"), noisy)
    rc, out, err = gfx("compare", f, "--gate")
    check(rc == 0, "a nondeterministic candidate never fails the gate (rc %d)" % rc)
    check("nondeterministic: no frame of patched is stable over its 3 checking runs" in out, "nondeterministic:\n" + out)
    check("improvement" in out, "not judged: the timing decides:\n" + out)
    rc, out, err = gfx("compare", f, "--format", "json")
    v = json.loads(out)["comparisons"][0]["verdict"] if rc == 0 else {}
    check(v.get("images") == "not_judged" and v.get("image_check", {}).get("not_judged") == "nondeterministic" and
          v.get("image_check", {}).get("not_judged_variant") == "patched", "JSON not judged: %r" % v)

    # ---- fewer than 2 checking runs: not judged -------------------------
    f = variant_file(d, "one.json", lines, ("main", "patched"),
                     lambda c: None if c["variant"] == "patched" and c["check"] > 0 else c)
    rc, out, err = gfx("compare", f, "--gate")
    check(rc == 0, "one checking run never fails the gate (rc %d)" % rc)
    check("not judged: patched has 1 checking run (needs 2)" in out, "too few checks:\n" + out)

    # ---- no image check: nothing said -----------------------------------
    f = variant_file(d, "plain.json", lines, ("main", "patched"), lambda c: None)
    rc, out, err = gfx("compare", f, "--gate", "--format", "json")
    v = json.loads(out)["comparisons"][0]["verdict"] if rc == 0 else {}
    check(rc == 0 and v.get("outcome") == "improvement" and "images" not in v, "no checks: as before: %r" % v)
    rc, out, err = gfx("compare", f)
    check("images" not in out and "frames" not in out, "no checks: no image line:\n" + out)

    # ---- one variant a file (BASELINE CANDIDATE) -------------------------
    base = variant_file(d, "main.json", lines, ("main",))
    cand = variant_file(d, "patched.json", lines, ("patched",))
    rc, out, err = gfx("compare", base, "mr=" + cand, "--gate")
    check(rc == 1 and "mr vs main: " + differ_words in out, "files BASELINE CANDIDATE (rc %d):\n%s%s" % (rc, out, err))
    rc, out, err = gfx("compare", base, cand, "--gate", "--allow-image-change")
    check(rc == 0, "files, --allow-image-change: exit 0 (rc %d)" % rc)

    # ---- suites: the table, and a suite tested as pairs -----------------
    def suite(name, runs_per_variant, scenes):
        """The fixture's variants main and patched as a suite of `scenes`
        fps metrics, `runs_per_variant` runs each; patched 10% faster."""
        out = [lines[0]] + [{"type": "metric", "name": "%s/fps" % sc, "unit": "fps", "direction": "higher"}
                            for sc in scenes]
        for v, level in (("main", 100.0), ("patched", 110.0)):
            for i in range(runs_per_variant):
                out.append({"type": "run", "variant": v, "run": i, "exit": {"class": "ok", "code": 0},
                            "metrics": {"%s/fps" % sc: level * (1 + 0.1 * j) + 0.3 * ((i * 7 + j) % 5)
                                        for j, sc in enumerate(scenes)}})
        out += [line for line in lines if line.get("type") == "image_check" and line["variant"] in ("main", "patched")]
        return write_lines(os.path.join(d, name), out)

    f = suite("suite.json", 6, ["build", "shading", "texture"])
    rc, out, err = gfx("compare", f, "--gate")
    check(rc == 1 and "patched vs main: " + differ_words in out and "renders differently;" in out,
          "the suite table says it, a note on each overruled row (rc %d):\n%s%s" % (rc, out, err))
    check("3 better but renders differently (!)" in out, "the suite's counts say it:\n" + out)
    rc, out, err = gfx("compare", f, "--format", "json")
    s = json.loads(out).get("suite", {}) if rc == 0 else {}
    marks = [c["mark"] for row in s.get("rows", []) for c in row["candidates"] if c] + \
        [c["mark"] for c in (s.get("geomean") or {}).get("candidates", []) if c]
    check(len(marks) == 4 and set(marks) == {"!"}, "no row and no geomean of patched is marked better: %r" % marks)
    check(s.get("counts", [{}])[0].get("renders_differently") == 3, "JSON counts: %r" % s.get("counts"))
    rc, out, err = gfx("compare", f, "--format", "markdown")
    check("images, patched vs main: " + differ_words in out, "the suite's markdown says it:\n" + out)
    f = suite("paired.json", 1, ["build", "shading", "texture", "terrain", "refract"])
    rc, out, err = gfx("compare", f, "--gate")
    check(rc == 1 and "patched vs main: " + differ_words in out, "a suite tested as pairs (rc %d):\n%s%s" % (rc, out, err))
    rc, out, err = gfx("compare", f, "--format", "json")
    paired = json.loads(out).get("paired", []) if rc == 0 else []
    v = paired[0]["verdict"] if paired else {}
    check(v.get("images") == "differ" and v.get("outcome") == "changed" and v.get("timing_outcome") == "improvement",
          "JSON paired verdict: images differ, no improvement: %r" % v)

    # ---- CI exports ------------------------------------------------------
    junit, kcidb = os.path.join(d, "r.xml"), os.path.join(d, "r.kcidb.json")
    with open(os.path.join(SRC, "tests/data/kcidb/gfxstat-subset.schema.json")) as fh:
        schema = json.load(fh)

    def image_tests():
        """The KCIDB file's image tests by variant, checked against the schema."""
        with open(kcidb) as fh:
            k = json.load(fh)
        try:
            import jsonschema
            errors = list(jsonschema.Draft202012Validator(schema).iter_errors(k))
            check(not errors, "KCIDB is valid under the v5.3 subset: %s" % (errors[0].message if errors else ""))
        except ImportError:
            check(False, "python3-jsonschema is missing (scripts/install-deps.sh installs it)")
        return {t["misc"]["variant"]: t for t in k["tests"] if t["path"].endswith(".images")}

    def junit_cases():
        root = ET.parse(junit).getroot()
        return root, {tc.get("name"): tc for tc in root.iter("testcase")}

    rc, out, err = gfx("compare", fixture, "--junit", junit, "--kcidb", kcidb, "--gate")
    check(rc == 1, "exports with --gate (rc %d: %s)" % (rc, err))
    root, cases = junit_cases()
    pc, tc = cases.get("images: patched vs main"), cases.get("images: tidy vs main")
    fail = pc.find("failure") if pc is not None else None
    check(fail is not None and differ_words in fail.get("message", "") and "42 43 50" in (fail.text or ""),
          "JUnit: a failure naming the frames for patched")
    check(tc is not None and tc.find("failure") is None, "JUnit: tidy's images pass")
    check(root.get("failures") == "1", "JUnit: one failure in all: %r" % root.get("failures"))
    images = image_tests()
    check(images.get("patched", {}).get("status") == "FAIL", "KCIDB: patched's images FAIL under --gate")
    check(images.get("tidy", {}).get("status") == "PASS", "KCIDB: tidy's images PASS under --gate")
    check(images.get("patched", {}).get("misc", {}).get("first_differing") == 42, "KCIDB: the first frame in misc")

    # The reports fail exactly where the exit status does.
    rc, out, err = gfx("compare", fixture, "--junit", junit, "--kcidb", kcidb, "--gate", "--allow-image-change")
    check(rc == 0, "exports with --allow-image-change (rc %d)" % rc)
    root, cases = junit_cases()
    check(root.get("failures") == "0", "JUnit: an allowed change is no failure")
    images = image_tests()
    check(images.get("patched", {}).get("status") == "PASS" and images["patched"]["misc"].get("allowed") is True,
          "KCIDB: an allowed change passes the gate: %r" % images.get("patched"))
    rc, out, err = gfx("compare", fixture, "--junit", junit, "--kcidb", kcidb)
    root, cases = junit_cases()
    check(root.get("failures") == "0", "JUnit without --gate: no failure")
    check(differ_words in " ".join(ET.tostring(cases["images: patched vs main"], encoding="unicode").split()),
          "JUnit without --gate: the verdict in system-out")
    images = image_tests()
    check(images.get("patched", {}).get("status") == "DONE", "KCIDB without --gate: DONE")
    f = variant_file(d, "one-k.json", lines, ("main", "patched"),
                     lambda c: None if c["variant"] == "patched" and c["check"] > 0 else c)
    rc, out, err = gfx("compare", f, "--kcidb", kcidb, "--gate")
    images = image_tests()
    check(list(images) == ["patched"] and images["patched"]["status"] == "SKIP" and
          "needs 2" in images["patched"]["misc"].get("reason", ""), "KCIDB: not judged is SKIP with the reason")

    # ---- ab and campaign analyze take the flag ---------------------------
    rc, out, err = gfx("ab", "--help")
    check("--allow-image-change" in out, "ab offers --allow-image-change")
    rc, out, err = gfx("campaign", "analyze", os.path.join(d, "no-campaign"), "--allow-image-change")
    check(rc == 2 and "not a campaign directory" in err and "unknown option" not in err,
          "campaign analyze takes --allow-image-change: %s" % err)

    # ---- merge: kept images still found from the merged file -------------
    # `kept` is relative to its file's directory; merged into a file in
    # another directory it must still name the same images.
    src_dir, out_dir = os.path.join(d, "in"), os.path.join(d, "out")
    os.makedirs(src_dir)
    os.makedirs(out_dir)

    def keep(c):
        c["kept"] = "kept/%s-%d" % (c["variant"], c["check"])
        return c
    f = variant_file(src_dir, "kept.json", lines, ("main", "patched"), keep)
    merged = os.path.join(out_dir, "m.json")
    rc, out, err = gfx("merge", "-o", merged, f)
    checks_in = [c for c in records(f) if c.get("type") == "image_check"]
    checks_out = [c for c in records(merged) if c.get("type") == "image_check"] if rc == 0 else []
    check(rc == 0 and len(checks_out) == len(checks_in) > 0, "merge keeps the image checks: rc %d %s" % (rc, err))
    check("and %d image checks from 1 file" % len(checks_in) in " ".join(err.split()),
          "merge counts the image checks apart from the runs: " + err)
    want = sorted(os.path.join(os.path.realpath(src_dir), c["kept"]) for c in checks_in)
    check(sorted(c.get("kept") for c in checks_out) == want,
          "merged elsewhere, kept names the input's images: %s" % [c.get("kept") for c in checks_out][:2])
    beside = os.path.join(src_dir, "m.json")
    rc, out, err = gfx("merge", "-o", beside, f)
    check(rc == 0 and sorted(c.get("kept") for c in records(beside) if c.get("type") == "image_check") ==
          sorted(c["kept"] for c in checks_in), "merged beside its input, kept stays relative")

    return finish("image checks in compare: all checks passed")


def records(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


if __name__ == "__main__":
    sys.exit(main())
