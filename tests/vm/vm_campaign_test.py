#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ctest vm_campaign_reboot: a gfxstat campaign across real guest reboots.

Boots Debian's linux-image-amd64 kernel under qemu (TCG) in boot-loop mode
(tests/vm/README.md): a host directory is the guest's /state over virtio-9p,
and qemu runs without -no-reboot, so the plan's reboot command (`reboot -f`)
restarts the guest in the same qemu process with a new boot id. In the guest:
boot 1 runs `gfxstat campaign init /state/plan.json -d /state/c`; every boot
runs `gfxstat campaign resume /state/c` (standing in for the systemd unit);
the boot whose resume returns runs `gfxstat campaign status /state/c --json`
and powers off. The guest stops after MAX_BOOTS boots whatever happens, and
the host kills qemu one boot later or after --timeout.

Two cases (--case, default both):
  interleaved  two variants switched in place (an env variable), both
               measured in every boot, a reboot between boots;
  reboot       two variants that each need a reboot (before_reboot writes
               /state/next, expect checks it after the reboot): one variant
               per boot.

Then, on the host, with the host's gfxstat on the shared directory:
`gfxstat campaign status DIR --json` says complete with 0 runs remaining;
the results file holds every step of plan.json's schedule exactly once, with
the step's variant and warm-up flag, ok and with the value its variant's
workload prints; each slot's runs share one boot id, different slots have
different boot ids, all of them the guest's (seen by the harness), none the
host's, at least two; slots ran in boot order; `gfxstat campaign analyze
DIR` exits 0 and mentions boots. Before booting, the checks are fed made-up
campaigns, a good one (must pass) and faulty ones (each must fail).

Exit 0: all checks passed; 1: a check failed (or the host gfxstat has no
`campaign` command); 77: qemu, the kernel image or busybox is missing.
"""

import argparse
import copy
import json
import math
import os
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
GUEST_DIR = "/state/c"

# The workload prints a number that tells which variant's configuration was
# active when it ran: the env variable (interleaved) or /state/next (reboot).
CASES = {
    "interleaved": {
        "plan": {
            "variants": [{"label": "a", "reboot": False},
                         {"label": "b", "reboot": False, "env": {"GFXSTAT_DEMO": "1"}}],
            "workload": {"command": ["sh", "-c", "echo ${GFXSTAT_DEMO:-0}.5"],
                         "parser": "lines"},
            "runs_per_boot": 2, "boots_per_variant": 2, "warmup_runs": 1,
            "order": "abba", "seed": 1,
            "reboot_command": ["reboot", "-f"], "reboot_first": False,
        },
        "values": {"a": 0.5, "b": 1.5},
        "variants_per_slot": 2,
    },
    "reboot": {
        "plan": {
            "variants": [
                {"label": "a", "reboot": True,
                 "before_reboot": ["sh", "-c", "echo a > /state/next"],
                 "expect": {"command": ["sh", "-c", "grep -qx a /state/next"]}},
                {"label": "b", "reboot": True,
                 "before_reboot": ["sh", "-c", "echo b > /state/next"],
                 "expect": {"command": ["sh", "-c", "grep -qx b /state/next"]}}],
            "workload": {"command": ["sh", "-c",
                                     "case $(cat /state/next) in a) echo 0.5;; "
                                     "b) echo 1.5;; *) exit 3;; esac"],
                         "parser": "lines"},
            "runs_per_boot": 2, "boots_per_variant": 2, "warmup_runs": 1,
            "order": "abba", "seed": 1,
            # true: boot 1 (init's) deploys slot 0's variant and reboots into
            # it. (false would first try init's boot, whose expect fails: a
            # deploy_failed anomaly, then the same reboot.)
            "reboot_command": ["reboot", "-f"], "reboot_first": True,
        },
        "values": {"a": 0.5, "b": 1.5},
        "variants_per_slot": 1,
    },
}

COMMANDS = [
    {"name": "init", "phase": "first", "expect": [0], "timeout": 60,
     "run": "gfxstat campaign init /state/plan.json -d " + GUEST_DIR},
    {"name": "resume", "phase": "boot", "expect": [0], "timeout": 180,
     "run": "gfxstat campaign resume " + GUEST_DIR},
    {"name": "status", "expect": [0], "timeout": 60,
     "run": "gfxstat campaign status %s --json" % GUEST_DIR},
]


class Checks:
    def __init__(self):
        self.rows = []   # (group, name, passed, detail)

    def check(self, group, name, passed, detail=""):
        self.rows.append((group, name, bool(passed), detail))
        return bool(passed)

    def failed(self):
        return [r for r in self.rows if not r[2]]


class Observed:
    """Everything the checks look at, from a real VM run or made up."""
    def __init__(self):
        self.vm_done = True
        self.qemu_rc = 0
        self.kernel_panic = False
        self.boot_cap = False
        self.boots = []            # per boot: {"id", "init": (state, rc), "resume": (state, rc, text)}
        self.guest_status = None   # (state, rc, stdout)
        self.plan = None           # plan.json of the campaign directory
        self.records = None        # the results file, parsed
        self.host_status = None    # (rc, stdout, stderr)
        self.analyze = None        # (rc, stdout, stderr)


def numbers(value):
    vals = value if isinstance(value, list) else [value]
    if not vals or any(isinstance(v, bool) or not isinstance(v, (int, float))
                       or not math.isfinite(v) for v in vals):
        return None
    return vals


def parse_status(text):
    try:
        st = json.loads(text)
        return st if isinstance(st, dict) else None
    except ValueError:
        return None


def evaluate(case, obs, host_boot):
    """The checks of one case; returns Checks."""
    spec = CASES[case]
    plan_in = spec["plan"]
    ck = Checks()
    g = case

    # --- the VM and the boot loop
    ck.check(g, "guest reached DONE (some boot's resume returned, status ran, poweroff)",
             obs.vm_done, "qemu exit %s" % obs.qemu_rc)
    ck.check(g, "qemu exited 0", obs.qemu_rc == 0, "exit %s" % obs.qemu_rc)
    ck.check(g, "no kernel panic", not obs.kernel_panic)
    ck.check(g, "the guest stayed under its boot limit", not obs.boot_cap)
    boots = obs.boots
    ck.check(g, "at least 2 guest boots", len(boots) >= 2, "%d boots" % len(boots))
    if boots:
        init = boots[0].get("init")
        ck.check(g, "boot 1: campaign init exits 0", init == ("done", 0), "%s" % (init,))
    for i, b in enumerate(boots):
        st = b.get("resume")
        if i < len(boots) - 1:
            ck.check(g, "boot %d: resume started and rebooted the guest (never returned)"
                     % (i + 1), st is not None and st[0] == "incomplete", "%s" % (st[:2],)
                     if st else "not started")
        else:
            ck.check(g, "last boot (%d): resume exits 0 and says complete" % (i + 1),
                     st is not None and st[:2] == ("done", 0) and "complete" in st[2].lower(),
                     "%s: %s" % (st[:2], st[2].strip()[-200:]) if st else "not started")
    guest_ids = [b.get("id") for b in boots]
    ck.check(g, "every boot has its own boot id",
             all(guest_ids) and len(set(guest_ids)) == len(guest_ids), "%s" % guest_ids)
    ck.check(g, "no guest boot id is the host's", host_boot not in guest_ids,
             "host %s" % host_boot)
    gs = obs.guest_status
    gst = parse_status(gs[2]) if gs and gs[0] == "done" and gs[1] == 0 else None
    ck.check(g, "guest: campaign status --json exits 0, complete", bool(gst) and
             gst.get("complete") is True, str((gs[:2], gs[2][:200]) if gs else "not run"))

    # --- the schedule
    plan = obs.plan
    if not ck.check(g, "plan.json has a schedule", isinstance(plan, dict) and
                    isinstance(plan.get("schedule"), list) and plan["schedule"]):
        return ck
    slots = plan["schedule"]
    labels = [v["label"] for v in plan_in["variants"]]
    steps = {}        # step number -> (slot index, step)
    dup_steps = []
    for si, slot in enumerate(slots):
        for st in slot.get("steps", []):
            if st.get("step") in steps:
                dup_steps.append(st.get("step"))
            steps[st.get("step")] = (si, st)
    ck.check(g, "schedule: step numbers unique", not dup_steps, "duplicates %s" % dup_steps)
    want_slots = plan_in["boots_per_variant"] * len(labels) // spec["variants_per_slot"]
    ck.check(g, "schedule: %d slots" % want_slots, len(slots) == want_slots,
             "%d slots" % len(slots))
    bad_slots = []
    for si, slot in enumerate(slots):
        sts = slot.get("steps", [])
        vs = sorted(set(s.get("variant") for s in sts))
        measured = {v: sum(1 for s in sts if s.get("variant") == v and not s.get("warmup"))
                    for v in vs}
        warm = sum(1 for s in sts if s.get("warmup"))
        ok = (len(vs) == spec["variants_per_slot"] and set(vs) <= set(labels) and
              all(n == plan_in["runs_per_boot"] for n in measured.values()) and
              warm in (plan_in["warmup_runs"], plan_in["warmup_runs"] * len(vs)))
        # warm-ups come first, before any measured step of the slot's variants
        order = [bool(s.get("warmup")) for s in sts]
        ok = ok and order == sorted(order, reverse=True)
        if not ok:
            bad_slots.append("slot %d: variants %s, measured %s, %d warm-ups, order %s"
                             % (si, vs, measured, warm, order))
    ck.check(g, "schedule: each slot has %d variant(s), %d measured runs each, warm-ups "
             "(%d per boot or per variant) first" % (spec["variants_per_slot"],
                                                     plan_in["runs_per_boot"],
                                                     plan_in["warmup_runs"]),
             not bad_slots, "; ".join(bad_slots))
    per_variant = {v: sum(1 for _, s in steps.values() if s.get("variant") == v and
                          not s.get("warmup")) for v in labels}
    want = plan_in["runs_per_boot"] * plan_in["boots_per_variant"]
    ck.check(g, "schedule: %d measured runs per variant" % want,
             all(n == want for n in per_variant.values()), "%s" % per_variant)

    # --- the results file
    recs = obs.records
    if not ck.check(g, "results file present", recs is not None):
        return ck
    ck.check(g, "results header", bool(recs) and recs[0].get("format") == "gfxstat-results",
             str(recs[0])[:120] if recs else "empty")
    runs = [r for r in recs if r.get("type") == "run"]
    by_step = {}
    for r in runs:
        by_step.setdefault(r.get("campaign_step"), []).append(r)
    missing = sorted(k for k in steps if k not in by_step)
    doubled = sorted(k for k, v in by_step.items() if len(v) > 1 and k is not None)
    stray = len(by_step.get(None, [])) + sum(len(v) for k, v in by_step.items()
                                             if k is not None and k not in steps)
    ck.check(g, "every scheduled step has exactly one run (%d steps)" % len(steps),
             not missing and not doubled and stray == 0,
             "%d runs; missing %s, doubled %s, %d runs without a scheduled step"
             % (len(runs), missing, doubled, stray))
    mismatch = [k for k, (si, st) in steps.items() for r in by_step.get(k, [])
                if r.get("variant") != st.get("variant") or
                bool(r.get("warmup")) != bool(st.get("warmup"))]
    ck.check(g, "each run has its step's variant and warm-up flag", not mismatch,
             "steps %s" % mismatch)
    not_ok = [r.get("campaign_step") for r in runs if (r.get("exit") or {}).get("class") != "ok"]
    ck.check(g, "every run exited ok", not not_ok, "steps %s" % not_ok)
    wrong_value = []
    for r in runs:
        vals = [numbers(v) for v in (r.get("metrics") or {}).values()]
        want_v = spec["values"].get(r.get("variant"))
        if not vals or any(v is None or any(x != want_v for x in v) for v in vals):
            wrong_value.append("step %s %s %s" % (r.get("campaign_step"), r.get("variant"),
                                                 r.get("metrics")))
    ck.check(g, "every run measured its own variant's configuration (a=0.5, b=1.5)",
             not wrong_value, "; ".join(wrong_value[:4]))

    # --- boots
    no_boot = [r.get("campaign_step") for r in runs if not r.get("boot")]
    ck.check(g, "every run carries a boot id", not no_boot, "steps %s" % no_boot)
    slot_boots = {}
    for k, (si, st) in steps.items():
        for r in by_step.get(k, []):
            slot_boots.setdefault(si, set()).add(r.get("boot"))
    split = {si: sorted(b) for si, b in slot_boots.items() if len(b) != 1}
    ck.check(g, "each slot's runs ran in one boot", not split, "%s" % split)
    firsts = [sorted(slot_boots.get(si, {None}))[0] for si in range(len(slots))]
    ck.check(g, "different slots ran in different boots", len(set(firsts)) == len(firsts),
             "%s" % firsts)
    all_ids = set(r.get("boot") for r in runs)
    ck.check(g, "at least 2 distinct boot ids in the results", len(all_ids) >= 2,
             "%s" % sorted(map(str, all_ids)))
    ck.check(g, "no run has the host's boot id", host_boot not in all_ids)
    foreign = sorted(map(str, all_ids - set(guest_ids)))
    ck.check(g, "every run's boot id is one of the guest boots the harness saw", not foreign,
             "unknown %s; guest boots %s" % (foreign, guest_ids))
    pos = [guest_ids.index(b) if b in guest_ids else -1 for b in firsts]
    ck.check(g, "slots ran in schedule order, one boot after another",
             all(p >= 0 for p in pos) and pos == sorted(pos), "boot index per slot %s" % pos)

    # --- status and analyze on the host
    hs = obs.host_status
    st = parse_status(hs[1]) if hs and hs[0] == 0 else None
    ck.check(g, "host: campaign status --json exits 0 and parses", st is not None,
             str((hs[0], (hs[1] + hs[2]).strip()[:200]) if hs else "not run"))
    if st is not None:
        ck.check(g, "host: status complete is true", st.get("complete") is True,
                 "complete=%r state=%r" % (st.get("complete"), st.get("state")))
        ck.check(g, "host: status remaining is 0", st.get("remaining") == 0,
                 "remaining=%r" % st.get("remaining"))
        ck.check(g, "host: status lists no anomalies", not st.get("anomalies"),
                 json.dumps(st.get("anomalies"))[:300])
    an = obs.analyze
    ck.check(g, "host: campaign analyze exits 0", an is not None and an[0] == 0,
             str((an[0], an[2].strip()[:200]) if an else "not run"))
    ck.check(g, "host: analyze mentions boots", an is not None and "boot" in an[1].lower(),
             (an[1].strip()[:200] if an else ""))
    return ck


# ------------------------------------------------------------- self-test

def fake_observed(case):
    """A made-up campaign that went right: the schedule as the contract
    describes it, the runs in it, the boots that ran them."""
    spec = CASES[case]
    p = spec["plan"]
    labels = [v["label"] for v in p["variants"]]
    vps = spec["variants_per_slot"]
    nslots = p["boots_per_variant"] * len(labels) // vps
    slots, k = [], 0
    for si in range(nslots):
        vs = labels if vps == len(labels) else [labels[si % len(labels)]]
        sts = []
        for v in vs:
            for _ in range(p["warmup_runs"]):
                sts.append({"step": k, "variant": v, "warmup": True})
                k += 1
        for i in range(p["runs_per_boot"]):
            for v in (vs if i % 2 == 0 else list(reversed(vs))):
                sts.append({"step": k, "variant": v, "warmup": False})
                k += 1
        slots.append({"slot": si, "variants": vs, "steps": sts})
    # boot 0 is the init boot in the reboot case (it only configures)
    extra = 1 if vps == 1 else 0
    ids = ["boot-%d" % i for i in range(nslots + extra)]
    obs = Observed()
    obs.plan = dict(p, schedule=slots)
    recs = [{"format": "gfxstat-results", "version": 1},
            {"type": "metric", "name": "value", "unit": "", "direction": "unknown"}]
    nrun = {}
    for si, slot in enumerate(slots):
        for st in slot["steps"]:
            v = st["variant"]
            r = {"type": "run", "variant": v, "run": nrun.get(v, 0), "boot": ids[si + extra],
                 "exit": {"class": "ok", "code": 0}, "metrics": {"value": spec["values"][v]},
                 "campaign_step": st["step"]}
            if st["warmup"]:
                r["warmup"] = True
            nrun[v] = nrun.get(v, 0) + 1
            recs.append(r)
    obs.records = recs
    obs.boots = [{"id": i, "resume": ("incomplete", None, "")} for i in ids]
    obs.boots[0]["init"] = ("done", 0)
    obs.boots[-1]["resume"] = ("done", 0, "campaign complete\n")
    status = json.dumps({"complete": True, "remaining": 0, "state": "complete",
                         "anomalies": []})
    obs.guest_status = ("done", 0, status)
    obs.host_status = (0, status, "")
    obs.analyze = (0, "a vs b, 2 boots each: ...\n", "")
    return obs


def self_test():
    problems, nfaults = [], 0
    for case in CASES:
        good = fake_observed(case)
        ck = evaluate(case, good, "host-boot")
        if ck.failed():
            problems.append("%s: good campaign fails: %s" % (
                case, ["%s (%s)" % (r[1], r[3]) for r in ck.failed()]))

        def runs_of(o):
            return [r for r in o.records if r.get("type") == "run"]

        def missing_run(o):
            o.records.remove(runs_of(o)[3])

        def doubled_run(o):
            o.records.append(dict(runs_of(o)[3]))

        def one_boot(o):
            for r in runs_of(o):
                r["boot"] = o.boots[-1]["id"]

        def host_boot(o):
            for r in runs_of(o):
                if r["boot"] == o.boots[-1]["id"]:
                    r["boot"] = "host-boot"

        def split_slot(o):
            runs_of(o)[-1]["boot"] = o.boots[0]["id"]

        def no_warmup(o):
            for r in runs_of(o):
                r.pop("warmup", None)

        def wrong_variant_value(o):
            runs_of(o)[-1]["metrics"] = {"value": 9.5}

        def incomplete(o):
            o.host_status = (0, json.dumps({"complete": False, "remaining": 3,
                                            "state": "running"}), "")

        def anomaly(o):
            st = json.loads(o.host_status[1])
            st["anomalies"] = [{"kind": "deploy_failed", "slot": 0}]
            o.host_status = (0, json.dumps(st), "")

        def analyze_fails(o):
            o.analyze = (1, "", "gfxstat campaign: no such command\n")

        def never_rebooted(o):
            o.boots = [o.boots[-1]]
            o.boots[0]["init"] = ("done", 0)

        def resume_failed(o):
            o.boots[-1]["resume"] = ("done", 1, "halted: expect failed\n")

        def panic(o):
            o.kernel_panic = True
            o.vm_done = False

        def no_step(o):
            runs_of(o)[2].pop("campaign_step")

        def wrong_order(o):
            for r in runs_of(o):
                r["boot"] = {o.boots[-1]["id"]: o.boots[-2]["id"],
                             o.boots[-2]["id"]: o.boots[-1]["id"]}.get(r["boot"], r["boot"])

        faults = [missing_run, doubled_run, one_boot, host_boot, split_slot, no_warmup,
                  wrong_variant_value, incomplete, anomaly, analyze_fails, never_rebooted,
                  resume_failed, panic, no_step, wrong_order]
        for f in faults:
            bad = copy.deepcopy(good)
            f(bad)
            if not evaluate(case, bad, "host-boot").failed():
                problems.append("%s: fault not caught: %s" % (case, f.__name__))
        nfaults += len(faults)
    return problems, nfaults


# ------------------------------------------------------------- the real thing

def host_cmd(argv, timeout=120):
    p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def observe(run, share, gfxstat):
    obs = Observed()
    obs.vm_done = run.done
    obs.qemu_rc = run.qemu_rc
    obs.kernel_panic = run.kernel_panic
    obs.boot_cap = run.boot_cap or run.host_boot_cap
    for b in run.boots:
        e = {"id": b.boot_id}
        if b.boot_n:
            p = os.path.join(share, ".vm", "boot-%d" % b.boot_n, "boot_id")
            if os.path.isfile(p):
                with open(p) as f:
                    shared = f.read().strip()
                if shared != b.boot_id:
                    e["id"] = None    # console and share disagree: fails "own boot id"
        for name in ("init", "resume"):
            c = b.commands[name]
            if c.state != "missing":
                e[name] = (c.state, c.rc, c.text() + c.text("stderr"))
        if "init" in e:
            e["init"] = e["init"][:2]
        obs.boots.append(e)
    st = run.commands["status"]
    if st.state != "missing":
        obs.guest_status = (st.state, st.rc, st.text())
    cdir = os.path.join(share, "c")
    try:
        with open(os.path.join(cdir, "plan.json")) as f:
            obs.plan = json.load(f)
    except (OSError, ValueError) as e:
        print("vm_campaign: plan.json: %s" % e)
    try:
        with open(os.path.join(cdir, "results.json")) as f:
            obs.records = run_vm.json_lines(f.read())
    except OSError as e:
        print("vm_campaign: results.json: %s" % e)
    obs.host_status = host_cmd([gfxstat, "campaign", "status", cdir, "--json"])
    obs.analyze = host_cmd([gfxstat, "campaign", "analyze", cdir])
    return obs


def run_case(case, a, host_boot, workdir):
    share = os.path.join(workdir, case, "share")
    os.makedirs(share)
    with open(os.path.join(share, "plan.json"), "w") as f:
        json.dump(CASES[case]["plan"], f, indent=1)
    t0 = time.monotonic()
    run = run_vm.boot(a.gfxstat, COMMANDS, timeout=a.timeout, accel=a.accel,
                      keep=os.path.join(workdir, case), share=share, max_boots=a.max_boots,
                      modules=())
    run_vm.report(run)
    print("vm_campaign: %s: %d boots, qemu %.1f s (boots at host %s s); image built in %.1f s"
          % (case, len(run.boots), run.wall_s,
             ", ".join("%.1f" % b.host_init_s for b in run.boots if b.host_init_s is not None),
             run.info["build_s"]))
    obs = observe(run, share, a.gfxstat)
    print("vm_campaign: %s: host status: exit %s %s" % (case, obs.host_status[0],
                                                       obs.host_status[1].strip()[:300]))
    print("vm_campaign: %s: host analyze: exit %s\n%s%s" % (
        case, obs.analyze[0], "".join("  | " + l + "\n" for l in obs.analyze[1].splitlines()),
        "".join("  ! " + l + "\n" for l in obs.analyze[2].splitlines())))
    ck = evaluate(case, obs, host_boot)
    print("vm_campaign: %s: %.1f s in all" % (case, time.monotonic() - t0))
    return ck


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gfxstat", required=True)
    ap.add_argument("--case", choices=sorted(CASES) + ["all"], default="all")
    ap.add_argument("--timeout", type=float,
                    default=float(os.environ.get("GFXSTAT_VM_TIMEOUT", "240")),
                    help="qemu wall limit per case, seconds")
    ap.add_argument("--max-boots", type=int, default=7,
                    help="the guest powers off after this many boots")
    ap.add_argument("--accel", default=os.environ.get("GFXSTAT_VM_ACCEL", "tcg"))
    ap.add_argument("--keep", default=os.environ.get("GFXSTAT_VM_KEEP"),
                    help="keep images, console logs and shared directories here")
    a = ap.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    problems, nfaults = self_test()
    for p in problems:
        print("vm_campaign: self-test of the checks FAILED: " + p)
    if problems:
        return 1
    print("vm_campaign: self-test of the checks passed (good campaigns pass, %d faults fail)"
          % nfaults)
    if not os.path.isfile(a.gfxstat):
        print("vm_campaign: no gfxstat binary at %s" % a.gfxstat)
        return 1
    try:
        run_vm.find_qemu()
        build_initramfs.find_busybox()
        build_initramfs.pick_kernel(None, "9p")
    except Unavailable as e:
        print("vm_campaign: SKIPPED: %s" % e)
        return SKIP
    probe = host_cmd([a.gfxstat, "campaign", "--help"])
    if probe[0] != 0:
        print("vm_campaign: FAIL: `%s campaign --help` exits %d: %s" % (
            a.gfxstat, probe[0], (probe[1] + probe[2]).strip().splitlines()[:1]))
        return 1
    try:
        host_boot = open("/proc/sys/kernel/random/boot_id").read().strip()
    except OSError:
        host_boot = ""
    workdir = a.keep or tempfile.mkdtemp(prefix="gfxstat-vm-campaign-")
    os.makedirs(workdir, exist_ok=True)
    t0 = time.monotonic()
    ck = Checks()
    try:
        for case in (sorted(CASES) if a.case == "all" else [a.case]):
            if os.path.exists(os.path.join(workdir, case)):
                shutil.rmtree(os.path.join(workdir, case))
            ck.rows += run_case(case, a, host_boot, workdir).rows
    except Unavailable as e:
        print("vm_campaign: SKIPPED: %s" % e)
        return SKIP
    finally:
        if a.keep is None:
            shutil.rmtree(workdir, ignore_errors=True)
    print("vm_campaign: checks:")
    for group, name, passed, detail in ck.rows:
        print("  [%s] %-11s %s%s" % ("PASS" if passed else "FAIL", group, name,
                                     " (%s)" % detail if detail else ""))
    failed = ck.failed()
    print("vm_campaign: %d checks, %d failed, %.1f s" % (len(ck.rows), len(failed),
                                                        time.monotonic() - t0))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
