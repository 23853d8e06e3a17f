#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""compare's and ab's CI reports (report/ci/ci_exports.h): --junit,
--openmetrics, --kcidb, --markdown (and $GITHUB_STEP_SUMMARY) and --json,
written beside the text on stdout from one analysis.

  * JUnit: parsed with xml.etree and checked well-formed with xmllint; a
    testcase per comparison, GitLab's classname/name, a <failure> exactly
    where compare's own JSON says the gate trips (a primary regression
    beyond the threshold, with --gate), <skipped> for an inconclusive one
    under --strict, the text report in <system-out>.
  * OpenMetrics: parsed by prometheus_client's OpenMetrics parser (Debian
    python3-prometheus-client); each side's mean and the change equal the
    JSON report's.
  * KCIDB: valid under tests/data/kcidb/gfxstat-subset.schema.json (v5.3's
    rules for what gfxstat writes) with python3-jsonschema; a test per
    benchmark, metric and variant whose number is the mean and whose misc
    holds every raw value; FAIL exactly where the gate trips, DONE without
    --gate.
  * The files are written atomically and never through a symbolic link.
"""

import csv
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import check, finish, paths, run  # noqa: E402

GFXSTAT, SRC = paths()


def openmetrics_parser():
    """prometheus_client's parser, or None. Debian's python3-prometheus-client
    is Debian's python3's: another interpreter first on PATH may lack it, and
    then the test runs itself again under /usr/bin/python3."""
    try:
        from prometheus_client.openmetrics.parser import text_string_to_metric_families
        return text_string_to_metric_families
    except ImportError:
        if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != "/usr/bin/python3" \
                and not os.environ.get("GFXSTAT_TEST_REEXEC"):
            os.environ["GFXSTAT_TEST_REEXEC"] = "1"
            os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
        return None


PARSE_OPENMETRICS = openmetrics_parser()


def suite_results(d):
    """A results file of 4 benchmarks x 2 variants x 8 runs, higher is better:
    upload_linear 10% worse, upload_tiled 3% better, download_x unchanged,
    and fill/rect 0.2% worse (within the 1% threshold)."""
    rnd = random.Random(20261203)
    shift = {"4KiB/upload_linear": 0.90, "4KiB/upload_tiled": 1.03, "1MiB/download_x": 1.0, "fill/rect": 0.998}
    path = os.path.join(d, "suite.csv")
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["variant", "test", "rate"])
        for variant in ("base", "patch"):
            for test, s in shift.items():
                for _ in range(8):
                    v = 1000 * (s if variant == "patch" else 1) * (1 + rnd.gauss(0, 0.004))
                    w.writerow([variant, test, "%.3f" % v])
    out = os.path.join(d, "suite.json")
    rc, so, se = run([GFXSTAT, "import", "--from", "csv", "--variant-col", "variant", "--bench-col", "test",
                      "--value-col", "rate", "--unit", "rate=MiB/s", "--higher-is-better", path, "-o", out])
    check(rc == 0, "import the suite: %s" % se)
    values = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            values.setdefault((row["test"], row["variant"]), []).append(float(row["rate"]))
    return out, values


def compare(*args, env=None):
    p = subprocess.run([GFXSTAT, "compare", *args], capture_output=True, env=env)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def check_junit(path, doc, gate, strict):
    import xml.etree.ElementTree as ET
    if shutil.which("xmllint"):
        p = subprocess.run(["xmllint", "--noout", path], capture_output=True)
        check(p.returncode == 0, "xmllint: %s is well-formed: %s" % (path, p.stderr.decode()[:300]))
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        check(False, "JUnit parses: %s" % e)
        return
    check(root.tag == "testsuites", "JUnit root is <testsuites>")
    cases = {}
    for suite in root.findall("testsuite"):
        for case in suite.findall("testcase"):
            cases[case.get("name")] = (suite.get("name"), case)
            check(case.get("classname") == "gfxstat." + suite.get("name"),
                  "classname is gfxstat.<suite>: %r in %r" % (case.get("classname"), suite.get("name")))
            check(float(case.get("time")) >= 0, "time in seconds")
    comparisons = doc["comparisons"]
    check(len(cases) == len(comparisons), "a testcase per comparison: %d vs %d" % (len(cases), len(comparisons)))
    failures = 0
    for c in comparisons:
        name = "%s: %s vs %s" % (c["metric"], c["candidate"]["label"], c["baseline"]["label"])
        if not check(name in cases, "testcase %r present (have %r)" % (name, sorted(cases))):
            continue
        group, case = cases[name]
        want_group = c["metric"].rsplit("/", 1)[0] if "/" in c["metric"] else "gfxstat"
        check(group == want_group, "%s in testsuite %r (got %r)" % (name, want_group, group))
        primary = c["role"] == "primary"
        trips = gate and primary and c["verdict"]["outcome"] == "regression" and c["verdict"]["beyond_threshold"]
        skipped = gate and strict and primary and c["verdict"]["outcome"] == "inconclusive"
        fail = case.find("failure")
        check((fail is not None) == trips, "%s: a <failure> exactly where the gate trips (%s, %s)" %
              (name, c["verdict"]["outcome"], trips))
        if fail is not None:
            failures += 1
            check(c["metric"] in fail.get("message") and "regression" in fail.get("message"),
                  "the failure's message is the one-line verdict: %r" % fail.get("message"))
        check((case.find("skipped") is not None) == skipped, "%s: <skipped> only for inconclusive under --strict" % name)
        out = case.find("system-out")
        check(out is not None and c["verdict"]["reason"][:40] in out.text, "%s: the verdict's reason in system-out" % name)
    check(int(root.get("failures")) == failures, "testsuites failures= counts them")
    first = root.find("testsuite")
    text = first.find("system-out") if first is not None else None
    check(text is not None and comparisons[0]["metric"] in text.text and comparisons[0]["baseline"]["label"] in text.text,
          "the text report in the first suite's system-out")


def check_openmetrics(path, doc):
    if PARSE_OPENMETRICS is None:
        print("skip: OpenMetrics parser (python3-prometheus-client, scripts/install-deps.sh installs it) missing")
        return
    with open(path) as f:
        text = f.read()
    check(text.endswith("# EOF\n"), "OpenMetrics ends with # EOF")
    try:
        families = {fam.name: fam for fam in PARSE_OPENMETRICS(text)}
    except Exception as e:  # the parser's own errors are plain exceptions
        check(False, "OpenMetrics parses: %s" % e)
        return
    means = {(s.labels["metric"], s.labels["variant"]): s.value for s in families["gfxstat_mean"].samples}
    changes = {(s.labels["metric"], s.labels["variant"]): s.value for s in families["gfxstat_change_ratio"].samples}
    gate = {(s.labels["metric"], s.labels["variant"]): s.value for s in families["gfxstat_gate_failed"].samples}
    for c in doc["comparisons"]:
        m, b, k = c["metric"], c["baseline"], c["candidate"]
        check(close(means.get((m, b["label"]), -1), b["mean"]), "%s: the baseline's mean" % m)
        check(close(means.get((m, k["label"]), -1), k["mean"]), "%s: the candidate's mean" % m)
        check(close(changes.get((m, k["label"]), -1), c["verdict"]["relative_change"]),
              "%s: the change %r vs %r" % (m, changes.get((m, k["label"])), c["verdict"]["relative_change"]))
        check((m, k["label"]) in gate, "%s: gate_failed given" % m)
    check(all(s.labels.get("unit") == "MiB/s" for s in families["gfxstat_mean"].samples), "unit label")


def check_kcidb(path, doc, values, gate, schema):
    with open(path) as f:
        k = json.load(f)
    try:
        import jsonschema
        errors = list(jsonschema.Draft202012Validator(schema).iter_errors(k))
        check(not errors, "KCIDB is valid under the v5.3 subset: %s" % (errors[0].message if errors else ""))
    except ImportError:
        check(False, "python3-jsonschema is missing (scripts/install-deps.sh installs it)")
    check(k["version"] == {"major": 5, "minor": 3}, "KCIDB version 5.3")
    builds = {b["id"]: b for b in k["builds"]}
    checkouts = {c["id"] for c in k["checkouts"]}
    check(all(b["checkout_id"] in checkouts for b in builds.values()), "every build's checkout is there")
    check(len({t["id"] for t in k["tests"]}) == len(k["tests"]), "test ids are unique")
    by = {}
    for t in k["tests"]:
        check(t["build_id"] in builds, "every test's build is there")
        by[(t["misc"]["benchmark"], t["misc"]["variant"])] = t
    for c in doc["comparisons"]:
        m = c["metric"]
        for side, role in ((c["baseline"], "baseline"), (c["candidate"], "candidate")):
            t = by.get((m, side["label"]))
            if not check(t is not None, "a test for %s %s" % (m, side["label"])):
                continue
            check(t["path"] == "gfxstat." + m.replace("/", "."), "path %r" % t["path"])
            check(close(t["number"]["value"], side["mean"]) and t["number"]["unit"] == "MiB/s", "number = mean")
            raw = values[(m, side["label"])]
            check(len(t["misc"]["values"]) == len(raw) and
                  all(close(a, b) for a, b in zip(t["misc"]["values"], raw)), "every raw value in misc, in order")
            trips = gate and c["role"] == "primary" and c["verdict"]["outcome"] == "regression" \
                and c["verdict"]["beyond_threshold"]
            want = "DONE" if not gate or role == "baseline" else "FAIL" if trips else "PASS"
            check(t["status"] == want, "%s %s: status %s (want %s)" % (m, side["label"], t["status"], want))
            if role == "candidate":
                check(t["misc"]["verdict"] == c["verdict"]["outcome"], "the verdict in misc")


def main():
    d = tempfile.mkdtemp(prefix="gfxstat-ci-")
    results, values = suite_results(d)
    with open(os.path.join(SRC, "tests/data/kcidb/gfxstat-subset.schema.json")) as f:
        schema = json.load(f)
    rc, so, se = compare("--format", "json", "--full", results)
    doc = json.loads(so) if rc == 0 else None
    if not check(doc is not None, "compare --format json: %s" % se):
        return finish("")
    outcomes = {c["metric"]: c["verdict"]["outcome"] for c in doc["comparisons"]}
    check(outcomes.get("4KiB/upload_linear") == "regression", "the planted regression is found: %r" % outcomes)

    # ---- gated: every report at once, beside the text -------------------
    files = {kind: os.path.join(d, "gated." + ext) for kind, ext in
             (("junit", "xml"), ("openmetrics", "txt"), ("kcidb", "kcidb.json"), ("markdown", "md"),
              ("json", "json"))}
    summary = os.path.join(d, "step-summary.md")
    with open(summary, "w") as f:
        f.write("earlier step\n")
    env = dict(os.environ, GITHUB_STEP_SUMMARY=summary)
    args = ["--gate"]
    for kind, path in files.items():
        args += ["--" + kind, path]
    rc, so, se = compare(*args, results, env=env)
    check(rc == 1, "the gate trips on the regression: rc %d %s" % (rc, se))
    check("upload_linear" in so, "the text report on stdout as ever")
    check_junit(files["junit"], doc, gate=True, strict=False)
    check_openmetrics(files["openmetrics"], doc)
    check_kcidb(files["kcidb"], doc, values, gate=True, schema=schema)
    with open(files["json"]) as f:
        written = json.load(f)
    check([c["verdict"]["outcome"] for c in written.get("comparisons", [])] ==
          [c["verdict"]["outcome"] for c in doc["comparisons"]], "--json FILE holds the JSON report")
    with open(files["markdown"]) as f:
        md = f.read()
    check(md.startswith("|") or "| benchmark |" in md or "**" in md, "--markdown FILE holds markdown: %r" % md[:80])
    with open(summary) as f:
        s = f.read()
    check(s.startswith("earlier step\n") and md.strip() in s, "the markdown appended to $GITHUB_STEP_SUMMARY")

    # ---- not gated: no failures, KCIDB DONE; --strict: skipped -----------
    plain = os.path.join(d, "plain.xml")
    plain_k = os.path.join(d, "plain.kcidb.json")
    rc, so, se = compare("--junit", plain, "--kcidb", plain_k, "--kcidb-origin", "my_lab", results)
    check(rc == 0, "without --gate: rc 0 (%s)" % se)
    check_junit(plain, doc, gate=False, strict=False)
    check_kcidb(plain_k, doc, values, gate=False, schema=schema)
    with open(plain_k) as f:
        check(all(t["id"].startswith("my_lab:") and t["origin"] == "my_lab" for t in json.load(f)["tests"]),
              "--kcidb-origin names the ids' origin")

    # Two variants, each one constant, different values: no variability, so
    # nothing can tell noise from a change; --strict fails (exit 3) and JUnit
    # says skipped. (The same constant on both sides is no change.)
    once = os.path.join(d, "once.csv")
    with open(once, "w") as f:
        f.write("variant,test,rate\nbase,a,10\nbase,a,10\npatch,a,11\npatch,a,11\n")
    once_json = os.path.join(d, "once.json")
    run([GFXSTAT, "import", "--from", "csv", "--variant-col", "variant", "--bench-col", "test", "--value-col",
         "rate", once, "-o", once_json])
    rc, so, se = compare("--format", "json", once_json)
    once_doc = json.loads(so) if rc == 0 else None
    strict_xml = os.path.join(d, "strict.xml")
    rc, so, se = compare("--gate", "--strict", "--junit", strict_xml, once_json)
    check(rc == 3, "inconclusive fails --gate --strict: rc %d %s" % (rc, se))
    if once_doc:
        check_junit(strict_xml, once_doc, gate=True, strict=True)

    # ---- never through a symbolic link; a failed write is exit 2 --------
    victim = os.path.join(d, "victim.txt")
    with open(victim, "w") as f:
        f.write("keep\n")
    link = os.path.join(d, "link.xml")
    os.symlink(victim, link)
    rc, so, se = compare("--junit", link, results)
    check(rc == 2 and "link.xml" in se, "a symbolic link at --junit is refused: rc %d %s" % (rc, se))
    with open(victim) as f:
        check(f.read() == "keep\n", "the link's target is untouched")
    rc, so, se = compare("--openmetrics", os.path.join(d, "no", "such", "dir", "m.txt"), results)
    check(rc == 2 and "m.txt" in se, "an unwritable report is exit 2 naming it: rc %d %s" % (rc, se))
    rc, so, se = compare("--summaries", "--junit", os.path.join(d, "s.xml"),
                         os.path.join(SRC, "tests/data/summaries/ministat-bdw.txt"))
    check(rc == 2 and "--junit" in se, "--summaries refuses the CI reports: rc %d %s" % (rc, se))
    rc, so, se = compare("--kcidb-origin", "Bad-Origin", "--kcidb", os.path.join(d, "k.json"), results)
    check(rc == 2, "--kcidb-origin outside KCIDB's characters is refused: rc %d" % rc)

    # ---- ab writes them too ---------------------------------------------
    noisy = [sys.executable, "-c",
             "import os, random; print(float(os.environ['M']) + random.gauss(0, 1))"]
    ab_out = os.path.join(d, "ab.json")
    ab_junit = os.path.join(d, "ab.xml")
    ab_k = os.path.join(d, "ab.kcidb.json")
    p = subprocess.run([GFXSTAT, "ab", "-o", ab_out, "--variant", "A", "--variant", "B", "--env", "A:M=100",
                        "--env", "B:M=80", "--higher-is-better", "--metric-name", "fps", "--seed", "3", "--gate",
                        "--junit", ab_junit, "--kcidb", ab_k, "--", *noisy], capture_output=True)
    check(p.returncode == 1, "ab: a 20%% regression trips the gate: rc %d %s" % (p.returncode, p.stderr[-400:]))
    if os.path.exists(ab_junit):
        import xml.etree.ElementTree as ET
        fails = ET.parse(ab_junit).getroot().findall(".//failure")
        check(len(fails) == 1, "ab --junit: one failure, the regression (%d)" % len(fails))
    else:
        check(False, "ab --junit wrote its file")
    if os.path.exists(ab_k):
        with open(ab_k) as f:
            statuses = sorted(t["status"] for t in json.load(f)["tests"])
        check(statuses == ["DONE", "FAIL"], "ab --kcidb: the baseline DONE, the candidate FAIL (%r)" % statuses)
    else:
        check(False, "ab --kcidb wrote its file")
    shutil.rmtree(d, ignore_errors=True)
    return finish("CI reports: JUnit, OpenMetrics, KCIDB, markdown and JSON as the gate says")


if __name__ == "__main__":
    sys.exit(main())
