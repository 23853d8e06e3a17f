#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""examples/ci/gitlab-ci.yml runs: the performance-gate job, read from the
template itself, is run as GitLab's runner runs it: before_script and
script in one bash (`set -eo pipefail`, one line after the other, the job
ends at the first that fails), after_script in a bash of its own whatever
happened, with the pipeline's and the job's variables, CI_PROJECT_DIR and
no display. Nothing here starts an X server: the template's own xvfb-run
must give glmark2-es2 one, and Mesa's llvmpipe draws. The two "builds" are
two empty install trees, so both variants load the system's Mesa (an A/A
experiment).

Shortened for a shared test machine through the variables the template
reads, as a pipeline would set them: 4 blocks instead of 40, half-second
glmark2 scenes, a 320x240 surface; LP_NUM_THREADS=1 keeps llvmpipe on one
core. Every command is the template's text.

gfxstat tune apply and reset run against a copy of a fake machine
(GFXSTAT_SYSFS_ROOT: tests/data/probe_root/tunable's CPUs, no GPU), never
against the machine running the test: a runner without an i915 or xe GPU.
apply must tune the CPUs and say that --gpu-freq found nothing to pin;
reset must put every file back byte for byte.

Checked: the job's exit status (0, or 1 from the gate alone); every file
the job names is written and parses (results.json line by line, the JUnit
XML, the OpenMetrics text, the markdown table, KCIDB under the schema
subset kept in the tests); the reports agree with the exit status; both
variants ran on llvmpipe in blocks. Skips with its reason where
python3-yaml, glmark2-es2, xvfb-run or xauth is missing
(scripts/install-deps.sh test installs them)."""

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
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

JOB = "performance-gate"
# The job's variables this test sets, as a pipeline would: each must be
# one of the job's variables and be read by its script, or the job would
# run at full length here. GLMARK2_BENCHMARK keeps the template's scene,
# with its duration shortened.
SHORTER = {"GATE_MAX_RUNS": lambda v: "4",
           "GLMARK2_SIZE": lambda v: "320x240",
           "GLMARK2_BENCHMARK": lambda v: re.sub(r"duration=[0-9.]+", "duration=0.5", v)}
# What the runner's machine has that the job must not see.
NOT_ON_A_RUNNER = ("DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "EGL_PLATFORM", "GALLIUM_DRIVER",
                   "LIBGL_ALWAYS_SOFTWARE", "GITHUB_STEP_SUMMARY", "GFXSTAT_SYSFS_ROOT", "LD_LIBRARY_PATH")


def lines(value):
    """A job's before_script/script/after_script: a list of lines (nested
    lists, YAML anchors' way, flattened) or one line."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    out = []
    for v in value:
        out.extend(lines(v))
    return out


def reads(script, name):
    return any(re.search(r"\$(\{" + name + r"\}|" + name + r"\b)", line) for line in script)


def fake_runner(src, d):
    """A machine with tunable CPUs (governors, turbo) and no GPU at all."""
    tunable = os.path.join(src, "tests/data/probe_root/tunable")
    root = os.path.join(d, "machine")
    shutil.copytree(os.path.join(tunable, "sys/devices/system/cpu"), os.path.join(root, "sys/devices/system/cpu"),
                    symlinks=True)
    os.makedirs(os.path.join(root, "proc/sys/kernel/random"))
    shutil.copy(os.path.join(tunable, "proc/sys/kernel/random/boot_id"), os.path.join(root, "proc/sys/kernel/random"))
    return root


def tree(root):
    """Every file under root but gfxstat's state: path -> bytes."""
    out = {}
    for dirpath, _, files in os.walk(root):
        for name in files:
            p = os.path.join(dirpath, name)
            rel = os.path.relpath(p, root)
            if not rel.startswith("var" + os.sep):
                with open(p, "rb") as f:
                    out[rel] = f.read()
    return out


def run_shell(text, env, cwd, timeout):
    """bash in a session of its own; whatever it leaves behind (an Xvfb)
    is killed with its process group."""
    p = subprocess.Popen(["bash", "-c", text], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        check(False, f"the job ran past {timeout} s")
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    return p.returncode, out.decode(errors="replace"), err.decode(errors="replace")


def main():
    g, src = testlib.paths()
    try:
        import yaml
    except ImportError:
        print("SKIP: python3-yaml is not installed (scripts/install-deps.sh installs it)")
        return finish("gitlab_template: skipped")
    with open(os.path.join(src, "examples/ci/gitlab-ci.yml")) as f:
        pipeline = yaml.safe_load(f)
    job = pipeline[JOB]
    reports = job["artifacts"]["reports"]
    check(reports.get("junit") == "junit.xml" and reports.get("metrics") == "metrics.txt",
          f"the job declares its JUnit and metrics reports: {reports}")
    check("results.json" in job["artifacts"]["paths"], "the results file is kept as an artifact")
    check(job["artifacts"].get("when") == "always", "artifacts kept when the gate fails too")
    check(job.get("stage") == "performance" and len(job.get("tags", [])) == 1, "one pinned device")
    default = pipeline.get("default", {})
    before = lines(job.get("before_script", default.get("before_script", pipeline.get("before_script"))))
    script = lines(job["script"])
    after = lines(job.get("after_script", default.get("after_script", pipeline.get("after_script"))))
    flat = [" ".join(line.split()) for line in script]
    ab = [i for i, line in enumerate(flat) if re.search(r"(^|\s)gfxstat ab\s", line)]
    check(len(ab) == 1, f"one gfxstat ab in the script: {flat}")
    check(any(line.startswith("gfxstat tune apply") for line in flat) and
          any(" ".join(line.split()).startswith("gfxstat tune reset") for line in after),
          "tune apply in the script, tune reset in after_script")
    job_variables = {k: str(v) for k, v in (job.get("variables") or {}).items()}
    for name in SHORTER:
        check(name in job_variables, f"the job has the variable {name}")
        check(reads(before + script, name), f"the job's script reads ${name}")
    if len(ab) != 1 or not all(n in job_variables and reads(before + script, n) for n in SHORTER):
        return finish("")

    for program, package in (("glmark2-es2", "glmark2-es2-x11"), ("xvfb-run", "xvfb"), ("xauth", "xauth")):
        if not shutil.which(program):
            print(f"SKIP: {program} is not installed ({package}; scripts/install-deps.sh test)")
            return finish("gitlab_template: skipped")

    with tempfile.TemporaryDirectory() as d:
        project = os.path.join(d, "project")
        for build in ("install-target", "install-mr"):
            os.makedirs(os.path.join(project, build, "lib", "x86_64-linux-gnu"))
        bindir = os.path.join(d, "bin")
        os.makedirs(bindir)
        os.symlink(os.path.abspath(g), os.path.join(bindir, "gfxstat"))
        machine = fake_runner(src, d)
        machine_before = tree(machine)

        env = {k: v for k, v in os.environ.items() if k not in NOT_ON_A_RUNNER}
        env.update({k: str(v) for k, v in (pipeline.get("variables") or {}).items()})
        env.update(job_variables)
        env.update({k: f(job_variables[k]) for k, f in SHORTER.items()})
        check(env["GLMARK2_BENCHMARK"] != job_variables["GLMARK2_BENCHMARK"],
              f"the scene's duration shortened: {job_variables['GLMARK2_BENCHMARK']!r}")
        env.update(CI="true", GITLAB_CI="true", CI_JOB_NAME=JOB, CI_PROJECT_DIR=project,
                   CI_PIPELINE_SOURCE="merge_request_event", PATH=bindir + os.pathsep + env.get("PATH", ""),
                   GFXSTAT_SYSFS_ROOT=machine, LP_NUM_THREADS="1")

        # The runner's shell: each line announced (here: its index into a
        # file of the test's own), then run; the first failure ends the job.
        trace = os.path.join(d, "trace")
        steps = before + script
        body = "set -eo pipefail\n" + "".join(f"echo {i} >> {shlex.quote(trace)}\n{line.rstrip()}\n"
                                                for i, line in enumerate(steps))
        status, out, err = run_shell(body, env, project, 240)
        print(f"job: rc {status}\n{out[-3000:]}\n{err[-3000:]}")
        ran = [int(x) for x in open(trace).read().split()] if os.path.exists(trace) else []
        ab_step = len(before) + ab[0]
        check(ran == list(range(len(steps))), f"every line of the job ran: {ran} of {len(steps)}")
        check(status == 0 or (status == 1 and ran and ran[-1] == ab_step),
              f"the job succeeds, or fails on the gate alone: rc {status} at line {ran[-1:] or None}")
        ab_status = status if ran and ran[-1] == ab_step else 0
        check("gfxstat tune apply: note: --gpu-freq left unused: no i915 or xe GPU frequency control" in err,
              "tune apply says the runner has no GPU frequency to pin")
        check("governor of cpu0-1,3: powersave -> performance" in out, "tune apply tuned the runner's CPUs")

        a_status, a_out, a_err = run_shell("".join(line.rstrip() + "\n" for line in after), env, project, 60)
        print(f"after_script: rc {a_status}\n{a_out[-1000:]}{a_err[-1000:]}")
        check(a_status == 0, f"after_script: rc {a_status}")
        check(tree(machine) == machine_before, "tune reset put every file of the runner back")
        check(not os.path.exists(os.path.join(machine, "var/lib/gfxstat/tune.json")), "and forgot the state")

        written = shlex.split(flat[ab[0]])
        named = {a: written[i + 1] for i, a in enumerate(written)
                 if a in ("-o", "--junit", "--openmetrics", "--markdown", "--kcidb")}
        check(named == {"-o": "results.json", "--junit": "junit.xml", "--openmetrics": "metrics.txt",
                        "--markdown": "summary.md", "--kcidb": "kcidb.json"}, f"the job's files: {named}")
        for name in named.values():
            check(os.path.isfile(os.path.join(project, name)), f"{name} written")
        for path in job["artifacts"]["paths"]:
            check(os.path.exists(os.path.join(project, path.rstrip("/"))), f"artifact {path} exists")
        if not all(os.path.isfile(os.path.join(project, n)) for n in named.values()):
            return finish("")

        # The JUnit report: a failure exactly when the gate tripped.
        suite = ET.parse(os.path.join(project, "junit.xml")).getroot()
        cases = suite.findall(".//testcase")
        failures = [c for c in cases if c.find("failure") is not None]
        check(len(cases) >= 1, "JUnit: a testcase per comparison")
        check(all(c.get("classname") and c.get("name") for c in cases), "JUnit: classname and name")
        check(not suite.findall(".//error"), "JUnit: no error (the runs did not fail)")
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

        # The results file: both variants, every run of glmark2 on llvmpipe
        # and parsed, in blocks, no more than the shortened job allows.
        records = [json.loads(line) for line in open(os.path.join(project, "results.json"))]
        runs = [r for r in records if r.get("type") == "run" and not r.get("warmup")]
        check({r["variant"] for r in runs} == {"target", "mr"}, "both variants ran")
        check(0 < len(runs) <= 2 * int(env["GATE_MAX_RUNS"]), f"{len(runs)} runs, at most 2 x GATE_MAX_RUNS")
        check(all(r.get("block") is not None for r in runs), "every run in a block")
        check(all((r.get("exit") or {}).get("class") == "ok" and r.get("metrics") for r in runs),
              "every run ok, with its metrics")
        envs = {e["id"]: e for e in records if e.get("type") == "environment"}
        drawn = {(envs.get(r.get("environment"), {}).get("gl_renderer", "?").split(" ")[0],
                  envs.get(r.get("environment"), {}).get("glmark2_surface_size", "?").split(" ")[0]) for r in runs}
        check(drawn == {("llvmpipe", "320x240")},
              f"glmark2 drew with llvmpipe on the GLMARK2_SIZE surface: {drawn}")
        check("|" in open(os.path.join(project, "summary.md")).read(), "the markdown summary has a table")
        check("verdict" in out.lower(), "the text report on stdout")
    return finish("gitlab_template: the template's job runs under its own Xvfb and its reports agree with its "
                  "exit status")


if __name__ == "__main__":
    sys.exit(main())
