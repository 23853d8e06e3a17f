#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The version the docs show is the build's, so that it cannot drift.

README.md and docs/*.md state no version number of gfxstat: no
`gfxstat 1.2.3`, `gfxstat_1.2.3-1_amd64.deb` or `"gfxstat_version":
"1.2.3..."`, and not the project's version (CMakeLists.txt's project())
anywhere in the README; they write VERSION and say how to get it.
The README's `gfxstat version` section shows what the commands print,
with VERSION standing for the build's version: each line of its shell
example, `COMMAND   # OUTPUT`, is run with the gfxstat under test and must
print OUTPUT with VERSION replaced by what `gfxstat --version` names. The
version itself has the shape that section describes: MAJOR.MINOR.PATCH,
then `-N-gHASH` or `+gHASH`, then `-dirty`, or (a package build) the
package's upstream version.
Every failure names the file and the line.
"""
import argparse
import json
import pathlib
import re
import subprocess
import sys

LITERAL = re.compile(r"gfxstat[ _-]v?\d+\.\d+|\"?gfxstat_version\"?\s*:\s*\"v?\d")
SECTION = re.compile(r"^#{2,4}\s+`gfxstat version`")
SHAPE = re.compile(r"^\d+\.\d+\.\d+(?:-\d+-g[0-9a-f]+|\+g[0-9a-f]+)?(?:-dirty)?$")
EXAMPLE = re.compile(r"^(gfxstat(?:\s+\S+)*?)\s+#\s+(.*)$")

FAILURES = []


def fail(what):
    FAILURES.append(what)
    print("FAIL:", what)


def project_version(source):
    text = (source / "CMakeLists.txt").read_text(encoding="utf-8")
    m = re.search(r"project\(\s*gfxstat\s+VERSION\s+([0-9.]+)", text)
    return m.group(1) if m else None


def check_no_literal(source, doc, project):
    rel = doc.relative_to(source)
    for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
        for m in LITERAL.finditer(line):
            fail(f"{rel}:{number}: a literal gfxstat version (at '{m.group(0)}'): "
                 "write VERSION and say how to get it")
        if project and doc.name == "README.md" and doc.parent == source \
                and re.search(r"(?<![\d.])" + re.escape(project) + r"(?![\d])", line):
            fail(f"{rel}:{number}: the project's version {project} written out: it drifts from the build's")


def version_examples(readme):
    """(line number, command, expected output) of the `gfxstat version`
    section's shell block."""
    lines = readme.read_text(encoding="utf-8").splitlines()
    found = []
    in_section = in_block = False
    for number, line in enumerate(lines, 1):
        if line.startswith("#"):
            if in_block:
                continue
            in_section = bool(SECTION.match(line))
            continue
        if not in_section:
            continue
        if line.startswith("```"):
            in_block = not in_block and line.strip() == "```sh"
            if not in_block and found:
                break
            continue
        if in_block:
            m = EXAMPLE.match(line)
            if m:
                found.append((number, m.group(1).split(), m.group(2).strip()))
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gfxstat", required=True)
    ap.add_argument("--source", required=True)
    args = ap.parse_args()
    source = pathlib.Path(args.source).resolve()

    p = subprocess.run([args.gfxstat, "--version"], capture_output=True, text=True)
    if p.returncode != 0 or not p.stdout.startswith("gfxstat "):
        fail(f"gfxstat --version exited {p.returncode} and printed '{p.stdout.strip()}'")
        return 1
    version = p.stdout.strip()[len("gfxstat "):]
    if not SHAPE.match(version):
        fail(f"gfxstat --version names '{version}', not the shape README.md's `gfxstat version` "
             "section describes (MAJOR.MINOR.PATCH[-N-gHASH|+gHASH][-dirty])")

    project = project_version(source)
    if not project:
        fail("CMakeLists.txt: no project(gfxstat VERSION ...)")
    readme = source / "README.md"
    for doc in [readme] + sorted((source / "docs").glob("*.md")):
        check_no_literal(source, doc, project)

    examples = version_examples(readme)
    if not any(cmd[1:] == ["--version"] for _, cmd, _ in examples) \
            or not any(cmd[1:] == ["version"] for _, cmd, _ in examples):
        fail("README.md: the `gfxstat version` section's example shows `gfxstat --version` and "
             f"`gfxstat version` with what they print (found: {[' '.join(c) for _, c, _ in examples]})")
    for number, cmd, expected in examples:
        want = expected.replace("VERSION", version)
        p = subprocess.run([args.gfxstat] + cmd[1:], capture_output=True, text=True)
        got = p.stdout.strip()
        same = got == want
        if not same and want.startswith("{"):
            try:  # JSON is the same JSON however it is spaced
                same = json.loads(got) == json.loads(want)
            except ValueError:
                same = False
        if p.returncode != 0 or not same:
            fail(f"README.md:{number}: `{' '.join(cmd)}` prints '{got}' (exit {p.returncode}), "
                 f"the README shows '{expected}' (VERSION being {version})")

    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed")
        return 1
    print(f"docs_version: the docs state no version; the README's {len(examples)} version "
          f"example(s) print what gfxstat {version} prints")
    return 0


if __name__ == "__main__":
    sys.exit(main())
