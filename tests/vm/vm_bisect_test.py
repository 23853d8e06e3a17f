#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ctest vm_bisect_reboot: a kernel bisection, one step per real boot.

examples/bisect/kernel-bisect-at-boot.sh (docs/bisect.md, "Kernels: a step
across a reboot") runs at every boot of a qemu guest in boot-loop mode
(tests/vm/README.md), with the guest's own git and gfxstat on a git
repository in the shared directory /state. What the guest cannot do is
build and boot a kernel per commit, so each commit's "kernel" is a small
benchmark: its build copies it to out/, its install puts out/ where the
next boot takes it (/state/boot/next, as grub-reboot names the next boot's
entry), and a "loader" command at the start of every boot makes it the
running one (/state/boot/running) — unless that commit's boot.conf says
it panics, and the boot falls back to the kernel that ran before. The
reboot is a real one (`reboot -f`: a new boot id).

The repository: COMMITS commits whose benchmark scores 3% lower from
commit STEP_AT on, one commit that fails to build and one that does not
come up, placed where the bisection looks (found by bisecting a copy of
the history on the host first). The references are recorded on the host
from the first and last commits' builds.

Checks: the guest powers off by itself; git and the report name commit
STEP_AT; every measured step's call is right; each step's runs were taken
in one boot of the guest, its own, and that boot ran the step's commit
(the steps' results file holds each run's boot id); the broken build and
the kernel that did not come up were skipped, never measured; one boot per
measured step plus the first boot and the failed one.

Exit 0: all checks passed; 1: a check failed; 77: qemu, the kernel image,
busybox or git is missing.
"""

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import build_initramfs  # noqa: E402
import run_vm  # noqa: E402
from build_initramfs import Unavailable  # noqa: E402

SKIP = 77
COMMITS = 16
STEP_AT = 11

# A run prints one score: the commit's level (100, then 97) times 100 plus
# 0..99 from /dev/urandom: about 0.3% of noise, so that each step decides
# in few runs (the statistics are tests/unit/drivers/bisect_test.cpp's; this test
# is about the boots).
BENCH = """#!/bin/sh
d=$(dirname "$0")
n=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
echo "score $(( $(cat "$d/level") * 100 + n % 100 ))"
"""
BUILD_OK = "#!/bin/sh\nrm -rf out && mkdir out && cp bench.sh level boot.conf out/\n"
BUILD_BROKEN = "#!/bin/sh\necho 'bench.c:1: error: this commit does not build' >&2\nexit 1\n"
METRIC = r"score=score ([0-9]+)"

# The guest's settings for the boot script (CONF): its stand-ins for a
# kernel's build, install, reboot and `uname -r`.
CONF = """REPO=/state/repo
GOOD_RESULTS=/state/good.json
BAD_RESULTS=/state/bad.json
STEPS=/state/steps.json
GFXSTAT=gfxstat
WORKLOAD='sh /state/boot/running/bench.sh'
STEP_OPTIONS='--target-metric score --max-runs 40'
BUILD='sh build.sh'
INSTALL='rm -rf /state/boot/next.tmp && cp -r out /state/boot/next.tmp && git rev-parse HEAD > /state/boot/next.tmp/commit && mv /state/boot/next.tmp /state/boot/next'
REBOOT='sync; reboot -f'
RUNNING='cut -c1-12 /state/boot/running/commit 2>/dev/null'
DISABLE='touch /state/bisect-done'
"""

# The boot loader's part: the installed kernel boots once (grub-reboot);
# one that panics leaves the one that ran before running.
LOADER = """cd /state/boot || exit 1
if [ -d next ]; then
    if grep -qx panics next/boot.conf; then
        echo "loader: $(cat next/commit) does not come up: the previous kernel boots"
    else
        rm -rf running && mv next running
    fi
    rm -rf next
fi
echo "loader: running $(cat running/commit)"
"""

# git's config for the guest: its HOME is the image's, and the repository
# on the share may belong to another user than the guest's root.
GIT_ENV = ("export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=safe.directory "
           "GIT_CONFIG_VALUE_0='*'; ")

COMMANDS = [
    {"name": "loader", "phase": "boot", "expect": [0], "timeout": 60, "run": LOADER},
    {"name": "step", "phase": "boot", "expect": [0], "timeout": 400,
     "run": GIT_ENV + "[ -e /state/bisect-done ] || CONF=/state/kernel-bisect.conf "
                      "sh /state/kernel-bisect-at-boot.sh"},
    {"name": "bisect_log", "expect": [0], "timeout": 60, "run": GIT_ENV + "git -C /state/repo bisect log"},
]


def git(repo, *args):
    p = subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("git %s: %s" % (" ".join(args), p.stderr.strip()))
    return p.stdout.strip()


def make_repo(repo, broken=None, panics=None):
    """COMMITS commits; the level drops from 100 to 97 at STEP_AT; commit
    `broken` does not build, commit `panics` does not come up. Fixed dates:
    the same history gives the same bisection. Returns the commit ids."""
    os.makedirs(repo)
    git(repo, "init", "-q", "-b", "main")
    ids = []
    for i in range(COMMITS):
        files = {"bench.sh": BENCH, "level": "%d\n" % (97 if i >= STEP_AT else 100),
                 "build.sh": BUILD_BROKEN if i == broken else BUILD_OK,
                 "boot.conf": "panics\n" if i == panics else "boots\n",
                 ".gitignore": "out/\n", "notes.txt": "".join("commit %d\n" % k for k in range(i + 1))}
        for name, text in files.items():
            with open(os.path.join(repo, name), "w") as f:
                f.write(text)
        git(repo, "add", "-A")
        stamp = "2026-12-01T10:%02d:00+00:00" % i
        p = subprocess.run(["git", "-C", repo, "commit", "-q", "-m", "commit %d" % i], capture_output=True,
                           text=True, env=dict(os.environ, GIT_AUTHOR_DATE=stamp, GIT_COMMITTER_DATE=stamp))
        if p.returncode != 0:
            raise RuntimeError("git commit: " + p.stderr)
        ids.append(git(repo, "rev-parse", "HEAD"))
    return ids


def plan_skips(workdir):
    """The commits the bisection tests first and second, found by bisecting
    an unmarked copy of the history on the host (marking a commit changes
    its id, not the history's shape, which is all git's choices depend
    on): the first will not build, the second will not come up. Neither
    is next to the change, or git could not name it. Returns (broken,
    panics)."""
    repo = os.path.join(workdir, "plan-repo")
    ids = make_repo(repo)
    git(repo, "bisect", "start", ids[-1], ids[0])
    chosen = []
    for _ in range(COMMITS):
        i = ids.index(git(repo, "rev-parse", "HEAD"))
        skip = len(chosen) < 2 and i not in (STEP_AT - 1, STEP_AT)
        if skip:
            chosen.append(i)
        p = subprocess.run(["git", "-C", repo, "bisect", "skip" if skip else ("bad" if i >= STEP_AT else "good")],
                           capture_output=True, text=True)
        if "is the first bad commit" in p.stdout or p.returncode != 0:
            break
    shutil.rmtree(repo)
    if len(chosen) < 2:
        raise RuntimeError("the bisection tested fewer than two commits to mark: %s" % chosen)
    return chosen[0], chosen[1]


def host(argv, timeout=120):
    p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def record(gfxstat, build_dir, out):
    """The references: 12 runs of a build's benchmark, on the host."""
    rc, so, se = host([gfxstat, "run", "--metric", METRIC, "--higher-is-better", "--runs", "12", "--no-check",
                       "-o", out, "--", "sh", os.path.join(build_dir, "bench.sh")])
    if rc != 0:
        raise RuntimeError("gfxstat run %s: exit %d: %s" % (build_dir, rc, se))


def prepare(share, gfxstat, src):
    """The shared directory as the guest's first boot finds it: the
    repository mid-bisection (git checked out its first commit to test),
    the references, the boot script and its settings, and the bad kernel
    running, as on the machine where the regression was seen."""
    broken, panics = plan_skips(share)
    repo = os.path.join(share, "repo")
    ids = make_repo(repo, broken=broken, panics=panics)
    boot = os.path.join(share, "boot")
    os.makedirs(boot)
    for name, i in (("ref-good", 0), ("ref-bad", COMMITS - 1)):
        git(repo, "checkout", "-q", ids[i])
        subprocess.run(["sh", "build.sh"], cwd=repo, check=True)
        shutil.copytree(os.path.join(repo, "out"), os.path.join(share, name))
        shutil.rmtree(os.path.join(repo, "out"))
    record(gfxstat, os.path.join(share, "ref-good"), os.path.join(share, "good.json"))
    record(gfxstat, os.path.join(share, "ref-bad"), os.path.join(share, "bad.json"))
    shutil.copytree(os.path.join(share, "ref-bad"), os.path.join(boot, "running"))
    with open(os.path.join(boot, "running", "commit"), "w") as f:
        f.write(ids[-1] + "\n")
    git(repo, "checkout", "-q", "main")
    git(repo, "bisect", "start", ids[-1], ids[0])
    shutil.copy(os.path.join(src, "examples/bisect/kernel-bisect-at-boot.sh"), share)
    with open(os.path.join(share, "kernel-bisect.conf"), "w") as f:
        f.write(CONF)
    return ids, broken, panics


def guest_extras():
    """git, with the parts of git-core that `git bisect` runs (a shell
    script in Debian 12's git, sourcing git-sh-setup and git-sh-i18n, which
    runs git-sh-i18n--envsubst)."""
    git_bin = shutil.which("git") or "/usr/bin/git"
    core = "/usr/lib/git-core"
    extras = [{"path": "/bin/git", "source": os.path.realpath(git_bin)},
              {"path": core + "/git", "symlink": "/bin/git"}]
    for name in ("git-bisect", "git-sh-setup", "git-sh-i18n", "git-sh-i18n--envsubst"):
        if os.path.exists(os.path.join(core, name)):
            extras.append({"path": core + "/" + name, "source": os.path.join(core, name)})
    return extras


class Checks:
    def __init__(self):
        self.rows = []

    def check(self, name, passed, detail=""):
        self.rows.append((name, bool(passed), detail))
        return bool(passed)


def evaluate(run, share, ids, broken, panics, gfxstat):
    ck = Checks()
    ck.check("the guest powered off by itself", run.done and not run.kernel_panic and not run.timed_out,
             "done %s, panic %s, timed out %s" % (run.done, run.kernel_panic, run.timed_out))
    ck.check("the boot loop was not cut short", not (run.boot_cap or run.host_boot_cap))
    ck.check("the script disabled itself at the end", os.path.exists(os.path.join(share, "bisect-done")))
    report = ""
    try:
        with open(os.path.join(share, "steps.json.report.txt")) as f:
            report = f.read()
    except OSError:
        pass
    ck.check("the guest's report names commit %d" % STEP_AT, "first bad commit: %s" % ids[STEP_AT] in report,
             report[-600:])
    bl = run.commands["bisect_log"]
    blog = bl.text() if bl.state != "missing" else ""
    ck.check("git named commit %d" % STEP_AT, "# first bad commit: [%s]" % ids[STEP_AT] in blog, blog[-800:])
    ck.check("the commit that did not build was skipped", "git bisect skip %s" % ids[broken] in blog)
    ck.check("the kernel that did not come up was skipped", "git bisect skip %s" % ids[panics] in blog)

    try:
        with open(os.path.join(share, "steps.json")) as f:
            steps = json.load(f)["steps"]
    except (OSError, ValueError, KeyError) as e:
        ck.check("the steps file", False, str(e))
        return ck
    measured = [s for s in steps if s.get("call") in ("good", "bad")]
    calls = [(ids.index(s["commit"]) if s.get("commit") in ids else s.get("commit"), s.get("call")) for s in steps]
    ck.check("every call is right", measured and all(
        s["call"] == ("bad" if ids.index(s["commit"]) >= STEP_AT else "good") for s in measured), str(calls))
    ck.check("the skipped commits were never measured",
             not {ids[broken], ids[panics]} & {s.get("commit") for s in steps}, str(calls))

    # Each step's runs: one boot, the guest's, a different one per step.
    guest_boots = [b.boot_id for b in run.boots if b.boot_id]
    runs = []
    try:
        with open(os.path.join(share, "steps.results.json")) as f:
            recs = run_vm.json_lines(f.read())
        envs = {r.get("id"): r for r in recs if r.get("type") == "environment"}
        runs = [r for r in recs if r.get("type") == "run"]
    except OSError as e:
        ck.check("the steps' results file", False, str(e))
        envs = {}
    boot_of = {}
    for r in runs:
        commit = (envs.get(r.get("environment")) or {}).get("tags", {}).get("commit")
        boot_of.setdefault(commit, set()).add(r.get("boot"))
    ck.check("each measured commit's runs share one boot",
             all(len(boot_of.get(s["commit"], ())) == 1 for s in measured),
             str({c[:12] if c else c: sorted(b) for c, b in boot_of.items()}))
    step_boots = [next(iter(boot_of[s["commit"]])) for s in measured if len(boot_of.get(s["commit"], ())) == 1]
    ck.check("a different boot for each step", len(set(step_boots)) == len(step_boots) == len(measured))
    ck.check("all of them the guest's boots", step_boots and all(b in guest_boots for b in step_boots),
             "steps %s, guest %s" % (step_boots, guest_boots))
    # The running kernel of each step's boot was that step's commit: the
    # loader's line in that boot says so.
    said = {}
    for b in run.boots:
        c = b.commands.get("loader")
        if c is not None and c.state != "missing":
            m = re.search(r"loader: running ([0-9a-f]{40})", c.text())
            if m:
                said[b.boot_id] = m.group(1)
    ck.check("each step ran in a boot of its own commit",
             measured and all(said.get(next(iter(boot_of.get(s["commit"], {None})))) == s["commit"] for s in measured),
             str(said))
    ck.check("one boot per measured step, plus the first and the one that failed",
             len(run.boots) == len(measured) + 2, "%d boots, %d steps" % (len(run.boots), len(measured)))
    rc, so, se = host([gfxstat, "bisect", "report", os.path.join(share, "steps.json")])
    ck.check("the host's bisect report names it", rc == 0 and "first bad commit: %s" % ids[STEP_AT] in so,
             "exit %d %s" % (rc, (so + se)[-400:]))
    return ck


def faults_caught(run, share, ids, broken, panics, gfxstat):
    """The checks can fail: each fault, made in a copy of what the VM left,
    must fail at least one of them. Returns the faults no check caught."""
    def other_boot(d):
        path = os.path.join(d, "steps.results.json")
        with open(path) as f:
            lines = f.read().splitlines()
        for i, line in enumerate(lines):
            r = json.loads(line)
            if r.get("type") == "run":
                r["boot"] = "00000000-0000-4000-8000-000000000000"
                lines[i] = json.dumps(r)
                break
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")

    def wrong_call(d):
        path = os.path.join(d, "steps.json")
        with open(path) as f:
            log = json.load(f)
        for st in log["steps"]:
            if st.get("call") in ("good", "bad"):
                st["call"] = "bad" if st["call"] == "good" else "good"
                break
        with open(path, "w") as f:
            json.dump(log, f)

    def never_finished(d):
        os.remove(os.path.join(d, "bisect-done"))

    missed = []
    for fault in (other_boot, wrong_call, never_finished):
        copy = share + ".fault"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(share, copy, symlinks=True)
        fault(copy)
        if all(passed for _, passed, _ in evaluate(run, copy, ids, broken, panics, gfxstat).rows):
            missed.append(fault.__name__)
        shutil.rmtree(copy, ignore_errors=True)
    return missed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gfxstat", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--timeout", type=float, default=float(os.environ.get("GFXSTAT_VM_TIMEOUT", "420")),
                    help="qemu wall limit, seconds")
    ap.add_argument("--accel", default=os.environ.get("GFXSTAT_VM_ACCEL", "tcg"))
    ap.add_argument("--keep", default=os.environ.get("GFXSTAT_VM_KEEP"),
                    help="keep the image, console log and shared directory here")
    a = ap.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        run_vm.find_qemu()
        build_initramfs.find_busybox()
        build_initramfs.pick_kernel(None, "9p")
        if not shutil.which("git"):
            raise Unavailable("git is not installed")
    except Unavailable as e:
        print("vm_bisect: SKIPPED: %s" % e)
        return SKIP
    workdir = a.keep or tempfile.mkdtemp(prefix="gfxstat-vm-bisect-")
    os.makedirs(workdir, exist_ok=True)
    share = os.path.join(workdir, "share")
    if os.path.exists(share):
        shutil.rmtree(share)
    os.makedirs(share)
    saved = dict(os.environ)
    os.environ.update({"GIT_AUTHOR_NAME": "gfxstat test", "GIT_AUTHOR_EMAIL": "test@example.org",
                       "GIT_COMMITTER_NAME": "gfxstat test", "GIT_COMMITTER_EMAIL": "test@example.org",
                       "GIT_CONFIG_NOSYSTEM": "1", "HOME": workdir})
    t0 = time.monotonic()
    try:
        ids, broken, panics = prepare(share, a.gfxstat, a.source)
        print("vm_bisect: %d commits, the change at %d; commit %d does not build, commit %d does not come up"
              % (COMMITS, STEP_AT, broken, panics))
        run = run_vm.boot(a.gfxstat, COMMANDS, timeout=a.timeout, accel=a.accel, keep=os.path.join(workdir, "vm"),
                          share=share, max_boots=12, modules=(), extras=guest_extras())
        run_vm.report(run)
        print("vm_bisect: %d boots, qemu %.1f s" % (len(run.boots), run.wall_s))
        ck = evaluate(run, share, ids, broken, panics, a.gfxstat)
        missed = faults_caught(run, share, ids, broken, panics, a.gfxstat)
        ck.check("faults made in a copy of the results fail the checks", not missed, "not caught: %s" % missed)
    except Unavailable as e:
        print("vm_bisect: SKIPPED: %s" % e)
        return SKIP
    finally:
        os.environ.clear()
        os.environ.update(saved)
        if a.keep is None:
            shutil.rmtree(workdir, ignore_errors=True)
    print("vm_bisect: checks:")
    for name, passed, detail in ck.rows:
        print("  [%s] %s%s" % ("PASS" if passed else "FAIL", name, " (%s)" % detail if detail and not passed else ""))
    failed = [r for r in ck.rows if not r[1]]
    print("vm_bisect: %d checks, %d failed, %.1f s" % (len(ck.rows), len(failed), time.monotonic() - t0))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
