#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gfxstat store costs that must stay linear in a farm's numbers: a push of
N runs (each run was once looked up by a scan of every stored record: the
partial identity index could not serve a bound kind, and 100,000 runs took
minutes) and `store ls` over N builds (once a count of every run's samples
per build). The same work at 4N must cost about 4 times the CPU time of N,
not 16: the check is on the ratio of the children's own CPU times (from
wait4), each command under a generous limit so that a regression fails
instead of hanging."""

import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402
from testlib import check, finish  # noqa: E402

LIMIT_S = 120
SMALL, FACTOR = 10000, 4


def cpu_seconds(args):
    """(status, stderr, CPU seconds) of `args`; status None past LIMIT_S."""
    p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + LIMIT_S
    while True:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            p.kill()
            os.wait4(p.pid, 0)
            return None, f"still running after {LIMIT_S} s", 0.0
        time.sleep(0.02)
    err = p.stderr.read().decode(errors="replace")
    return os.waitstatus_to_exitcode(status), err, usage.ru_utime + usage.ru_stime


def results(path, runs):
    """`runs` runs of 100 variants, one build (environment) per 10 runs,
    two samples each."""
    builds = max(1, runs // 10)
    with open(path, "w") as f:
        f.write(json.dumps({"format": "gfxstat-results", "version": 1, "id": "5ca1e%027d" % runs,
                            "created": "2026-12-01T00:00:00Z", "generator": "store_scaling"}) + "\n")
        f.write('{"type":"metric","name":"fps","unit":"fps","direction":"higher"}\n')
        for b in range(builds):
            f.write(json.dumps({"type": "environment", "id": "env-%016x" % b, "hostname": "dut-%d" % (b % 10),
                                "tags": {"commit": "c%07d" % b}}) + "\n")
        for i in range(runs):
            f.write('{"type":"run","variant":"v%d","run":%d,"boot":"b1","environment":"env-%016x",'
                    '"exit":{"class":"ok"},"metrics":{"fps":[%d.125,%d.5]}}\n'
                    % (i % 100, i // 100, i % builds, 60 + i % 7, 61 + i % 5))


def main():
    gfx, _ = testlib.paths()
    with tempfile.TemporaryDirectory(prefix="gfxstat_store_scaling.") as tmp:
        costs = {}
        for n in (SMALL, SMALL * FACTOR):
            path = os.path.join(tmp, f"r{n}.json")
            results(path, n)
            url = "sqlite:" + os.path.join(tmp, f"s{n}.sqlite")
            rc, err, push_s = cpu_seconds([gfx, "store", "push", path, "--store", url])
            check(rc == 0 and f"{n} runs stored" in err, f"push of {n} runs: {rc} {err}")
            rc, err, ls_s = cpu_seconds([gfx, "store", "ls", "--store", url])
            check(rc == 0, f"ls of {n // 10} builds: {rc} {err}")
            costs[n] = (push_s, ls_s)
            print(f"{n} runs: push {push_s:.2f} s CPU ({n / max(push_s, 1e-3):.0f} runs/s), ls {ls_s:.2f} s CPU")
        (push_a, ls_a), (push_b, ls_b) = costs[SMALL], costs[SMALL * FACTOR]
        # Linear: about FACTOR; quadratic: FACTOR squared. Twice linear is
        # allowed for noise and caches; floors keep tiny times from counting.
        check(push_b <= 2 * FACTOR * max(push_a, 0.2), f"push: {push_b:.2f} s at {FACTOR}x the runs, {push_a:.2f} s")
        check(ls_b <= 2 * FACTOR * max(ls_a, 0.2), f"ls: {ls_b:.2f} s at {FACTOR}x the builds, {ls_a:.2f} s")
    return finish("store_scaling_cli: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
