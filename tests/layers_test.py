#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The layers of docs/architecture.md, checked on every #include of ours.

Arrows point downwards only: cli -> report, drivers -> formats -> data ->
analysis. A file may include its own layer and the layers below it; an
include of a layer above (data/ including formats/, formats/ including
drivers/) is an upward arrow and fails the test, naming file and line.
"""
import argparse
import pathlib
import re
import sys

# Layer -> the layers of ours it may include besides itself. cli/ may
# include anything (cli/report/ is part of it).
ALLOWED = {
    "cli": {"report", "plot", "drivers", "formats", "data", "analysis"},
    "report": {"data", "analysis"},
    # plot/ draws beside report/: its escaping and units from report/,
    # nothing else of ours (its input is plot/plot_data.h, filled by cli/).
    "plot": {"report"},
    "drivers": {"formats", "data", "analysis"},
    "formats": {"data", "analysis"},
    "data": {"analysis"},
    "analysis": set(),
}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"/]+)/[^"]*"')


def check(root):
    problems = []
    checked = 0
    for layer, allowed in ALLOWED.items():
        for path in sorted((root / layer).rglob("*")):
            if path.suffix not in (".h", ".cpp", ".hpp", ".cc"):
                continue
            checked += 1
            text = path.read_text(encoding="utf-8", errors="replace")
            for number, line in enumerate(text.splitlines(), 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = m.group(1)
                if target in ALLOWED and target != layer and target not in allowed:
                    problems.append(f"{path.relative_to(root)}:{number}: {layer}/ includes {target}/ "
                                    f"({line.strip()}): an arrow upwards")
    return checked, problems


def self_test():
    """The check must be able to fail: an upward include in a scratch tree."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        root = pathlib.Path(d)
        for layer in ALLOWED:
            (root / layer).mkdir()
        (root / "data" / "x.cpp").write_text('#include "data/y.h"\n#include "formats/format.h"\n')
        (root / "formats" / "y.h").write_text('  #  include "drivers/run_parsers.h"\n#include <vector>\n')
        (root / "cli" / "z.cpp").write_text('#include "drivers/run_parsers.h"\n')
        _, problems = check(root)
        expected = ["data/x.cpp:2: data/ includes formats/", "formats/y.h:1: formats/ includes drivers/"]
        if sorted(p.split(" (")[0] for p in problems) != expected:
            sys.exit(f"layers_test self-test: expected {expected}, got {problems}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    args = ap.parse_args()
    self_test()
    checked, problems = check(pathlib.Path(args.source))
    if checked < 50:
        sys.exit(f"layers_test: only {checked} sources under {args.source}: wrong --source?")
    for p in problems:
        print(p)
    if problems:
        sys.exit(f"layers_test: {len(problems)} upward include(s)")
    print(f"layers_test: {checked} sources, every include points downwards")


if __name__ == "__main__":
    main()
