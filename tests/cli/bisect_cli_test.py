#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gfxstat bisect on a real git repository made here: 64 commits of a small
C program whose run time (with 1% noise) grows by 3% at one commit, each
commit built by --build and run by gfxstat (its CPU time, which it
prints). `git bisect run gfxstat bisect step` names that commit within 7
steps, and `bisect report` shows it with the evidence on both sides. Good
and bad that do not differ stop at `bisect check` (and stop a step with
128); a commit that fails to build is skipped (125), also inside a second
bisection that still finds its commit; errors, the results file of every
run, and escaping of what git holds."""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import check, finish, paths, run  # noqa: E402

GFXSTAT, SRC = paths()

# The program's run time is CPU time: it spins until its own CPU clock has
# used LEVEL_US microseconds times a log-normal noise of 1%, and prints the
# CPU time it used, read with a --metric regex: its run time whatever else
# the machine is doing (a wall time on a loaded 2-core machine grows with
# the load, and a test run beside others would measure the others). The
# steps read the output as the references' runs recorded it.
PROG = r"""#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "level.h"

int main(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    srand48(t.tv_nsec ^ (long)getpid());
    double u1 = drand48(), u2 = drand48();
    double z = sqrt(-2 * log(u1 + 1e-300)) * cos(6.283185307179586 * u2);
    double us = LEVEL_US * exp(0.01 * z);
    /* Work in user space between looks at the CPU clock (a system call:
       looking all the time would be system time, not user time). */
    volatile unsigned long x = 0;
    for (;;) {
        for (unsigned long i = 0; i < 20000; ++i) x += i * i;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        if (t.tv_sec * 1e6 + t.tv_nsec / 1e3 >= us) break;
    }
    /* The whole process's CPU time, precise (the kernel's user/system
       split of it is sampled at ticks, too coarse for a 30 ms run). */
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    printf("cpu_time_us %%.1f\n", t.tv_sec * 1e6 + t.tv_nsec / 1e3);
    return (int)(x & 0);
}
%s"""
METRIC = ["--target-metric", "cpu"]

BUILD = "cc -O2 -o prog prog.c -lm"


def git(repo, *args, check_rc=True):
    p = subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True)
    if check_rc and p.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {p.stderr}")
    return p.stdout.strip()


def make_repo(repo, commits, change_at, broken=(), subject_of=None):
    """A linear history of `commits` commits; run time 30 ms before
    `change_at`, 3% more from it on; the commits in `broken` do not
    compile. Returns the commit ids in order."""
    os.makedirs(repo)
    git(repo, "init", "-q", "-b", "main")
    ids = []
    for i in range(commits):
        level = 30900 if i >= change_at else 30000
        with open(os.path.join(repo, "level.h"), "w") as f:
            f.write(f"#define LEVEL_US {level}\n")
        with open(os.path.join(repo, "prog.c"), "w") as f:
            f.write(PROG % ("this does not compile;\n" if i in broken else ""))
        with open(os.path.join(repo, "notes.txt"), "a") as f:
            f.write(f"commit {i}\n")
        git(repo, "add", "-A")
        subject = subject_of(i) if subject_of else f"commit {i}"
        git(repo, "commit", "-q", "-m", subject)
        ids.append(git(repo, "rev-parse", "HEAD"))
    return ids


def record(repo, commit, out, runs):
    """Runs of the program at `commit` into `out`, as a user records the
    good and bad builds before bisecting."""
    git(repo, "checkout", "-q", commit)
    subprocess.run(["sh", "-c", BUILD], cwd=repo, check=True)
    rc, _, err = run([GFXSTAT, "run", "--metric", r"cpu=cpu_time_us (\S+)", "--unit", "us", "--lower-is-better",
                      "--runs", str(runs), "--no-check", "-o", out, "--", os.path.join(repo, "prog")])
    check(rc == 0, f"gfxstat run at {commit[:12]}: {rc} {err}")


def main():
    env_keep = dict(os.environ)
    tmp = tempfile.mkdtemp(prefix="gfxstat-bisect-")
    # git's identity and configuration: this test's, not the machine's.
    os.environ.update({"GIT_AUTHOR_NAME": "gfxstat test", "GIT_AUTHOR_EMAIL": "test@example.org",
                       "GIT_COMMITTER_NAME": "gfxstat test", "GIT_COMMITTER_EMAIL": "test@example.org",
                       "GIT_CONFIG_NOSYSTEM": "1", "HOME": tmp})
    try:
        repo = os.path.join(tmp, "repo")
        ids = make_repo(repo, 64, 40, subject_of=lambda i: "level: 3% more work \x1b[31mred" if i == 40 else f"commit {i}")
        good, bad = os.path.join(tmp, "good.json"), os.path.join(tmp, "bad.json")
        record(repo, ids[0], good, 30)
        record(repo, ids[63], bad, 30)

        # Something to bisect.
        rc, out, err = run([GFXSTAT, "bisect", "check", "--good", good, "--bad", bad, "--commits", "63", *METRIC])
        check(rc == 0, f"bisect check on a 3% step: exit {rc}: {out} {err}")
        check("ready to bisect" in out and "+3" in out, f"check says the change: {out}")
        check("6 steps" in out, f"63 commits: 6 steps in the budget: {out}")
        rc, out, _ = run([GFXSTAT, "bisect", "check", "--good", good, "--bad", bad, "--format", "json", *METRIC])
        j = json.loads(out) if rc == 0 else {}
        check(j.get("differ") is True and 0.02 < j.get("change", 0) < 0.04, f"check --format json: {out}")

        # git bisect run with gfxstat bisect step.
        steps = os.path.join(tmp, "steps.json")
        git(repo, "bisect", "start", ids[63], ids[0])
        p = subprocess.run(["git", "-C", repo, "bisect", "run", GFXSTAT, "bisect", "step", "--good", good, "--bad",
                            bad, *METRIC, "--build", BUILD, "--max-runs", "80", "-o", steps, "--",
                            os.path.join(repo, "prog")], capture_output=True, text=True)
        bisect_out = p.stdout + p.stderr
        check(p.returncode == 0, f"git bisect run: exit {p.returncode}: {bisect_out[-3000:]}")
        m = re.search(r"([0-9a-f]{40}) is the first bad commit", bisect_out)
        check(m is not None and m.group(1) == ids[40],
              f"git bisect names commit 40 ({ids[40]}): {m.group(1) if m else bisect_out[-2000:]}")
        log = json.load(open(steps))
        check(1 <= len(log["steps"]) <= 7, f"at most 7 steps: {len(log['steps'])}")
        check(log["plan"]["expected_steps"] == 6 and log["plan"]["commits"] == 63,
              f"the budget from git's bisection: {log['plan']['expected_steps']}, {log['plan']['commits']}")
        for s in log["steps"]:
            i = ids.index(s["commit"])
            want = "bad" if i >= 40 else "good"
            check(s["call"] == want, f"step at commit {i}: {s['call']}, want {want}")
            check(s["build"] == "ok", f"each step built its commit: {s['build']}")
        git(repo, "bisect", "reset")

        rc, out, err = run([GFXSTAT, "bisect", "report", steps])
        check(rc == 0, f"report: exit {rc}: {err}")
        check(f"first bad commit: {ids[40]}" in out, f"report names commit 40: {out}")
        check("\x1b" not in out and "\\x1b" in out or "\\033" in out or "\\e" in out,
              f"the subject's escape is shown escaped: {out!r}")
        check(re.search(r"bad: +" + ids[40][:12] + r" \+[0-9.]+% \[", out) is not None, f"evidence, bad side: {out}")
        check(re.search(r"good: +" + ids[39][:12] + r" [-+][0-9.e]+% \[", out) is not None or
              f"good: {ids[39][:12]} is the bisection's good commit" in out, f"evidence, good side: {out}")
        rc, out, _ = run([GFXSTAT, "bisect", "report", steps, "--format", "json"])
        j = json.loads(out) if rc == 0 else {}
        check((j.get("first_bad") or {}).get("commit") == ids[40], f"report --format json: {out[:500]}")
        check(all("interval" in s and "estimate" in s for s in j.get("steps", [])), "json steps carry estimates")
        rc, out, _ = run([GFXSTAT, "bisect", "report", steps, "--format", "markdown"])
        check(rc == 0 and "| step | commit |" in out and f"`{ids[40]}`" in out, f"report --format markdown: {out}")

        # Every run is in the results file, its variant the commit's short id
        # and its tag the whole id.
        results = os.path.join(tmp, "steps.results.json")
        runs = [json.loads(line) for line in open(results) if '"type":"run"' in line.replace(" ", "")]
        envs = {json.loads(line)["id"]: json.loads(line) for line in open(results)
                if '"type":"environment"' in line.replace(" ", "")}
        tested = {s["commit"] for s in log["steps"]}
        check({r["variant"] for r in runs} == {c[:12] for c in tested}, "one variant per tested commit")
        tags = {envs[r["environment"]].get("tags", {}).get("commit") for r in runs if r.get("environment") in envs}
        check(tags == tested, f"each run's environment names its commit: {tags ^ tested}")
        check(sum(len(s["values"]) for s in log["steps"]) == len([r for r in runs if r.get("exit", {}).get("class") == "ok" and not r.get("warmup")]),
              "the steps' values are the runs'")
        rc, out, _ = run([GFXSTAT, "show", results])
        check(rc == 0 and ids[40][:12] in out, "show reads the results file")

        # The same steps file with other references: stop (128), not "bad".
        rc, _, err = run([GFXSTAT, "bisect", "step", "--good", bad, "--bad", good, *METRIC, "-C", repo, "-o", steps, "--",
                          os.path.join(repo, "prog")])
        check(rc == 128 and "other references" in err, f"other references: {rc} {err}")

        # Nothing to bisect: good against good.
        good2 = os.path.join(tmp, "good2.json")
        record(repo, ids[0], good2, 30)
        rc, out, err = run([GFXSTAT, "bisect", "check", "--good", good, "--bad", good2, *METRIC])
        check(rc == 1 and "nothing to bisect" in out, f"A/A check: exit {rc}: {out} {err}")
        rc, _, err = run([GFXSTAT, "bisect", "step", "--good", good, "--bad", good2, *METRIC, "-C", repo, "-o",
                          os.path.join(tmp, "aa.json"), "--", os.path.join(repo, "prog")])
        check(rc == 128 and "nothing to bisect" in err, f"A/A step stops the bisection: {rc} {err}")
        check(not os.path.exists(os.path.join(tmp, "aa.json")), "no steps file when nothing is bisected")

        # A commit that does not build is skipped: 125, recorded.
        with open(os.path.join(repo, "prog.c"), "a") as f:
            f.write("this does not compile;\n")
        git(repo, "commit", "-q", "-am", "broken")
        broken = git(repo, "rev-parse", "HEAD")
        skip_steps = os.path.join(tmp, "skip.json")
        rc, out, err = run([GFXSTAT, "bisect", "step", "--good", good, "--bad", bad, *METRIC, "-C", repo, "--build", BUILD,
                            "--steps", "6", "-o", skip_steps, "--", os.path.join(repo, "prog")])
        check(rc == 125, f"a failed build: 125, got {rc}: {out} {err}")
        check("build exited with status" in out + err and "| " in err, f"says why, with the build's output: {err}")
        s = json.load(open(skip_steps))["steps"][-1]
        check(s["commit"] == broken and s["build"] == "failed" and s["call"] == "skip" and s["exit"] == 125,
              f"the skip is recorded: {s}")
        rc, out, _ = run([GFXSTAT, "bisect", "report", skip_steps])
        check(rc == 1 and "build failed" in out and "not shown by the steps yet" in out, f"report of a skip: {out}")

        # A second bisection with a broken commit where it would look first:
        # it is skipped and the search still ends at the change.
        repo2 = os.path.join(tmp, "repo2")
        ids2 = make_repo(repo2, 16, 11, broken={7, 8})
        g2, b2 = os.path.join(tmp, "g2.json"), os.path.join(tmp, "b2.json")
        record(repo2, ids2[0], g2, 30)
        record(repo2, ids2[15], b2, 30)
        steps2 = os.path.join(tmp, "steps2.json")
        git(repo2, "bisect", "start", ids2[15], ids2[0])
        p = subprocess.run(["git", "-C", repo2, "bisect", "run", GFXSTAT, "bisect", "step", "--good", g2, "--bad",
                            b2, *METRIC, "--build", BUILD, "--max-runs", "80", "-o", steps2, "--",
                            os.path.join(repo2, "prog")], capture_output=True, text=True)
        out2 = p.stdout + p.stderr
        m = re.search(r"([0-9a-f]{40}) is the first bad commit", out2)
        check(m is not None and m.group(1) == ids2[11], f"bisect with skips names commit 11: {out2[-2000:]}")
        log2 = json.load(open(steps2))
        check(any(s["call"] == "skip" and s["build"] == "failed" for s in log2["steps"]),
              f"a broken commit was skipped: {[(ids2.index(s['commit']), s['call']) for s in log2['steps']]}")
        git(repo2, "bisect", "reset")

        # A kernel bisection, one step per boot: examples/bisect's boot
        # script run boot after boot, the reboot replaced by "the next call
        # runs the commit just built" and the first commit it boots failing
        # to come up (skipped, never measured as the wrong kernel).
        repo3 = os.path.join(tmp, "repo3")
        ids3 = make_repo(repo3, 16, 11)
        g3, b3 = os.path.join(tmp, "g3.json"), os.path.join(tmp, "b3.json")
        record(repo3, ids3[0], g3, 30)
        record(repo3, ids3[15], b3, 30)
        git(repo3, "checkout", "-q", "main")
        git(repo3, "bisect", "start", ids3[15], ids3[0])
        first = git(repo3, "rev-parse", "HEAD")
        state = os.path.join(tmp, "boot")
        os.makedirs(state)
        running, disabled = os.path.join(state, "running"), os.path.join(state, "disabled")
        steps3 = os.path.join(tmp, "steps3.json")
        boot_env = dict(os.environ, CONF="/nonexistent", REPO=repo3, GOOD_RESULTS=g3, BAD_RESULTS=b3, STEPS=steps3,
                        GFXSTAT=GFXSTAT, WORKLOAD=os.path.join(repo3, "prog"), STEP_OPTIONS="--max-runs 80 --target-metric cpu",
                        BUILD=BUILD, INSTALL="true", RUNNING=f"cat {running} 2>/dev/null",
                        REBOOT=f'c=$(git rev-parse HEAD); [ "$c" = {first} ] || echo "$c" > {running}',
                        DISABLE=f"touch {disabled}")
        script = os.path.join(SRC, "examples/bisect/kernel-bisect-at-boot.sh")
        boots, said = 0, ""
        while not os.path.exists(disabled) and boots < 20:
            p = subprocess.run(["sh", script], env=boot_env, capture_output=True, text=True)
            said += p.stderr
            boots += 1
        check(os.path.exists(disabled), f"the boot loop ended by itself: {boots} boots, last: {p.stderr[-1500:]}")
        report3 = steps3 + ".report.txt"
        text3 = open(report3).read() if os.path.exists(report3) else ""
        check(f"first bad commit: {ids3[11]}" in text3, f"the boot loop found commit 11: {text3}")
        log3 = json.load(open(steps3)) if os.path.exists(steps3) else {"steps": []}
        check(first not in [s["commit"] for s in log3["steps"]], "the commit that did not boot was not measured")
        check("did not boot; skipping it" in said, f"the skip is said: {said[-1500:]}")
        bisect_log = git(repo3, "bisect", "log", check_rc=False)
        check(f"git bisect skip {first}" in bisect_log, f"the commit that did not boot was skipped: {bisect_log}")
        git(repo3, "bisect", "reset")

        # Bad input. check: 2; step: 128 (never a status git reads as bad).
        rc, _, err = run([GFXSTAT, "bisect", "check", "--good", os.path.join(tmp, "none.json"), "--bad", bad])
        check(rc == 2 and "none.json" in err, f"check, missing file: {rc} {err}")
        rc, _, err = run([GFXSTAT, "bisect", "step", "--good", os.path.join(tmp, "none.json"), "--bad", bad, "-o",
                          os.path.join(tmp, "x.json"), "--", "true"])
        check(rc == 128 and "none.json" in err, f"step, missing file: {rc} {err}")
        rc, _, err = run([GFXSTAT, "bisect", "step", "--good", good, "--bad", bad, "--treshold", "2", "-o",
                          os.path.join(tmp, "x.json")])
        check(rc == 128 and "--threshold" in err, f"step, a mistyped option: {rc} {err}")
        rc, _, err = run([GFXSTAT, "bisect", "stpe", "--good", good])
        check(rc == 128 and "step" in err, f"a mistyped subcommand stops git bisect run: {rc} {err}")
        rc, _, err = run([GFXSTAT, "bisect", "check", "--good", good, "--bad", bad, "--target-metric", "cp"])
        check(rc == 2 and "cpu" in err, f"an unknown metric, with the nearest: {rc} {err}")
        bogus = os.path.join(tmp, "bogus.json")
        with open(bogus, "w") as f:
            f.write('{"format": "gfxstat-bisect",\n "version": 1,\n "plan": {]}\n')
        rc, _, err = run([GFXSTAT, "bisect", "report", bogus])
        check(rc == 2 and "bogus.json:3" in err, f"a broken steps file: {rc} {err}")
        # The steps file is never written through a link.
        link = os.path.join(tmp, "link.json")
        os.symlink(os.path.join(tmp, "target.json"), link)
        git(repo, "checkout", "-q", ids[0])
        rc, _, err = run([GFXSTAT, "bisect", "step", "--good", good, "--bad", bad, *METRIC, "-C", repo, "--steps", "6",
                          "-o", link, "--max-runs", "80", "--", os.path.join(repo, "prog")])
        check(rc == 128 and not os.path.exists(os.path.join(tmp, "target.json")),
              f"a link at -o is refused: {rc} {err}")
    finally:
        os.environ.clear()
        os.environ.update(env_keep)
        shutil.rmtree(tmp, ignore_errors=True)
    return finish("bisect_cli: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
