#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""examples/ci/gitlab-ci.yml runs: the performance-gate job's script and
after_script, read from the template itself, are run as GitLab's runner
would run them (one shell per line, the job's variables and
CI_PROJECT_DIR set), on real Mesa: glmark2-es2 on llvmpipe under an Xvfb of
its own, the two "builds" being two empty install trees, so both variants
load the system's Mesa (an A/A experiment).

Shortened for a shared test machine, and only there: at most 4 blocks
instead of 40, half-second glmark2 scenes, a 320x240 surface. Everything
else is the template's text.

Checked: the job's artifacts are declared the way GitLab reads them
(reports junit and metrics, the results file kept); every file the job
names is written; the JUnit report parses and has a <failure> exactly when
the job's exit status says the gate tripped; the metrics report parses as
OpenMetrics (prometheus_client, when installed) and ends with # EOF; the
KCIDB file is valid under the schema subset kept in the tests; the
results file holds both variants' runs in blocks. Skips with its reason
where glmark2-es2 or Xvfb is missing (scripts/install-deps.sh installs
them)."""

import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "cli"))


def debian_modules():
    """yaml and prometheus_client are Debian's python3's; another
    interpreter first on PATH may lack them: run again under /usr/bin/python3."""
    try:
        import yaml  # noqa: F401
        import prometheus_client  # noqa: F401
    except ImportError:
        if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != "/usr/bin/python3" \
                and not os.environ.get("GFXSTAT_TEST_REEXEC"):
            os.environ["GFXSTAT_TEST_REEXEC"] = "1"
            os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)


debian_modules()

import testlib  # noqa: E402
from testlib import check, finish  # noqa: E402
from xvfb_display import XvfbDisplay, XvfbUnavailable  # noqa: E402

# What this test changes in the template's commands, and why: a shared
# machine's time. Each must match exactly once, so that an edit of the
# template that removes one is noticed here.
SHORTER = [("--max-runs 40", "--max-runs 4"),
           ("duration=2", "duration=0.5"),
           ("--off-screen", "--off-screen --size 320x240")]


def main():
    g, src = testlib.paths()
    try:
        import yaml
    except ImportError:
        print("SKIP: python3-yaml is not installed (scripts/install-deps.sh installs it)")
        return finish("gitlab_template: skipped")
    with open(os.path.join(src, "examples/ci/gitlab-ci.yml")) as f:
        pipeline = yaml.safe_load(f)
    job = pipeline["performance-gate"]
    reports = job["artifacts"]["reports"]
    check(reports.get("junit") == "junit.xml" and reports.get("metrics") == "metrics.txt",
          f"the job declares its JUnit and metrics reports: {reports}")
    check("results.json" in job["artifacts"]["paths"], "the results file is kept as an artifact")
    check(job["artifacts"].get("when") == "always", "artifacts kept when the gate fails too")
    check(job.get("stage") == "performance" and len(job.get("tags", [])) == 1, "one pinned device")
    script = [" ".join(line.split()) for line in job["script"]]
    after = [" ".join(line.split()) for line in job["after_script"]]
    check(all(line.startswith("gfxstat ") for line in script + after),
          f"the job runs gfxstat only: {script + after}")
    ab = [i for i, line in enumerate(script) if line.startswith("gfxstat ab ")]
    check(len(ab) == 1, "one gfxstat ab")
    if len(ab) != 1:
        return finish("")
    for old, new in SHORTER:
        check(script[ab[0]].count(old) == 1, f"the ab line has {old!r} once")
        script[ab[0]] = script[ab[0]].replace(old, new)

    if not shutil.which("glmark2-es2"):
        print("SKIP: glmark2-es2 is not installed (glmark2-es2-x11)")
        return finish("gitlab_template: skipped")
    with tempfile.TemporaryDirectory() as d:
        project = os.path.join(d, "project")
        for build in ("install-target", "install-mr"):
            os.makedirs(os.path.join(project, build, "lib", "x86_64-linux-gnu"))
        bindir = os.path.join(d, "bin")
        os.makedirs(bindir)
        os.symlink(os.path.abspath(g), os.path.join(bindir, "gfxstat"))
        env = dict(os.environ)
        for k in ("DISPLAY", "WAYLAND_DISPLAY", "GALLIUM_DRIVER", "GITHUB_STEP_SUMMARY"):
            env.pop(k, None)
        env.update({k: str(v) for k, v in pipeline.get("variables", {}).items()})
        env.update(CI_PROJECT_DIR=project, PATH=bindir + os.pathsep + env.get("PATH", ""),
                   LP_NUM_THREADS="1")
        try:
            with XvfbDisplay() as x:
                env["DISPLAY"] = x.display
                statuses = []
                for line in script:
                    p = subprocess.run(["bash", "-c", line], cwd=project, env=env, capture_output=True,
                                       timeout=400)
                    out, err = p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
                    print(f"$ {line}\n{out[:1200]}{err[:1200]}rc {p.returncode}")
                    statuses.append(p.returncode)
                    if p.returncode not in (0, 1) or (p.returncode == 1 and not line.startswith("gfxstat ab ")):
                        check(False, f"{line!r}: rc {p.returncode}")
                        break
                    if line.startswith("gfxstat ab "):
                        ab_status, ab_out = p.returncode, out
                for line in after:
                    p = subprocess.run(["bash", "-c", line], cwd=project, env=env, capture_output=True,
                                       timeout=60)
                    print(f"$ {line}\n{p.stderr.decode(errors='replace')[:600]}rc {p.returncode}")
                    check(p.returncode == 0, f"after_script {line!r}: rc {p.returncode}")
        except XvfbUnavailable as e:
            print(f"SKIP: {e}")
            return finish("gitlab_template: skipped")
        if len(statuses) != len(script):
            return finish("")
        written = shlex.split(script[ab[0]])
        named = [written[i + 1] for i, a in enumerate(written)
                 if a in ("-o", "--junit", "--openmetrics", "--markdown", "--kcidb", "--json")]
        for name in named:
            check(os.path.isfile(os.path.join(project, name)), f"{name} written")
        for path in job["artifacts"]["paths"]:
            check(os.path.exists(os.path.join(project, path.rstrip("/"))), f"artifact {path} exists")
        if not all(os.path.isfile(os.path.join(project, n)) for n in named):
            return finish("")

        # The JUnit report: a failure exactly when the gate tripped.
        suite = ET.parse(os.path.join(project, "junit.xml")).getroot()
        cases = suite.findall(".//testcase")
        failures = [c for c in cases if c.find("failure") is not None]
        check(len(cases) >= 1, "JUnit: a testcase per comparison")
        check(all(c.get("classname") and c.get("name") for c in cases), "JUnit: classname and name")
        check(bool(failures) == (ab_status == 1), f"JUnit failures {len(failures)} agree with rc {ab_status}")
        if xmllint := shutil.which("xmllint"):
            check(subprocess.run([xmllint, "--noout", os.path.join(project, "junit.xml")]).returncode == 0,
                  "JUnit: well-formed (xmllint)")

        # The metrics report.
        metrics = open(os.path.join(project, "metrics.txt")).read()
        check(metrics.endswith("# EOF\n"), "metrics.txt ends with # EOF")
        try:
            from prometheus_client.openmetrics.parser import text_string_to_metric_families
            names = {f.name for f in text_string_to_metric_families(metrics)}
            check("gfxstat_mean" in names and "gfxstat_change_ratio" in names, f"OpenMetrics families: {names}")
        except ImportError:
            print("note: prometheus_client is not installed; metrics.txt checked for # EOF only")

        # KCIDB, against the schema subset kept in the tests.
        kcidb = json.load(open(os.path.join(project, "kcidb.json")))
        try:
            import jsonschema
            with open(os.path.join(src, "tests/data/kcidb/gfxstat-subset.schema.json")) as f:
                errors = list(jsonschema.Draft202012Validator(json.load(f)).iter_errors(kcidb))
            check(not errors, f"KCIDB valid: {errors[:3]}")
        except ImportError:
            print("note: python3-jsonschema is not installed; KCIDB not validated")
        # The baseline's tests are measurements (DONE); the candidate's are
        # gated: FAIL exactly when the job fails.
        statuses = [t["status"] for t in kcidb["tests"]]
        check(set(statuses) <= {"DONE", "PASS", "FAIL"} and ("PASS" in statuses or "FAIL" in statuses),
              f"KCIDB: gated statuses {statuses}")
        check(("FAIL" in statuses) == (ab_status == 1), f"KCIDB FAIL agrees with rc {ab_status}")

        # The results file: both variants, in blocks of one design.
        runs = [json.loads(line) for line in open(os.path.join(project, "results.json"))]
        runs = [r for r in runs if r.get("type") == "run" and not r.get("warmup")]
        check({r["variant"] for r in runs} == {"target", "mr"}, "both variants ran")
        check(all(r.get("block") is not None for r in runs), "every run in a block")
        check("summary.md" in named and "|" in open(os.path.join(project, "summary.md")).read(),
              "the markdown summary has a table")
        check("verdict" in ab_out.lower(), "the text report on stdout")
    return finish("gitlab_template: the template's job runs and its reports agree with its exit status")


if __name__ == "__main__":
    sys.exit(main())
