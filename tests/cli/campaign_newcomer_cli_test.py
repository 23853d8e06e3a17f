#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gfxstat campaign as a newcomer meets it: a whole plan tried with one
`resume --simulate-reboots` (no before_reboot, no reboot command, every run
real, boots marked simulated), what analyze and compare say of simulated
boots, the refusal to mix simulated and real boots, step lines with the
measured value, the line a Ctrl-C leaves, advice naming the plan's knobs,
analyze's markdown, and counts with the right plurals.

The machine's boot id comes from a file (GFXSTAT_BOOT_ID_FILE), so that a
real reboot is a new id written there (as in campaign_cli_test.py)."""

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import check, finish, paths, write  # noqa: E402

GFXSTAT, SOURCE = paths()
REAL_BOOT = "0f3b5a6c-1d2e-4f70-8a9b-c0d1e2f3a4b5"
# A reboot, for the campaigns that run for real: a new boot id.
REBOOT = ("new=$(cat /proc/sys/kernel/random/uuid); printf '%s\\n' \"$new\" > \"$GFXSTAT_BOOT_ID_FILE.tmp\" && "
          "mv \"$GFXSTAT_BOOT_ID_FILE.tmp\" \"$GFXSTAT_BOOT_ID_FILE\"")
SIM = re.compile(r"^(.+):simulated:(\d+)$")


class Campaign:
    def __init__(self, root, name, plan):
        self.root = os.path.join(root, name)
        os.makedirs(self.root)
        self.boot_file = write(self.root, "boot_id", REAL_BOOT + "\n")
        self.dir = os.path.join(self.root, "c")
        self.plan_path = write(self.root, "plan.json", json.dumps(plan))
        self.env = dict(os.environ, GFXSTAT_BOOT_ID_FILE=self.boot_file, MACHINE=self.root)

    def gfx(self, *args, sub="campaign"):
        p = subprocess.run([GFXSTAT, *([sub] if sub else []), *args], env=self.env, capture_output=True, timeout=120)
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")

    def init(self):
        rc, out, err = self.gfx("init", self.plan_path, "-d", self.dir)
        check(rc == 0, f"{self.root}: init exits 0 ({rc}: {err})")
        return out

    def runs(self):
        with open(os.path.join(self.dir, "results.json")) as f:
            recs = [json.loads(line) for line in f if line.endswith("\n")]
        return [r for r in recs if r.get("type") == "run"]

    def environments(self):
        with open(os.path.join(self.dir, "results.json")) as f:
            recs = [json.loads(line) for line in f if line.endswith("\n")]
        return [r for r in recs if r.get("type") == "environment"]

    def journal(self):
        with open(os.path.join(self.dir, "journal.jsonl")) as f:
            return [json.loads(line) for line in f if line.endswith("\n")]

    def plan(self):
        with open(os.path.join(self.dir, "plan.json")) as f:
            return json.load(f)

    def status(self):
        rc, out, err = self.gfx("status", self.dir, "--json")
        check(rc == 0, f"status --json exits 0 ({rc}: {err})")
        return json.loads(out) if rc == 0 else {}


def fps_workload(value="100.5"):
    return {"command": ["sh", "-c", f"echo {value}"], "parser": "lines", "metric_name": "fps", "unit": "fps",
            "direction": "higher"}


def kernel_variant(label, kernel):
    # before_reboot leaves a mark: a simulation must not run it.
    return {"label": label, "reboot": True,
            "before_reboot": ["sh", "-c", f"echo {label} >> \"$MACHINE/before_reboot_ran\""],
            "expect": {"kernel_release": kernel}}


def slot_boots(c):
    """{slot: set of boots its runs carry}, from the schedule and the runs."""
    by_step = {r["campaign_step"]: r for r in c.runs()}
    out = {}
    for slot in c.plan()["schedule"]:
        for st in slot["steps"]:
            r = by_step.get(st["step"])
            out.setdefault(slot["slot"], set()).add(r.get("boot") if r else None)
    return out


def test_whole_plan_simulated(root):
    uname = os.uname().release
    # Two kernels over 2 boots each (A B B A): 4 slots, 4 reboots, a
    # before_reboot for each; the second kernel's expect cannot pass here.
    plan = {"name": "try-kernels", "variants": [kernel_variant("old", uname), kernel_variant("new", "6.99.0-next")],
            "workload": fps_workload(), "runs_per_boot": 2, "boots_per_variant": 2, "warmup_runs": 1,
            "reboot_command": ["sh", "-c", "touch \"$MACHINE/reboot_ran\""]}
    c = Campaign(root, "whole", plan)
    out = c.init()
    check("--simulate-reboots" in out, f"init says how to try the plan first: {out}")
    rc, out, err = c.gfx("resume", c.dir, "--simulate-reboots")
    resumed = err
    long_lines = [l for l in resumed.splitlines() if len(l) > 72 and ("expect" in l or "simulated reboot" in l)]
    check(long_lines == [], f"the lines said fit 72 columns, the expect check's too: {long_lines}")
    said = err = " ".join(err.split())  # the lines said are wrapped
    check(rc == 0 and "the campaign is complete" in err, f"one resume walks the whole plan ({rc}: {err})")
    check(not os.path.exists(os.path.join(c.root, "reboot_ran")), "the reboot command did not run")
    check(not os.path.exists(os.path.join(c.root, "before_reboot_ran")), "before_reboot did not run")
    check(err.count("simulated reboot into slot") == 4, f"4 simulated reboots said: {err}")
    check("`sh -c" in err and "not run" in err, f"each says what it did not run: {err}")
    check("campaign analyze" in err and "simulated" in resumed.splitlines()[-1], f"the last line points at analyze: {err}")
    # The new kernel's expect check ran, did not pass, and did not stop the simulation.
    check("6.99.0-next" in err and "its expect check does not pass here" in err,
          f"a failing expect check is said and passed over: {err}")
    runs = c.runs()
    steps = sorted(r["campaign_step"] for r in runs)
    check(steps == list(range(len(c.plan()["schedule"]) * 3)) and len(runs) == 12,
          f"every step ran once: {steps}")
    check(all(r["exit"]["class"] == "ok" and r["metrics"].get("fps") == 100.5 for r in runs),
          f"the runs are real: {runs[:2]}")
    boots = slot_boots(c)
    check(len(boots) == 4 and all(len(b) == 1 for b in boots.values()), f"each slot in one boot: {boots}")
    ids = [next(iter(b)) for _, b in sorted(boots.items())]
    marks = [SIM.match(b or "") for b in ids]
    check(all(marks) and [m.group(1) for m in marks] == [REAL_BOOT] * 4,
          f"the boots are simulated boots of the real one: {ids}")
    check(len({m.group(2) for m in marks if m}) == 4 and "0" not in {m.group(2) for m in marks if m},
          f"a new simulated boot per slot, after init's (reboot_first): {ids}")
    check(all(e.get("tags", {}).get("campaign_reboots") == "simulated" for e in c.environments()),
          f"each run's environment says so: {c.environments()[:1]}")
    j = c.journal()
    kinds = [e["type"] for e in j]
    check(kinds.count("simulation") == 1 and kinds.index("simulation") < kinds.index("boot"),
          f"the journal says the campaign is simulated, first: {kinds}")
    check([e.get("detail") for e in j if e["type"] == "reboot"] == ["simulated"] * 4,
          f"each reboot journalled as simulated: {[e for e in j if e['type'] == 'reboot']}")
    check(any("expect not met" in e.get("detail", "") for e in j if e["type"] == "boot"),
          "the boot event keeps the check that did not pass")
    st = c.status()
    check(st.get("complete") is True and st.get("simulated_reboots") is True and st.get("reboots") == 4,
          f"status: complete, simulated, 4 reboots: {st}")
    rc, out, err = c.gfx("status", c.dir)
    check("(simulated)" in out, f"text status says the boots are simulated: {out}")
    # Step lines: the value each run measured.
    check(re.search(r"step 1/12 \(slot 1/4, old, warm-up\): ok [0-9.e-]+ s: fps 100\.5 fps", said),
          f"the step line shows the value: {resumed}")

    # analyze: the design says the boots are simulated; compare's note is not repeated.
    rc, out, err = c.gfx("analyze", c.dir)
    check(rc == 0, f"analyze exits 0 ({rc}: {err})")
    words = " ".join(out.split())  # the note is wrapped
    check("note: 12 runs ran in 4 simulated boots" in words and "measures nothing about reboots" in words,
          f"analyze notes the simulated boots: {out[:900]}")
    check("simulated boots" not in err, f"and only once: {err}")
    rc, out, err = c.gfx(os.path.join(c.dir, "results.json"), sub="compare")
    check([l for l in err.splitlines() if len(l) > 72] == [], f"compare's notes fit 72 columns: {err}")
    err = " ".join(err.split())  # the notes are wrapped
    check("simulated boots" in err and "measures nothing about reboots" in err,
          f"compare of the results notes them too ({rc}): {err}")
    rc, out, err = c.gfx("show", os.path.join(c.dir, "results.json"), sub="")
    table = out[out.index("runs per boot"):] if "runs per boot" in out else ""
    check(rc == 0 and all(f":sim:{n}" in table for n in (1, 2, 3, 4)),
          f"show tells the simulated boots apart ({rc}): {out}")
    rc, out, err = c.gfx("analyze", c.dir, "--format", "json")
    check(rc == 0 and "simulated boots" in err and json.loads(out).get("comparisons") is not None,
          f"with JSON the note is on stderr, with the design ({rc}): {err[:300]}")

    # A campaign is simulated or real: a plain resume and install-service refuse.
    n, before = len(c.runs()), len(c.journal())
    rc, out, err = c.gfx("resume", c.dir)
    check(rc == 2 and "simulated" in err and "--simulate-reboots" in err and len(c.journal()) == before,
          f"a plain resume of a simulated campaign is refused, nothing written ({rc}: {err})")
    units = os.path.join(c.root, "units")
    os.makedirs(units)
    rc, out, err = c.gfx("install-service", c.dir, "--unit-dir", units)
    check(rc == 2 and "simulated" in err and os.listdir(units) == [],
          f"install-service refuses a simulated campaign ({rc}: {err})")
    check(len(c.runs()) == n, "no run was added")


def test_real_campaign_refuses_simulation(root):
    plan = {"variants": [{"label": "a", "reboot": False}, {"label": "b", "reboot": False}],
            "workload": fps_workload(), "runs_per_boot": 1, "boots_per_variant": 2, "warmup_runs": 0,
            "reboot_command": REBOOT}
    c = Campaign(root, "real", plan)
    c.init()
    rc, out, err = c.gfx("resume", c.dir, "--no-check")  # reboot_first: a real reboot
    check(rc == 0 and "going down" in err, f"the real campaign reboots ({rc}: {err})")
    rc, out, err = c.gfx("resume", c.dir, "--no-check")  # slot 1, then a reboot
    check(rc == 0 and len(c.runs()) == 2, f"and runs its first slot ({rc}: {err})")
    before = open(os.path.join(c.dir, "journal.jsonl")).read()
    rc, out, err = c.gfx("resume", c.dir, "--simulate-reboots")
    check(rc == 2 and "has run for real" in err and "NEW_DIR" in err, f"simulating a real campaign is refused ({rc}: {err})")
    check(open(os.path.join(c.dir, "journal.jsonl")).read() == before and len(c.runs()) == 2,
          "nothing was written")
    # A boot id that looks simulated is not a real one.
    write(c.root, "boot_id", REAL_BOOT + ":simulated:1\n")
    rc, out, err = c.gfx("resume", c.dir)
    check(rc == 2 and "simulated" in err, f"a real boot id of the simulated form is refused ({rc}: {err})")


def test_interrupted_simulation_goes_on(root):
    # A run that takes a while, for a Ctrl-C to land in.
    plan = {"variants": [{"label": "a", "reboot": False}, {"label": "b", "reboot": False}],
            "workload": {"command": ["sh", "-c", "if [ -e \"$MACHINE/slow\" ]; then rm \"$MACHINE/slow\"; "
                                     "sleep 30; fi; echo 7"], "parser": "lines", "metric_name": "t", "unit": "ms",
                         "direction": "lower"},
            "runs_per_boot": 2, "boots_per_variant": 3, "warmup_runs": 0, "reboot_command": REBOOT}
    c = Campaign(root, "interrupted", plan)
    c.init()
    write(c.root, "slow", "")
    p = subprocess.Popen([GFXSTAT, "campaign", "resume", c.dir, "--simulate-reboots", "--no-check"], env=c.env,
                         stderr=subprocess.PIPE)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and os.path.exists(os.path.join(c.root, "slow")):
        time.sleep(0.02)
    time.sleep(0.3)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=30)
    err = err.decode(errors="replace")
    check(p.returncode == 130, f"Ctrl-C ends the simulation with 130 ({p.returncode}: {err})")
    last = err.strip().splitlines()[-1] if err.strip() else ""
    check(re.search(r"interrupted during step 1/12 \(slot 1/3, [ab]\); it runs again", last),
          f"the last line names the run it interrupted: {last}")
    check(c.runs() == [], f"the interrupted run is not recorded: {c.runs()}")
    # The next simulated resume goes on in the same simulated boot (the machine did not reboot).
    rc, out, err = c.gfx("resume", c.dir, "--simulate-reboots", "--no-check")
    check(rc == 0 and "complete" in err, f"the simulation goes on to the end ({rc}: {err})")
    boots = slot_boots(c)
    check(len(c.runs()) == 12 and all(len(b) == 1 for b in boots.values()) and
          len({next(iter(b)) for b in boots.values()}) == 3, f"each slot in one simulated boot: {boots}")


def test_cooldown_interrupted(root):
    plan = {"variants": [{"label": "a", "reboot": False}, {"label": "b", "reboot": False}],
            "workload": fps_workload(), "runs_per_boot": 1, "boots_per_variant": 1, "warmup_runs": 0,
            "cooldown_s": 30, "reboot_command": REBOOT}
    c = Campaign(root, "cooldown", plan)
    c.init()
    p = subprocess.Popen([GFXSTAT, "campaign", "resume", c.dir, "--simulate-reboots", "--no-check"], env=c.env,
                         stderr=subprocess.PIPE)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not c.runs():
        time.sleep(0.02)
    time.sleep(0.3)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=30)
    last = err.decode(errors="replace").strip().splitlines()[-1]
    check(p.returncode == 130 and re.search(r"interrupted during the cooldown after step 1/2 \(slot 1/1, [ab]\)", last),
          f"the line names the cooldown and its step ({p.returncode}): {last}")


def test_plurals(root):
    # One boot slot, one run each, one reboot, one failure allowed.
    plan = {"variants": [{"label": "a", "reboot": False}, {"label": "b", "reboot": False}],
            "workload": {"command": ["sh", "-c", "exit 1"], "parser": "lines"},
            "runs_per_boot": 1, "boots_per_variant": 1, "warmup_runs": 1, "max_consecutive_failures": 1,
            "reboot_command": REBOOT}
    c = Campaign(root, "plurals", plan)
    out = c.init()
    check("2 variants, 1 boot slot (1 per variant),\n  4 runs (2 measured), 1 reboot\n" in out, f"init: {out}")
    rc, out, err = c.gfx("resume", c.dir, "--simulate-reboots", "--no-check")
    check(rc == 1 and "1 run did not succeed (max_consecutive_failures)" in err and "runs in a row" not in err,
          f"a halt after one failure says '1 run' ({rc}: {err})")
    check(re.search(r"step 1/4 \(slot 1/1, [ab], warm-up\): fail [0-9.e-]+ s \(", err), f"a failed step's line: {err}")
    rc, out, err = c.gfx("status", c.dir)
    check("2 boots used, 1 reboot of at most" in out and "1 boots" not in out and "1 runs" not in out,
          f"status counts in the singular: {out}")
    rc, out, err = c.gfx("analyze", c.dir)
    check("1 boot per variant planned, 1 run + 1 warm-up per boot" in " ".join(out.split()) and "1 runs" not in out,
          f"analyze too ({rc}): {out[:400]}")
    # gfxstat run --max-failures 1: the same words.
    rc, out, err = c.gfx("-o", os.path.join(c.root, "r.json"), "--max-failures", "1", "--", "false", sub="run")
    check(rc == 4 and "1 run did not succeed" in err, f"run --max-failures 1 ({rc}: {err})")


def test_advice_and_markdown(root):
    # The first run of each variant in each boot is slow: compare's
    # first-run advice, inside a campaign, names the plan's warmup_runs.
    count = os.path.join("$MACHINE", "count")
    plan = {"variants": [{"label": "a", "reboot": False}, {"label": "b", "reboot": False}],
            "workload": {"command": ["sh", "-c",
                                     f"n=$(cat \"{count}\" 2>/dev/null || echo 0); echo $((n + 1)) > \"{count}\"; "
                                     "if [ $((n % 8)) -lt 2 ]; then echo 200.$((n % 7)); "
                                     "else echo 100.$((n % 7)); fi"],
                         "parser": "lines", "metric_name": "fps", "unit": "fps", "direction": "higher"},
            "runs_per_boot": 4, "boots_per_variant": 6, "warmup_runs": 0, "reboot_command": REBOOT}
    c = Campaign(root, "advice", plan)
    c.init()
    rc, out, err = c.gfx("resume", c.dir, "--simulate-reboots", "--no-check")
    check(rc == 0 and "complete" in err, f"the simulation completes ({rc}: {err[-300:]})")
    # The short answer's sentence names the knob too.
    rc, out, err = c.gfx("analyze", c.dir)
    words = " ".join(out.split())
    check(rc == 0 and "a warm-up to leave out (the plan's warmup_runs)" in words and
          "gfxstat run --warmup" not in words, f"the short answer names the plan's warmup_runs ({rc}): {out}")
    rc, out, err = c.gfx("analyze", c.dir, "--full")
    words = " ".join(out.split())  # the sentences are wrapped
    check(rc == 0 and "leave them out as a warm-up (the plan's warmup_runs)" in words and
          "gfxstat run --warmup" not in words, f"the warm-up advice names the plan's warmup_runs ({rc}): {out}")
    check("more boots (the plan's boots_per_variant), not more runs (runs_per_boot)" in words,
          f"and the boots and runs it asks for: {out}")
    rc, out, err = c.gfx("analyze", c.dir, "--format", "markdown")
    check(rc == 0, f"analyze --format markdown exits 0 ({rc}: {err})")
    lines = out.splitlines()
    check(lines and lines[0] == "## Campaign c", f"a heading first: {lines[:3]}")
    # Every line markdown: a heading, a list item, a table row, or a paragraph
    # that starts at the margin; nothing indented into a code block.
    bad = [l for l in lines if l.startswith("    ") or l.startswith("\t")]
    check(bad == [], f"nothing indented into preformatted text: {bad}")
    design = out[:out.index("| metric |")] if "| metric |" in out else out
    check("| variant | measured in | warning |" in design and "| a | 6 boots |" in design,
          f"the design's variants are a table: {design}")
    check(all(l == "" or l[:2] in ("##", "- ", "| ") for l in design.splitlines()),
          f"the design is a heading, lists and a table: {design}")
    check("**note:**" in design and "simulated boots" in design, f"with the note as a list item: {design}")
    check("the plan's warmup_runs" in " ".join(out.split()), "the advice in markdown names the plan's knob too")


def test_analyze_options(root):
    """analyze refuses a bad option before printing anything, and takes
    compare's options before DIR as well as after it."""
    plan = {"variants": [{"label": "a", "reboot": False}, {"label": "b", "reboot": False}],
            "workload": fps_workload(), "runs_per_boot": 2, "boots_per_variant": 2, "warmup_runs": 0,
            "reboot_command": REBOOT}
    c = Campaign(root, "options", plan)
    c.init()
    rc, out, err = c.gfx("resume", c.dir, "--simulate-reboots", "--no-check")
    check(rc == 0 and "complete" in err, f"the simulation completes ({rc}: {err[-300:]})")
    for bad in (["--treshold", "3"], ["--format", "mrkdown"], ["--width", "30"]):
        rc, out, err = c.gfx("analyze", c.dir, *bad)
        check(rc == 2 and out == "" and err.startswith("gfxstat campaign analyze"),
              f"analyze {' '.join(bad)}: a usage error, nothing on stdout ({rc}: {out[:200]} / {err})")
    rc, out, err = c.gfx("analyze", "--format", "markdown", c.dir)
    check(rc == 0 and out.startswith("## Campaign c") and "| metric |" in out,
          f"--format before DIR ({rc}: {out[:200]} / {err})")
    rc, out, err = c.gfx("analyze", "--format", "json", c.dir, "--threshold", "3")
    check(rc == 0 and json.loads(out or "null") is not None and err.startswith("campaign c:"),
          f"options on both sides of DIR; JSON on stdout ({rc}: {err[:300]})")
    rc, out, err = c.gfx("analyze", c.dir, c.dir)
    check(rc == 2 and out == "" and "one DIR" in err, f"two DIRs are refused ({rc}: {err})")


def test_time_hint_names_the_plan(root):
    # A command that prints nothing: the hint names the plan's key, not run's option.
    plan = {"variants": [{"label": "a", "reboot": False}, {"label": "b", "reboot": False}],
            "workload": {"command": ["true"], "parser": "lines"}, "runs_per_boot": 1, "boots_per_variant": 1,
            "warmup_runs": 0, "max_consecutive_failures": 1, "reboot_command": REBOOT}
    c = Campaign(root, "timehint", plan)
    c.init()
    rc, out, err = c.gfx("resume", c.dir, "--simulate-reboots", "--no-check")
    words = " ".join(err.split())
    check(rc == 1 and 'set "parser": "time" in the plan\'s workload' in words and "--parser time" not in words,
          f"the hint names the plan's workload ({rc}: {err})")
    reasons = [r["exit"].get("reason", "") for r in c.runs()]
    check(reasons and all("in the plan's workload" in r for r in reasons), f"and so does the record: {reasons}")


def main():
    with tempfile.TemporaryDirectory() as root:
        for t in (test_whole_plan_simulated, test_real_campaign_refuses_simulation, test_interrupted_simulation_goes_on,
                  test_cooldown_interrupted, test_plurals, test_advice_and_markdown,
                  test_analyze_options, test_time_hint_names_the_plan):
            t(root)
    return finish("campaign newcomer: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
