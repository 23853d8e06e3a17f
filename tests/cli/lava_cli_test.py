#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""LAVA, both ways (docs/ci-reports.md, "LAVA"), with LAVA's real parts
from Debian's lava-dispatcher and lava-common:

  * inside a test shell: LAVA's own lava-test-case, lava-test-set and
    lava-test-raise (they have no #! line: LAVA writes one; so does this
    test) first on PATH and LAVA_RESULT_DIR set, `gfxstat run` and `ab`
    print LAVA's signal lines; each is parsed with LAVA's own regex,
    handle_testcase and SignalMatch; every measurement equals the mean
    recomputed here from the results file; the files the scripts wrote
    under LAVA_RESULT_DIR/results/CASE hold the same; ab's verdict cases
    fail exactly where compare's JSON says the gate trips; the results
    block decodes (base64, byte count, sha256) to the results file;
  * a lava-run-style log (every stdout line a `lvl: target` record, each
    test case a `lvl: results` record, written with lava_common's own
    dump()) read back by `gfxstat import --from lava`: the runs are the
    results file's; without the block, runs rebuilt from the cases; a
    damaged block is exit 2 naming file and line;
  * lava-test-raise when the workload cannot start; --lava off/on;
  * `gfxstat lava testdef`: the definition valid under
    lava_common.schemas.test.testdef, the job under lava_common.schemas;
    examples/lava/ too; the REST export (PyYAML block style) imported;
  * a whole job through lava-run over ssh is tests/cli/lava_job_test.py's.
"""

import base64
import glob
import hashlib
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import check, finish, paths, run  # noqa: E402

GFXSTAT, SRC = paths()
SHELL_DIR = "/usr/lib/python3/dist-packages/lava_dispatcher/lava_test_shell"


def lava_modules():
    """LAVA's modules are Debian python3's: another interpreter first on
    PATH lacks them, and then the test runs itself again under
    /usr/bin/python3."""
    try:
        import yaml  # noqa: F401
        from lava_common.log import dump  # noqa: F401
        return True
    except ImportError:
        if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != "/usr/bin/python3" \
                and not os.environ.get("GFXSTAT_TEST_REEXEC"):
            os.environ["GFXSTAT_TEST_REEXEC"] = "1"
            os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
        return False


if not lava_modules() or not os.path.isdir(SHELL_DIR):
    print("SKIP: Debian's lava-dispatcher (and python3-yaml) are not installed (scripts/install-deps.sh)")
    sys.exit(77)

import yaml  # noqa: E402
from lava_common.log import dump  # noqa: E402
from lava_dispatcher.actions.test.shell import handle_testcase  # noqa: E402
from lava_dispatcher.connection import SignalMatch  # noqa: E402

SIGNAL = re.compile(r"<LAVA_SIGNAL_(\S+) ([^>]+)>")  # lava_dispatcher/actions/test/shell.py's


def shell_bin(d):
    """LAVA's scripts as the test shell has them: a #! line first (LAVA
    writes the interpreter in), executable, in a directory first on PATH
    (lava-common-functions is sourced through PATH)."""
    b = os.path.join(d, "bin")
    os.makedirs(b)
    for name in ("lava-test-case", "lava-test-set", "lava-test-raise", "lava-common-functions"):
        with open(os.path.join(SHELL_DIR, name)) as f:
            text = f.read()
        path = os.path.join(b, name)
        with open(path, "w") as f:
            f.write("#!/bin/sh\n" + text)
        os.chmod(path, 0o755)
    return b


def lava_env(d, bindir):
    env = dict(os.environ)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    env["LAVA_RESULT_DIR"] = os.path.join(d, "lava-results")
    os.makedirs(env["LAVA_RESULT_DIR"], exist_ok=True)
    env.pop("KMSG", None)
    return env


def grun(args, env):
    p = subprocess.run([GFXSTAT] + args, env=env, capture_output=True)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def results_records(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def runs_of(path):
    return [r for r in results_records(path) if r.get("type") == "run"]


def means(path):
    """variant -> metric -> mean of the values of ok runs that are not
    warm-ups, summed in file order as gfxstat sums them; plus the variants
    with a failed run."""
    sums, failed = {}, set()
    for r in runs_of(path):
        if r.get("warmup"):
            continue
        exit_class = (r.get("exit") or {}).get("class", "ok")
        if exit_class in ("fail", "timeout", "crash", "invalid"):
            failed.add(r["variant"])
        if exit_class != "ok":
            continue
        for name, v in (r.get("metrics") or {}).items():
            values = v if isinstance(v, list) else [v]
            s = sums.setdefault(r["variant"], {}).setdefault(name, [0.0, 0])
            for x in values:
                s[0] += float(x)
                s[1] += 1
    return {v: {m: s / n for m, (s, n) in ms.items() if n} for v, ms in sums.items()}, failed


def signals(stdout):
    """The signal lines as LAVA's test shell reads them: (name, params)."""
    out = []
    for line in stdout.splitlines():
        m = SIGNAL.search(line)
        if m:
            out.append((m.group(1), m.group(2).split()))
    return out


def test_cases(stdout):
    """{set: {case: data}} from the TESTCASE signals, through LAVA's own
    handle_testcase and SignalMatch (what the dispatcher keeps)."""
    sets, current = {}, None
    for name, params in signals(stdout):
        if name == "TESTSET":
            current = params[1] if params[0] == "START" else None
        elif name == "TESTCASE":
            data = SignalMatch().match(handle_testcase(params), fixupdict={})
            sets.setdefault(current, {})[data["test_case_id"]] = data
    return sets


def lava_log(stdout, path, definition="0_gfxstat"):
    """A lava-run log of the test shell's console: every line a target
    record, each test case a results record as the dispatcher makes it
    (lava_common.log.dump, the dispatcher's own formatting)."""
    lines, current = [], None
    for i, text in enumerate(stdout.splitlines()):
        dt = "2026-12-03T10:00:%02d.%06d" % (i // 1000000 % 60, i % 1000000)
        lines.append("- " + dump({"dt": dt, "lvl": "target", "msg": text}))
        m = SIGNAL.search(text)
        if not m:
            continue
        name, params = m.group(1), m.group(2).split()
        if name == "TESTSET":
            current = params[1] if params[0] == "START" else None
        elif name == "TESTCASE":
            res = SignalMatch().match(handle_testcase(params), fixupdict={})
            data = {"definition": definition, "case": res["test_case_id"], "result": res["result"]}
            if "measurement" in res:
                import decimal
                data["measurement"] = float(decimal.Decimal(res["measurement"]))
                if "units" in res:
                    data["units"] = res["units"]
            if current:
                data["set"] = current
            lines.append("- " + dump({"dt": dt, "lvl": "results", "msg": data}))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def block_of(stdout):
    """The results block's bytes, checked against its begin line."""
    lines = stdout.splitlines()
    begin = [i for i, line in enumerate(lines) if line.startswith("<GFXSTAT_RESULTS_BEGIN ")]
    if not check(len(begin) == 1, "one results block on stdout (%d)" % len(begin)):
        return None
    m = re.match(r"<GFXSTAT_RESULTS_BEGIN v1 name=(\S+) bytes=(\d+) sha256=([0-9a-f]{64})>$", lines[begin[0]])
    if not check(m is not None, "the begin line: %r" % lines[begin[0]]):
        return None
    end = lines.index("<GFXSTAT_RESULTS_END v1>", begin[0])
    body = lines[begin[0] + 1:end]
    check(all(len(b) <= 76 and re.fullmatch(r"[A-Za-z0-9+/=]*", b) for b in body), "76-column base64 lines")
    data = base64.b64decode("".join(body), validate=True)
    check(len(data) == int(m.group(2)), "the block's byte count")
    check(hashlib.sha256(data).hexdigest() == m.group(3), "the block's sha256")
    return data


def comparable_runs(path, keep_origin=False):
    runs = runs_of(path)
    if not keep_origin:
        for r in runs:
            r.pop("origin", None)
    return runs


def lava_name(s):
    """LAVA's name characters, as gfxstat makes names of them."""
    return re.sub(r"[^-_a-zA-Z0-9.]", "_", s) or "_"


def check_summaries(stdout, results, env, label):
    """Every case equals the mean recomputed from the results file; the
    scripts' files under LAVA_RESULT_DIR say the same."""
    cases = test_cases(stdout)
    expected, failed = means(results)
    for variant, metrics in expected.items():
        got = cases.get(lava_name(variant), {})
        check(set(got) == set(map(lava_name, metrics)),
              f"{label}: set {variant} has a case per metric: {sorted(got)} vs {sorted(metrics)}")
        for metric, mean in metrics.items():
            c = got.get(lava_name(metric))
            if not c:
                continue
            check(float(c["measurement"]) == mean, f"{label}: {variant}/{metric}: {c['measurement']} == {mean!r}")
            check(c["result"] == ("fail" if variant in failed else "pass"), f"{label}: {variant}/{metric} result {c['result']}")
            d = os.path.join(env["LAVA_RESULT_DIR"], "results", metric)
            with open(os.path.join(d, "measurement")) as f:
                check(float(f.read().strip()) in [float(x["measurement"]) for s in cases.values() for x in s.values()
                                                  if x["test_case_id"] == metric], f"{label}: {d}/measurement")
            with open(os.path.join(d, "result")) as f:
                check(f.read().strip() in ("pass", "fail"), f"{label}: {d}/result")
    return cases


def main():
    d = tempfile.mkdtemp(prefix="gfxstat-lava-")
    try:
        bindir = shell_bin(d)
        env = lava_env(d, bindir)

        # ---- gfxstat run inside the test shell ------------------------------
        results = os.path.join(d, "run.json")
        workload = [sys.executable, "-c",
                    "import random, time; print('frame_ms: %r' % (16 + random.random())); "
                    "print('score: %d' % random.randrange(1000, 2000))"]
        rc, out, err = grun(["run", "--runs", "6", "--warmup", "1", "--label", "mesa main/42", "--no-check",
                             "--metric", "frame_ms=frame_ms: ([0-9.e+-]+)", "--metric", "score=score: ([0-9]+)",
                             "--unit", "ms per frame", "-o", results, "--"] + workload, env)
        check(rc == 0, f"run in LAVA: rc {rc}: {err[-500:]}")
        sets = check_summaries(out, results, env, "run")
        check(list(sets) == ["mesa_main_42"], f"run: one test set, its name sanitized: {list(sets)}")
        names = [s for s in signals(out)]
        check(names[0] == ("TESTSET", ["START", "mesa_main_42"]) and ("TESTSET", ["STOP"]) in names,
              f"run: lava-test-set start/stop: {names[:2]}")
        for c in sets.get("mesa_main_42", {}).values():
            check(c.get("units") == "ms_per_frame", f"run: units sanitized: {c.get('units')}")
        data = block_of(out)
        with open(results, "rb") as f:
            check(data == f.read(), "run: the block is the results file, byte for byte")
        check(not any(SIGNAL.search(line) for line in out.splitlines() if not line.startswith("<LAVA_SIGNAL_")),
              "run: no signal hidden inside another line")

        # A variant with failed runs: its cases fail, measured on the ok runs.
        counter = os.path.join(d, "count")
        flaky = [sys.executable, "-c",
                 "import os; p = %r; n = int(open(p).read()) if os.path.exists(p) else 0; "
                 "open(p, 'w').write(str(n + 1)); print(10 + n); raise SystemExit(n %% 2)" % counter]
        flaky_results = os.path.join(d, "flaky.json")
        rc, fout, err = grun(["run", "--runs", "3", "--no-check", "--label", "flaky", "-o", flaky_results, "--"]
                             + flaky, env)
        fc = check_summaries(fout, flaky_results, env, "flaky")
        check(fc.get("flaky", {}).get("value", {}).get("result") == "fail",
              f"a variant with failed runs: its case fails: rc {rc}, {fc}")

        # ---- the log, read back ------------------------------------------------
        log = lava_log(out, os.path.join(d, "job-77.log"))
        imported = os.path.join(d, "imported.json")
        rc, _, err = run([GFXSTAT, "import", "--from", "lava", log, "-o", imported])
        check(rc == 0, f"import --from lava (block): rc {rc}: {err}")
        if rc == 0:
            orig = comparable_runs(results)
            back = comparable_runs(imported)
            check(back == orig, "import --from lava: the block's runs, exactly")
            header = results_records(results)[0]
            check(all(r.get("origin") == header.get("id") for r in comparable_runs(imported, True)),
                  "import: each run's origin is the attached file's id")

        # Without the block: runs rebuilt from the test cases.
        with open(log) as f:
            lines = f.read().splitlines()
        inside, kept = False, []
        for line in lines:
            rec = yaml.safe_load(line)[0]
            msg = rec["msg"] if rec["lvl"] == "target" else ""
            if isinstance(msg, str) and msg.startswith("<GFXSTAT_RESULTS_BEGIN"):
                inside = True
            if not inside:
                kept.append(line)
            if msg == "<GFXSTAT_RESULTS_END v1>":
                inside = False
        plain = os.path.join(d, "job-78.log")
        with open(plain, "w") as f:
            f.write("\n".join(kept) + "\n")
        rebuilt = os.path.join(d, "rebuilt.json")
        rc, _, err = run([GFXSTAT, "import", "--from", "lava", plain, "-o", rebuilt])
        check(rc == 0, f"import --from lava (cases): rc {rc}: {err}")
        if rc == 0:
            runs = comparable_runs(rebuilt)
            expected, _ = means(results)
            check(len(runs) == 1 and runs[0]["variant"] == "mesa_main_42", f"cases: one run of the set: {runs}")
            if runs:
                r = runs[0]
                check(r.get("boot") == "lava-job-job-78", f"cases: the job is the boot: {r.get('boot')}")
                for metric, mean in expected["mesa main/42"].items():
                    v = r["metrics"].get(metric)
                    check(v is not None and float(v) == mean, f"cases: {metric} = {v} (mean {mean!r})")
            units = {m["name"]: m.get("unit") for m in results_records(rebuilt) if m.get("type") == "metric"}
            check(units.get("frame_ms") == "ms_per_frame", f"cases: units from the case: {units}")

        # A damaged block: exit 2, naming the file and a line.
        damaged = os.path.join(d, "job-79.log")
        out_lines = lines[:]
        for i, line in enumerate(out_lines):
            rec = yaml.safe_load(line)[0]
            if rec["lvl"] == "target" and re.fullmatch(r"[A-Za-z0-9+/]{76}", str(rec["msg"])):
                s = rec["msg"]
                rec["msg"] = s[:30] + ("A" if s[30] != "A" else "B") + s[31:]
                out_lines[i] = "- " + dump(rec)
                break
        with open(damaged, "w") as f:
            f.write("\n".join(out_lines) + "\n")
        rc, _, err = run([GFXSTAT, "import", "--from", "lava", damaged, "-o", os.path.join(d, "x.json")])
        check(rc == 2 and re.search(re.escape(damaged) + r":\d+: .*sha256", err) is not None,
              f"a damaged block: exit 2 naming file:line and the sha256: rc {rc}: {err}")
        check(not os.path.exists(os.path.join(d, "x.json")), "a damaged block writes nothing")

        # ---- ab: the verdicts as cases -----------------------------------------
        ab_out = os.path.join(d, "ab.json")
        ab_json = os.path.join(d, "ab.report.json")
        # The noise is seeded by a run counter, so that the whole ab is
        # reproducible: an A/A gate at 6 runs a side trips by chance 5% of
        # the time, and this test must not.
        ab_counter = os.path.join(d, "ab-count")
        noisy = [sys.executable, "-c",
                 "import os, random; p = %r; n = int(open(p).read()) if os.path.exists(p) else 0; "
                 "open(p, 'w').write(str(n + 1)); random.seed(n); "
                 "print(float(os.environ['M']) + random.gauss(0, 1))" % ab_counter]
        rc, out, err = grun(["ab", "-o", ab_out, "--variant", "A", "--variant", "B", "--env", "A:M=100",
                             "--env", "B:M=80", "--higher-is-better", "--metric-name", "fps", "--seed", "3",
                             "--gate", "--runs", "6", "--no-check", "--json", ab_json, "--"] + noisy, env)
        check(rc == 1, f"ab in LAVA: the gate trips: rc {rc}: {err[-400:]}")
        cases = check_summaries(out, ab_out, env, "ab")
        verdicts = cases.get("gfxstat-verdicts", {})
        check(list(verdicts) == ["B.fps"], f"ab: one verdict case: {list(verdicts)}")
        if os.path.exists(ab_json) and verdicts:
            with open(ab_json) as f:
                report = json.load(f)
            comp = [c for c in report["comparisons"] if c["candidate"]["label"] == "B"][0]
            v = verdicts["B.fps"]
            check(v["result"] == "fail", f"ab: the regression's case fails: {v}")
            rel = comp["verdict"]["relative_change"] * 100
            check(abs(float(v["measurement"]) - rel) <= 1e-9 * abs(rel), f"ab: change {v['measurement']} % vs {rel}")
            check(v.get("units") == "%", f"ab: units %: {v}")
        data = block_of(out)
        with open(ab_out, "rb") as f:
            check(data == f.read(), "ab: the block is the results file")
        # No regression: the verdict passes.
        rc, out, err = grun(["ab", "-o", os.path.join(d, "ab2.json"), "--variant", "A", "--variant", "B",
                             "--env", "A:M=100", "--env", "B:M=100", "--higher-is-better", "--metric-name", "fps",
                             "--seed", "5", "--gate", "--runs", "6", "--no-check", "--"] + noisy, env)
        v = test_cases(out).get("gfxstat-verdicts", {}).get("B.fps", {})
        check(rc == 0 and v.get("result") == "pass", f"ab without a regression: rc {rc}, case {v}")

        # ---- campaign resume (simulated reboots) and analyze -----------------------
        plan = {"variants": [{"label": "a", "reboot": False}, {"label": "b", "reboot": False, "env": {"OFFSET": "3"}}],
                "workload": {"command": ["sh", "-c", "echo $(( ${OFFSET:-0} + 100 )).$(( $$ % 10 ))"],
                             "parser": "lines", "metric_name": "fps", "unit": "fps", "direction": "higher"},
                "runs_per_boot": 3, "boots_per_variant": 2, "warmup_runs": 1, "order": "abba", "seed": 7,
                "reboot_command": ["true"]}
        plan_path = os.path.join(d, "plan.json")
        with open(plan_path, "w") as f:
            json.dump(plan, f)
        camp = os.path.join(d, "camp")
        rc, _, err = run([GFXSTAT, "campaign", "init", plan_path, "-d", camp])
        check(rc == 0, f"campaign init: {rc} {err}")
        rc, out, err = grun(["campaign", "resume", camp, "--simulate-reboots", "--no-check"], env)
        check(rc == 0, f"campaign resume in LAVA: rc {rc}: {err[-300:]}")
        camp_results = os.path.join(camp, "results.json")
        check_summaries(out, camp_results, env, "campaign resume")
        data = block_of(out)
        with open(camp_results, "rb") as f:
            check(data == f.read(), "campaign resume: the block is the campaign's results file")
        rc, out, err = grun(["campaign", "analyze", camp, "--gate", "--lava", "on"], env)
        v = test_cases(out).get("gfxstat-verdicts", {})
        check(rc in (0, 1) and list(v) == ["b.fps"] and v["b.fps"]["result"] == ("fail" if rc == 1 else "pass"),
              f"campaign analyze --lava on: a verdict case that fails as the gate does: rc {rc}, {v}")
        rc, out, err = grun(["campaign", "analyze", camp, "--lava", "sometimes"], env)
        check(rc == 2 and not signals(out), f"campaign analyze --lava sometimes: a usage error: rc {rc}")

        # ---- setup failures and the switch --------------------------------------
        rc, out, err = grun(["run", "--runs", "2", "--no-check", "-o", os.path.join(d, "never.json"), "--",
                             "/nonexistent/benchmark"], env)
        raised = [p for n, p in signals(out) if n == "TESTRAISE"]
        check(rc == 2 and len(raised) == 1 and "cannot" in " ".join(raised[0]),
              f"a workload that cannot start: lava-test-raise: rc {rc}, {raised}, {out!r}")
        rc, out, err = grun(["run", "--runs", "2", "--no-check", "--lava", "off", "-o", os.path.join(d, "off.json"),
                             "--", "echo", "1"], env)
        check(rc == 0 and out == "", f"--lava off: nothing on stdout: {out!r}")
        rc, out, err = grun(["run", "--runs", "2", "--no-check", "--lava", "maybe", "-o", os.path.join(d, "m.json"),
                             "--", "echo", "1"], env)
        check(rc == 2 and not signals(out), f"--lava maybe: a usage error, no raise: rc {rc}")
        outside = dict(os.environ)
        outside.pop("LAVA_RESULT_DIR", None)
        rc, out, err = grun(["run", "--runs", "2", "--no-check", "-o", os.path.join(d, "plain.json"), "--",
                             "echo", "1"], outside)
        check(rc == 0 and out == "", f"outside LAVA: nothing on stdout: {out!r}")
        # A script that fails is a warning, not a lost results file.
        broken = os.path.join(d, "broken")
        os.makedirs(broken)
        for name in ("lava-test-case", "lava-test-set"):
            with open(os.path.join(broken, name), "w") as f:
                f.write("#!/bin/sh\necho broken >&2\nexit 3\n")
            os.chmod(os.path.join(broken, name), 0o755)
        benv = dict(env, PATH=broken + os.pathsep + os.environ["PATH"])
        rc, out, err = grun(["run", "--runs", "2", "--no-check", "-o", os.path.join(d, "b.json"), "--",
                             "echo", "1"], benv)
        check(rc == 0 and "warning: LAVA" in err and "<GFXSTAT_RESULTS_BEGIN" in out,
              f"failing scripts: warnings, the block still printed: rc {rc}: {err[-300:]}")

        # A newer lava-test-case with --output: the file goes there, no block.
        newer = os.path.join(d, "newer")
        os.makedirs(newer)
        calls = os.path.join(d, "calls.txt")
        with open(os.path.join(newer, "lava-test-case"), "w") as f:
            f.write("#!/bin/sh\n[ $# -eq 0 ] && { echo 'Usage: lava-test-case ID --result R [--output FILE]'; exit 1; }\n"
                    "printf '%%s\\n' \"$*\" >> %s\n" % calls)
        os.chmod(os.path.join(newer, "lava-test-case"), 0o755)
        nenv = dict(env, PATH=newer + os.pathsep + env["PATH"])
        newer_results = os.path.join(d, "newer.json")
        rc, out, err = grun(["run", "--runs", "2", "--no-check", "-o", newer_results, "--", "echo", "1"], nenv)
        with open(calls) as f:
            made = f.read().splitlines()
        check(rc == 0 and "<GFXSTAT_RESULTS_BEGIN" not in out and
              made[-1:] == [f"gfxstat-results --result pass --output {newer_results}"],
              f"lava-test-case --output: the results file attached with it: rc {rc}, {made}, {out[-200:]!r}")

        # ---- lava testdef ---------------------------------------------------------
        from lava_common.schemas import validate as validate_job
        from lava_common.schemas.test.testdef import validate as validate_testdef
        tdef, job = os.path.join(d, "def.yaml"), os.path.join(d, "job.yaml")
        rc, _, err = run([GFXSTAT, "lava", "testdef", "--name", "glmark2-ab", "-o", tdef, "--job", job,
                          "--device-type", "qemu", "--", "gfxstat", "ab", "-o", "r.json", "--variant", "a b",
                          "--variant", "it's", "--env", 'a b:X=$HOME "q"', "--", "glmark2-es2", "--off-screen"])
        check(rc == 0, f"lava testdef: rc {rc}: {err}")
        if rc == 0:
            with open(tdef) as f:
                t = yaml.safe_load(f)
            try:
                validate_testdef(t)
                check(True, "")
            except Exception as e:  # voluptuous.Invalid
                check(False, f"testdef invalid: {e}")
            step = t["run"]["steps"][-1]
            # The shell's own word splitting of the step.
            argv = subprocess.run(["sh", "-c", "set -- " + step[len("gfxstat "):] + '; for w in "$@"; do printf "%s\\0" "$w"; done'],
                                  capture_output=True).stdout.decode().split("\0")[:-1]
            check(argv[:3] == ["ab", "--lava", "on"] and "a b" in argv and "it's" in argv and 'a b:X=$HOME "q"' in argv,
                  f"testdef: the command, shell-quoted, with --lava on: {argv}")
            with open(job) as f:
                j = yaml.safe_load(f)
            try:
                validate_job(j)
                check(True, "")
            except Exception as e:
                check(False, f"job invalid: {e}")
            check(j["actions"][0]["test"]["definitions"][0]["repository"] == t, "the job's inline definition is the testdef")
        # LAVA's run.sh writer rewrites "$<digit>" into "\$<digit>" in a step
        # that mentions --cmd or --shell (lava_dispatcher/actions/deploy/
        # testdef.py), quotes or not: the argument must still arrive whole.
        awk = "{print $1, $12}"
        rc, _, err = run([GFXSTAT, "lava", "testdef", "-o", tdef, "--", "gfxstat", "run", "-o", "r.json", "--",
                          "sh", "-c", "bench --shell-free | awk '" + awk + "'", "--cmdline", awk])
        if check(rc == 0, f"lava testdef with $1: rc {rc}: {err}"):
            with open(tdef) as f:
                step = yaml.safe_load(f)["run"]["steps"][-1]
            rewritten = re.sub(r"\$(\d+)\b", r"\\$\1", step)
            argv = subprocess.run(["sh", "-c", "set -- " + rewritten[len("gfxstat "):] +
                                   '; for w in "$@"; do printf "%s\\0" "$w"; done'],
                                  capture_output=True).stdout.decode().split("\0")[:-1]
            check(argv[-1] == awk and argv[-3] == "bench --shell-free | awk '" + awk + "'",
                  f"testdef: $1 survives LAVA's --cmd/--shell rewrite: {argv} from {rewritten!r}")
        rc, _, err = run([GFXSTAT, "lava", "testdef", "--", "gfxstat", "compare", "a", "b"])
        check(rc == 2 and "compare" in err, f"testdef of compare: refused: {rc} {err}")
        rc, _, err = run([GFXSTAT, "lava", "testdef", "--name", "a b", "--", "gfxstat", "run", "--", "true"])
        check(rc == 2, f"testdef --name with a space: refused: {rc} {err}")
        # Not UTF-8: the word named, not a byte of the YAML made from it.
        rc, out, err = run([GFXSTAT, "lava", "testdef", "--", "gfxstat", "run", "--", "echo", b"caf\xe9".decode("latin-1").encode("latin-1")])
        check(rc == 2 and "word 5 of the command" in err and "byte 4" in err and out == "",
              f"testdef with a word that is not UTF-8: {rc} {err}")
        rc, _, err = run([GFXSTAT, "lava", "testdef", "--description", b"\xff", "--", "gfxstat", "run", "--", "true"])
        check(rc == 2 and "--description" in err and "byte 1" in err, f"--description not UTF-8: {rc} {err}")
        rc, out, err = run([GFXSTAT, "lava", "testdef", "--job", os.path.join(d, "j2.yaml"), "--device-type", "x",
                            "--repository", "https://example.org/defs.git", "--path", "gfx/perf.yaml", "--",
                            "gfxstat", "campaign", "resume", "/var/lib/c"])
        if check(rc == 0, f"testdef of a campaign, from a repository: {rc} {err}"):
            validate_testdef(yaml.safe_load(out))
            with open(os.path.join(d, "j2.yaml")) as f:
                j = yaml.safe_load(f)
            validate_job(j)
            check(j["actions"][0]["test"]["definitions"][0]["from"] == "git", "the job refers to the repository")
            check("campaign resume --lava on /var/lib/c" in out, f"campaign resume --lava on: {out}")

        # examples/lava/ are valid.
        with open(os.path.join(SRC, "examples/lava/gfxstat-perf.yaml")) as f:
            ex = yaml.safe_load(f)
        validate_testdef(ex)
        check(any("--lava on" in s for s in ex["run"]["steps"]), "the example runs gfxstat with --lava on")
        with open(os.path.join(SRC, "examples/lava/job.yaml")) as f:
            validate_job(yaml.safe_load(f))

        # ---- the REST export and lavacli's -----------------------------------------
        export = []
        for i, (s, name, m) in enumerate([("base", "fps", "60.5"), ("base", "fps", "61.5"),
                                          ("patch", "fps", "55.25"), ("patch", "skipped", None)]):
            export.append({"id": str(i), "job": "4242", "suite": "0_gfxstat-perf", "name": name,
                           "result": "pass" if m else "skip", "measurement": "%s000000" % m if m else "None",
                           "unit": "fps", "duration": "", "timeout": "", "logged": "2026-12-03 10:00:00+00:00",
                           "level": "3.1.%d" % i, "url": "/results/4242/0_gfxstat-perf/%s" % name,
                           "metadata": {"definition": "0_gfxstat-perf", "case": name, "set": s,
                                        "result": "pass", "extra": [{"k": "v"}]}})
        export.append({"id": "9", "job": "4242", "suite": "lava", "name": "job", "result": "pass",
                       "measurement": "12.0", "unit": "seconds", "metadata": {"definition": "lava"}})
        rest = os.path.join(d, "4242.yaml")
        with open(rest, "w") as f:
            yaml.safe_dump(export, f)
        rc, _, err = run([GFXSTAT, "import", "--from", "lava", rest, "-o", os.path.join(d, "rest.json")])
        check(rc == 0, f"import of the REST export: {rc} {err}")
        if rc == 0:
            runs = comparable_runs(os.path.join(d, "rest.json"))
            got = {(r["variant"], r["boot"]): r["metrics"] for r in runs}
            check(got == {("base", "lava-job-4242"): {"fps": [60.5, 61.5]}, ("patch", "lava-job-4242"): {"fps": 55.25}},
                  f"REST export: a run per set, LAVA's own suite left out: {got}")
        bad = os.path.join(d, "bad.yaml")
        with open(bad, "w") as f:
            f.write("- name: fps\n  result: pass\n  measurement: fast\n")
        rc, _, err = run([GFXSTAT, "import", "--from", "lava", bad, "-o", os.path.join(d, "bad.json")])
        check(rc == 2 and f"{bad}:1:" in err and "measurement" in err, f"a bad measurement: {rc} {err}")
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return finish("lava_cli: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
