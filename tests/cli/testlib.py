# SPDX-License-Identifier: MIT
"""What the command-line tests share: running gfxstat, recording failed
checks (every check runs; the failures are listed at the end), and the exit
status ctest reads."""

import argparse
import json
import os
import re
import subprocess

FAILURES = []

# gfxstat reads the kernel log during every run (docs/run.md, "Kernel
# log"): tests of other things must not depend on the machine's log (a WARN
# elsewhere on it would make their runs invalid) nor on who may read it (a
# warning when not). /dev/null is a kmsg source that never reports
# anything; kmsg_cli gives its own.
os.environ.setdefault("GFXSTAT_KMSG", "/dev/null")


def check(cond, what):
    """Records `what` as a failure unless `cond`; returns `cond`."""
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what)
    return cond


def run(args, stdin=b""):
    """(exit status, stdout, stderr) of a command."""
    p = subprocess.run(args, input=stdin, capture_output=True)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def finish(passed_message):
    """The exit status for ctest: 1 if any check failed."""
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed")
        return 1
    print(passed_message)
    return 0


def write(d, name, text):
    """Writes `text` to the file `name` in directory `d`; returns its path."""
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def self_contained(html):
    """Problems that would make an HTML page fetch or run anything ([] none)."""
    problems = []
    body = re.sub(r'\bxmlns(:\w+)?="[^"]*"', "", html)  # namespace names are not fetched
    for bad in ("http:", "https:", "<script", "javascript:", "@import", "url("):
        if bad in body:
            problems.append(bad)
    # A PNG as a data URI is part of the page (gfxstat report's frames).
    if re.search(r'\b(src|href)="(?!#|data:image/png;base64,)', body):
        problems.append("a src or href that is not an anchor or an embedded PNG")
    return problems


def paths():
    """(gfxstat binary, source tree) from --gfxstat and --source."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--gfxstat", required=True)
    ap.add_argument("--source", required=True)
    args = ap.parse_args()
    return args.gfxstat, args.source


def load_json(src, rel):
    """A JSON file of the source tree."""
    with open(os.path.join(src, rel)) as f:
        return json.load(f)
