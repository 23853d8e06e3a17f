#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gfxstat campaign end to end, with simulated reboots: the boot id comes
from a file (GFXSTAT_BOOT_ID_FILE) and the plan's reboot command writes a
new one, as a real reboot changes /proc/sys/kernel/random/boot_id.

The centre is the kill test: a whole campaign driven by `resume` after
`resume`, each killed with SIGKILL at a random moment most of the time
(during a run, between a run and its record, between the record and the
journal, in the reboot command...), hundreds of times; the final results
must hold every planned step exactly once, each slot in its own boot.
Then the guards: interrupted runs retried up to a cap, a deploy that does
not come up, a crash loop, stop and continue, an unexpected reboot in the
middle of a slot, a second resume at the same time, SIGTERM, plan errors,
install-service, status and analyze."""

import argparse
import ctypes
import fcntl
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import check, finish, run, write  # noqa: E402


def options():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gfxstat", required=True)
    ap.add_argument("--source", required=True)
    # To run one test again and again (a flake hunt): --only kill
    ap.add_argument("--only", action="append", default=[],
                    help="run only the tests whose name contains this (repeatable)")
    return ap.parse_args()


OPTIONS = options()
GFXSTAT, SOURCE = OPTIONS.gfxstat, OPTIONS.source

# Writes a new boot id atomically (a reboot). Used as the plan's reboot command.
REBOOT = ("new=$(cat /proc/sys/kernel/random/uuid); "
          "printf '%s\\n' \"$new\" > \"$GFXSTAT_BOOT_ID_FILE.tmp\" && "
          "mv \"$GFXSTAT_BOOT_ID_FILE.tmp\" \"$GFXSTAT_BOOT_ID_FILE\"")


class Campaign:
    """A campaign directory with its own simulated machine (boot id file)."""

    def __init__(self, root, name, plan):
        self.root = os.path.join(root, name)
        os.makedirs(self.root)
        self.boot_file = os.path.join(self.root, "boot_id")
        self.reboot()
        self.dir = os.path.join(self.root, "c")
        self.plan_path = write(self.root, "plan.json", json.dumps(plan))
        self.env = dict(os.environ, GFXSTAT_BOOT_ID_FILE=self.boot_file, MACHINE=self.root)

    def reboot(self):
        with open(self.boot_file + ".tmp", "w") as f:
            f.write(f"{random.getrandbits(128):032x}\n")
        os.replace(self.boot_file + ".tmp", self.boot_file)

    def boot(self):
        with open(self.boot_file) as f:
            return f.read().strip()

    def gfx(self, *args, timeout=120):
        p = subprocess.run([GFXSTAT, "campaign", *args], env=self.env, capture_output=True, timeout=timeout)
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")

    def init(self):
        return self.gfx("init", self.plan_path, "-d", self.dir)

    def resume(self, *extra):
        return self.gfx("resume", self.dir, *extra)

    def start_resume(self, until, *extra, settle=0.1):
        """A resume in the background, returned once `until(self)` holds
        (plus `settle` seconds, to be inside what it waited for)."""
        p = subprocess.Popen([GFXSTAT, "campaign", "resume", self.dir, *extra], env=self.env,
                             stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not until(self):
            time.sleep(0.02)
        check(until(self), "the background resume got where the test waits for it")
        time.sleep(settle)
        return p

    def events(self, kind):
        return sum(e["type"] == kind for e in self.journal())

    def status(self):
        rc, out, err = self.gfx("status", self.dir, "--json")
        check(rc == 0, f"status --json exits 0 ({rc}: {err})")
        return json.loads(out) if rc == 0 else {}

    def plan(self):
        with open(os.path.join(self.dir, "plan.json")) as f:
            return json.load(f)

    def runs(self):
        out = []
        with open(os.path.join(self.dir, "results.json")) as f:
            for line in f:
                if not line.endswith("\n"):
                    continue
                rec = json.loads(line)
                if rec.get("type") == "run":
                    out.append(rec)
        return out

    def journal(self):
        with open(os.path.join(self.dir, "journal.jsonl")) as f:
            return [json.loads(line) for line in f if line.endswith("\n")]

    def drive(self, limit=60):
        """Resumes (as the service would at each boot) until complete."""
        for _ in range(limit):
            rc, out, err = self.resume()
            if rc != 0:
                return rc, err
            if "complete" in err:
                return 0, err
        return -1, "not complete after %d resumes" % limit


def schedule_problems(c, expect_ok=True):
    """Everything wrong with the results against the plan's schedule."""
    plan = c.plan()
    runs = c.runs()
    problems = []
    by_step = {}
    for r in runs:
        if "campaign_step" not in r:
            problems.append(f"run {r['variant']} #{r['run']} has no campaign_step")
            continue
        by_step.setdefault(r["campaign_step"], []).append(r)
    slot_boots = {}
    for slot in plan["schedule"]:
        for st in slot["steps"]:
            got = by_step.pop(st["step"], [])
            if len(got) != 1:
                problems.append(f"step {st['step']} recorded {len(got)} times")
                continue
            r = got[0]
            if r["variant"] != st["variant"] or r.get("warmup", False) != st["warmup"]:
                problems.append(f"step {st['step']}: {r['variant']}/{r.get('warmup')} instead of "
                                f"{st['variant']}/{st['warmup']}")
            if expect_ok and r["exit"]["class"] != "ok":
                problems.append(f"step {st['step']} ended {r['exit']}")
            if not r.get("boot"):
                problems.append(f"step {st['step']} has no boot")
            slot_boots.setdefault(slot["slot"], set()).add(r.get("boot"))
    for k in by_step:
        problems.append(f"step {k} is not in the schedule")
    seen = {}
    for slot, boots in slot_boots.items():
        if len(boots) != 1:
            problems.append(f"slot {slot} ran in {len(boots)} boots")
        for b in boots:
            if b in seen:
                problems.append(f"boot {b} used by slots {seen[b]} and {slot}")
            seen[b] = slot
    return problems


def switchable_plan(**kw):
    plan = {
        "variants": [{"label": "a", "reboot": False},
                     {"label": "b", "reboot": False, "env": {"OFFSET": "3"}}],
        "workload": {"command": ["sh", "-c", "echo $(( ${OFFSET:-0} + 100 )).$(( $$ % 10 ))"],
                     "parser": "lines", "metric_name": "fps", "unit": "fps", "direction": "higher"},
        "runs_per_boot": 3, "boots_per_variant": 3, "warmup_runs": 1, "order": "abba", "seed": 7,
        "reboot_command": REBOOT,
    }
    plan.update(kw)
    return plan


# Each variant is "booted" by writing MACHINE/next before the reboot; the
# reboot command makes it current (a one-shot grub-reboot entry), and the
# expect check reads it.
def reboot_variant(label, deploy=True):
    return {"label": label, "reboot": True,
            "before_reboot": ["sh", "-c", f"echo {label} > \"$MACHINE/next\""] if deploy else
            ["sh", "-c", "true"],
            "expect": {"command": ["sh", "-c", f"grep -qx {label} \"$MACHINE/current\""]}}


KERNEL_REBOOT = ("if [ -e \"$MACHINE/next\" ]; then mv \"$MACHINE/next\" \"$MACHINE/current\"; "
                 "else echo default > \"$MACHINE/current\"; fi; " + REBOOT)
# A real reboot cannot be cut in half: `systemctl reboot` hands it to PID 1,
# which goes on when the command is killed, ends every process, and only
# then does the boot id change; no resume ever sees the boot change under
# it. The kill test's machine is faithful to that:
# - its reboot is handed off too (`handed_off`): a second shell that goes
#   on when the reboot command, or the resume that started it, is killed
#   (gfxstat's children may die with it: PR_SET_PDEATHSIG);
# - this test process is a child subreaper while it kills, and after each
#   resume it waits until everything that resume started has ended (the
#   handed-off reboot above all) before the next resume starts.
# Before, a lock held by the reboot command stood for "the machine is
# down", but a kill that landed between the command's start and its taking
# the lock let the next resume start; a reboot issued again from there then
# ended while a third resume ran: "slot 2 ran in 2 boots" (issue 14).
PR_SET_CHILD_SUBREAPER = 36
LIBC = ctypes.CDLL(None, use_errno=True)


class Subreaper:
    """While inside, processes orphaned by a killed resume become children
    of this process, for `machine_settles` to wait for."""

    def __enter__(self):
        if LIBC.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")
        return self

    def __exit__(self, *exc):
        machine_settles()
        LIBC.prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
        return False


def machine_settles(timeout=60):
    """Waits until this process has no children left (the orphans of killed
    resumes, inside a Subreaper); False if some are still there after
    `timeout` seconds. Called only when no child it started still runs."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return True
        if pid == 0:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.001)


def handed_off(c, name, script):
    """A plan command that hands `script` to a shell of its own, as
    systemctl hands a reboot to PID 1: killing the command, or the resume
    that started it, once the script has started does not stop it. The
    trailing `true` keeps the command's shell from exec'ing into it."""
    write(c.root, name, script)
    return f"sh \"$MACHINE/{name}\"; true"


def kill_resume(p):
    """SIGKILLs the resume `p` (unless it has ended) and waits for what it
    started, as a machine would for a reboot it issued; True if it was
    killed. Inside a Subreaper."""
    killed = p.poll() is None
    if killed:
        p.send_signal(signal.SIGKILL)
    p.wait()
    if p.stderr:
        p.stderr.read()
    check(machine_settles(), "what a killed resume started ends within a minute")
    return killed


def test_switchable(root):
    c = Campaign(root, "switchable", switchable_plan())
    rc, out, err = c.init()
    check(rc == 0, f"init exits 0 ({rc}: {err})")
    check("24 runs (18 measured)" in out and "(3 per variant)" in out, f"init says what it planned: {out}")
    st = c.status()
    check(st.get("complete") is False and st.get("remaining") == 24 and st.get("phase") == "not started",
          f"status before the first resume: {st}")
    # The ETA needs a run and a reboot measured: unknown, then known.
    c.resume()  # reboot_first: reboots at once
    st = c.status()
    check(st.get("eta_s") is None and st.get("state") == "rebooting", f"no ETA before a run: {st}")
    c.resume()  # slot 1 of 3
    st = c.status()
    check(isinstance(st.get("eta_s"), (int, float)) and st["eta_s"] > 0 and st.get("remaining") == 16,
          f"an ETA once a run and a reboot were timed: {st}")
    rc, out, err = c.gfx("status", c.dir)
    check("ETA" in out and "16 runs at" in out and "2 reboots at" in out, f"the text ETA says what it counts: {out}")
    rc, err = c.drive()
    check(rc == 0, f"the campaign completes ({rc}: {err})")
    check(schedule_problems(c) == [], f"results equal the plan: {schedule_problems(c)}")
    st = c.status()
    check(st.get("complete") is True and st.get("remaining") == 0 and st.get("state") == "complete" and
          st.get("eta_s") == 0, f"status when complete: {st}")
    check(st.get("reboots") == 3, f"3 reboots (reboot_first, 3 slots): {st.get('reboots')}")
    check([len(v["boots"]) for v in st.get("variants", [])] == [3, 3], f"3 boots per variant: {st.get('variants')}")
    rc, out, err = c.gfx("status", c.dir)
    check(rc == 0 and "complete" in out and "24 of 24 done (18 of 18 measured)" in out,
          f"text status: {out}")
    # Each boot holds both variants, interleaved: paired by boot.
    rc, out, err = c.gfx("analyze", c.dir, "--full")
    check(rc == 0, f"analyze exits 0 ({rc}: {err})")
    check("paired by boot" in out and "a: measured in 3 boots" in out, f"analyze states the design: {out[:400]}")
    check("b vs x a" in out or "+ b vs x a" in out, f"analyze compares b with a: {out[:800]}")
    rc, out, err = c.gfx("analyze", c.dir, "--format", "json")
    check(rc == 0 and json.loads(out).get("comparisons") is not None if rc == 0 else False,
          f"analyze --format json keeps stdout JSON ({rc}: {err[:200]})")
    check("campaign switchable" not in out and "paired by boot" in err, "the design goes to stderr with JSON")
    # A complete campaign resumes to nothing.
    n = len(c.runs())
    rc, out, err = c.resume()
    check(rc == 0 and "complete" in err and len(c.runs()) == n, f"resume of a complete campaign ({rc}: {err})")
    # Warm-ups and order inside a boot, from the schedule.
    first = c.plan()["schedule"][0]["steps"]
    check([(s["variant"], s["warmup"]) for s in first] ==
          [("a", True), ("b", True), ("a", False), ("b", False), ("b", False), ("a", False), ("a", False),
           ("b", False)], f"slot 0 order: {first}")


def test_reboot_variants(root):
    # Each boot has its own level and each run a little noise: boot-to-boot
    # variance dominates, as in the two-peak threads. The levels are fixed
    # (old: 100 125 105, new: 130 115 135), so that the verdict is
    # inconclusive on 3 boot means a side, and asks for more boots.
    levels = ("n=$(cat \"$MACHINE/nboot\" 2>/dev/null || echo 0); echo $((n + 1)) > \"$MACHINE/nboot\"; "
              "set -- 100 130 115 125 105 135; shift $((n % 6)); echo $1 > \"$MACHINE/level\"; ")
    plan = switchable_plan(variants=[reboot_variant("old"), reboot_variant("new")],
                           reboot_command=levels + KERNEL_REBOOT, runs_per_boot=3, boots_per_variant=3)
    plan["workload"]["command"] = ["sh", "-c", "echo $(cat \"$MACHINE/level\").$(od -An -N1 -tu1 /dev/urandom | "
                                               "tr -d ' ')"]
    c = Campaign(root, "kernels", plan)
    rc, out, err = c.init()
    check(rc == 0, f"init of a reboot campaign ({rc}: {err})")
    rc, err = c.drive()
    check(rc == 0, f"the reboot campaign completes ({rc}: {err})")
    check(schedule_problems(c) == [], f"results equal the plan: {schedule_problems(c)}")
    slots = [s["variants"] for s in c.plan()["schedule"]]
    check(slots == [["old"], ["new"], ["new"], ["old"], ["old"], ["new"]], f"ABBA slots: {slots}")
    boots = {}
    for r in c.runs():
        boots.setdefault(r["variant"], set()).add(r["boot"])
    check(len(boots.get("old", ())) == 3 and len(boots.get("new", ())) == 3 and
          not (boots["old"] & boots["new"]), f"each variant in its own 3 boots: {boots}")
    rc, out, err = c.gfx("analyze", c.dir, "--full")
    check(rc == 0 and "separate boots" in out, f"analyze says the variants are in separate boots ({rc}): {out[:300]}")
    verdict = " ".join(out.split("new vs x old", 1)[-1].split())
    check("on boot means" in verdict and "boots per side would resolve" in verdict and
          "More boots (the plan's boots_per_variant), not more runs (runs_per_boot)" in verdict,
          f"the boot is the unit, and more boots (the plan's knob) are asked for: {verdict}")
    # One boot per variant: boot and variant cannot be told apart.
    plan["boots_per_variant"] = 1
    c = Campaign(root, "one-boot", plan)
    c.init()
    c.drive()
    rc, out, err = c.gfx("analyze", c.dir, "--full")
    flat = " ".join(out.split())
    check(rc == 0 and "warning: one boot" in flat and "boot and variant are confounded" in flat,
          f"a single boot per variant is warned about ({rc}): {flat[-600:]}")


def test_kill(root, kills_wanted=300):
    """SIGKILL at random moments, campaign after campaign, until enough kills."""
    kills = 0
    # Each round ends when its campaign completes; a sanitizer build makes
    # more progress per killed resume (its span is longer), so that its rounds
    # end with fewer kills (about 47 against 300 wanted): up to ten rounds.
    for round_ in range(10):
        kills += kill_campaign(root, f"kill{round_}", kills_wanted - kills, seed=20261130 + round_)
        if kills >= kills_wanted:
            break
    check(kills >= kills_wanted, f"{kills_wanted} kills happened ({kills})")


def kill_campaign(root, name, kills_wanted, seed):
    """Drives one campaign to completion under kills; returns how many."""
    plan = switchable_plan(runs_per_boot=4, boots_per_variant=12, warmup_runs=1,
                           max_run_attempts=100000, max_resumes_without_progress=100000, max_reboots=100000)
    plan["variants"] = [reboot_variant("a"), reboot_variant("b"),
                        {"label": "c", "reboot": False, "env": {"OFFSET": "2"}},
                        {"label": "d", "reboot": False, "setup": "test -n \"$MACHINE\""}]
    plan["workload"]["command"] = ["sh", "-c", "sleep 0.002; echo $(( ${OFFSET:-0} + 100 ))"]
    c = Campaign(root, name, plan)
    plan["reboot_command"] = handed_off(c, "reboot.sh", KERNEL_REBOOT)
    c.plan_path = write(c.root, "plan.json", json.dumps(plan))
    rc, out, err = c.init()
    check(rc == 0, f"init of the kill campaign ({rc}: {err})")
    total = len(c.plan()["schedule"]) and sum(len(s["steps"]) for s in c.plan()["schedule"])
    rng = random.Random(seed)
    kills = resumes = 0
    # Most kills land within a run or two of the start, so that each killed
    # resume gets little done and the kills spread over every kind of moment.
    # A sanitizer build starts slower: the span grows with the start-up time.
    started = time.monotonic()
    for _ in range(3):
        c.status()
    startup = (time.monotonic() - started) / 3
    span = 2 * startup + 0.015
    deadline = time.monotonic() + 240
    with Subreaper():
        while time.monotonic() < deadline:
            resumes += 1
            p = subprocess.Popen([GFXSTAT, "campaign", "resume", c.dir], env=c.env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            if kills < kills_wanted and rng.random() < 0.9:
                time.sleep(rng.uniform(0, span))
                kills += kill_resume(p)
                continue
            err = p.stderr.read().decode(errors="replace")
            p.wait()
            check(machine_settles(), "what a resume started ends within a minute")
            if p.returncode != 0:
                check(False, f"an unkilled resume exits 0 ({p.returncode}: {err[-500:]})")
                break
            if "complete" in err:
                break
    print(f"kill test: {resumes} resumes, {kills} killed with SIGKILL within {span * 1000:.0f} ms, {total} steps")
    st = c.status()
    check(st.get("complete") is True and st.get("remaining") == 0, f"complete after the kills: {st}")
    problems = schedule_problems(c)
    check(problems == [], f"after {kills} kills the results equal the plan: {problems[:10]}")
    # Nothing torn is left behind, and the journal saw the interrupted runs.
    with open(os.path.join(c.dir, "results.json"), "rb") as f:
        check(f.read().endswith(b"\n"), "results.json ends with a whole line")
    rc, out, err = run([GFXSTAT, "show", os.path.join(c.dir, "results.json")])
    check(rc == 0 and "incomplete" not in err, f"show reads the results cleanly ({rc}: {err[:300]})")
    j = c.journal()
    intents = sum(1 for e in j if e["type"] == "intent")
    check(intents >= total, f"every step was announced before it ran ({intents} intents, {total} steps)")
    kinds = {a["kind"] for a in st.get("anomalies", [])}
    check("foreign_run" not in kinds, "no run was recorded twice")
    # Where the kills landed, from what they left: a run announced and never
    # recorded; a run recorded whose "done" never made it to the journal (the
    # next resume writes it); a reboot issued again because the first was
    # cut short.
    lost_runs = intents - total
    undone = sum(1 for e in j if e["type"] == "done" and e.get("detail", "").startswith("journalled after a crash"))
    reissued = sum(1 for e in j if e["type"] == "reboot" and e.get("attempt", 1) > 1)
    print(f"kill test: {lost_runs} runs interrupted and re-run, {undone} records without their done event, "
          f"{reissued} reboots issued again")
    check(kills < 50 or lost_runs > 0, "kills landed in runs")
    # Reported exactly when some happened: a second round, when the first
    # completed short of the kills wanted, may have only a few kills and no
    # run among them (which made this check fail now and then).
    check(("interrupted_run" in kinds) == (lost_runs > 0),
          f"interrupted runs are reported when there were some ({lost_runs}): {sorted(kinds)}")
    return kills


def test_install_service_checks(root):
    """What a unit that runs as root at every boot would run must be root's
    alone: the campaign directory, its plan, gfxstat and its directory; a
    link planted in --unit-dir is not followed; the unit is 0644."""
    if os.geteuid() != 0:
        print("test_install_service_checks: skipped: planting files of another user, and a campaign install-service "
              "accepts, need root")
        return
    c = Campaign(root, "service-checks", switchable_plan(name="checks"))
    c.init()
    units = os.path.join(root, "units-checks")
    os.makedirs(units)
    unit = os.path.join(units, "gfxstat-campaign-" + escape_path(os.path.realpath(c.dir)) + ".service")
    plan = os.path.join(c.dir, "plan.json")

    def refused(what, words, exe=GFXSTAT, unit_dir=units):
        p = subprocess.run([exe, "campaign", "install-service", c.dir, "--unit-dir", unit_dir], env=c.env,
                           capture_output=True, text=True)
        check(p.returncode == 2 and all(w in p.stderr for w in words) and not os.path.lexists(unit),
              f"install-service refuses {what} ({p.returncode}: {p.stderr})")
        if os.path.lexists(unit):
            os.unlink(unit)  # written where it should not have been: the next checks start clean

    for path, mode, what, words in [
            (c.dir, 0o777, "a world-writable campaign directory",
             [c.dir, "the campaign directory is writable by other users (mode 0777)"]),
            (c.dir, 0o775, "a group-writable campaign directory", [c.dir, "writable by its group"]),
            (c.root, 0o777, "a campaign under a world-writable directory",
             [c.root, "a directory above the campaign directory is writable by other users"]),
            (plan, 0o666, "a world-writable plan", [plan, "the campaign's plan is writable by other users"])]:
        old = os.stat(path).st_mode & 0o7777
        os.chmod(path, mode)
        refused(what, words)
        os.chmod(path, old)
    for path, what in [(c.dir, "the campaign directory"), (plan, "the campaign's plan")]:
        os.chown(path, 65534, 65534)
        refused(f"{what} of another user", [path, what + " is owned by user 65534, not by root"])
        os.chown(path, 0, 0)
    os.rename(plan, plan + ".real")
    os.symlink(plan + ".real", plan)
    refused("a plan that is a link", [plan, "is a symbolic link"])
    os.unlink(plan)
    os.rename(plan + ".real", plan)

    # gfxstat itself, and its directory.
    bindir = os.path.join(root, "bin-checks")
    os.makedirs(bindir)
    exe = os.path.join(bindir, "gfxstat")
    shutil.copy(GFXSTAT, exe)
    os.chmod(exe, 0o757)
    refused("a world-writable gfxstat", [exe, "the gfxstat executable is writable by other users"], exe=exe)
    os.chmod(exe, 0o755)
    os.chmod(bindir, 0o777)
    refused("gfxstat in a world-writable directory",
            [bindir, "a directory above the gfxstat executable is writable by other users"], exe=exe)
    os.chmod(bindir, 0o755)
    os.chown(exe, 65534, 65534)
    refused("a gfxstat of another user", [exe, "is owned by user 65534"], exe=exe)
    os.chown(exe, 0, 0)

    # A unit directory others can write to without the sticky bit: they
    # could replace the unit.
    os.chmod(units, 0o777)
    refused("a world-writable unit directory", [units, "the unit directory is writable by other users"])
    # A sticky one (like /tmp): a link another user planted with the
    # unit's name is refused, and the file it points to is left alone.
    os.chmod(units, 0o1777)
    victim = write(root, "victim-unit", "KEEP\n")
    os.symlink(victim, unit)
    os.lchown(unit, 65534, 65534)
    p = subprocess.run([GFXSTAT, "campaign", "install-service", c.dir, "--unit-dir", units], env=c.env,
                       capture_output=True, text=True)
    check(p.returncode == 2 and unit in p.stderr and "symbolic link" in p.stderr and open(victim).read() == "KEEP\n"
          and os.stat(victim).st_mode & 0o777 == 0o644 and sorted(os.listdir(units)) == [os.path.basename(unit)],
          f"a planted link as the unit is refused, not followed ({p.returncode}: {p.stderr} {os.listdir(units)})")
    os.unlink(unit)

    # Accepted with everything root's; 0644 under umask 000, and no
    # temporary file beside it.
    p = subprocess.run([exe, "campaign", "install-service", c.dir, "--unit-dir", units], env=c.env,
                       capture_output=True, text=True, preexec_fn=lambda: os.umask(0))
    mode = os.stat(unit).st_mode & 0o7777 if os.path.exists(unit) else None
    check(p.returncode == 0 and mode == 0o644 and os.listdir(units) == [os.path.basename(unit)],
          f"the unit is written 0644 under umask 000, and alone ({p.returncode}: {p.stderr} "
          f"{oct(mode or 0)} {os.listdir(units)})")
    check(f'ExecStart="{exe}" campaign resume' in open(unit).read() if mode else False,
          "the unit runs the gfxstat that was checked")
    # plan.json gets 0644 whatever the umask.
    c2 = Campaign(root, "umask-plan", switchable_plan())
    subprocess.run([GFXSTAT, "campaign", "init", c2.plan_path, "-d", c2.dir], env=c2.env, capture_output=True,
                   preexec_fn=lambda: os.umask(0))
    check(os.stat(os.path.join(c2.dir, "plan.json")).st_mode & 0o7777 == 0o644, "plan.json is 0644 under umask 000")


def test_campaign_links(root):
    """Resume creates and writes files by name in the campaign directory: a
    link planted there is refused, never followed, and a directory others
    can write to is refused."""
    for name in ("lock", "journal.jsonl"):
        c = Campaign(root, "link-" + name.split(".")[0], switchable_plan(reboot_first=False))
        c.init()
        victim = write(c.root, "victim", "KEEP\n")
        path = os.path.join(c.dir, name)
        if os.path.exists(path):
            os.unlink(path)
        os.symlink(victim, path)
        rc, out, err = c.resume()
        check(rc == 2 and path in err and "symbolic link" in err and open(victim).read() == "KEEP\n",
              f"resume refuses a link as {name}, and leaves its target alone ({rc}: {err})")
        check(c.runs() == [], f"nothing ran with a link as {name}")
    c = Campaign(root, "link-hooks", switchable_plan(reboot_first=False))
    c.init()
    elsewhere = os.path.join(c.root, "elsewhere")
    os.makedirs(elsewhere)
    hooks = os.path.join(c.dir, "hooks")
    shutil.rmtree(hooks)
    os.symlink(elsewhere, hooks)
    rc, out, err = c.resume()
    check(rc == 2 and hooks in err and "symbolic link" in err and os.listdir(elsewhere) == [],
          f"resume refuses hooks/ as a link ({rc}: {err})")
    c = Campaign(root, "open-dir", switchable_plan(reboot_first=False))
    c.init()
    os.chmod(c.dir, 0o777)
    rc, out, err = c.resume()
    check(rc == 2 and c.dir in err and "writable by other users (mode 0777)" in err and c.runs() == [],
          f"resume refuses a campaign directory others can write to ({rc}: {err})")
    d = os.path.join(root, "open-init")
    os.makedirs(d)
    os.chmod(d, 0o777)
    rc, out, err = run([GFXSTAT, "campaign", "init", c.plan_path, "-d", d])
    check(rc == 2 and d in err and "writable by other users" in err and os.listdir(d) == [],
          f"init refuses a directory others can write to ({rc}: {err})")


def test_kill_as_reboot_starts(root):
    """The kill test's machine, at the moment that made it fail one run in
    six (issue 14): a resume killed just after it started the reboot
    command. The reboot it issued ends before the next resume starts, so
    no run sees the boot change under it, and no reboot is issued twice."""
    # The slow reboot (0.3 s) ends in the middle of the slot's 4 runs of
    # 0.1 s when the next resume does not wait for it.
    plan = switchable_plan(runs_per_boot=2, boots_per_variant=1, warmup_runs=0)
    plan["workload"]["command"] = ["sh", "-c", "sleep 0.1; echo 100"]
    c = Campaign(root, "kill-reboot", plan)
    # Slow only the first time: a reboot issued again by a next resume
    # started too early would be quick, and the slow one would then end in
    # the middle of the slot.
    plan["reboot_command"] = handed_off(c, "reboot.sh", "touch \"$MACHINE/rebooting\"; "
                                                        "sleep \"$(cat \"$MACHINE/delay\")\"; " + REBOOT)
    c.plan_path = write(c.root, "plan.json", json.dumps(plan))
    c.init()
    write(c.root, "delay", "0.3")
    first = c.boot()
    with Subreaper():
        p = c.start_resume(lambda c: os.path.exists(os.path.join(c.root, "rebooting")), settle=0.05)
        check(kill_resume(p), "the resume was killed in its reboot command")
        write(c.root, "delay", "0")
        check(c.boot() != first, "the killed resume's reboot is over before the next resume")
        rc, err = c.drive()
    check(rc == 0 and schedule_problems(c) == [], f"the slot runs in one boot ({rc}: {err} {schedule_problems(c)})")
    reboots = [e.get("attempt") for e in c.journal() if e["type"] == "reboot"]
    check(reboots == [1], f"one reboot, not issued again: {reboots}")


def test_attempt_cap(root):
    """A run that takes the machine down every time is given up after the cap."""
    plan = switchable_plan(runs_per_boot=1, boots_per_variant=1, warmup_runs=0, max_run_attempts=2,
                           reboot_first=False)
    # The run "crashes the machine": it kills gfxstat (its parent) while the file exists.
    plan["workload"]["command"] = ["sh", "-c", "if [ -e \"$MACHINE/crash\" ]; then kill -9 $PPID; sleep 1; fi; "
                                               "echo 5"]
    c = Campaign(root, "cap", plan)
    c.init()
    write(c.root, "crash", "")
    rcs = [c.resume()[0] for _ in range(2)]
    check(rcs == [-9, -9], f"the run kills resume twice: {rcs}")
    os.unlink(os.path.join(c.root, "crash"))
    rc, out, err = c.resume()
    check(rc == 0 and "interrupted 2 times" in err, f"the third resume gives the step up ({rc}: {err})")
    runs = c.runs()
    first = [r for r in runs if r.get("campaign_step") == 0]
    check(len(first) == 1 and first[0]["exit"]["class"] == "fail" and
          "max_run_attempts" in first[0]["exit"].get("reason", ""), f"step 0 recorded as failed: {first}")
    check(len(runs) == 2 and runs[-1]["exit"]["class"] == "ok", f"step 1 then ran: {runs}")
    kinds = [a["kind"] for a in c.status().get("anomalies", [])]
    check("given_up" in kinds and "interrupted_run" in kinds, f"status lists it: {kinds}")


def test_background_leftovers(root):
    """A workload that leaves a process behind: it is stopped, and resume
    says so once (a campaign's resume used to keep run_once's warnings to
    itself)."""
    plan = switchable_plan(runs_per_boot=2, boots_per_variant=1, warmup_runs=0, reboot_first=False)
    # A duration no other test sleeps: the check below looks at every
    # process of the machine, and run_safety_cli's leftovers (sleep 77) may
    # be alive beside this test under ctest -j.
    plan["workload"]["command"] = ["sh", "-c", "sleep 79 & echo 5"]
    c = Campaign(root, "leftovers", plan)
    c.init()
    rc, out, err = c.resume()
    said = " ".join(err.split()).count("left processes running in the background")  # the lines said are wrapped
    check(said == 1, f"resume warns once about the stopped background processes ({said}: {err})")
    p = subprocess.run(["pgrep", "-f", "^sleep 79$"], capture_output=True)
    check(p.returncode != 0, f"no 'sleep 79' outlives its run: {p.stdout.decode()}")


def test_deploy_failure(root):
    """A kernel that does not come up is a deploy failure, not a sample."""
    plan = switchable_plan(variants=[reboot_variant("good"), reboot_variant("bad", deploy=False)],
                           reboot_command=KERNEL_REBOOT, runs_per_boot=1, boots_per_variant=1, warmup_runs=0,
                           max_deploy_attempts=2)
    c = Campaign(root, "deploy", plan)
    c.init()
    rc, err = c.drive(limit=10)
    check(rc == 1 and "did not come up in 2 boots" in err, f"the campaign halts after 2 failed deploys ({rc}: {err})")
    st = c.status()
    check(st.get("state") == "halted" and "bad" in st.get("halt_reason", ""), f"status says halted: {st}")
    deploys = [a for a in st.get("anomalies", []) if a["kind"] == "deploy_failed"]
    check(len(deploys) == 2 and "expect.command" in deploys[0]["detail"], f"2 deploy failures with why: {deploys}")
    check(all(r["variant"] == "good" for r in c.runs()), "no run was recorded for the variant that did not boot")
    rc, out, err = c.resume()
    check(rc == 1 and "halted" in err and "--continue" in err, f"a halted campaign stays halted ({rc}: {err})")


def test_crash_loop(root):
    """A reboot command that does not reboot: resumes pile up in the same state."""
    plan = switchable_plan(reboot_command=["true"], max_resumes_without_progress=4)
    c = Campaign(root, "loop", plan)
    c.init()
    rcs = []
    for _ in range(6):
        rc, out, err = c.resume()
        rcs.append(rc)
    check(rcs[:3] == [0, 0, 0] and rcs[3] == 1, f"the 4th resume in the same state halts: {rcs}")
    check("without progress" in err and "crash loop" in err, f"it says why: {err}")
    # --continue clears it; a real reboot then makes progress.
    c.env["GFXSTAT_BOOT_ID_FILE"] = c.boot_file
    c.reboot()
    rc, out, err = c.resume("--continue")
    check(rc == 0 and "continuing after the halt" in err, f"--continue goes on ({rc}: {err})")
    check(len(c.runs()) == 8, f"the slot ran after --continue: {len(c.runs())}")


def test_stop_continue(root):
    c = Campaign(root, "stop", switchable_plan(reboot_first=False))
    c.init()
    rc, out, err = c.gfx("stop", c.dir)
    check(rc == 0 and "stopped" in err, f"stop ({rc}: {err})")
    rc, out, err = c.resume()
    check(rc == 0 and "stopped" in err and c.runs() == [], f"resume of a stopped campaign does nothing ({rc}: {err})")
    check(c.status().get("state") == "stopped", "status says stopped")
    # `status` probes the lock with a brief shared lock; a resume starting
    # meanwhile waits for it instead of taking it for another resume.
    with open(os.path.join(c.dir, "lock")) as lock:
        fcntl.flock(lock, fcntl.LOCK_SH)
        p = subprocess.Popen([GFXSTAT, "campaign", "resume", c.dir, "--continue"], env=c.env,
                             stderr=subprocess.PIPE)
        time.sleep(0.5)
    p.wait(timeout=30)
    err = p.stderr.read().decode()
    check(p.returncode == 0 and len(c.runs()) == 8 and "8 runs recorded by this resume" in err,
          f"--continue runs the slot, after waiting out a lock probe ({p.returncode}: {err})")
    # stop --now while a run is going: the run is interrupted, not recorded.
    plan = switchable_plan(reboot_first=False)
    plan["workload"]["command"] = ["sh", "-c", "sleep 30; echo 1"]
    c2 = Campaign(root, "stopnow", plan)
    c2.init()
    p = c2.start_resume(lambda c: c.events("intent") > 0, settle=0)
    rc2, out2, err2 = c2.resume()
    check(rc2 == 1 and "another resume" in err2 and "pid" in err2, f"a second resume is refused ({rc2}: {err2})")
    st = c2.status()
    check(st.get("state") == "running" and st.get("resume_pid") == p.pid, f"status shows the running resume: {st}")
    rc, out, err = c2.gfx("stop", c2.dir, "--now")
    check(rc == 0 and f"pid {p.pid}" in err, f"stop --now signals the resume ({rc}: {err})")
    p.wait(timeout=20)
    err = p.stderr.read().decode()
    check(p.returncode == 143 and "runs again" in err, f"stop --now (SIGTERM): the resume ends 143 ({p.returncode}: {err})")
    check(c2.runs() == [], "the interrupted run is not recorded")


def test_unexpected_reboot(root):
    """A power cut in the middle of a slot: the slot goes on in the new boot."""
    plan = switchable_plan(reboot_first=False, runs_per_boot=2, boots_per_variant=1, warmup_runs=0)
    # The second run cuts the power: gfxstat dies before recording it.
    plan["workload"]["command"] = ["sh", "-c", "n=$(( $(cat \"$MACHINE/count\" 2>/dev/null || echo 0) + 1 )); "
                                               "echo $n > \"$MACHINE/count\"; "
                                               "if [ $n = 2 ]; then kill -9 $PPID; sleep 1; fi; echo 7"]
    c = Campaign(root, "powercut", plan)
    c.init()
    rc, out, err = c.resume()
    check(rc == -9 and len(c.runs()) == 1, f"the power goes at the second run ({rc}, {len(c.runs())} runs)")
    c.reboot()
    rc, out, err = c.resume()
    check(rc == 0 and "complete" in err, f"the slot completes in the new boot ({rc}: {err})")
    kinds = [a["kind"] for a in c.status().get("anomalies", [])]
    check("unexpected_reboot" in kinds and "interrupted_run" in kinds, f"the power cut is reported: {kinds}")
    boots = [r["boot"] for r in c.runs()]
    check(len(set(boots)) == 2 and len(boots) == 4 and schedule_problems(c) == ["slot 0 ran in 2 boots"],
          f"the slot spans two boots, no run lost or doubled: {boots} {schedule_problems(c)}")


def test_sigterm(root):
    plan = switchable_plan(reboot_first=False)
    plan["workload"]["command"] = ["sh", "-c", "sleep 30; echo 1"]
    c = Campaign(root, "term", plan)
    c.init()
    p = c.start_resume(lambda c: c.events("intent") > 0)
    p.send_signal(signal.SIGTERM)
    p.wait(timeout=20)
    check(p.returncode == 143 and c.runs() == [], f"SIGTERM: exit 143, nothing recorded ({p.returncode})")
    intents = [e for e in c.journal() if e["type"] == "intent"]
    check(len(intents) == 1 and intents[0]["step"] == 0, f"the step was announced: {intents}")


def test_stop_in_hooks(root):
    """stop --now during a setup or an expect check: a stop, not a failure."""
    plan = switchable_plan(reboot_first=False, runs_per_boot=1, boots_per_variant=1, warmup_runs=0)
    plan["variants"][0]["setup"] = "sleep 30"
    c = Campaign(root, "stop-setup", plan)
    c.init()
    for i in range(4):  # more stops than max_run_attempts
        p = c.start_resume(lambda c: c.events("intent") > i, "--continue")
        c.gfx("stop", c.dir, "--now")
        p.wait(timeout=20)
        p.stderr.read()
        check(p.returncode == 143, f"stop --now in setup: exit 143 ({p.returncode})")
    check(c.runs() == [], f"a setup stopped by the user is not a recorded run: {c.runs()}")
    plan["variants"][0]["setup"] = "true"
    c.env["X"] = "1"
    pj = os.path.join(c.dir, "plan.json")
    with open(pj) as f:
        text = f.read()
    with open(pj, "w") as f:
        f.write(text.replace('"setup": "sleep 30"', '"setup": "true"'))
    rc, out, err = c.resume("--continue")
    check(rc == 0 and "complete" in err and schedule_problems(c) == [],
          f"the step runs after the stops, not given up ({rc}: {err} {schedule_problems(c)})")

    plan = switchable_plan(variants=[reboot_variant("a"), reboot_variant("b")], reboot_command=KERNEL_REBOOT,
                           runs_per_boot=1, boots_per_variant=1, warmup_runs=0)
    plan["variants"][0]["expect"] = {"command": "sleep 30"}
    c = Campaign(root, "stop-expect", plan)
    c.init()
    rc, out, err = c.resume()  # reboots into slot 1
    boot = c.boot()
    p = c.start_resume(lambda c: any(n.startswith("expect") for n in os.listdir(os.path.join(c.dir, "hooks"))))
    c.gfx("stop", c.dir, "--now")
    p.wait(timeout=20)
    err = p.stderr.read().decode()
    kinds = [a["kind"] for a in c.status().get("anomalies", [])]
    check(p.returncode == 143 and c.boot() == boot and "deploy_failed" not in kinds,
          f"stop --now in expect: no deploy failure, no reboot ({p.returncode}: {err} {kinds})")


def test_stop_in_reboot(root):
    """A shutdown's SIGTERM reaching the reboot command: not a failed reboot."""
    plan = switchable_plan(reboot_command=["sh", "-c", "sleep 30"], runs_per_boot=1, boots_per_variant=1,
                           warmup_runs=0)
    c = Campaign(root, "stop-reboot", plan)
    c.init()
    for i in range(6):  # more than max_resumes_without_progress: user stops are not a crash loop
        p = c.start_resume(lambda c: c.events("reboot") > i, settle=0.2)  # into the reboot command
        p.send_signal(signal.SIGTERM)
        p.wait(timeout=20)
        p.stderr.read()
        check(p.returncode == 143, f"SIGTERM in the reboot command: exit 143 ({p.returncode})")
    st = c.status()
    kinds = [a["kind"] for a in st.get("anomalies", [])]
    check(st.get("state") != "halted" and "reboot_failed" not in kinds and st.get("reboots") == 1,
          f"no failed reboot, no halt, one reboot: {st}")


def test_journal_repair(root):
    """A crash between a failing run's record and its done: the halt is not lost."""
    plan = switchable_plan(reboot_first=False, max_consecutive_failures=2)
    plan["workload"]["command"] = ["sh", "-c", "test -e \"$MACHINE/ok\" && echo 1"]
    c = Campaign(root, "repair", plan)
    c.init()
    rc, out, err = c.resume()
    check(rc == 1 and "2 runs in a row" in err, f"two failures halt ({rc}: {err})")
    jp = os.path.join(c.dir, "journal.jsonl")
    with open(jp) as f:
        lines = f.readlines()
    check(json.loads(lines[-1])["type"] == "halt" and json.loads(lines[-2])["type"] == "done",
          f"the journal ends with done, halt: {lines[-2:]}")
    with open(jp, "w") as f:
        f.writelines(lines[:-2])  # as if killed between the record and its done
    write(c.root, "ok", "")
    rc, out, err = c.resume()
    check(rc == 1 and "2 runs in a row" in err and len(c.runs()) == 2,
          f"the repaired journal still halts, and nothing more ran ({rc}: {err})")
    check(any(e.get("detail", "").startswith("journalled after a crash") for e in c.journal()),
          "the missing done was journalled")


def test_limits_and_continue(root):
    """A healthy campaign with the smallest crash-loop limit; --continue past max_reboots."""
    plan = switchable_plan(variants=[reboot_variant("a"), reboot_variant("b")], reboot_command=KERNEL_REBOOT,
                           runs_per_boot=1, boots_per_variant=2, warmup_runs=0, max_resumes_without_progress=2)
    c = Campaign(root, "tight", plan)
    c.init()
    rc, err = c.drive()
    check(rc == 0 and schedule_problems(c) == [], f"max_resumes_without_progress 2 lets a healthy campaign through "
                                                  f"({rc}: {err})")
    # Resumed twice in a spent boot (the reboot cut short): one reboot.
    plan = switchable_plan(reboot_command=["true"], runs_per_boot=1, boots_per_variant=2, warmup_runs=0)
    c = Campaign(root, "spent-twice", plan)
    c.init()
    c.resume()
    c.resume()
    st = c.status()
    check(st.get("reboots") == 1, f"a reboot issued again from the same boot counts once: {st.get('reboots')}")
    # max_reboots reached, then --continue after the fix.
    plan = switchable_plan(variants=[reboot_variant("a"), {"label": "b", "reboot": True,
                                                          "before_reboot": "true",
                                                          "expect": {"command": "test -e \"$MACHINE/ok\""}}],
                           reboot_command=KERNEL_REBOOT, runs_per_boot=1, boots_per_variant=1, warmup_runs=0,
                           max_reboots=2, max_deploy_attempts=100)
    c = Campaign(root, "maxreboots", plan)
    c.init()
    rc, err = c.drive(limit=10)
    check(rc == 1 and "max_reboots (2) reached" in err, f"max_reboots halts ({rc}: {err})")
    write(c.root, "ok", "")
    rc, out, err = c.resume("--continue")
    rc, err2 = c.drive(limit=10)
    check(rc == 0 and schedule_problems(c) == [], f"--continue goes on after max_reboots ({rc}: {err} {err2})")


def test_plan_errors(root):
    cases = [
        ("typo", {**switchable_plan(), "boot_per_variant": 3}, "boot_per_variant: unknown member"),
        ("no expect", switchable_plan(variants=[{"label": "a", "reboot": True}, {"label": "b", "reboot": False}]),
         "variants[0]: a variant that needs a reboot needs an \"expect\""),
        ("one variant", switchable_plan(variants=[{"label": "a", "reboot": False}]), "at least two variants"),
        ("labels", switchable_plan(variants=[{"label": "a", "reboot": False}, {"label": "a", "reboot": False}]),
         "variants[1].label: 'a' is used twice"),
        ("workload", switchable_plan(workload={"builtin": "wakeup-latency", "size": 4}), "workload.size"),
        ("load", switchable_plan(workload={"builtin": "wakeup-latency", "load": "gpu:3"}), "--load wants cpu:N"),
        ("parser", switchable_plan(workload={"command": ["true"], "parser": "nonesuch"}), "nonesuch"),
        ("order", switchable_plan(order="zigzag"), "order: expected \"abba\" or \"random\""),
        ("newline", switchable_plan(name="x\nExecStartPre=/bin/true"), "name: must not hold control characters"),
        ("backslash", switchable_plan(name="x \\"), "name: must not end with a backslash"),
    ]
    for name, plan, words in cases:
        d = os.path.join(root, "bad-" + name.replace(" ", "-"))
        os.makedirs(d)
        path = write(d, "plan.json", json.dumps(plan))
        rc, out, err = run([GFXSTAT, "campaign", "init", path, "-d", os.path.join(d, "c")])
        check(rc == 2 and words in err and path in err, f"plan error '{name}': exit 2 naming it ({rc}: {err})")
        check(not os.path.exists(os.path.join(d, "c")), f"plan error '{name}' creates nothing")
    d = os.path.join(root, "bad-json")
    os.makedirs(d)
    path = write(d, "plan.json", '{\n "variants": [],\n "workload": {,}\n}\n')
    rc, out, err = run([GFXSTAT, "campaign", "init", path, "-d", os.path.join(d, "c")])
    check(rc == 2 and f"{path}:3:" in err, f"a syntax error names line 3 ({rc}: {err})")
    # init refuses a directory that is not empty; resume one that is not a campaign.
    c = Campaign(root, "again", switchable_plan())
    c.init()
    rc, out, err = c.init()
    check(rc == 2 and "not empty" in err, f"init over a campaign refuses ({rc}: {err})")
    rc, out, err = run([GFXSTAT, "campaign", "resume", root])
    check(rc == 2 and "not a campaign directory" in err, f"resume of a non-campaign ({rc}: {err})")
    # A boot id that is not text could never be matched again in the journal.
    odd = Campaign(root, "odd-boot", switchable_plan())
    odd.init()
    with open(odd.boot_file, "wb") as f:
        f.write(b"\xff\xfe\n")
    rc, out, err = odd.resume()
    check(rc == 2 and "not printable" in err, f"a boot id that is not text is refused ({rc}: {err})")
    # An edited schedule is refused rather than silently followed.
    pj = os.path.join(c.dir, "plan.json")
    with open(pj) as f:
        text = f.read()
    with open(pj, "w") as f:
        f.write(text.replace('"warmup": true', '"warmup": false', 1))
    rc, out, err = c.resume()
    check(rc == 2 and "schedule" in err and "edited" in err, f"an edited schedule is refused ({rc}: {err})")


def test_init_places(root):
    """init into ., a symlink, an empty directory, and over an interrupted init."""
    plan_path = write(root, "init-plan.json", json.dumps(switchable_plan()))
    here = os.path.join(root, "init-here")
    os.makedirs(here)
    p = subprocess.run([os.path.abspath(GFXSTAT), "campaign", "init", plan_path, "-d", "."], cwd=here, capture_output=True, text=True)
    check(p.returncode == 0 and os.path.exists(os.path.join(here, "plan.json")), f"init -d . ({p.stderr})")
    real = os.path.join(root, "init-real")
    os.makedirs(real)
    os.symlink(real, os.path.join(root, "init-link"))
    rc, out, err = run([GFXSTAT, "campaign", "init", plan_path, "-d", os.path.join(root, "init-link")])
    check(rc == 0 and os.path.exists(os.path.join(real, "plan.json")), f"init through a symlink ({rc}: {err})")
    # What an init killed before plan.json leaves is cleared; anything else is refused.
    left = os.path.join(root, "init-left")
    os.makedirs(os.path.join(left, ".init-12345", "hooks"))
    rc, out, err = run([GFXSTAT, "campaign", "init", plan_path, "-d", os.path.join(root, "init-tmp")])
    for name in ("results.json", "journal.jsonl"):
        shutil.copy(os.path.join(root, "init-tmp", name), os.path.join(left, name))
    rc, out, err = run([GFXSTAT, "campaign", "init", plan_path, "-d", left])
    check(rc == 0 and sorted(os.listdir(left)) == ["hooks", "journal.jsonl", "plan.json", "results.json"],
          f"an interrupted init's leftovers are cleared ({rc}: {err} {sorted(os.listdir(left))})")
    mine = os.path.join(root, "init-mine")
    os.makedirs(mine)
    write(mine, "notes.txt", "mine")
    rc, out, err = run([GFXSTAT, "campaign", "init", plan_path, "-d", mine])
    check(rc == 2 and "not empty" in err and os.listdir(mine) == ["notes.txt"], f"a user's file is kept ({rc}: {err})")


def escape_path(path):
    """A path as `systemd-escape --path` writes it."""
    out = ""
    for i, b in enumerate(path.strip("/").encode()):
        c = chr(b)
        if c == "/":
            out += "-"
        elif (c.isascii() and c.isalnum()) or c in ":_" or (c == "." and i > 0):
            out += c
        else:
            out += "\\x%02x" % b
    return out or "-"


def test_install_service(root):
    c = Campaign(root, "service dir", switchable_plan(name="mesa 24.3 vs main"))
    c.init()
    if os.geteuid() != 0:
        # The unit runs as root: a campaign of another user is refused.
        print("test_install_service: skipped the unit checks: they need root (the campaign, its plan and gfxstat "
              "must be root's)")
        rc, out, err = c.gfx("install-service", c.dir, "--unit-dir", root)
        check(rc == 2 and "not by root" in err, f"a campaign that is not root's is refused ({rc}: {err})")
        return
    units = os.path.join(root, "units")
    os.makedirs(units)
    rc, out, err = c.gfx("install-service", c.dir, "--unit-dir", units)
    # Named after the directory (systemd-escape --path), not the plan.
    name = "gfxstat-campaign-" + escape_path(os.path.realpath(c.dir)) + ".service"
    check(rc == 0 and f"systemctl enable '{name}'" in out and "not enabled" in out, f"install-service writes and does not enable ({rc}: {out})")
    path = os.path.join(units, name)
    text = open(path).read() if os.path.exists(path) else ""
    exe = os.path.realpath(GFXSTAT)
    check(f'ExecStart="{exe}" campaign resume "{os.path.abspath(c.dir)}"' in text,
          f"ExecStart runs resume on the absolute directory: {text}")
    check("WantedBy=multi-user.target" in text and "TimeoutStartSec=infinity" in text, f"unit sections: {text}")
    if shutil.which("systemd-analyze"):
        p = subprocess.run(["systemd-analyze", "verify", path], capture_output=True, text=True)
        check("ExecStart" not in p.stderr and "Unknown" not in p.stderr, f"systemd-analyze verify: {p.stderr}")
    rc, out, err = c.gfx("install-service", c.dir, "--unit-dir", units, "--name", "x/y")
    check(rc == 2 and "NAME.service" in err, f"a bad unit name is refused ({rc}: {err})")
    # Specifiers are escaped: a % in the name or the path is not expanded.
    c2 = Campaign(root, "pct%d", switchable_plan(name="50%ile"))
    c2.init()
    rc, out, err = c2.gfx("install-service", c2.dir, "--unit-dir", units)
    unit2 = os.path.join(units, "gfxstat-campaign-" + escape_path(os.path.realpath(c2.dir)) + ".service")
    text = open(unit2).read() if rc == 0 else ""
    check("Description=gfxstat campaign 50%%ile" in text and "pct%%d/c/plan.json" in text and
          'pct%%d/c"' in text, f"% is escaped in the unit: {text}")
    # --enable: systemctl's output does not truncate a redirected stderr.
    log = write(root, "install.log", "EARLIER LINE\n")
    with open(log, "a") as f:
        p = subprocess.run([GFXSTAT, "campaign", "install-service", c.dir, "--unit-dir", units, "--enable"],
                           env=dict(c.env, PATH="/nonexistent"), stdout=subprocess.DEVNULL, stderr=f)
    check(open(log).read().startswith("EARLIER LINE\n") and p.returncode == 1,
          f"--enable without systemctl fails and keeps stderr's earlier content ({p.returncode}: {open(log).read()})")


def main():
    root = tempfile.mkdtemp(prefix="gfxstat-campaign-")
    ran = 0
    try:
        for t in (test_switchable, test_reboot_variants, test_attempt_cap, test_background_leftovers, test_deploy_failure, test_crash_loop,
                  test_stop_continue, test_unexpected_reboot, test_sigterm, test_stop_in_hooks,
                  test_stop_in_reboot, test_journal_repair, test_limits_and_continue, test_plan_errors,
                  test_init_places, test_install_service, test_install_service_checks, test_campaign_links,
                  test_kill_as_reboot_starts, test_kill):
            if OPTIONS.only and not any(word in t.__name__ for word in OPTIONS.only):
                continue
            ran += 1
            started = time.monotonic()
            t(root)
            print(f"{t.__name__}: {time.monotonic() - started:.1f} s")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    check(ran > 0, f"--only {OPTIONS.only} selects a test")
    return finish("campaign CLI: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
