#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A `kill -9` of gfxstat takes the workload's whole process group with it.

The wrong answer this guards against: PR_SET_PDEATHSIG reaches only the
process gfxstat started, so after `gfxstat run -- sh -c 'sleep 102; ...'`
was killed with SIGKILL the shell died but its `sleep` ran on (into the next
measurement), while SECURITY.md said a workload dies with gfxstat. gfxstat's
guard process must kill the group when gfxstat dies however it dies, and
must itself go away when gfxstat ends normally."""

import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import check, finish, paths  # noqa: E402

GFXSTAT, SRC = paths()


def live_pids_with_arg(arg):
    """Live (not zombie) processes whose command line has the argument `arg`."""
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
            with open(f"/proc/{name}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if arg.encode() in argv and state not in "ZX":
            out.append(int(name))
    return out


def wait_until(cond, seconds):
    deadline = time.monotonic() + seconds
    while True:
        value = cond()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.01)


def main():
    # A duration no other test sleeps, so that the processes found are ours.
    nap = f"102.{os.getpid() % 100000:05d}15"
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "k.json")
        p = subprocess.Popen([GFXSTAT, "run", "--no-check", "--runs", "1", "-o", out, "--",
                              "sh", "-c", f"sleep {nap}; echo 1"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        sleeps = []
        try:
            sleeps = wait_until(lambda: live_pids_with_arg(nap) and [q for q in live_pids_with_arg(nap)
                                                                     if open(f"/proc/{q}/comm").read().strip() == "sleep"], 10)
            check(bool(sleeps), "the workload's grandchild (sleep) started")
            os.kill(p.pid, signal.SIGKILL)
            p.wait()
            left = wait_until(lambda: not [q for q in sleeps if q in live_pids_with_arg(nap)], 5)
            check(left, "kill -9 of gfxstat: the workload's grandchild is killed too "
                        f"(still running: {[q for q in sleeps if q in live_pids_with_arg(nap)]})")
        finally:
            for q in sleeps:  # what the test started, should it have survived
                try:
                    os.kill(q, signal.SIGKILL)
                except OSError:
                    pass

        # A normal end leaves nothing behind, the guard included: its
        # command line is gfxstat's, with the same unique argument.
        marker = nap + "9"
        rc = subprocess.run([GFXSTAT, "run", "--no-check", "--runs", "2", "-o", os.path.join(d, "n.json"), "--",
                             "sh", "-c", f"echo 1 # {marker}"], capture_output=True).returncode
        check(rc == 0, f"a normal run: rc {rc}")
        gone = wait_until(lambda: not [q for q in live_pids_with_arg(f"echo 1 # {marker}")], 5)
        check(gone, "after a normal end no gfxstat process (guard included) is left")
    return finish("a kill -9 of gfxstat kills the workload's process group")


if __name__ == "__main__":
    sys.exit(main())
