#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A copy of a results file never writes over the original's logs.

The wrong answer this guards against: logs are named after the results
file's id, and `cp a.json b.json` copies the id. With a shared --log-dir,
b.json's next run took the name a.json's next run would get, and a.json's
run then replaced it (a log no run of its own named): b.json's record
pointed at a.json's output. A second results file with the same id must be
refused before it runs, naming the other file; a file that was moved
carries its id on; `merge` gives a copy a new id; and every run's log holds
what that run printed."""

import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import check, finish, paths  # noqa: E402

GFXSTAT, SRC = paths()


def gfxstat(*args):
    p = subprocess.run([GFXSTAT, *args], capture_output=True, stdin=subprocess.DEVNULL)
    return p.returncode, p.stderr.decode(errors="replace")


def run(results, value, log_dir=None):
    """One run that prints `value`: one command for every run (the value
    comes from a file), so that every run is of the same workload."""
    source = os.path.join(os.path.dirname(results), "value.txt")
    with open(source, "w") as f:
        f.write(f"{value}\n")
    where = ["--log-dir", log_dir] if log_dir else []
    return gfxstat("run", "--no-check", "--runs", "1", "--label", "bench", *where, "-o", results, "--",
                   "cat", source)


def runs_of(path):
    with open(path) as f:
        return [r for r in map(json.loads, f) if r.get("type") == "run"]


def logs_hold_their_runs(path):
    """Every run's log holds the value the run recorded: (ok, what is wrong)."""
    wrong = []
    for r in runs_of(path):
        value = r["metrics"]["value"]
        value = value[0] if isinstance(value, list) else value
        log = os.path.join(os.path.dirname(path), r["log"])
        try:
            with open(log + ".stdout") as f:
                text = f.read()
        except OSError as e:
            text = str(e)
        if text != f"{value}\n":
            wrong.append(f"run {r['run']} recorded {value}, its log {log}.stdout holds {text!r}")
    return not wrong, wrong


def main():
    with tempfile.TemporaryDirectory() as d:
        logs = os.path.join(d, "logs")
        a, b = os.path.join(d, "a.json"), os.path.join(d, "b.json")
        rc, err = run(a, 11, logs)
        check(rc == 0, f"a first run: rc {rc}: {err[-300:]}")
        shutil.copyfile(a, b)

        rc, err = run(b, 22, logs)
        check(rc == 2, f"a copy writing to the same log directory is refused (rc {rc}): {err[-400:]}")
        check("same id" in err and a in err and "merge" in err,
              f"the refusal names the original and the way on: {err[-400:]}")
        check(len(runs_of(b)) == 1, "nothing was run for the copy")
        rc, err = run(a, 33, logs)
        check(rc == 0, f"the original goes on: rc {rc}: {err[-300:]}")
        for path in (a, b):
            ok, wrong = logs_hold_their_runs(path)
            check(ok, f"{os.path.basename(path)}: each run's log is its own: {wrong}")

        # A moved file is the same results file: it carries the claim on.
        c = os.path.join(d, "c.json")
        os.rename(a, c)
        rc, err = run(c, 44, logs)
        check(rc == 0, f"a moved file writes to its log directory: rc {rc}: {err[-300:]}")
        rc, err = run(b, 55, logs)
        check(rc == 2 and c in err, f"the copy is still refused, naming the moved original: rc {rc}: {err[-300:]}")

        # merge makes a new file, with a new id: its runs' logs are its own.
        n = os.path.join(d, "n.json")
        rc, err = gfxstat("merge", "-o", n, b)
        check(rc == 0, f"merge of the copy: rc {rc}: {err[-300:]}")
        rc, err = run(n, 66, logs)
        check(rc == 0, f"the merged copy writes to the shared log directory: rc {rc}: {err[-300:]}")

        # Logs beside the file (RESULTS.logs) are the copy's own directory.
        rc, err = run(b, 77)
        check(rc == 0, f"the copy with its own log directory: rc {rc}: {err[-300:]}")
        for path in (c, n, b):
            ok, wrong = logs_hold_their_runs(path)
            check(ok, f"{os.path.basename(path)}: each run's log is its own: {wrong}")
    return finish("a copied results file does not write over the original's logs")


if __name__ == "__main__":
    sys.exit(main())
