#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A FIFO at an output's name is refused at once, never opened and waited on.

The wrong answer this guards against: `import --append -o FIFO`, `merge
--replace -o FIFO` and `compare --markdown` with $GITHUB_STEP_SUMMARY naming
a FIFO hung forever (opening a FIFO waits for its other end), so another
user who planted one in a sticky directory could stop a root CI job or
campaign; `compare --json FIFO` replaced the FIFO with a regular file. Each
must exit 2 with an error that names the file and says it is a FIFO, and
leave the FIFO in place."""

import os
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import check, finish, paths, write  # noqa: E402

GFXSTAT, SRC = paths()


def run(args, env=None):
    """(rc, stderr) of gfxstat, or (None, "") when it hung: a FIFO was waited on."""
    try:
        p = subprocess.run([GFXSTAT] + args, capture_output=True, timeout=10, stdin=subprocess.DEVNULL,
                           env={**os.environ, **(env or {})})
    except subprocess.TimeoutExpired:
        return None, ""
    return p.returncode, p.stderr.decode(errors="replace")


def refused(what, rc, err, fifo):
    if not check(rc is not None, f"{what}: returns instead of waiting on the FIFO"):
        return
    check(rc == 2, f"{what}: exit 2 (rc {rc}): {err[-300:]}")
    check(fifo in err and "FIFO" in err, f"{what}: the error names the file and says it is a FIFO: {err[-300:]}")
    check(stat.S_ISFIFO(os.lstat(fifo).st_mode), f"{what}: the FIFO is left as it was")


def main():
    with tempfile.TemporaryDirectory() as d:
        values = write(d, "v.txt", "1\n2\n3\n4\n5\n")
        more = write(d, "w.txt", "2\n3\n4\n5\n6\n")
        base = os.path.join(d, "base.json")
        rc, err = run(["import", "--from", "lines", "--label", "base", "--label", "patched", "-o", base, values,
                       more])
        if not check(rc == 0, f"import a plain file: rc {rc}: {err[-300:]}"):
            return finish("")
        fifo = os.path.join(d, "out.json")
        os.mkfifo(fifo, 0o600)

        rc, err = run(["import", "--from", "lines", "--label", "x", "--append", "-o", fifo, values])
        refused("import --append -o FIFO", rc, err, fifo)
        rc, err = run(["merge", "--replace", "-o", fifo, base])
        refused("merge --replace -o FIFO", rc, err, fifo)
        rc, err = run(["run", "--no-check", "--runs", "1", "-o", fifo, "--", "true"])
        refused("run -o FIFO", rc, err, fifo)

        # compare's report files: replaced only when they are regular files.
        report = os.path.join(d, "report.json")
        os.mkfifo(report, 0o600)
        rc, err = run(["compare", base, "--json", report])
        refused("compare --json FIFO", rc, err, report)

        # $GITHUB_STEP_SUMMARY: appended to, so opened for writing.
        summary = os.path.join(d, "summary.md")
        os.mkfifo(summary, 0o600)
        md = os.path.join(d, "report.md")
        rc, err = run(["compare", base, "--markdown", md], env={"GITHUB_STEP_SUMMARY": summary})
        refused("compare --markdown, $GITHUB_STEP_SUMMARY a FIFO", rc, err, summary)

        # A regular summary file is still appended to.
        plain = write(d, "plain.md", "earlier step\n")
        rc, err = run(["compare", base, "--markdown", md], env={"GITHUB_STEP_SUMMARY": plain})
        with open(plain) as f:
            text = f.read()
        check(rc == 0 and text.startswith("earlier step\n") and len(text) > len("earlier step\n"),
              f"a regular $GITHUB_STEP_SUMMARY is appended to: rc {rc}: {err[-300:]}")
    return finish("a FIFO at an output's name is refused, not waited on")


if __name__ == "__main__":
    sys.exit(main())
