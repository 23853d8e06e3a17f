#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The kernel log watch end to end, with a FIFO as GFXSTAT_KMSG: a workload
that writes real i915, xe and amdgpu hang lines (the drivers' own message
shapes, as /dev/kmsg records) into it during some of its runs makes exactly
those runs `invalid` with the line as their reason; `show` counts them,
`compare` names them and leaves their values out, `--max-failures` counts
them, `gfxstat ab` and `gfxstat campaign` do the same, and a kernel log
that cannot be read is one warning while the runs go on."""

import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import check, finish, paths, run, write  # noqa: E402

GFXSTAT, SRC = paths()
PY = sys.executable

I915 = "i915 0000:00:02.0: [drm] GPU HANG: ecode 12:1:85dffffb, in gem_exec_nop [1734]"
XE = ("xe 0000:03:00.0: [drm] GT0: Timedout job: seqno=4294967169, lrc_seqno=4294967169, guc_id=2, "
      "flags=0x0 in xe_exec_basic [2811]")
AMDGPU = "amdgpu 0000:03:00.0: amdgpu: ring gfx_0.0.0 timeout, signaled seq=1234, emitted seq=1236"

# The workload: counts its invocations in COUNTER; on the invocations
# listed in HANG_AT (1-based, "2=i915,4=xe") it writes that line into the
# FIFO as a kmsg record with its continuation lines, then prints a value.
WORKLOAD = r'''
import os, sys
lines = {"i915": %r, "xe": %r, "amdgpu": %r,
         "escaped": r"i915 0000:00:02.0: [drm] GPU HANG: ecode 1:0:0, in evil\x1b]2;owned\x07 [7]"}
counter = os.environ["COUNTER"]
n = int(open(counter).read()) + 1 if os.path.exists(counter) else 1
open(counter, "w").write(str(n))
plan = dict(kv.split("=") for kv in os.environ.get("HANG_AT", "").split(",") if kv)
which = plan.get(str(n)) or plan.get("*")
if which:
    try:  # no reader (gfxstat is not watching): the line goes nowhere
        fd = os.open(os.environ["KMSG_FIFO"], os.O_WRONLY | os.O_NONBLOCK)
    except OSError:
        fd = None
    if fd is not None:
        os.write(fd, ("3,%%d,%%d,-;%%s\n SUBSYSTEM=pci\n DEVICE=+pci:0000:00:02.0\n" %% (1000 + n, 5124004311 + n, lines[which])).encode())
        os.close(fd)
print(100 + n %% 3)
''' % (I915, XE, AMDGPU)


def records(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.endswith("\n")]


def runs_of(path):
    return [r for r in records(path) if r.get("type") == "run"]


def main():
    d = tempfile.mkdtemp(prefix="gfxstat-kmsg-")
    script = write(d, "workload.py", WORKLOAD)
    fifo = os.path.join(d, "kmsg.fifo")
    os.mkfifo(fifo, 0o600)

    def env(counter, hang_at, kmsg=fifo):
        e = dict(os.environ)
        e.update({"GFXSTAT_KMSG": kmsg, "KMSG_FIFO": fifo, "COUNTER": os.path.join(d, counter),
                  "HANG_AT": hang_at})
        return e

    def gfxstat(args, e):
        import subprocess
        p = subprocess.run([GFXSTAT, *args], capture_output=True, env=e)
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")

    # gfxstat run: hang lines during runs 1, 3 and 5 (invocations 2, 4, 6).
    out = os.path.join(d, "a.json")
    rc, so, se = gfxstat(["run", "-o", out, "--label", "A", "--runs", "4", "--", PY, script],
                         env("a.count", "2=i915,4=xe,6=amdgpu"))
    runs = runs_of(out)
    check(rc == 0, f"run with hangs in three runs: rc {rc}: {se}")
    check([r["exit"]["class"] for r in runs] == ["ok", "invalid", "ok", "invalid", "ok", "invalid", "ok"],
          f"exactly the runs with a hang line are invalid: {[r['exit'] for r in runs]}")
    reasons = [r["exit"].get("reason") for r in runs if r["exit"]["class"] == "invalid"]
    check(reasons == ["kernel: " + I915, "kernel: " + XE, "kernel: " + AMDGPU],
          f"each invalid run's reason is its kernel line: {reasons}")
    check(all(r["exit"].get("code") == 0 for r in runs), "the workload's exit code is kept")
    check("cannot read" not in se, f"a readable FIFO gives no warning: {se}")
    check("3 failed (3 invalid: the kernel reported GPU trouble)" in se, f"the summary counts the invalid runs: {se}")

    # show counts them.
    rc, so, se = run([GFXSTAT, "show", out])
    check(rc == 0 and "3 invalid" in so, f"show counts the invalid runs: rc {rc}: {so}{se}")
    rc, so, se = run([GFXSTAT, "show", "--json", out])
    if check(rc == 0, f"show --json: rc {rc}: {se}"):
        j = json.loads(so)
        check(j["variants"][0]["exit"].get("invalid") == 3 and j["variants"][0]["used"] == 4,
              f"show's JSON counts 3 invalid runs and uses 4: {j['variants'][0]}")

    # compare: a second variant without trouble; the invalid runs are named
    # and their values (101, 102, 100: as plausible as any) are not used.
    rc, so, se = gfxstat(["run", "-o", out, "--label", "B", "--runs", "4", "--", PY, script],
                         env("b.count", ""))
    check(rc == 0, f"run B: rc {rc}: {se}")
    rc, so, se = run([GFXSTAT, "compare", "--full", out])
    check(rc in (0, 1), f"compare: rc {rc}: {se}")
    check("A: 3 invalid left out of value" in se, f"compare's note counts the invalid runs: {se}")
    check("invalid runs (the kernel reported trouble" in so and ("A run 1: kernel: " + I915) in so and
          ("A run 5: kernel: " + AMDGPU) in so, f"compare's text names each invalid run with its line: {so}")
    rc, so, se = run([GFXSTAT, "compare", "--format", "markdown", out])
    check(("A run 3: kernel: " + XE) in so.replace("\\", ""), f"compare's markdown names them: {so}")
    rc, so, se = run([GFXSTAT, "compare", "--format", "json", out])
    if check(rc in (0, 1), f"compare --format json: rc {rc}: {se}"):
        j = json.loads(so)
        base = j["comparisons"][0]["baseline"]
        check(base["n"] == 4 and base["runs_excluded"] == 3, f"only the 4 ok runs are samples: {base}")
        check([x["run"] for x in base["invalid_runs"]] == [1, 3, 5] and
              base["invalid_runs"][1]["reason"] == "kernel: " + XE, f"JSON names the invalid runs: {base}")

    # --max-failures counts invalid runs: a hang in every run stops after 2.
    out2 = os.path.join(d, "every.json")
    rc, so, se = gfxstat(["run", "-o", out2, "--runs", "5", "--max-failures", "2", "--", PY, script],
                         env("c.count", "*=i915"))
    runs = runs_of(out2)
    check(rc == 4 and len(runs) == 2 and all(r["exit"]["class"] == "invalid" for r in runs),
          f"--max-failures 2 stops after two invalid runs: rc {rc}, {[r['exit'] for r in runs]}")
    check("2 runs in a row did not succeed (last: kernel: " + I915 in se, f"the stop names the line: {se}")

    # A kernel log that cannot be read: one warning, the runs go on.
    locked = write(d, "locked.kmsg", "")
    os.chmod(locked, 0)
    readable = os.access(locked, os.R_OK)  # root reads it anyway
    source = os.path.join(d, "missing.kmsg") if readable else locked
    out3 = os.path.join(d, "unwatched.json")
    rc, so, se = gfxstat(["run", "-o", out3, "--runs", "3", "--", PY, script], env("d.count", "2=i915", kmsg=source))
    runs = runs_of(out3)
    why = "No such file or directory" if readable else "Permission denied"
    warning = (f"warning: cannot read {source} ({why}): GPU hangs and kernel warnings during runs will not be "
               "caught")
    check(rc == 0 and len(runs) == 3 and all(r["exit"]["class"] == "ok" for r in runs),
          f"unwatched runs go on and are ok: rc {rc}: {se}")
    check(se.count("cannot read") == 1 and warning in se, f"one warning says what is not watched: {se}")
    if not readable:
        check("run as root or set kernel.dmesg_restrict=0" in se, f"the warning says how to fix it: {se}")

    # The kernel escapes control characters as \\xHH; decoded, they become
    # spaces in the reason, never raw bytes in the file or on the terminal.
    out5 = os.path.join(d, "escaped.json")
    rc, so, se = gfxstat(["run", "-o", out5, "--runs", "1", "--", PY, script], env("f.count", "1=escaped"))
    runs = runs_of(out5)
    reason = runs[0]["exit"].get("reason", "") if runs else ""
    check(rc == 0 and reason == "kernel: i915 0000:00:02.0: [drm] GPU HANG: ecode 1:0:0, in evil ]2;owned  [7]",
          f"an escaped control character is a space in the reason: {reason!r}")
    check("\x1b" not in se and "\x07" not in se, f"no control character reaches the terminal: {se!r}")

    # gfxstat ab: a hang line during one run makes that run invalid; the
    # other variant's runs and the design go on.
    out4 = os.path.join(d, "ab.json")
    rc, so, se = gfxstat(["ab", "-o", out4, "--variant", "X", "--variant", "Y", "--runs", "3", "--seed", "1",
                          "--", PY, script], env("e.count", "3=amdgpu"))
    runs = runs_of(out4)
    invalid = [r for r in runs if r["exit"]["class"] == "invalid"]
    check(len(invalid) == 1 and invalid[0]["exit"]["reason"] == "kernel: " + AMDGPU,
          f"ab: the run with the line is invalid with it as reason: rc {rc}: {[r['exit'] for r in runs]} {se}")
    check(sum(r["exit"]["class"] == "ok" for r in runs) == len(runs) - 1,
          f"ab: every other run is ok: {[r['exit'] for r in runs]}")

    # ab without a readable kernel log: the one warning, before the runs.
    out6 = os.path.join(d, "ab-unwatched.json")
    rc, so, se = gfxstat(["ab", "-o", out6, "--variant", "X", "--variant", "Y", "--runs", "2", "--seed", "1",
                          "--", PY, script], env("g.count", "", kmsg=os.path.join(d, "missing.kmsg")))
    check(se.count("cannot read") == 1 and "warning: cannot read " + os.path.join(d, "missing.kmsg") in se and
          len(runs_of(out6)) == 4, f"ab: one warning, and the runs go on: rc {rc}: {se}")

    # gfxstat campaign: the same, a variant's second run invalid; the warning
    # once when the log cannot be read.
    for name, kmsg in (("campaign", fifo), ("campaign-unwatched", os.path.join(d, "missing.kmsg"))):
        cdir = os.path.join(d, name)
        plan = {"variants": [{"label": "a", "reboot": False}, {"label": "b", "reboot": False}],
                "workload": {"command": [PY, script], "parser": "lines", "metric_name": "fps"},
                "runs_per_boot": 2, "boots_per_variant": 1, "warmup_runs": 0, "order": "abba", "seed": 7,
                "reboot_command": ["true"], "reboot_first": False}
        plan_path = write(d, name + ".plan.json", json.dumps(plan))
        e = env(name + ".count", "2=xe", kmsg=kmsg)
        rc, so, se = gfxstat(["campaign", "init", plan_path, "-d", cdir], e)
        check(rc == 0, f"{name}: init: rc {rc}: {se}")
        rc, so, se = gfxstat(["campaign", "resume", cdir], e)
        runs = runs_of(os.path.join(cdir, "results.json"))
        invalid = [r for r in runs if r["exit"]["class"] == "invalid"]
        if kmsg == fifo:
            check(len(runs) == 4 and len(invalid) == 1 and invalid[0]["exit"]["reason"] == "kernel: " + XE and
                  "cannot read" not in se, f"{name}: the second run is invalid: rc {rc}: {[r['exit'] for r in runs]} {se}")
        else:
            check(len(runs) == 4 and not invalid and se.count("cannot read") == 1 and
                  "warning: cannot read " + kmsg in " ".join(se.split()), f"{name}: one warning, the runs go on: rc {rc}: {se}")

    return finish("kmsg cli: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
