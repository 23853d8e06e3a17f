#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`gfxstat history` prints commands the user pastes into a shell: every
word from data must reach the program as that one word, and none may be
taken for an option. The wrong answers this guards against: a build key
`$(touch PWN1)` printed bare in the advice "measure it alone as GOOD.json
(gfxstat run --tag commit=$(touch PWN1) ...)", which runs `touch` when
pasted; a build key starting with '-' put first among `git bisect start`'s
revisions, where git reads it as an option (or, failing to name a commit,
as the first path to bisect within); a results file named `-b4.json`
printed as `--good -b4.json`, which `gfxstat bisect check` reads as an
option. The printed commands are run here with `git` and `gfxstat`
replaced by scripts that record the words they get."""

import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import testlib  # noqa: E402
from testlib import check, finish  # noqa: E402

RECORDER = """#!/bin/sh
{ printf '%s\\0' "$(basename "$0")" "$@"; printf '\\n'; } >> "$ARGV_LOG"
"""

BENCH = """#!/bin/sh
n=$(cat count 2>/dev/null || echo 0)
echo $((n + 1)) > count
echo $(( $(cat level) + n % 3 ))
"""

# Twelve builds (the fewest for a p below history's alpha by permutation),
# the level drops after the sixth; keys 6 and 7 are the good and bad builds
# of the change.
KEYS = ["k1", "k2", "k3", "k4", "k5", "$(touch PWN1)", "-x", "k8", "k9", "k10", "k11", "k12"]
LEVELS = [1000, 1001, 999, 1000, 1002, 998, 900, 901, 899, 900, 902, 898]


def calls(log):
    """The recorded commands: lists of words, program name first."""
    if not os.path.exists(log):
        return []
    with open(log, "rb") as f:
        records = f.read().split(b"\0\n")
    return [[w.decode() for w in r.split(b"\0")] for r in records if r]


def run_pasted(line, d, log):
    """Runs `line` in sh as a user pasting it would, with the recorders
    first on PATH, in directory `d`."""
    for left in (log, os.path.join(d, "PWN1")):
        if os.path.exists(left):
            os.remove(left)
    env = dict(os.environ, PATH=os.path.join(d, "fake") + os.pathsep + os.environ["PATH"], ARGV_LOG=log)
    p = subprocess.run(["sh", "-c", line], cwd=d, env=env, capture_output=True, text=True)
    return p.returncode, calls(log)


def history(g, d, args):
    """history's JSON report, run in `d`."""
    p = subprocess.run([g, "history", "--format", "json", *args], cwd=d, capture_output=True, text=True)
    try:
        return p.returncode, json.loads(p.stdout), p.stderr
    except json.JSONDecodeError:
        return p.returncode, None, p.stderr


def measure(g, d, out, key, level):
    testlib.write(d, "level", f"{level}\n")
    p = subprocess.run([g, "run", "--runs", "3", "--tag", f"commit={key}", "--metric-name", "score",
                        "--higher-is-better", "--no-check", "-o", out, "--", "sh", "bench.sh"],
                       cwd=d, capture_output=True, text=True)
    check(p.returncode == 0, f"gfxstat run for build {key!r}: {p.returncode} {p.stderr[-300:]}")


def the_change(doc, what):
    try:
        changes = doc["metrics"][0]["changes"]
    except (TypeError, KeyError, IndexError):
        check(False, f"{what}: no metrics in {doc}")
        return None
    if not check(len(changes) == 1, f"{what}: one change point: {changes}"):
        return None
    return changes[0]["bisect"]


def main():
    g, _ = testlib.paths()
    g = os.path.abspath(g)
    with tempfile.TemporaryDirectory() as d:
        os.mkdir(os.path.join(d, "fake"))
        for name in ("git", "gfxstat"):
            path = testlib.write(os.path.join(d, "fake"), name, RECORDER)
            os.chmod(path, 0o755)
        testlib.write(d, "bench.sh", BENCH)
        log = os.path.join(d, "argv.log")
        pwned = os.path.join(d, "PWN1")

        # One file for every build: the references are placeholders, and a
        # note says how to measure each alone.
        merged = os.path.join(d, "merged.json")
        for key, level in zip(KEYS, LEVELS):
            measure(g, d, merged, key, level)
        rc, doc, err = history(g, d, [merged])
        bisect = the_change(doc, "merged")
        if bisect:
            rc, got = run_pasted(bisect["run"], d, log)
            check(not os.path.exists(pwned), f"merged: pasting the bisect command ran touch: {bisect['run']!r}")
            git = [c[1:] for c in got if c[0] == "git"]
            check(rc == 0 and git[:3] == [["bisect", "start"], ["bisect", "bad", "-x"],
                                          ["bisect", "good", "$(touch PWN1)"]],
                  f"merged: git gets each revision as a revision, never an option: {git} from {bisect['run']!r}")
            check(len(git) == 4 and git[3][:5] == ["bisect", "run", "gfxstat", "bisect", "step"]
                  and git[3][git[3].index("--good") + 1] == "GOOD.json",
                  f"merged: git bisect run gets the step command: {git}")
            notes = [n for n in bisect["notes"] if "(gfxstat run " in n]
            check(len(notes) == 2, f"merged: a note per placeholder: {bisect['notes']}")
            for n in notes:
                cmd = n[n.index("(gfxstat run ") + 1:n.rindex(" ...)")]
                rc, got = run_pasted(cmd, d, log)
                check(not os.path.exists(pwned), f"merged: pasting the advice ran touch: {n!r}")
                tags = [c[c.index("--tag") + 1] for c in got if "--tag" in c]
                check(rc == 0 and len(tags) == 1 and tags[0] in ("commit=$(touch PWN1)", "commit=-x"),
                      f"merged: the advice's gfxstat run gets the key whole: {got} from {n!r}")

        # A file per build, named with a leading '-': the references are the
        # files, and gfxstat bisect check must read them as files.
        files = []
        for i, (key, level) in enumerate(zip(KEYS, LEVELS)):
            files.append(f"-b{i}.json")
            measure(g, d, os.path.join(d, files[-1]), f"c{i}", level)
        rc, doc, err = history(g, d, ["--", *files])
        bisect = the_change(doc, "files")
        if bisect:
            rc, got = run_pasted(bisect["check"], d, log)
            words = got[0][1:] if got else []
            check(rc == 0 and "--good=-b5.json" in words and "--bad=-b6.json" in words,
                  f"files: the check command names the files as values: {words} from {bisect['check']!r}")
            # The real gfxstat runs it: an answer (0 or 1), not a usage error.
            real = os.path.join(d, "real")
            os.mkdir(real)
            os.symlink(g, os.path.join(real, "gfxstat"))
            p = subprocess.run(["sh", "-c", bisect["check"]], cwd=d, capture_output=True, text=True,
                               env=dict(os.environ, PATH=real + os.pathsep + os.environ["PATH"]))
            check(p.returncode in (0, 1) and "bad vs good" in p.stdout,
                  f"files: gfxstat bisect check runs: {p.returncode} {p.stdout[-300:]} {p.stderr[-300:]}")
            check(bisect["run"].startswith("git bisect start c6 c5 -- && git bisect run "),
                  f"files: revisions end with '--' (a word that is no commit is then an error, not a path): "
                  f"{bisect['run']!r}")
    return finish("history's commands reach the shell and git word for word")


if __name__ == "__main__":
    sys.exit(main())
