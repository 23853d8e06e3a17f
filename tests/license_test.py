#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gfxstat is under the MIT license: LICENSE says so, and every source,
script and build file says so in its first lines, as the kernel and Mesa
do (an SPDX-License-Identifier line, after a #! or #compdef line where the
file starts with one).

The files are git's tracked ones when the source is a git checkout (new
files git does not ignore included, so that a file added but not yet
committed fails here first), else every file under the source but the
build trees. A file that lacks the line is named, and the test fails.
"""
import argparse
import pathlib
import subprocess
import sys

SPDX = "SPDX-License-Identifier: MIT"
SUFFIXES = (".cpp", ".h", ".py", ".sh", ".bash", ".cmake")
NAMES = {"CMakeLists.txt", "Makefile"}
# Scripts without a suffix, and the examples that CI systems run as they are.
PATHS = {".ci/run", "completion/_gfxstat", "debian/rules"}
EXAMPLE_SUFFIXES = (".yml", ".yaml")
SKIP_DIRS = {".git", "build", "build-asan", "build-fuzz", "debian/build"}


def wanted(rel: str) -> bool:
    name = rel.rsplit("/", 1)[-1]
    if "corpus/" in rel:  # fuzzers' seed inputs are data, whatever their names
        return False
    if name.endswith(SUFFIXES) or name in NAMES or rel in PATHS:
        return True
    return rel.startswith("examples/") and name.endswith(EXAMPLE_SUFFIXES)


def source_files(source: pathlib.Path) -> list[str]:
    git = subprocess.run(["git", "-C", str(source), "ls-files", "--cached", "--others",
                          "--exclude-standard"], capture_output=True, text=True)
    if git.returncode == 0 and git.stdout:
        return [f for f in git.stdout.splitlines() if (source / f).is_file()]
    files = []
    for path in source.rglob("*"):
        rel = path.relative_to(source).as_posix()
        if any(rel == d or rel.startswith(d + "/") for d in SKIP_DIRS):
            continue
        if path.is_file():
            files.append(rel)
    return files


def has_spdx(path: pathlib.Path) -> bool:
    with open(path, encoding="utf-8", errors="replace") as f:
        head = [f.readline() for _ in range(2)]
    if head[0].startswith(("#!", "#compdef")):
        return SPDX in head[1]
    return SPDX in head[0]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--source", required=True, type=pathlib.Path)
    args = ap.parse_args()

    failures = []
    license_text = (args.source / "LICENSE").read_text(encoding="utf-8")
    if not license_text.startswith("MIT License\n") or "Permission is hereby granted" not in license_text:
        failures.append("LICENSE: expected the MIT license's text")

    checked = 0
    for rel in sorted(source_files(args.source)):
        if not wanted(rel):
            continue
        checked += 1
        if not has_spdx(args.source / rel):
            failures.append(f"{rel}: no '{SPDX}' line at the top (line 1, or line 2 after #! or #compdef)")
    if checked < 100:
        failures.append(f"only {checked} source files found under {args.source}: wrong --source?")

    for failure in failures:
        print(failure, file=sys.stderr)
    print(f"{checked} source files checked, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
