#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gfxstat run where it can do harm: as root beside directories other users
can write to, and with workloads that leave processes behind.

- Planted links and foreign log directories (as root, and as the
  unprivileged user `nobody` in a world-writable sticky directory): a log
  file that is a link, a log directory that is a link, one writable by its
  group or by others, one owned by another user. The file the link points
  to must stay untouched and gfxstat must say why it refused.
- Logs named after the results file's id: two results files sharing a
  --log-dir, and a results file made again, keep each other's logs.
- Background processes of a workload are stopped when its run ends, with
  one warning; a workload outlives neither its run nor a SIGKILLed gfxstat.
- A full disk during the runs: exit 1, the warnings and the "every
  finished run is in" line. A torn last line is repaired with a warning.

The root parts skip, saying so, when the test does not run as root."""

import grp
import json
import os
import pwd
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402
from testlib import check, finish  # noqa: E402

IS_ROOT = os.geteuid() == 0
PRECIOUS = "precious\n"


def runs_of(path):
    out = []
    with open(path) as f:
        for line in f:
            if line.endswith("\n"):
                rec = json.loads(line)
                if rec.get("type") == "run":
                    out.append(rec)
    return out


def header_id(path):
    with open(path) as f:
        return json.loads(f.readline())["id"]


def read(path):
    with open(path) as f:
        return f.read()


def proc_stat(pid):
    """(state, ppid) of a process, None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    fields = text[text.rfind(")") + 2:].split()
    return fields[0], int(fields[1])


def comm(pid):
    """A process's name (/proc/PID/comm), "" when it is gone."""
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return ""


def live_pids_with_arg(arg):
    """Live (not zombie) processes whose command line has the argument `arg`."""
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        st = proc_stat(name)
        if arg.encode() in argv and st and st[0] not in "ZX":
            out.append(int(name))
    return out


def wait_until(cond, seconds):
    """Polls `cond` every 10 ms for up to `seconds`; its last value."""
    deadline = time.monotonic() + seconds
    while True:
        value = cond()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.01)


def main():
    g, _ = testlib.paths()
    top = tempfile.mkdtemp(prefix="gfxstat-runsafe-")
    try:
        # Traversable by `nobody`; each case below makes its own directory.
        os.chmod(top, 0o755)
        links_and_directories(g, top)
        log_names(g, top)
        background_processes(g, top)
        parent_death(g, top)
        disk_full(g, top)
        torn_last_line(g, top)
    finally:
        subprocess.run(["rm", "-rf", top])
    return finish("all run safety checks passed")


def gfxstat_run(g, args, user=None, timeout=60):
    """(exit status, stderr) of `gfxstat run ARGS`, as `user` when given."""
    prefix = []
    if user:
        prefix = ["setpriv", f"--reuid={user}", f"--regid={grp.getgrgid(pwd.getpwnam(user).pw_gid).gr_name}",
                  "--clear-groups", "--"]
    # --force: these checks append `echo 42` after `echo 1` under one label
    # on purpose (logs and links, not workloads: tests/cli/workload_cli_test.py).
    p = subprocess.run(prefix + [g, "run", "--force", *args], capture_output=True, timeout=timeout)
    return p.returncode, p.stderr.decode(errors="replace")


def links_and_directories(g, top):
    if IS_ROOT:
        as_root(g, top)
        as_nobody(g, top)
    else:
        print("SKIP: the planted-link tests as root and as `nobody` need root (this test runs as uid "
              f"{os.geteuid()}); the unprivileged checks run as this user instead")
        unprivileged(g, top, None)


def victim_file(directory, owner=None):
    path = os.path.join(directory, "victim")
    with open(path, "w") as f:
        f.write(PRECIOUS)
    if owner is not None:
        os.chown(path, owner, -1)
    return path


def as_root(g, top):
    # The case: in a world-writable sticky directory (/tmp), an
    # unprivileged user prepares the log directory with a link in it, and
    # root's run would write the workload's output into root's file.
    nobody = pwd.getpwnam("nobody")
    secret_dir = os.path.join(top, "root-only")
    os.mkdir(secret_dir, 0o700)
    victim = victim_file(secret_dir)
    shared = os.path.join(top, "shared")
    os.mkdir(shared)
    os.chmod(shared, 0o1777)

    def as_nobody_do(*cmd):
        subprocess.run(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--", *cmd], check=True)

    pub = os.path.join(shared, "pub")
    as_nobody_do("mkdir", "-p", pub + "/results.json.logs")
    as_nobody_do("ln", "-s", victim, pub + "/results.json.logs/bench-0000.stdout")
    out = os.path.join(pub, "results.json")
    rc, err = gfxstat_run(g, ["--runs", "1", "--label", "bench", "-o", out, "--", "echo", "42"])
    check(read(victim) == PRECIOUS, f"root, log directory of nobody's with a link in it: {victim} untouched")
    check(rc == 2 and f"owned by user {nobody.pw_uid}" in err and "results.json.logs" in err,
          f"root, log directory owned by nobody: exit 2 naming it and its owner: {rc} {err}")
    check(not os.path.exists(out), "refused before any run: no results file")

    # The log directory itself a link (to a directory of root's).
    target = os.path.join(secret_dir, "logs-target")
    os.mkdir(target, 0o700)
    as_nobody_do("ln", "-s", target, shared + "/linked.json.logs")
    out = os.path.join(shared, "linked.json")
    rc, err = gfxstat_run(g, ["--runs", "1", "--label", "bench", "-o", out, "--", "echo", "42"])
    check(os.listdir(target) == [], f"root, log directory that is a link: nothing created in {target}")
    check(rc == 2 and "symbolic link" in err and "linked.json.logs" in err,
          f"root, log directory that is a link: exit 2, said: {rc} {err}")

    # A log directory of root's that its group or everyone can write to
    # (made with a careless umask): nobody plants a link in it.
    for mode, who in ((0o777, "other users"), (0o770, "its group")):
        d = os.path.join(top, f"careless-{mode:o}")
        os.mkdir(d, 0o755)
        logs = os.path.join(d, "r.json.logs")
        os.mkdir(logs)
        os.chmod(logs, mode)
        os.symlink(victim, os.path.join(logs, "bench-0000.stdout"))
        rc, err = gfxstat_run(g, ["--runs", "1", "--label", "bench", "-o", os.path.join(d, "r.json"), "--",
                                  "echo", "42"])
        check(read(victim) == PRECIOUS, f"root, log directory mode {mode:o}: {victim} untouched")
        check(rc == 2 and f"writable by {who}" in err and f"{mode:04o}" in err,
              f"root, log directory mode {mode:o}: exit 2, said: {rc} {err}")

    # A link at a log file's name in root's own private log directory (put
    # there by someone who was root, or through an older gfxstat): not
    # followed, a warning, and the run is still recorded.
    d = os.path.join(top, "private")
    os.mkdir(d, 0o755)
    out = os.path.join(d, "r.json")
    rc, err = gfxstat_run(g, ["--runs", "1", "--label", "bench", "-o", out, "--", "echo", "1"])
    check(rc == 0, f"a first run makes the results file: {rc} {err}")
    prefix = header_id(out)[:16] + "-"
    for name in (f"{prefix}bench-0001.stdout", "bench-0001.stdout"):  # today's name, and the one before ids
        os.symlink(victim, os.path.join(out + ".logs", name))
    rc, err = gfxstat_run(g, ["--runs", "1", "--label", "bench", "-o", out, "--", "echo", "42"])
    runs = runs_of(out)
    check(read(victim) == PRECIOUS, f"root, a link at a log's name: {victim} untouched")
    check(rc == 0 and "warning:" in err and f"{prefix}bench-0001.stdout: already exists" in err and
          "not followed" in err, f"root, a link at a log's name: a warning naming it: {rc} {err}")
    check(len(runs) == 2 and runs[1]["metrics"] == {"value": 42} and "log" not in runs[1],
          f"the run is recorded, without a log it does not have: {runs[1:]}")


def as_nobody(g, top):
    # gfxstat as `nobody` in a world-writable sticky directory of root's;
    # the one planting is root (or any other user).
    nobody = pwd.getpwnam("nobody").pw_uid
    shared = os.path.join(top, "sticky")
    os.mkdir(shared)
    os.chmod(shared, 0o1777)
    mine = os.path.join(shared, "nobody-files")
    os.mkdir(mine, 0o755)
    os.chown(mine, nobody, -1)
    victim = victim_file(mine, nobody)
    unprivileged(g, shared, "nobody", victim)

    # A log directory owned by another user (uid 4242), with a link to
    # nobody's file in it.
    logs = os.path.join(shared, "foreign.json.logs")
    os.mkdir(logs, 0o755)
    os.symlink(victim, os.path.join(logs, "bench-0000.stdout"))
    os.lchown(os.path.join(logs, "bench-0000.stdout"), 4242, -1)
    os.chown(logs, 4242, -1)
    rc, err = gfxstat_run(g, ["--runs", "1", "--label", "bench", "-o", os.path.join(shared, "foreign.json"), "--",
                              "echo", "42"], user="nobody")
    check(read(victim) == PRECIOUS, f"nobody, log directory of uid 4242 with a link in it: {victim} untouched")
    check(rc == 2 and "owned by user 4242" in err, f"nobody, log directory of another user: exit 2, said: {rc} {err}")


def unprivileged(g, shared, user, victim=None):
    """The refusals an unprivileged user gets; `shared` is writable by it."""
    who = user or "this user"
    if victim is None:
        mine = os.path.join(shared, "own-files")
        os.mkdir(mine)
        victim = victim_file(mine)
    # The log directory a link (to a directory of the user's own).
    target = os.path.join(os.path.dirname(victim), "logs-target")
    os.mkdir(target, 0o755)
    if user:
        os.chown(target, pwd.getpwnam(user).pw_uid, -1)
    os.symlink(target, os.path.join(shared, "linked.json.logs"))
    rc, err = gfxstat_run(g, ["--runs", "1", "--label", "bench", "-o", os.path.join(shared, "linked.json"), "--",
                              "echo", "42"], user=user)
    check(os.listdir(target) == [], f"{who}, log directory that is a link: nothing created in {target}")
    check(rc == 2 and "symbolic link" in err, f"{who}, log directory that is a link: exit 2, said: {rc} {err}")

    # A log directory of its own that others can write to, with a link in it.
    for mode, says in ((0o777, "other users"), (0o775, "its group")):
        logs = os.path.join(shared, f"open-{mode:o}.json.logs")
        os.mkdir(logs)
        os.chmod(logs, mode)
        if user:
            os.chown(logs, pwd.getpwnam(user).pw_uid, -1)
        os.symlink(victim, os.path.join(logs, "bench-0000.stdout"))
        rc, err = gfxstat_run(g, ["--runs", "1", "--label", "bench", "-o",
                                  os.path.join(shared, f"open-{mode:o}.json"), "--", "echo", "42"], user=user)
        check(read(victim) == PRECIOUS, f"{who}, log directory mode {mode:o} with a link in it: {victim} untouched")
        check(rc == 2 and f"writable by {says}" in err, f"{who}, log directory mode {mode:o}: exit 2, said: {rc} {err}")

    # Its own private log directory with a link at the next log's name (put
    # there by root, or by an older gfxstat's user): a warning, not followed.
    out = os.path.join(shared, "own.json")
    rc, err = gfxstat_run(g, ["--runs", "1", "--label", "bench", "-o", out, "--", "echo", "1"], user=user)
    check(rc == 0, f"{who}: a first run makes the results file: {rc} {err}")
    name = header_id(out)[:16] + "-bench-0001.stdout"
    for planted in (name, "bench-0001.stdout"):
        os.symlink(victim, os.path.join(out + ".logs", planted))
    rc, err = gfxstat_run(g, ["--runs", "1", "--label", "bench", "-o", out, "--", "echo", "42"], user=user)
    check(read(victim) == PRECIOUS, f"{who}, a link at a log's name: {victim} untouched")
    check(rc == 0 and f"{name}: already exists" in err and len(runs_of(out)) == 2,
          f"{who}, a link at a log's name: a warning, the run recorded: {rc} {err}")


def log_names(g, top):
    d = os.path.join(top, "names")
    os.mkdir(d)
    shared_logs = os.path.join(d, "logs")
    a, b = os.path.join(d, "a.json"), os.path.join(d, "b.json")
    for path, word in ((a, "11"), (b, "22")):
        rc, err = gfxstat_run(g, ["--runs", "1", "--label", "bench", "--log-dir", shared_logs, "-o", path, "--",
                                  "echo", word])
        check(rc == 0, f"--log-dir shared: {rc} {err}")
    la, lb = runs_of(a)[0].get("log", ""), runs_of(b)[0].get("log", "")
    check(la != lb and os.path.basename(la).startswith(header_id(a)[:16] + "-"),
          f"logs named after the results file's id: {la} {lb}")
    check(os.path.isfile(la + ".stdout") and read(la + ".stdout") == "11\n" and read(lb + ".stdout") == "22\n",
          f"two results files sharing --log-dir keep their own logs: {os.listdir(shared_logs)}")

    # A results file deleted and made again: the old logs stay the old ones.
    c = os.path.join(d, "c.json")
    gfxstat_run(g, ["--runs", "1", "--label", "bench", "-o", c, "--", "echo", "33"])
    first = os.path.join(d, runs_of(c)[0]["log"])
    os.unlink(c)
    rc, err = gfxstat_run(g, ["--runs", "1", "--label", "bench", "-o", c, "--", "echo", "44"])
    second = os.path.join(d, runs_of(c)[0].get("log", ""))
    check(rc == 0 and first != second and read(first + ".stdout") == "33\n" and read(second + ".stdout") == "44\n",
          f"a results file made again does not overwrite the old one's logs: {rc} {err} "
          f"{os.listdir(c + '.logs')}")


    # The log of a run that never reached the results file (gfxstat killed
    # between the two): the run that gets its index replaces it, quietly.
    with open(c) as f:
        lines = f.readlines()
    with open(c, "w") as f:
        f.writelines(lines[:-1])
    rc, err = gfxstat_run(g, ["--runs", "1", "--label", "bench", "-o", c, "--", "echo", "55"])
    third = os.path.join(d, runs_of(c)[0].get("log", ""))
    check(rc == 0 and "warning" not in err and third == second and read(third + ".stdout") == "55\n",
          f"a lost run's own log is replaced by the run that takes its index: {rc} {err}")


def alive(pid):
    st = proc_stat(pid)
    return st is not None and st[0] not in "ZX"


def background_processes(g, top):
    d = os.path.join(top, "background")
    os.mkdir(d)
    out = os.path.join(d, "bg.json")
    # The workloads write their background child's pid: right after sh
    # ends, the child may not have become `sleep` yet.
    pids = os.path.join(d, "pids")
    t0 = time.monotonic()
    rc, err = gfxstat_run(g, ["--runs", "2", "-o", out, "--", "sh", "-c", f"sleep 77 & echo $! >> {pids}; echo 5"])
    took = time.monotonic() - t0
    check(rc == 0 and [r["metrics"] for r in runs_of(out)] == [{"value": 5}] * 2, f"background runs: {rc} {err}")
    check(took < 10, f"a background process holding the output does not hold up the runs: {took:.1f} s")
    started = [int(x) for x in read(pids).split()]
    left = [p for p in started if alive(p)]
    check(len(started) == 2 and not left, f"no background sleep outlives its run: {left} of {started}")
    check(err.count("warning:") == 1 and "2 runs left 2 processes running in the background" in err,
          f"one warning for all runs: {err}")
    for pid in left:
        os.kill(pid, signal.SIGKILL)

    # One that ignores SIGTERM gets SIGKILL after the grace.
    os.unlink(pids)
    t0 = time.monotonic()
    rc, err = gfxstat_run(g, ["--runs", "1", "-o", out, "--", "sh", "-c",
                              f"trap '' TERM; sleep 77 & echo $! >> {pids}; echo 5"])
    took = time.monotonic() - t0
    started = [int(x) for x in read(pids).split()]
    left = [p for p in started if alive(p)]
    check(rc == 0 and started and not left and took < 10,
          f"a background process ignoring SIGTERM is killed: {left} of {started}, {took:.1f} s")
    for pid in left:
        os.kill(pid, signal.SIGKILL)

    # Nothing left: no warning.
    rc, err = gfxstat_run(g, ["--runs", "2", "-o", out, "--", "echo", "5"])
    check(rc == 0 and "warning" not in err, f"no warning when nothing is left: {err}")

    escaped_writer(g, d)


def escaped_writer(g, d):
    """A process that escaped the run's process group (setsid) keeps the
    first run's stdout and stderr and writes into them while the second run
    runs: gfxstat keeps its memory files from run to run only while nothing
    else holds them, so no later run's output gets a byte of it."""
    out = os.path.join(d, "escaped.json")
    started, escaped, go, done = (os.path.join(d, n) for n in ("esc-started", "esc-out", "esc-go", "esc-done"))
    # The first run ends once the writer is out of its group (else the
    # end-of-run stop would get it); the second lets it write.
    writer = (f"touch {escaped}; while [ ! -e {go} ]; do sleep 0.01; done; "
              f"for i in 1 2 3 4 5; do echo STRAY; echo STRAY >&2; sleep 0.02; done; touch {done}")
    script = (f"echo 5; if [ ! -e {started} ]; then touch {started}; setsid sh -c '{writer}' & "
              f"while [ ! -e {escaped} ]; do sleep 0.01; done; else touch {go}; sleep 0.3; fi")
    rc, err = gfxstat_run(g, ["--runs", "3", "-o", out, "--", "sh", "-c", script])
    wait_until(lambda: os.path.exists(done), 10)
    check(os.path.exists(done), "the escaped writer wrote while the second run ran")
    check(rc == 0 and [r["metrics"] for r in runs_of(out)] == [{"value": 5}] * 3,
          f"runs after an escaped writer: {rc} {err}")
    logs = os.path.join(out + ".logs")
    kept = {n.split("-", 1)[1]: read(os.path.join(logs, n)) for n in os.listdir(logs) if not n.endswith(".results")}
    check(kept == {f"sh-000{i}.stdout": "5\n" for i in range(3)},
          f"each run's output is its own, nothing of the escaped writer: {kept}")


def parent_death(g, top):
    d = os.path.join(top, "pdeath")
    os.mkdir(d)
    marker = "60.9753"
    p = subprocess.Popen([g, "run", "--runs", "1", "-o", os.path.join(d, "r.json"), "--", "sleep", marker],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # gfxstat's other child, its guard (drivers/group_guard), has
        # gfxstat's command line: it is told apart by its name.
        children = wait_until(lambda: [q for q in live_pids_with_arg(marker) if (proc_stat(q) or ("", 0))[1] == p.pid
                                       and comm(q) != "gfxstat-guard"], 10)
        check(len(children) == 1, f"the workload runs under gfxstat: {children}")
        p.send_signal(signal.SIGKILL)
        p.wait()
        left = wait_until(lambda: not live_pids_with_arg(marker), 2)
        check(left, f"the workload dies with a SIGKILLed gfxstat: {live_pids_with_arg(marker)} still run")
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        for pid in live_pids_with_arg(marker):
            os.kill(pid, signal.SIGKILL)


def disk_full(g, top):
    if not IS_ROOT:
        print("SKIP: the full-disk test mounts a 64 KiB tmpfs, which needs root")
        return
    mnt = os.path.join(top, "full")
    os.mkdir(mnt)
    m = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mnt], capture_output=True)
    if m.returncode != 0:
        print(f"SKIP: the full-disk test cannot mount a tmpfs: {m.stderr.decode(errors='replace').strip()}")
        return
    try:
        out = os.path.join(mnt, "r.json")
        # The second run fills the file system, then prints: its log cannot
        # be written, nor can its record. Each run prints 2000 numbers, so
        # that its record (9 KB) needs pages of its own.
        filler = os.path.join(mnt, "filler")
        second = os.path.join(top, "full-second-run")
        rc, err = gfxstat_run(g, ["--runs", "3", "-o", out, "--", "sh", "-c",
                                  f"if [ -e {second} ]; then head -c 1000000 /dev/zero > {filler} 2>/dev/null; fi; "
                                  f"touch {second}; seq 2000"])
        check(rc == 1, f"a full disk during the runs is not a usage error: exit {rc}: {err}")
        check(f"every finished run is in {out}" in err and "No space left on device" in err,
              f"the user is told why, and where the finished runs are: {err}")
        check(err.count("warning:") == 1 and "-sh-0001.stdout: cannot keep the run's output: No space left" in err,
              f"the log that could not be written is a warning that is printed: {err}")
        with open(out) as f:
            text = f.read()
        check(text.endswith("\n") and len(runs_of(out)) == 1, f"the first run is kept whole: {len(runs_of(out))} runs")
    finally:
        subprocess.run(["umount", mnt])


def torn_last_line(g, top):
    d = os.path.join(top, "torn")
    os.mkdir(d)
    out = os.path.join(d, "r.json")
    rc, err = gfxstat_run(g, ["--runs", "1", "-o", out, "--", "echo", "1"])
    with open(out, "a") as f:
        f.write('{"type":"run","variant":"ec')
    rc, err = gfxstat_run(g, ["--runs", "1", "-o", out, "--", "echo", "2"])
    check(rc == 0 and len(runs_of(out)) == 2, f"runs appended after the repair: {rc} {err}")
    check(err.count("warning:") == 1 and "gfxstat run: warning:" in err and "cut off" in err and out in err,
          f"the repair of the torn last line is said once: {err}")


if __name__ == "__main__":
    sys.exit(main())
