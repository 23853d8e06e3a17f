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

Then the store's jobs (docs/store.md, "CI recipe"), read and run the same
way on a fake runner named as the template's DEVICE: nightly-store-push
three times (three commits of main, 2 runs each) into an SQLite store
standing in for the PostgreSQL service, and performance-store-gate once
against them; checked: every night's runs stored under its commit, branch
and device, a second push adding nothing, the gate's exit status and its
JUnit report agreeing, and the template's credentials left to libpq (a
service name, no password or user in a URL).

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


STORE_PUSH = "nightly-store-push"
STORE_GATE = "performance-store-gate"
# What the store gate runs, word for word (the CI recipe of docs/store.md).
STORE_COMPARE = ('gfxstat compare --store "$GFXSTAT_STORE" --baseline "branch:main machine:$DEVICE last:10" '
                 'results.json')
# The store jobs' variables this test sets, as a project's settings would.
STORE_SHORTER = {"NIGHTLY_RUNS": lambda v: "2", "GATE_RUNS": lambda v: "2"} | {
    k: f for k, f in SHORTER.items() if k != "GATE_MAX_RUNS"}


def run_job(job, pipeline, env, project):
    """The job's before_script and script as the runner runs them, then its
    after_script: (status, lines ran, steps, stdout, stderr, after's status)."""
    default = pipeline.get("default", {})
    steps = lines(job.get("before_script", default.get("before_script", pipeline.get("before_script")))) + \
        lines(job["script"])
    after = lines(job.get("after_script", default.get("after_script", pipeline.get("after_script"))))
    trace = os.path.join(project, "..", "trace-" + os.path.basename(project))
    body = "set -eo pipefail\n" + "".join(f"echo {i} >> {shlex.quote(trace)}\n{line.rstrip()}\n"
                                            for i, line in enumerate(steps))
    status, out, err = run_shell(body, env, project, 240)
    ran = [int(x) for x in open(trace).read().split()] if os.path.exists(trace) else []
    a_status, _, a_err = run_shell("".join(line.rstrip() + "\n" for line in after), env, project, 60)
    check(a_status == 0, f"after_script: rc {a_status}: {a_err[-500:]}")
    return status, ran, steps, out, err


def store_jobs(pipeline, g, src):
    """The store's steps (docs/store.md, "CI recipe"): main's nightlies
    pushed into a store, a merge request gated against the last 10 of them
    on the same device. Read from the template, then run: three nightlies
    of main and a merge request, with the store an SQLite file (the
    template's single-runner alternative) standing in for the PostgreSQL
    service."""
    with open(os.path.join(src, "examples/ci/gitlab-ci.yml")) as f:
        text = f.read()
    push, gate = pipeline.get(STORE_PUSH), pipeline.get(STORE_GATE)
    if not check(push and gate, f"the template has the jobs {STORE_PUSH} and {STORE_GATE}"):
        return
    # Credentials are libpq's (PGPASSFILE, PGSERVICEFILE): the template names
    # the store by service, and no password or user is in any URL.
    store = str((pipeline.get("variables") or {}).get("GFXSTAT_STORE", ""))
    check(store.startswith("service="), f"GFXSTAT_STORE names a libpq service: {store!r}")
    check(not re.search(r"password\s*=|postgres(ql)?://[^/\s]*@", text, re.I),
          "no password and no user@host URL in the template")
    check("PGPASSFILE" in text and "PGSERVICEFILE" in text, "the template says where the credentials go")
    for name, job, source in ((STORE_PUSH, push, "schedule"), (STORE_GATE, gate, "merge_request_event")):
        rules = " ".join(str(r.get("if", "")) for r in job.get("rules", []))
        check(source in rules and "$PGSERVICEFILE" in rules, f"{name} runs on {source} with a store: {rules!r}")
        check(job.get("tags") == pipeline[JOB].get("tags"), f"{name} runs on the gate's device")
    a_gate = " ".join(str(r.get("if", "")) for r in pipeline[JOB].get("rules", []))
    check("$PGSERVICEFILE == null" in a_gate, f"{JOB} stands down where the store gates: {a_gate!r}")
    push_script = [" ".join(line.split()) for line in lines(push["script"])]
    gate_script = [" ".join(line.split()) for line in lines(gate["script"])]
    check("gfxstat store push results.json" in push_script, f"{STORE_PUSH} pushes its results: {push_script}")
    compares = [line for line in gate_script if line.startswith(STORE_COMPARE)]
    if not check(len(compares) == 1, f"{STORE_GATE} compares with the store: {gate_script}"):
        return
    words = shlex.split(compares[0])
    check("--gate" in words and words[words.index("--junit") + 1] == gate["artifacts"]["reports"]["junit"],
          f"the store gate gates and writes its JUnit report: {words}")
    for job in (push, gate):
        for name in STORE_SHORTER:
            if name in (job.get("variables") or {}):
                check(reads(lines(job["script"]), name), f"the job's script reads ${name}")

    with tempfile.TemporaryDirectory() as d:
        bindir = os.path.join(d, "bin")
        os.makedirs(bindir)
        os.symlink(os.path.abspath(g), os.path.join(bindir, "gfxstat"))
        store_file = os.path.join(d, "store.sqlite")
        device = str(gate["variables"]["DEVICE"])

        def device_runner(name):
            """A fake runner, as fake_runner, that is the device the template names."""
            root = fake_runner(src, os.path.join(d, name))
            with open(os.path.join(root, "proc/sys/kernel/hostname"), "w") as f:
                f.write(device + "\n")
            return root
        base = {k: v for k, v in os.environ.items() if k not in NOT_ON_A_RUNNER and not k.startswith("PG")}
        base.update({k: str(v) for k, v in (pipeline.get("variables") or {}).items()})
        # The project's settings: the store, and the switch that turns the store jobs on.
        base.update(CI="true", GITLAB_CI="true", GFXSTAT_STORE="sqlite:" + store_file, PGSERVICEFILE="/dev/null",
                    PATH=bindir + os.pathsep + base.get("PATH", ""), LP_NUM_THREADS="1", CI_DEFAULT_BRANCH="main")

        def job_env(name, job, project, machine, **ci):
            env = dict(base)
            variables = {k: str(v) for k, v in (job.get("variables") or {}).items()}
            variables.update({k: f(variables[k]) for k, f in STORE_SHORTER.items() if k in variables})
            env.update(ci, CI_JOB_NAME=name, CI_PROJECT_DIR=project, GFXSTAT_SYSFS_ROOT=machine)
            env.update({k: v.replace("$CI_PROJECT_DIR", project) for k, v in variables.items()})
            return env

        shas = []
        for night in range(3):
            project = os.path.join(d, f"night{night}")
            os.makedirs(os.path.join(project, "install-main", "lib", "x86_64-linux-gnu"))
            sha = f"{night + 1:x}" * 40
            shas.append(sha)
            env = job_env(STORE_PUSH, push, project, device_runner(f"m{night}"),
                          CI_PIPELINE_SOURCE="schedule", CI_COMMIT_BRANCH="main", CI_COMMIT_SHA=sha)
            status, ran, steps, out, err = run_job(push, pipeline, env, project)
            print(f"{STORE_PUSH} #{night}: rc {status}\n{out[-1500:]}\n{err[-1500:]}")
            check(status == 0 and ran == list(range(len(steps))), f"{STORE_PUSH} #{night} ran every line: rc {status}")
            if status != 0:
                return
        listed = subprocess.run([g, "store", "get", "--store", "sqlite:" + store_file, "branch:main", "-o", "-"],
                                capture_output=True, text=True)
        check(listed.returncode == 0, f"store get: {listed.stderr}")
        records = [json.loads(line) for line in listed.stdout.splitlines() if line.strip()]
        envs = {e["id"]: e for e in records if e.get("type") == "environment"}
        runs = [r for r in records if r.get("type") == "run" and not r.get("warmup")]
        commits = {envs[r["environment"]]["tags"].get("commit") for r in runs}
        hosts = {envs[r["environment"]].get("hostname") for r in runs}
        check(commits == set(shas) and len(runs) == 3 * 2, f"the store holds each night's 2 runs: {len(runs)} of "
              f"commits {sorted(c or '' for c in commits)}")
        check(hosts == {device} and {r["variant"] for r in runs} == {"main"}, f"stored as main on {hosts}")
        # A retried push adds nothing.
        again = subprocess.run([g, "store", "push", "--store", "sqlite:" + store_file,
                                os.path.join(d, "night0", "results.json")], capture_output=True, text=True)
        check(again.returncode == 0 and "already there" in again.stderr + again.stdout,
              f"pushing a night again adds nothing: {again.stderr}")

        project = os.path.join(d, "mr")
        os.makedirs(os.path.join(project, "install-mr", "lib", "x86_64-linux-gnu"))
        env = job_env(STORE_GATE, gate, project, device_runner("mmr"),
                      CI_PIPELINE_SOURCE="merge_request_event", CI_COMMIT_SHA="f" * 40,
                      CI_MERGE_REQUEST_SOURCE_BRANCH_NAME="faster-shading")
        status, ran, steps, out, err = run_job(gate, pipeline, env, project)
        print(f"{STORE_GATE}: rc {status}\n{out[-3000:]}\n{err[-3000:]}")
        compare_step = next(i for i, line in enumerate(steps) if " ".join(line.split()).startswith(STORE_COMPARE))
        check(ran == list(range(len(steps))) and (status == 0 or (status == 1 and ran[-1] == compare_step)),
              f"{STORE_GATE} ran every line and succeeds or fails on the gate: rc {status} at {ran[-1:]}")
        junit = os.path.join(project, gate["artifacts"]["reports"]["junit"])
        if check(os.path.isfile(junit), "the store gate wrote its JUnit report"):
            suite = ET.parse(junit).getroot()
            failures = suite.findall(".//failure")
            check(suite.findall(".//testcase") and bool(failures) == (status == 1),
                  f"JUnit failures {len(failures)} agree with rc {status}")
        check(os.path.isfile(os.path.join(project, gate["artifacts"]["reports"]["metrics"])), "metrics.txt written")


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
    store_jobs(pipeline, g, src)
    return finish("gitlab_template: the template's jobs run under their own Xvfb, the nightlies land in the store, "
                  "and the reports agree with the exit statuses")


if __name__ == "__main__":
    sys.exit(main())
