#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Golden outputs: runs a broad set of gfxstat commands (tests/golden/cases.py)
on fixed inputs and compares what each prints (stdout, stderr, exit status)
and every file it writes with the outputs stored under tests/golden/expected/,
byte for byte after the named normalisation rules below.

  golden_test.py --gfxstat BUILD/gfxstat --source SRC            compare
  golden_test.py --gfxstat BUILD/gfxstat --source SRC --update   rewrite expected/

An update must be reviewed as a diff (git diff tests/golden/expected) before
it is committed: it is the record of what every command prints."""

import argparse
import concurrent.futures
import difflib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cases as case_list  # noqa: E402

# What may differ between two runs of the same binary, each masked as
# narrowly as found: normalise.json holds the rules, in the order they apply
# to every captured stream and file, each with its name and reason. Rules
# without a pattern are literal strings known at run time (the temporary
# directory, the version); the environment rule's replacement is a function.
def load_rules():
    with open(os.path.join(HERE, "normalise.json")) as f:
        rules = json.load(f)
    for r in rules:
        if "pattern" in r:
            r["pattern"] = re.compile(r["pattern"], re.M)
        if r["name"] == "environment":
            r["replace"] = lambda m: machine_masked(m.group(0))
    return rules


def machine_masked(line):
    """An environment record with everything but its tags masked."""
    record = json.loads(line)
    tags = record.get("tags")
    return '{"type":"environment",<MACHINE>' + (',"tags":' + json.dumps(tags, separators=(",", ":"))
                                                 if tags is not None else "") + "}"


def systemd_escaped(path):
    """The path as systemd-escape --path writes it (a unit's name)."""
    return "".join("-" if c == "/" else c if c.isalnum() or c in ":_." else "\\x%02x" % ord(c)
                   for c in path.strip("/"))


def normalise(text, tmp, version, gfxstat):
    escaped = systemd_escaped(tmp)
    literal = {"tmpdir": [tmp], "tmpdir in a unit name": [escaped.replace("\\", "\\\\"), escaped],
               "version": [version], "gfxstat binary": [gfxstat]}
    for r in NORMALISE:
        if "pattern" in r:
            text = r["pattern"].sub(r["replace"], text)
        else:
            for value in literal[r["name"]]:
                text = text.replace(value, r["replace"])
    return text


NORMALISE = load_rules()


def environment(tmp):
    """A fixed environment: no variable of the caller's reaches gfxstat."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C.UTF-8", "TZ": "UTC", "HOME": tmp,
           "GFXSTAT_KMSG": "/dev/null", "GFXSTAT_BOOT_ID_FILE": os.path.join(tmp, ".boot_id"),
           # An empty machine: no GPU clocks sampled, nothing probed of this one's.
           "GFXSTAT_SYSFS_ROOT": os.path.join(tmp, "machine"),
           "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org",
           "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z"}
    return env


def text_of(data):
    return data.decode("utf-8", errors="surrogateescape")


def run_case(case, gfxstat, source, version):
    """The case's normalised record: exit status, stdout, stderr, files."""
    tmp = tempfile.mkdtemp(prefix="gfxstat-golden-")
    try:
        work = os.path.join(tmp, "w")
        os.mkdir(work)
        os.mkdir(os.path.join(tmp, "machine"))
        with open(os.path.join(tmp, ".boot_id"), "w") as f:
            f.write("0b0e0c1d-2e3f-4a5b-8c6d-7e8f9a0b1c2d\n")
        # The repository's inputs under fixed names, so that paths in outputs
        # do not depend on where the source tree is.
        for link, target in (("data", "tests/data"), ("fixtures", "tests/fixtures"), ("examples", "examples"),
                             ("fuzz", "tests/fuzz")):
            os.symlink(os.path.join(source, target), os.path.join(work, link))
        env = environment(tmp)
        env.update(case.env)
        if case.setup:
            case.setup(work)
        ministat = os.path.join(os.path.dirname(gfxstat), "ministat")
        words = {"{gfxstat}": gfxstat, "{ministat}": ministat}
        # Commands that make the case's inputs (a campaign to look at): their
        # output is not compared, but they must not fail.
        for prep in case.prep:
            q = subprocess.run([words.get(a, a) for a in prep], capture_output=True, cwd=work, env=env, timeout=120)
            if q.returncode not in (0, 1):  # 1: a bisect step's "bad", a gate's regression
                raise RuntimeError(f"{case.name}: preparing {prep[1:]} failed ({q.returncode}): {text_of(q.stderr)}")
        before = contents(work)
        argv = [words.get(a, a) for a in case.argv]
        p = subprocess.run(argv, input=case.stdin, capture_output=True, cwd=work, env=env, timeout=120)
        # Each stream normalised on its own, so that its byte count is the
        # normalised text's (a masked duration changes the raw length).
        norm = lambda data: normalise(text_of(data), work, version, gfxstat)  # noqa: E731
        out, err = norm(p.stdout), norm(p.stderr)
        parts = [f"== {case.name}: gfxstat {shlex.join(case.argv[1:])}\n== exit {p.returncode}\n",
                 f"== stdout ({len(out)} characters)\n", out, f"== stderr ({len(err)} characters)\n", err]
        # File names normalised too (logs are named by the results file's id).
        # Files the command wrote: new ones and those whose content changed.
        after = contents(work)
        written = [r for r in after if before.get(r) != after[r]]
        for name, rel in sorted((norm(r.encode()), r) for r in written):
            if any(rel.startswith(skip) for skip in case.ignore):
                parts.append(f"== file {name} (not compared: {case.ignore_why})\n")
                continue
            data = norm(after[rel])
            parts += [f"== file {name} ({len(data)} characters)\n", data]
        return "".join(parts)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def walk(top):
    for root, dirs, files in os.walk(top):
        for name in files + [d for d in dirs if os.path.islink(os.path.join(root, d))]:
            path = os.path.join(root, name)
            if root == top and name in ("data", "fixtures", "examples", "fuzz"):
                continue
            if os.path.isfile(path) and not os.path.islink(path):
                yield os.path.relpath(path, top)


def contents(top):
    """{relative path: bytes} of the files under `top` (not the linked inputs)."""
    out = {}
    for rel in walk(top):
        with open(os.path.join(top, rel), "rb") as f:
            out[rel] = f.read()
    return out


def expected_path(name):
    return os.path.join(HERE, "expected", name + ".out")


def read_expected(name):
    try:
        with open(expected_path(name), "rb") as f:
            return text_of(f.read())
    except FileNotFoundError:
        return None


def mismatch(name, want, got):
    """None when equal; else the first 40 lines of a unified diff."""
    if want == got:
        return None
    if want is None:
        return f"{name}: no stored output (run with --update and review the new file)\n"
    diff = difflib.unified_diff(want.splitlines(keepends=True), got.splitlines(keepends=True),
                                f"expected/{name}.out", f"{name} now")
    lines = list(diff)
    return "".join(lines[:40]) + (f"... ({len(lines) - 40} more diff lines)\n" if len(lines) > 40 else "")


def self_check(name, got):
    """The comparison must be able to fail: one changed byte is caught."""
    corrupted = got[:-1] + ("X" if not got.endswith("X") else "Y")
    return mismatch(name, got, corrupted) is not None and mismatch(name, got, got) is None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gfxstat", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--update", action="store_true", help="rewrite the stored outputs from this binary")
    ap.add_argument("--only", help="run only the cases whose name matches this regular expression")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    gfxstat, source = os.path.abspath(args.gfxstat), os.path.abspath(args.source)
    version = subprocess.run([gfxstat, "version"], capture_output=True, text=True).stdout.split()[-1]
    cases = case_list.CASES
    names = [c.name for c in cases]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        print(f"duplicate case names: {sorted(dup)}")
        return 1
    if args.only:
        cases = [c for c in cases if re.search(args.only, c.name)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda c: run_case(c, gfxstat, source, version), cases))
    if args.update:
        os.makedirs(os.path.join(HERE, "expected"), exist_ok=True)
        for c, got in zip(cases, results):
            with open(expected_path(c.name), "wb") as f:
                f.write(got.encode("utf-8", errors="surrogateescape"))
        if not args.only:
            keep = {c.name + ".out" for c in cases}
            for stale in set(os.listdir(os.path.join(HERE, "expected"))) - keep:
                os.remove(os.path.join(HERE, "expected", stale))
        print(f"{len(cases)} golden outputs written; review them with git diff before committing")
        return 0
    failed = []
    for c, got in zip(cases, results):
        diff = mismatch(c.name, read_expected(c.name), got)
        if diff:
            failed.append(c.name)
            print(diff)
    if not self_check(cases[0].name, results[0]):
        print("self-check: a corrupted expected output was not caught")
        return 1
    if failed:
        print(f"{len(failed)} of {len(cases)} golden outputs differ: {' '.join(failed)}")
        print("if the change is intended: golden_test.py --update, then review git diff tests/golden/expected")
        return 1
    print(f"{len(cases)} golden outputs match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
