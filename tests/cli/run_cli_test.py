#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gfxstat run with real programs: Debian's IGT benchmarks (gem_syslatency
-n runs anywhere; gem_exec_nop skips without a GPU; gem_syslatency without
-n aborts), timeouts that kill the whole process group, the consecutive-
failure stop, IGT's exit codes, kill -9 of gfxstat mid-run, SIGINT, the
parsers, warm-ups, --target-ci, the built-in wake-up latency workload, and
every results file checked against the JSON Schema."""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402
from testlib import check, finish, run  # noqa: E402

IGT = "/usr/libexec/igt-gpu-tools/benchmarks"


def records(path):
    """The records of a results file, a torn last line left out."""
    out = []
    with open(path) as f:
        for line in f:
            if line.endswith("\n"):
                out.append(json.loads(line))
    return out


def runs_of(path):
    return [r for r in records(path) if r.get("type") == "run"]


def validate(schema, path, what):
    try:
        import jsonschema
    except ImportError:
        return
    validator = jsonschema.Draft202012Validator(schema)
    for i, rec in enumerate(records(path)):
        errors = list(validator.iter_errors(rec))
        if not check(not errors, f"{what}: line {i + 1} breaks the schema: {errors[:1]}"):
            return


def group_alive(marker):
    """True when a process whose command line contains `marker` still runs."""
    p = subprocess.run(["pgrep", "-f", marker], capture_output=True)
    return p.returncode == 0


def main():
    g, src = testlib.paths()
    schema = testlib.load_json(src, "docs/results-format.schema.json")
    have_igt = os.path.exists(os.path.join(IGT, "gem_syslatency"))
    check(have_igt, f"intel-gpu-tools is installed (scripts/install-deps.sh): {IGT}")

    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ)
        boot_file = os.path.join(d, "boot_id")
        with open(boot_file, "w") as f:
            f.write("11111111-2222-3333-4444-555555555555\n")
        env["GFXSTAT_BOOT_ID_FILE"] = boot_file

        def grun(*a, timeout=120):
            p = subprocess.run([g, "run", *a], capture_output=True, env=env, timeout=timeout)
            return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")

        if have_igt:
            # gem_syslatency -n -t 1, five times, parsed end to end.
            out = os.path.join(d, "syslat.json")
            rc, _, err = grun("--runs", "5", "--parser", "igt-syslatency", "-o", out, "--",
                              os.path.join(IGT, "gem_syslatency"), "-n", "-t", "1")
            check(rc == 0, f"gem_syslatency -n: exit {rc}: {err}")
            runs = runs_of(out)
            check(len(runs) == 5 and all(r["exit"]["class"] == "ok" for r in runs), f"5 ok runs: {runs}")
            check(all(set(r["metrics"]) == {"cycles", "latency_mean", "latency_max"} for r in runs),
                  f"syslatency metrics: {[r['metrics'] for r in runs]}")
            check(all(r["metrics"]["latency_mean"] > 0 for r in runs), "latencies are positive")
            check(all(r["boot"] == "11111111-2222-3333-4444-555555555555" for r in runs), "boot id from the file")
            check(all(r["variant"] == "gem_syslatency" for r in runs), "label defaults to the program name")
            metrics = {r["name"]: r for r in records(out) if r.get("type") == "metric"}
            check(metrics.get("latency_mean", {}).get("unit") == "us" and
                  metrics["latency_mean"].get("direction") == "lower", f"latency_mean declared: {metrics}")
            envs = [r for r in records(out) if r.get("type") == "environment"]
            check(envs and "kernel_release" in envs[0], f"environment recorded: {envs[:1]}")
            log = os.path.join(d, runs[0]["log"]) if runs else ""
            check(runs and os.path.isfile(log + ".stdout") and
                  "gem_syslatency: cycles=" in open(log + ".stdout").read(),
                  f"the run's stdout is kept in {log}.stdout")
            validate(schema, out, "syslatency")
            rc, cmp_out, cmp_err = run([g, "summary", "--json", out, "--metric", "latency_mean"])
            check(rc == 0 and json.loads(cmp_out)["inputs"][0]["n"] == 5, f"summary of the runs: {cmp_err}")

            # gem_exec_nop without a GPU: a skip with the program's reason, exit 77.
            out = os.path.join(d, "nop.json")
            rc, _, err = grun("--runs", "3", "-o", out, "--", os.path.join(IGT, "gem_exec_nop"), "-r", "1")
            check(rc == 77, f"gem_exec_nop skips: exit {rc}: {err}")
            check("No known gpu found" in err, f"the skip reason is shown: {err}")
            runs = runs_of(out)
            check(len(runs) == 1 and runs[0]["exit"]["class"] == "skip" and runs[0]["exit"]["code"] == 77 and
                  "No known gpu found" in runs[0]["exit"].get("reason", ""), f"skip recorded: {runs}")
            validate(schema, out, "nop")

            # gem_syslatency without -n aborts here: crashes, then the stop.
            out = os.path.join(d, "abort.json")
            rc, _, err = grun("--runs", "5", "--parser", "igt-syslatency", "-o", out, "--",
                              os.path.join(IGT, "gem_syslatency"), "-t", "1")
            runs = runs_of(out)
            check(rc == 4 and len(runs) == 3 and all(r["exit"]["class"] == "crash" and r["exit"]["signal"] == 6
                                                     for r in runs), f"SIGABRT is a crash, 3 in a row stop: {rc} {runs}")
            check("3 runs in a row" in err, f"stop message: {err}")

        # Timeout: the whole process group is killed, grandchildren too.
        out = os.path.join(d, "timeout.json")
        marker = "100.4242"
        t0 = time.monotonic()
        rc, _, err = grun("--runs", "1", "--max-failures", "1", "--timeout", "1", "-o", out, "--",
                          "sh", "-c", f"sleep {marker} & sleep {marker}; wait")
        took = time.monotonic() - t0
        runs = runs_of(out)
        check(rc == 4 and runs and runs[0]["exit"]["class"] == "timeout" and
              "timed out after 1 s" in runs[0]["exit"].get("reason", ""), f"timeout recorded: {rc} {runs} {err}")
        check(took < 10, f"timeout honoured: {took:.1f} s")
        time.sleep(0.2)
        check(not group_alive(marker), "no sleep of the timed-out group survives")

        # Consecutive failures stop the run, exit 4; nothing is lost.
        out = os.path.join(d, "false.json")
        rc, _, err = grun("--runs", "10", "-o", out, "--", "false")
        runs = runs_of(out)
        check(rc == 4 and len(runs) == 3 and all(r["exit"] == {"class": "fail", "code": 1} or
                                                 r["exit"]["class"] == "fail" for r in runs),
              f"false x3 then stop: {rc} {runs}")
        rc, _, err = grun("--runs", "10", "--max-failures", "2", "-o", out, "--", "false")
        check(rc == 4 and len(runs_of(out)) == 5, "--max-failures 2, appended to the same file")

        # IGT exit codes: 79 invalid option (exit 2), 112 abort (exit 4: the runs failed).
        out = os.path.join(d, "codes.json")
        rc, _, err = grun("--runs", "3", "-o", out, "--", "sh", "-c", "echo bad option >&2; exit 79")
        check(rc == 2 and "invalid option" in err, f"exit 79: {rc} {err}")
        # (--force: another command in the same variant, on purpose.)
        rc, _, err = grun("--runs", "3", "--force", "-o", out, "--", "sh", "-c", "exit 112")
        check(rc == 4 and "aborted" in err, f"exit 112: {rc} {err}")
        check([r["exit"]["code"] for r in runs_of(out)] == [79, 112], f"both recorded: {runs_of(out)}")

        # A command that does not exist: exit 2, said clearly.
        rc, _, err = grun("--runs", "2", "-o", os.path.join(d, "none.json"), "--", "no-such-gfxstat-program")
        check(rc == 2 and "no-such-gfxstat-program" in err and not os.path.exists(os.path.join(d, "none.json")),
              f"missing command: {rc} {err}")

        # Parsers: lines with a metric name and unit, a user regex, time.
        out = os.path.join(d, "lines.json")
        rc, _, err = grun("--runs", "2", "--metric-name", "fps", "--unit", "fps", "--higher-is-better", "-o", out,
                          "--", "sh", "-c", "echo 59.94; echo 60.01")
        runs = runs_of(out)
        check(rc == 0 and [r["metrics"] for r in runs] == [{"fps": [59.94, 60.01]}] * 2, f"lines: {runs} {err}")
        check({r["name"]: (r["unit"], r["direction"]) for r in records(out) if r.get("type") == "metric"} ==
              {"fps": ("fps", "higher")}, "lines metric declared with the unit and direction given")
        out = os.path.join(d, "regex.json")
        rc, _, err = grun("--runs", "2", "--metric", r"lat=latency: ([0-9.]+)us", "-o", out, "--",
                          "sh", "-c", "echo 'latency: 12.5us'; echo noise")
        check(rc == 0 and [r["metrics"] for r in runs_of(out)] == [{"lat": 12.5}] * 2, f"regex: {runs_of(out)} {err}")
        out = os.path.join(d, "time.json")
        rc, _, err = grun("--runs", "3", "--parser", "time", "-o", out, "--", "true")
        runs = runs_of(out)
        check(rc == 0 and all(set(r["metrics"]) == {"wall", "user", "sys", "max_rss"} for r in runs),
              f"time: {runs} {err}")
        # A run with no parsable output is a failure with the reason.
        out = os.path.join(d, "noparse.json")
        rc, _, err = grun("--runs", "1", "--max-failures", "1", "--parser", "igt-syslatency", "-o", out, "--",
                          "echo", "hello")
        runs = runs_of(out)
        check(rc == 4 and runs and runs[0]["exit"]["class"] == "fail" and runs[0]["exit"].get("reason"),
              f"unparsable output fails with a reason: {runs}")

        # Warm-ups are recorded and marked; --target-ci stops early.
        out = os.path.join(d, "warm.json")
        rc, _, err = grun("--runs", "3", "--warmup", "2", "-o", out, "--", "echo", "5")
        runs = runs_of(out)
        check(rc == 0 and [r.get("warmup", False) for r in runs] == [True, True, False, False, False],
              f"warm-ups: {runs}")
        out = os.path.join(d, "target.json")
        rc, _, err = grun("--target-ci", "1", "--min-runs", "6", "--max-runs", "9", "-o", out, "--", "echo", "7")
        check(rc == 0 and len(runs_of(out)) == 6 and "target reached" in err, f"target-ci: {len(runs_of(out))} {err}")
        out = os.path.join(d, "target2.json")
        rc, _, err = grun("--target-ci", "0.001", "--min-runs", "2", "--max-runs", "4", "-o", out, "--",
                          "sh", "-c", "echo $$")
        check(rc == 0 and len(runs_of(out)) == 4 and "--max-runs 4 reached" in err, f"max-runs: {err}")

        # The built-in CPU workload, unladen and laden.
        out = os.path.join(d, "wake.json")
        rc, _, err = grun("--workload", "wakeup-latency", "--duration", "0.2", "--runs", "2", "-o", out)
        rc2, _, err2 = grun("--workload", "wakeup-latency", "--load", "cpu:1", "--duration", "0.2", "--runs", "2",
                            "-o", out)
        runs = runs_of(out)
        check(rc == 0 and rc2 == 0 and [r["variant"] for r in runs] == ["wakeup-latency"] * 2 +
              ["wakeup-latency+cpu:1"] * 2, f"wakeup-latency: {rc} {rc2} {err} {err2} {runs}")
        check(all({"latency_mean", "latency_max"} <= set(r["metrics"]) for r in runs), "wake-up metrics")
        validate(schema, out, "wakeup")
        rc, out_text, err = run([g, "compare", "--bootstrap", "0", "--metric", "latency_mean", out])
        check(rc == 0 and "wakeup-latency+cpu:1" in out_text, f"compare of the two variants: {err}")

        # kill -9 of gfxstat mid-run: every finished run is intact, and the
        # next run appends after them.
        out = os.path.join(d, "killed.json")
        p = subprocess.Popen([g, "run", "--runs", "1000", "-o", out, "--", "sh", "-c", "echo 1; sleep 0.05"],
                             env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and (not os.path.exists(out) or len(runs_of(out)) < 5):
            time.sleep(0.05)
        p.send_signal(signal.SIGKILL)
        p.wait()
        before = runs_of(out)
        check(len(before) >= 5 and [r["run"] for r in before] == list(range(len(before))),
              f"runs before the kill: {len(before)}")
        rc, _, err = grun("--runs", "1", "--label", "sh", "--force", "-o", out, "--", "echo", "2")
        after = runs_of(out)
        check(rc == 0 and len(after) == len(before) + 1 and after[-1]["metrics"] == {"value": 2} and
              after[-1]["run"] in (len(before), len(before) + 1), f"appended after a kill: {rc} {err}")
        validate(schema, out, "killed")

        # SIGINT: the workload is stopped, exit 130, the runs are kept.
        out = os.path.join(d, "int.json")
        marker = "77.4321"
        p = subprocess.Popen([g, "run", "--runs", "5", "-o", out, "--", "sh", "-c", f"echo 1; sleep {marker}"],
                             env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(1)
        p.send_signal(signal.SIGINT)
        try:
            p.wait(timeout=15)
        except subprocess.TimeoutExpired:
            p.kill()
        err = p.stderr.read().decode(errors="replace")
        check(p.returncode == 130 and "interrupted" in err, f"SIGINT: {p.returncode} {err}")
        last = runs_of(out)[-1] if runs_of(out) else {}
        check(last.get("exit", {}).get("class") == "fail" and "interrupted by the user" in last["exit"].get("reason", ""),
              f"the interrupted run is marked so, not as a crash: {last}")
        time.sleep(0.2)
        check(not group_alive(marker), "the interrupted workload is gone")

        # A background process left by one run does not write into the next
        # run's record.
        out = os.path.join(d, "bg.json")
        rc, _, err = grun("--runs", "3", "-o", out, "--", "sh", "-c", "echo 1; (sleep 0.5; echo 999) & sleep 0.3")
        check(rc == 0 and [r["metrics"] for r in runs_of(out)] == [{"value": 1}] * 3,
              f"each run's own output only: {runs_of(out)} {err}")
        time.sleep(0.4)

        # --target-ci follows latency_mean, not gem_syslatency's cycles (0 with -n),
        # and counts runs (each run's median), not repetitions.
        if have_igt:
            out = os.path.join(d, "ci.json")
            rc, _, err = grun("--target-ci", "50", "--min-runs", "3", "--max-runs", "4", "--parser", "igt-syslatency",
                              "-o", out, "--", os.path.join(IGT, "gem_syslatency"), "-n", "-t", "1")
            check(rc == 0 and "latency_mean: median" in err and "cycles:" not in err, f"tracked metric: {err}")
        out = os.path.join(d, "reps.json")
        rc, _, err = grun("--target-ci", "1", "--min-runs", "3", "--max-runs", "5", "-o", out, "--",
                          "sh", "-c", "b=$(( $$ % 100 + 100 )); i=0; while [ $i -lt 50 ]; do echo $b; i=$((i+1)); done")
        check(rc == 0 and len(runs_of(out)) == 5 and "reached before the target" in err,
              f"50 repetitions of one level are one run's worth: {len(runs_of(out))} {err}")

        # Usage errors leave no results file behind.
        for bad in (["--target-metric", "nope", "--target-ci", "5", "--parser", "time", "--", "true"],
                    ["--", "no-such-gfxstat-program"],
                    ["--min-runs", "2", "--", "true"],
                    ["--runs", "3", "--target-ci", "5", "--", "true"],
                    ["--workload", "wakeup-latency", "--parser", "time"],
                    ["--duration", "1", "--", "true"],
                    ["--workload", "wakeup-latency", "--load", "cpu:"]):
            out = os.path.join(d, "usage.json")
            rc, _, err = grun("-o", out, *bad)
            check(rc == 2 and not os.path.exists(out) and not os.path.exists(out + ".logs"),
                  f"usage error {bad}: exit {rc}, files left: {os.path.exists(out)} {err}")

        # Labels that map to the same file name keep separate logs.
        out = os.path.join(d, "labels.json")
        grun("--runs", "1", "--label", "mesa/main", "-o", out, "--", "echo", "1")
        grun("--runs", "1", "--label", "mesa_main", "-o", out, "--", "echo", "2")
        logs = [r["log"] for r in runs_of(out)]
        check(len(set(logs)) == 2 and [open(os.path.join(d, x + ".stdout")).read() for x in logs] == ["1\n", "2\n"],
              f"separate logs: {logs}")

        # A failing --prepare fails the run without running the workload;
        # --cooldown waits between runs.
        out = os.path.join(d, "prep.json")
        rc, _, err = grun("--runs", "2", "--max-failures", "2", "--prepare", "echo no >&2; exit 3", "-o", out, "--",
                          "echo", "1")
        runs = runs_of(out)
        check(rc == 4 and len(runs) == 2 and all(r["exit"]["class"] == "fail" and
                                                 r["exit"]["reason"] == "--prepare failed: exit 3" for r in runs) and
              open(os.path.join(d, runs[0]["log"] + ".prepare.stderr")).read() == "no\n",
              f"--prepare failure: {runs} {err}")
        out = os.path.join(d, "cool.json")
        t0 = time.monotonic()
        rc, _, err = grun("--runs", "3", "--cooldown", "0.5", "-o", out, "--", "echo", "1")
        check(rc == 0 and time.monotonic() - t0 >= 1.0, f"--cooldown 0.5 x 2 gaps: {time.monotonic() - t0:.2f} s")

        # A failing --cleanup is a warning; an empty hook output leaves no file.
        out = os.path.join(d, "hooks.json")
        rc, _, err = grun("--runs", "1", "--prepare", "true", "--cleanup", "exit 4", "-o", out, "--", "echo", "1")
        check(rc == 0 and "--cleanup failed: exit 4" in err, f"cleanup warning: {err}")
        check(not [f for f in os.listdir(out + ".logs") if ".prepare." in f or ".cleanup." in f],
              f"no empty hook files: {os.listdir(out + '.logs')}")

        # A workload that ignores SIGINT: the second Ctrl-C kills its group;
        # SIGHUP is handled like SIGINT.
        for first, second in ((signal.SIGINT, signal.SIGINT), (signal.SIGHUP, signal.SIGINT)):
            out = os.path.join(d, f"int2-{first}.json")
            marker = "66.1357"
            p = subprocess.Popen([g, "run", "--runs", "5", "-o", out, "--", "sh", "-c",
                                  f"trap '' INT HUP TERM; echo 1; sleep {marker}"],
                                 env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            time.sleep(1)
            p.send_signal(first)
            time.sleep(0.5)
            p.send_signal(second)
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
            p.stderr.read()
            check(p.returncode == 128 + int(first),
                  f"{first.name} then {second.name} on a workload ignoring them: 128 + the first ({p.returncode})")
            time.sleep(0.2)
            check(not group_alive(marker), f"{first.name}: the workload ignoring signals is gone")

        # Usage errors.
        rc, _, err = grun("-o", os.path.join(d, "x.json"))
        check(rc == 2 and "give a command after -- or a --workload\n" in err, f"no command: {rc} {err}")
        rc, _, err = grun("-o", os.path.join(d, "x.json"), "--workload", "drm-ioctl", "--", "true")
        check(rc == 2 and "or a --workload, not both" in err, f"a command and a workload: {rc} {err}")

        # A failed run names the run it was to be: after "run 2/4 ok", "run 3/4 fail".
        counter = os.path.join(d, "numbered.count")
        rc, _, err = grun("--runs", "4", "--warmup", "0", "-o", os.path.join(d, "numbered.json"), "--", "sh", "-c",
                          f'n=$(cat "{counter}" 2>/dev/null || echo 0); echo $((n + 1)) > "{counter}"; '
                          'if [ "$n" = 2 ]; then exit 1; fi; echo 5')
        lines = [line for line in err.splitlines() if line.startswith("gfxstat run: run ")]
        check(len(lines) == 5 and lines[1].startswith("gfxstat run: run 2/4 ok") and
              lines[2].startswith("gfxstat run: run 3/4 fail") and lines[3].startswith("gfxstat run: run 3/4 ok"),
              f"the failed run is numbered ({rc}): {lines}")
        rc, _, err = grun("--parser", "nonesuch", "-o", os.path.join(d, "x.json"), "--", "true")
        check(rc == 2 and "lines" in err, f"unknown parser lists the known ones: {err}")
        rc, _, err = grun("--tag", "novalue", "-o", os.path.join(d, "x.json"), "--", "true")
        check(rc == 2, f"bad tag: {err}")

    return finish("all run command-line checks passed")


if __name__ == "__main__":
    sys.exit(main())
