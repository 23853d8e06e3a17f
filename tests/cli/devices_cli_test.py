#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gfxstat devices and the native DRM workloads from the command line, up to
the hardware boundary: this machine has no /dev/dri, so `devices` says so
(exit 0, and {"devices": []} with --json), every workload skips with exit 77
and its reason (recorded by `gfxstat run` as a skip), and a --device that is
not a DRM node is exit 2 naming it. The real ioctl paths run in the VM
harness (tests/vm/) on vgem. Where /dev/dri exists, the no-device checks
are left out and the JSON's shape is checked instead."""

import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402
from testlib import check, finish, run  # noqa: E402


def records(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.endswith("\n")]


def main():
    g, _src = testlib.paths()
    has_dri = os.path.exists("/dev/dri")

    def gx(*args):
        return run([g, *args])

    rc, out, err = gx("--help")
    check(rc == 0 and "devices" in out and "drm-ioctl" in out, f"usage names devices and the DRM workloads: {out}")

    # gfxstat devices
    rc, out, err = gx("devices")
    check(rc == 0, f"devices: exit 0, got {rc} {err}")
    rc, jout, err = gx("devices", "--json")
    check(rc == 0, f"devices --json: exit 0, got {rc} {err}")
    try:
        doc = json.loads(jout)
    except ValueError as e:
        doc = None
        check(False, f"devices --json is JSON: {e}: {jout!r}")
    rc, _, err = gx("devices", "--bogus")
    check(rc == 2, f"devices --bogus: exit 2, got {rc}")
    if not has_dri:
        check(out == "no DRM devices found (no /dev/dri)\n", f"devices without /dev/dri: {out!r}")
        check(doc is not None and doc.get("devices") == [] and set(doc) == {"devices", "gfxstat_version"},
              f"devices --json without /dev/dri: {jout!r}")
    elif doc is not None:
        for d in doc.get("devices", []):
            check(set(d) >= {"nodes", "driver", "bus", "workloads"}, f"device fields: {d}")
            check(set(d["workloads"]) == {"drm-ioctl", "drm-gem", "i915-exec-nop"}, f"workloads: {d}")

    # gfxstat workload NAME: bad --device is exit 2 naming the node.
    for w in ("drm-ioctl", "drm-gem", "i915-exec-nop"):
        rc, out, err = gx("workload", w, "--device", "/nonexistent/renderD128")
        check(rc == 2 and "/nonexistent/renderD128 does not exist" in err and out == "",
              f"workload {w} --device /nonexistent: exit 2 naming it, got {rc} {err!r}")
        rc, out, err = gx("workload", w, "--device", "/dev/null")
        check(rc == 2 and "/dev/null is not a DRM device node" in err,
              f"workload {w} --device /dev/null: exit 2, got {rc} {err!r}")
        rc, out, err = gx("workload", w, "--device", "/etc")
        check(rc == 2 and "/etc is not a DRM device node" in err, f"workload {w} --device /etc: {rc} {err!r}")

    # Options of another workload, and bad values: exit 2.
    for args in (["drm-ioctl", "--size", "4096"], ["drm-ioctl", "--burst", "2"], ["drm-gem", "--duration", "1"],
                 ["wakeup-latency", "--device", "/dev/dri/card0"], ["drm-gem", "--size", "6"],
                 ["drm-ioctl", "--iterations", "0"], ["nonesuch"]):
        rc, _, err = gx("workload", *args)
        check(rc == 2, f"workload {args}: exit 2, got {rc} {err!r}")

    if not has_dri:
        rc, out, err = gx("workload", "drm-ioctl")
        check(rc == 77 and "no DRM device found" in err and out == "",
              f"workload drm-ioctl without a device: exit 77, got {rc} {err!r}")
        rc, out, err = gx("workload", "drm-gem", "--size", "8192", "--iterations", "3")
        check(rc == 77 and "no DRM device found" in err, f"workload drm-gem without a device: {rc} {err!r}")
        rc, out, err = gx("workload", "i915-exec-nop")
        check(rc == 77 and "no i915 device" in err, f"workload i915-exec-nop without a device: {rc} {err!r}")

    with tempfile.TemporaryDirectory() as d:
        # gfxstat run --workload: a bad --device is a usage error, nothing written.
        out_path = os.path.join(d, "bad.json")
        for dev in ("/nonexistent/renderD128", "/dev/null"):
            rc, _, err = gx("run", "--workload", "drm-ioctl", "--device", dev, "--runs", "2", "-o", out_path)
            check(rc == 2 and dev in err and not os.path.exists(out_path),
                  f"run --device {dev}: exit 2 naming it, nothing written; got {rc} {err!r}")
        for args in (["--workload", "drm-ioctl", "--size", "4096"], ["--workload", "drm-gem", "--burst", "3"],
                     ["--workload", "drm-ioctl", "--load", "cpu:1"], ["--workload", "wakeup-latency", "--device", "x"],
                     ["--workload", "drm-ioctl", "--duration", "1"], ["--device", "/dev/dri/card0", "--", "true"],
                     ["--workload", "drm-ioctl", "--parser", "lines"],
                     ["--workload", "drm-gem", "--size", "6"], ["--workload", "drm-gem", "--size", "4294967296"]):
            rc, _, err = gx("run", *args, "-o", out_path)
            check(rc == 2 and not os.path.exists(out_path), f"run {args}: exit 2, got {rc} {err!r}")

        if not has_dri:
            # The child skips; run records the skip with its reason and stops with 77.
            path = os.path.join(d, "ioctl.json")
            rc, _, err = gx("run", "--workload", "drm-ioctl", "--runs", "2", "-o", path)
            check(rc == 77 and "no DRM device found" in err, f"run drm-ioctl: exit 77, got {rc} {err!r}")
            recs = records(path) if os.path.exists(path) else []
            runs = [r for r in recs if r.get("type") == "run"]
            metrics = [r["name"] for r in recs if r.get("type") == "metric"]
            envs = [r for r in recs if r.get("type") == "environment"]
            check(len(runs) == 1 and runs[0]["exit"]["class"] == "skip" and runs[0]["exit"]["code"] == 77
                  and "no DRM device found" in runs[0]["exit"].get("reason", "") and runs[0]["variant"] == "drm-ioctl",
                  f"one skip recorded with its reason: {runs}")
            check(metrics[:2] == ["ioctl_median", "ioctl_mean"], f"drm-ioctl metrics declared: {metrics}")
            check(envs and envs[0].get("tags", {}).get("workload") == "drm-ioctl" and "device" not in envs[0]["tags"],
                  f"environment tags: {envs}")

            path = os.path.join(d, "gem.json")
            rc, _, err = gx("run", "--workload", "drm-gem", "--size", "8192", "--iterations", "5", "--runs", "2",
                            "-o", path)
            runs = [r for r in records(path) if r.get("type") == "run"] if os.path.exists(path) else []
            envs = [r for r in records(path) if r.get("type") == "environment"] if os.path.exists(path) else []
            check(rc == 77 and len(runs) == 1 and runs[0]["exit"]["class"] == "skip", f"run drm-gem: {rc} {runs}")
            check(envs and envs[0]["tags"].get("size") == "8192", f"drm-gem size tag: {envs}")

            path = os.path.join(d, "nop.json")
            rc, _, err = gx("run", "--workload", "i915-exec-nop", "--duration", "0.1", "--burst", "4", "-o", path)
            runs = [r for r in records(path) if r.get("type") == "run"] if os.path.exists(path) else []
            check(rc == 77 and "no i915 device" in err and len(runs) == 1
                  and "no i915 device" in runs[0]["exit"].get("reason", ""),
                  f"run i915-exec-nop: exit 77 'no i915 device', recorded: {rc} {err!r} {runs}")

    return finish("all devices and DRM workload command-line checks passed")


if __name__ == "__main__":
    sys.exit(main())
