#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A workload that cannot start must not exit like a regression. Under
`ab --gate` (and `run`), three failed runs in a row used to stop with exit
1, the gate's "regression" status, and write no --junit file: a CI job
could not tell a broken build from a slow one. Now "the runs failed" is
exit 4 (distinct from 1 regression, 2 usage/input, 3 inconclusive under
--strict), documented, and ab still writes every CI report asked for,
saying so: a JUnit <error>, KCIDB tests with status ERROR, OpenMetrics
failed-run counts, markdown and JSON naming the failure."""

import json
import os
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import check, finish, load_json, paths, run  # noqa: E402

GFXSTAT, SOURCE = paths()


def main():
    with tempfile.TemporaryDirectory() as d:
        f = lambda name: os.path.join(d, name)  # noqa: E731
        reports = ["--junit", f("j.xml"), "--kcidb", f("k.json"), "--openmetrics", f("o.txt"),
                   "--markdown", f("m.md"), "--json", f("r.json")]
        rc, out, err = run([GFXSTAT, "ab", "-o", f("x.json"), "--variant", "a", "--variant", "b", "--parser",
                            "lines", "--gate", "--no-check", *reports, "--", "sh", "-c", "exit 1"])
        check(rc == 4, f"ab --gate whose workload cannot run exits 4, not the gate's 1 ({rc}: {err})")
        check("did not succeed" in err, f"stderr says why: {err}")

        # JUnit: an error, not a failure, for the comparison b vs a.
        try:
            root = ET.parse(f("j.xml")).getroot()
        except (OSError, ET.ParseError) as e:
            root = None
            check(False, f"the JUnit file is written and is XML ({e})")
        if root is not None:
            cases = root.findall(".//testcase")
            errors = root.findall(".//testcase/error")
            check(root.get("errors") == "1" and root.get("failures") == "0" and len(cases) == 1 and
                  len(errors) == 1, f"one testcase with an <error>, no <failure>: {ET.tostring(root)[:400]}")
            if errors:
                check(errors[0].get("type") == "runs-failed" and "exit 1" in (errors[0].text or "") and
                      "b vs a" in cases[0].get("name", ""),
                      f"the error names the runs' failure and the comparison: {ET.tostring(cases[0])[:400]}")

        # KCIDB: every test ERROR, valid against v5.3's rules when jsonschema is there.
        try:
            k = json.load(open(f("k.json")))
        except (OSError, ValueError) as e:
            k = {}
            check(False, f"the KCIDB file is written and is JSON ({e})")
        tests = k.get("tests", [])
        check(len(tests) == 2 and all(t.get("status") == "ERROR" for t in tests),
              f"a KCIDB test per variant, status ERROR: {tests}")
        check(sorted(t.get("misc", {}).get("variant") for t in tests) == ["a", "b"] and
              all(t.get("misc", {}).get("failed", 0) >= 1 for t in tests), f"misc names variants and failures: {tests}")
        try:
            import jsonschema
            jsonschema.validate(k, load_json(SOURCE, "tests/data/kcidb/gfxstat-subset.schema.json"))
        except ImportError:
            pass
        except Exception as e:  # jsonschema.ValidationError
            check(False, f"the KCIDB file keeps v5.3's rules: {e}")

        om = open(f("o.txt")).read() if os.path.exists(f("o.txt")) else ""
        check(om.endswith("# EOF\n") and 'gfxstat_runs_failed{metric="value",variant="b"}' in om and
              "gfxstat_gate_failed" not in om, f"OpenMetrics counts failed runs, and no gate failure: {om}")
        md = open(f("m.md")).read() if os.path.exists(f("m.md")) else ""
        check("the runs failed" in md and "| b |" in md, f"the markdown says the runs failed: {md}")
        try:
            js = json.load(open(f("r.json")))
        except (OSError, ValueError):
            js = {}
        check(js.get("comparisons") == [] and "did not succeed" in js.get("runs_failed", {}).get("message", "") and
              len(js.get("runs_failed", {}).get("variants", [])) == 2, f"the JSON says the runs failed: {js}")

        # Without --gate, and for too few usable runs in fixed blocks: 4 too.
        rc, out, err = run([GFXSTAT, "ab", "-o", f("y.json"), "--variant", "a", "--variant", "b", "--parser",
                            "lines", "--runs", "2", "--max-failures", "10", "--no-check", "--junit", f("j2.xml"),
                            "--", "sh", "-c", "exit 1"])
        check(rc == 4 and os.path.exists(f("j2.xml")),
              f"a variant without 2 usable runs: exit 4, JUnit written ({rc}: {err})")

        # run: three failures in a row are 4 as well.
        rc, out, err = run([GFXSTAT, "run", "-o", f("z.json"), "--parser", "lines", "--runs", "5", "--no-check",
                            "--", "sh", "-c", "exit 1"])
        check(rc == 4, f"run: failed runs exit 4 ({rc}: {err})")

        # A working A/B keeps 0 (nothing changed here).
        rc, out, err = run([GFXSTAT, "ab", "-o", f("ok.json"), "--variant", "a", "--variant", "b", "--parser",
                            "lines", "--runs", "3", "--gate", "--no-check", "--junit", f("j3.xml"), "--",
                            "sh", "-c", "echo 100"])
        check(rc == 0, f"an A/B that runs exits 0 ({rc}: {err})")

    # Documented where exit statuses are listed.
    statuses = load_json(SOURCE, "man/exit_statuses.json")
    for cmd in ("run", "ab"):
        check(any(code == "4" and "runs failed" in what for code, what in statuses.get(cmd, [])),
              f"man/exit_statuses.json lists 4 for {cmd}: {statuses.get(cmd)}")
    ab_doc = open(os.path.join(SOURCE, "docs", "ab.md")).read()
    check("| 4 | the runs failed" in ab_doc, "docs/ab.md's table lists 4")
    return finish("failed runs exit 4 and the CI reports say so")


if __name__ == "__main__":
    sys.exit(main())
