#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ctest vm_vgem: gfxstat on a real DRM driver (vgem) in a qemu VM.

Builds an initramfs around the given gfxstat binary, boots Debian's
linux-image-amd64 kernel under qemu (TCG), loads vgem, runs
tests/vm/vgem_commands.json inside and checks the results:

  always:   the modules load; /dev/dri/card0 and renderD128 appear and belong
            to vgem; gfxstat --help runs; `gfxstat run --workload
            wakeup-latency` records ok runs whose boot id is the guest's.
  DRM:      active when `gfxstat devices --help` exits 0 in the guest (and
            then mandatory): `gfxstat devices [--json]` lists vgem;
            drm-ioctl and drm-gem give 3 ok runs with samples; i915-exec-nop
            exits 77 saying "no i915 device"; a missing or non-DRM --device
            node gives a clean exit (workload: 2 or 77; run: 1, 2 or 77) with
            a message naming the node.

Exit 0: every active check passed; 1: a check failed; 77: qemu, the kernel
image, its vgem module or busybox is missing here (the reason is printed).
"""

import argparse
import json
import math
import os
import signal
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run_vm  # noqa: E402
from build_initramfs import Unavailable  # noqa: E402

SKIP = 77


class Checks:
    def __init__(self):
        self.rows = []   # (group, name, passed, detail)

    def check(self, group, name, passed, detail=""):
        self.rows.append((group, name, bool(passed), detail))
        return bool(passed)

    def failed(self):
        return [r for r in self.rows if not r[2]]


def numeric_samples(value):
    """Number of finite numbers in a metric value (a number or a list)."""
    vals = value if isinstance(value, list) else [value]
    if not vals:
        return 0
    n = 0
    for v in vals:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            return 0
        n += 1
    return n


def contains_string(obj, pred):
    if isinstance(obj, str):
        return pred(obj)
    if isinstance(obj, dict):
        return any(contains_string(k, pred) or contains_string(v, pred) for k, v in obj.items())
    if isinstance(obj, list):
        return any(contains_string(v, pred) for v in obj)
    return False


def check_command(ck, group, run, name):
    """The command ran and met its expected exit status."""
    c = run.commands[name]
    exp = "any" if c.expected is None else "/".join(map(str, c.expected))
    return ck.check(group, "%s exits %s" % (name, exp), c.ok,
                    "state %s, exit %s" % (c.state, c.rc))


def check_results_file(ck, group, run, name, path, runs, guest_boot=None):
    """A results file came back with `runs` ok runs, each with numeric metrics."""
    c = run.commands[name]
    if not ck.check(group, "%s: %s came back" % (name, path), path in c.files,
                    "missing" if path not in c.files else "%d bytes" % len(c.files[path])):
        return None
    recs = run_vm.json_lines(c.files[path])
    head_ok = bool(recs) and recs[0].get("format") == "gfxstat-results"
    ck.check(group, "%s: results header" % name, head_ok, str(recs[0])[:120] if recs else "empty")
    measured = [r for r in recs if r.get("type") == "run" and not r.get("warmup")]
    ok_runs = [r for r in measured if (r.get("exit") or {}).get("class") == "ok"]
    ck.check(group, "%s: %d ok runs" % (name, runs), len(ok_runs) == runs == len(measured),
             "%d runs, %d ok" % (len(measured), len(ok_runs)))
    with_samples = [r for r in ok_runs if isinstance(r.get("metrics"), dict) and r["metrics"]
                    and all(numeric_samples(v) > 0 for v in r["metrics"].values())]
    metric_names = sorted(set(k for r in ok_runs for k in (r.get("metrics") or {})))
    ck.check(group, "%s: every ok run has numeric samples" % name,
             ok_runs and len(with_samples) == len(ok_runs),
             "metrics: %s" % ", ".join(metric_names))
    if guest_boot is not None:
        boots = sorted(set(r.get("boot") for r in ok_runs))
        ck.check(group, "%s: runs carry the guest's boot id" % name,
                 boots == [guest_boot], "boots %s, guest %s" % (boots, guest_boot))
    return recs


KMSG_HANG = "i915 0000:00:02.0: [drm] GPU HANG: ecode 12:1:85dffffb, in gem_exec_nop [1734]"


def check_kernel_log_watch(ck, run):
    """kmsg-hang: the workload wrote a GPU-hang line to /dev/kmsg during its
    second invocation; exactly that run is invalid, with the line as its
    reason, and the three others are ok."""
    group, name, path = "kmsg", "kmsg-hang", "/tmp/kmsg.json"
    check_command(ck, group, run, name)
    c = run.commands[name]
    ck.check(group, "kmsg-hang: /dev/kmsg was readable (no warning)", "cannot read" not in c.text("stderr"),
             c.text("stderr").strip()[:200])
    if not ck.check(group, "kmsg-hang: %s came back" % path, path in c.files):
        return
    runs = [r for r in run_vm.json_lines(c.files[path]) if r.get("type") == "run"]
    classes = [(r.get("exit") or {}).get("class") for r in runs]
    ck.check(group, "kmsg-hang: run 1 invalid, runs 0, 2, 3 ok", classes == ["ok", "invalid", "ok", "ok"],
             "classes %s" % classes)
    reason = (runs[1].get("exit") or {}).get("reason") if len(runs) > 1 else None
    ck.check(group, "kmsg-hang: its reason is the kernel's line", reason == "kernel: " + KMSG_HANG,
             "reason %r" % reason)


def evaluate(run, host_boot):
    ck = Checks()
    base = "base"
    # modules
    want = ["drm.ko", "drm_shmem_helper.ko", "vgem.ko"]
    for m in want:
        rc = run.modules.get(m, (None, ""))[0]
        ck.check(base, "insmod %s" % m, rc == 0, "rc %s" % rc)
    check_command(ck, base, run, "modules")
    ck.check(base, "vgem in /proc/modules",
             any(l.split()[:1] == ["vgem"] for l in run.commands["modules"].text().splitlines()))
    check_command(ck, base, run, "dri-nodes")
    ls = run.commands["dri-nodes"].text()
    ck.check(base, "/dev/dri/card0 and renderD128 listed", "card0" in ls and "renderD128" in ls)
    check_command(ck, base, run, "drm-uevent")
    ck.check(base, "DRM nodes belong to vgem",
             "MODALIAS=platform:vgem" in run.commands["drm-uevent"].text())
    check_command(ck, base, run, "gfxstat-help")
    check_command(ck, base, run, "boot-id")
    guest_boot = run.commands["boot-id"].text().strip()
    ck.check(base, "guest boot id differs from the host's",
             guest_boot and guest_boot != host_boot, "guest %s, host %s" % (guest_boot, host_boot))
    check_command(ck, base, run, "wakeup-latency")
    recs = check_results_file(ck, base, run, "wakeup-latency", "/tmp/wakeup.json", 2, guest_boot)
    if recs is not None:
        envs = [r for r in recs if r.get("type") == "environment"
                and r.get("kernel_release")]
        ck.check(base, "wakeup-latency: environment is the guest's",
                 any(e.get("kernel_release") == run.info.get("kernel_version") for e in envs),
                 "kernel_release %s" % [e.get("kernel_release") for e in envs])

    check_kernel_log_watch(ck, run)

    # DRM checks: active once the binary has `gfxstat devices`
    probe = run.commands["probe-devices"]
    drm_active = probe.state == "done" and probe.rc == 0
    if not drm_active:
        unknown = probe.state == "done" and "unknown command" in probe.text("stderr")
        ck.check("drm-probe", "`gfxstat devices --help` is either known (exit 0) or an "
                 "unknown command", unknown, "state %s, exit %s: %s" % (
                     probe.state, probe.rc, probe.text("stderr").strip().splitlines()[:1]))
        return ck, False
    drm = "drm"
    for name in ("devices-text", "devices-json", "drm-ioctl", "drm-gem", "i915-exec-nop",
                 "bad-device-workload", "bad-device-run", "not-drm-device"):
        check_command(ck, drm, run, name)
    ck.check(drm, "devices: text names vgem", "vgem" in run.commands["devices-text"].text())
    try:
        devs = json.loads(run.commands["devices-json"].text())
        parsed = True
    except ValueError as e:
        devs, parsed = None, False
        ck.check(drm, "devices --json parses", False, str(e))
    if parsed:
        ck.check(drm, "devices --json: a device with driver vgem",
                 contains_string(devs, lambda s: s == "vgem"))
        ck.check(drm, "devices --json: lists /dev/dri/renderD128",
                 contains_string(devs, lambda s: s.endswith("/dev/dri/renderD128")
                                 or s == "renderD128"))
    for name in ("drm-ioctl", "drm-gem"):
        recs = check_results_file(ck, drm, run, name, "/tmp/%s.json" % name, 3, guest_boot)
        if recs is not None:
            envs = [r for r in recs if r.get("type") == "environment"]
            ck.check(drm, "%s: environment names the vgem device" % name,
                     contains_string(envs, lambda s: "vgem" in s))
    i915 = run.commands["i915-exec-nop"]
    ck.check(drm, "i915-exec-nop says \"no i915 device\"",
             "no i915 device" in (i915.text("stdout") + i915.text("stderr")).lower())
    for name, node in (("bad-device-workload", "/dev/dri/renderD200"),
                       ("bad-device-run", "/dev/dri/renderD200"),
                       ("not-drm-device", "/dev/null")):
        c = run.commands[name]
        ck.check(drm, "%s: message names %s" % (name, node),
                 node in c.text("stdout") + c.text("stderr"))
    check_gpu_usage(ck, drm, run)
    return ck, True


def check_gpu_usage(ck, group, run):
    """What the guest kernel's vgem prints in fdinfo (read by the shell from
    an fd of its own on card0) is what drm-gem's runs record: gpu_memory_*
    metrics when it has drm-resident-/drm-total- keys, gpu_*_busy when it
    has drm-engine- keys, and no gpu_ metric at all when it has neither."""
    c = run.commands["gpu-usage"]
    check_command(ck, group, run, "gpu-usage")
    evidence = c.files.get("/tmp/vgem-fdinfo.txt")
    if not ck.check(group, "gpu-usage: the guest's card0 fdinfo came back", evidence is not None):
        return
    if isinstance(evidence, bytes):
        evidence = evidence.decode("utf-8", "replace")
    keys = [line.split(":", 1)[0].strip() for line in evidence.splitlines() if ":" in line]
    resident = any(k.startswith(("drm-resident-", "drm-memory-")) for k in keys)
    total = any(k.startswith("drm-total-") and not k.startswith("drm-total-cycles-") for k in keys)
    engines = any(k.startswith("drm-engine-") and not k.startswith("drm-engine-capacity-") for k in keys)
    recs = check_results_file(ck, group, run, "gpu-usage", "/tmp/gpu-usage.json", 2)
    if recs is None:
        return
    ok_runs = [r for r in recs if r.get("type") == "run" and (r.get("exit") or {}).get("class") == "ok"]
    declared = {r.get("name"): r for r in recs if r.get("type") == "metric"}
    summary = "fdinfo keys: %s" % (", ".join(k for k in keys if k.startswith("drm-")) or "none")
    for r in ok_runs:
        names = sorted(k for k in (r.get("metrics") or {}) if k.startswith("gpu_"))
        expect_res = "gpu_memory_resident_peak" in names
        expect_tot = "gpu_memory_total_peak" in names
        busy = [n for n in names if n.endswith("_busy")]
        ck.check(group, "gpu-usage run %s: gpu_memory_resident_peak iff fdinfo has drm-resident-" % r.get("run"),
                 expect_res == resident, "%s; run has %s" % (summary, names))
        ck.check(group, "gpu-usage run %s: gpu_memory_total_peak iff fdinfo has drm-total-" % r.get("run"),
                 expect_tot == total, "%s; run has %s" % (summary, names))
        ck.check(group, "gpu-usage run %s: gpu_*_busy iff fdinfo has drm-engine-" % r.get("run"),
                 bool(busy) == engines, "%s; run has %s" % (summary, names))
        if not (resident or total or engines):
            ck.check(group, "gpu-usage run %s: no gpu_ metric without fdinfo statistics" % r.get("run"),
                     not names, "run has %s" % names)
        for n in names:
            d = declared.get(n) or {}
            ck.check(group, "gpu-usage: %s declared, not primary" % n,
                     d.get("unit") in ("ms", "cycles", "KiB") and d.get("primary") is False, str(d))


# ------------------------------------------------------------- self-test
# The DRM checks stay inactive until gfxstat has `devices`; so that they are
# not dead code meanwhile, each run first feeds evaluate() a made-up console
# (in the marker format /init prints) once with good DRM results, which must
# pass, and then with each of several faults, each of which must fail.

def fake_console(commands, results, modules=("drm.ko", "drm_shmem_helper.ko", "vgem.ko")):
    import base64
    M = run_vm.MARK
    out = ["[    1.0] noise", "%s INIT uptime=1.00 kernel=6.1.0-test" % M]
    out += ["%s MODULE %s rc=0 " % (M, m) for m in modules]
    rcs = {}
    for c in commands:
        req = c.get("requires")
        if req and rcs.get(req) != 0:
            out.append("%s SKIP %s requires=%s" % (M, c["name"], req))
            continue
        rc, so, se, files = results.get(c["name"], (0, "", "", {}))
        rcs[c["name"]] = rc
        out.append("%s BEGIN %s uptime=2.00" % (M, c["name"]))
        for tag, text in (("STDOUT", so), ("STDERR", se)):
            out.append("%s %s %s" % (M, tag, c["name"]))
            b = base64.b64encode(text.encode()).decode()
            out += [b[i:i + 76] + "\r" for i in range(0, len(b), 76)]
        for path in c.get("collect", []):
            if path in files:
                out.append("%s FILE %s %s" % (M, c["name"], path))
                b = base64.b64encode(files[path].encode()).decode()
                out += [b[i:i + 76] for i in range(0, len(b), 76)]
            else:
                out.append("%s NOFILE %s %s" % (M, c["name"], path))
        out.append("%s END %s rc=%d uptime=2.50" % (M, c["name"], rc))
    out.append("%s DONE uptime=3.00" % M)
    return "\r\n".join(out) + "\r\n"


def fake_kmsg_results(classes):
    """A results file of kmsg-hang's runs with these exit classes."""
    lines = [{"format": "gfxstat-results", "version": 1}]
    for i, cls in enumerate(classes):
        ex = {"class": cls, "code": 0}
        if cls == "invalid":
            ex["reason"] = "kernel: " + KMSG_HANG
        lines.append({"type": "run", "variant": "sh", "run": i, "exit": ex, "metrics": {"value": 1.5}})
    return "\n".join(json.dumps(x) for x in lines) + "\n"


def fake_results(variant, runs, boot, metrics):
    lines = [{"format": "gfxstat-results", "version": 1},
             {"type": "environment", "id": "e1", "kernel_release": "6.1.0-test",
              "gpu_driver": "vgem"}]
    lines += [{"type": "run", "variant": variant, "run": i, "boot": boot,
               "exit": {"class": "ok", "code": 0}, "environment": "e1", "metrics": metrics}
              for i in range(runs)]
    return "\n".join(json.dumps(x) for x in lines) + "\n"


# What drm_show_fdinfo prints for a vgem client (no driver statistics).
VGEM_FDINFO = "pos:\t0\nflags:\t02100002\nmnt_id:\t15\nino:\t5\ndrm-driver:\tvgem\ndrm-client-id:\t4\n"


def self_test(commands_path):
    with open(commands_path) as f:
        cmds = json.load(f)
    boot, host = "11111111-2222-3333-4444-555555555555", "host-boot"
    good = {
        "boot-id": (0, boot + "\n", "", {}),
        "modules": (0, "vgem 16384 0 - Live 0x0\ndrm 1 1 vgem\n", "", {}),
        "dri-nodes": (0, "card0\nrenderD128\n", "", {}),
        "drm-uevent": (0, "MODALIAS=platform:vgem\n", "", {}),
        "wakeup-latency": (0, "", "", {"/tmp/wakeup.json": fake_results(
            "wakeup-latency", 2, boot, {"latency_mean": 10.0})}),
        "probe-devices": (0, "usage", "", {}),
        "devices-text": (0, "renderD128 vgem 1.0.0\n", "", {}),
        "devices-json": (0, json.dumps({"devices": [{"nodes": {
            "render": "/dev/dri/renderD128"}, "driver": {"name": "vgem"}}]}), "", {}),
        "drm-ioctl": (0, "", "", {"/tmp/drm-ioctl.json": fake_results(
            "drm-ioctl", 3, boot, {"version_us": [1.0, 2.0, 3.0]})}),
        "drm-gem": (0, "", "", {"/tmp/drm-gem.json": fake_results(
            "drm-gem", 3, boot, {"alloc_per_s": [100.0, 101.0]})}),
        "i915-exec-nop": (77, "", "gfxstat run: no i915 device (found vgem)\n", {}),
        "bad-device-workload": (2, "", "/dev/dri/renderD200 does not exist\n", {}),
        "bad-device-run": (4, "", "/dev/dri/renderD200 does not exist\n", {}),
        "not-drm-device": (2, "", "/dev/null: DRM_IOCTL_VERSION: Inappropriate ioctl\n", {}),
        "gpu-usage": (0, "", "", {"/tmp/vgem-fdinfo.txt": VGEM_FDINFO,
                                  "/tmp/gpu-usage.json": fake_results("drm-gem", 2, boot, {"allocs_per_s": 9.0})}),
        "kmsg-hang": (0, "", "", {"/tmp/kmsg.json": fake_kmsg_results(["ok", "invalid", "ok", "ok"])}),
    }

    def verdict(results, kernel="6.1.0-test"):
        run = run_vm.parse_console(fake_console(cmds, results), cmds)
        run.info = {"kernel_version": kernel}
        ck, active = evaluate(run, host)
        return not ck.failed(), active, ck

    ok, active, ck = verdict(good)
    problems = []
    if not (ok and active):
        problems.append("good DRM results: passed=%s active=%s %s" % (
            ok, active, [r[1] for r in ck.failed()]))
    faults = {
        "devices without vgem": ("devices-json", (0, '{"devices": []}', "", {})),
        "drm-ioctl without samples": ("drm-ioctl", (0, "", "", {"/tmp/drm-ioctl.json":
                                      fake_results("drm-ioctl", 3, boot, {"x": []})})),
        "drm-gem 2 runs": ("drm-gem", (0, "", "", {"/tmp/drm-gem.json":
                           fake_results("drm-gem", 2, boot, {"x": [1.0]})})),
        "drm-gem file missing": ("drm-gem", (0, "", "", {})),
        "i915 exit 0": ("i915-exec-nop", (0, "", "no i915 device", {})),
        "i915 wrong reason": ("i915-exec-nop", (77, "", "skipped", {})),
        "host boot id": ("wakeup-latency", (0, "", "", {"/tmp/wakeup.json": fake_results(
            "wakeup-latency", 2, host, {"latency_mean": 1.0})})),
        "devices probe crashes": ("probe-devices", (139, "", "", {})),
        "bad device crashes": ("not-drm-device", (139, "", "/dev/null", {})),
        "bad device unnamed": ("bad-device-workload", (2, "", "no such device", {})),
        "gpu metric without fdinfo statistics": ("gpu-usage", (0, "", "", {
            "/tmp/vgem-fdinfo.txt": VGEM_FDINFO, "/tmp/gpu-usage.json": fake_results(
                "drm-gem", 2, boot, {"allocs_per_s": 9.0, "gpu_memory_resident_peak": 4.0})})),
        "fdinfo memory not recorded": ("gpu-usage", (0, "", "", {
            "/tmp/vgem-fdinfo.txt": VGEM_FDINFO + "drm-resident-memory:\t8 KiB\n",
            "/tmp/gpu-usage.json": fake_results("drm-gem", 2, boot, {"allocs_per_s": 9.0})})),
        "gpu-usage fdinfo missing": ("gpu-usage", (0, "", "", {
            "/tmp/gpu-usage.json": fake_results("drm-gem", 2, boot, {"allocs_per_s": 9.0})})),
        "kmsg hang not caught": ("kmsg-hang", (0, "", "", {"/tmp/kmsg.json": fake_kmsg_results(["ok"] * 4)})),
        "kmsg not readable": ("kmsg-hang", (0, "", "gfxstat run: warning: cannot read /dev/kmsg\n", {
            "/tmp/kmsg.json": fake_kmsg_results(["ok", "invalid", "ok", "ok"])})),
    }
    for what, (name, result) in faults.items():
        bad = dict(good)
        bad[name] = result
        if verdict(bad)[0]:
            problems.append("fault not caught: " + what)
    # the inactive case: no `devices`, but everything else fine
    old = dict(good)
    old["probe-devices"] = (2, "", "gfxstat: unknown command 'devices'\n", {})
    ok, active, ck = verdict(old)
    if not ok or active:
        problems.append("without devices: passed=%s active=%s" % (ok, active))
    return problems, len(faults)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gfxstat", required=True)
    ap.add_argument("--commands", default=os.path.join(HERE, "vgem_commands.json"))
    ap.add_argument("--timeout", type=float,
                    default=float(os.environ.get("GFXSTAT_VM_TIMEOUT", "400")))
    ap.add_argument("--accel", default=os.environ.get("GFXSTAT_VM_ACCEL", "tcg"))
    ap.add_argument("--keep", default=os.environ.get("GFXSTAT_VM_KEEP"),
                    help="keep the image and console log in this directory")
    a = ap.parse_args()
    # ctest's timeout sends SIGTERM: unwind, so qemu is killed and the temp dir removed
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    if not os.path.isfile(a.gfxstat):
        print("vm_vgem: no gfxstat binary at %s" % a.gfxstat)
        return 1
    try:
        host_boot = open("/proc/sys/kernel/random/boot_id").read().strip()
    except OSError:
        host_boot = ""
    problems, nfaults = self_test(a.commands)
    for p in problems:
        print("vm_vgem: self-test of the checks FAILED: " + p)
    if problems:
        return 1
    print("vm_vgem: self-test of the checks on made-up DRM results passed "
          "(good results pass, %d faults fail)" % nfaults)
    t0 = time.monotonic()
    try:
        run = run_vm.boot(a.gfxstat, a.commands, timeout=a.timeout, accel=a.accel, keep=a.keep)
    except Unavailable as e:
        print("vm_vgem: SKIPPED: %s" % e)
        return SKIP
    run_vm.report(run)
    print("vm_vgem: image %.1f MiB built in %.1f s; qemu %.1f s (kernel to /init %.1f s); "
          "total %.1f s" % (run.info["initramfs_bytes"] / 2**20, run.info["build_s"],
                            run.wall_s, run.first_marker_s or -1, time.monotonic() - t0))
    ck = Checks()
    ck.check("vm", "guest ran the whole command list and reported DONE", run.done,
             "qemu exit %s%s" % (run.qemu_rc, ", timed out" if run.timed_out else ""))
    ck.check("vm", "qemu exited 0 (guest powered off)", run.qemu_rc == 0,
             "exit %s" % run.qemu_rc)
    for c in run.commands.values():
        if c.noise:
            print("vm_vgem: note: %d stray console lines inside %s's output" % (c.noise, c.name))
    more, drm_active = evaluate(run, host_boot)
    ck.rows += more.rows
    print("vm_vgem: checks:")
    for group, name, passed, detail in ck.rows:
        print("  [%s] %-5s %s%s" % ("PASS" if passed else "FAIL", group, name,
                                    " (%s)" % detail if detail else ""))
    if drm_active:
        print("vm_vgem: DRM checks RAN (gfxstat has 'devices')")
    else:
        # gfxstat has `devices` and the native DRM workloads: a binary
        # without them is not the one this test is for.
        print("vm_vgem: FAIL: DRM checks NOT RUN: `gfxstat devices --help` did not exit 0 in the VM")
        return 1
    failed = ck.failed()
    print("vm_vgem: %d checks, %d failed" % (len(ck.rows), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
