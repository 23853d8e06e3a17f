#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The layers of docs/architecture.md, checked on every source file.

Arrows point downwards only:

    cli -> report -> plot
      \\      \\
       +------> findings -> drivers -> formats -> data -> analysis
                                                   text (the ground floor)

A file may include its own layer and the layers its own may use (ALLOWED);
an include of any other layer of ours is an arrow the wrong way and fails
the test, naming file and line. Besides the includes:
  - report/ and plot/ compute no statistic: they may name analysis/ types
    (CamelCase) but call no analysis/ function;
  - cli/ includes no JSON library (JSON is written in data/ and report/),
    and no file of cli/ passes MAX_CLI_LINES lines;
  - cli/report/ does not exist: every renderer lives in report/.
"""
import argparse
import pathlib
import re
import sys

# Layer -> the layers of ours it may include besides itself.
ALLOWED = {
    "cli": {"report", "plot", "findings", "drivers", "formats", "data", "analysis", "text"},
    "report": {"plot", "findings", "drivers", "formats", "data", "analysis", "text"},
    "plot": {"text"},
    "findings": {"drivers", "formats", "data", "analysis", "text"},
    "drivers": {"formats", "data", "analysis", "text"},
    "formats": {"data", "analysis", "text"},
    "data": {"analysis", "text"},
    "analysis": set(),
    "text": set(),
}
# Renderers: analysis/ types only. What they may call of analysis/ is its
# vocabulary (a verdict's name and words: outcome_name, primary_test_words,
# ...) and ministat's ASCII layout of a sample (ministat_plot, which
# analysis/ keeps beside the tests that hold it to Debian's ministat); a
# statistic (moments, t_quantile, an interval) is computed in findings/.
RENDERERS = {"report", "plot"}
RENDERER_MAY_CALL = re.compile(r"^([a-z0-9_]+_(name|names|words|symbol)|ministat_plot|plot_can_draw)$")
MAX_CLI_LINES = 350

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"/]+)/[^"]*"')
JSON_INCLUDE = re.compile(r'^\s*#\s*include\s*<nlohmann/')
# A call of an analysis function: analysis::lower_case( ; a type is CamelCase.
ANALYSIS_CALL = re.compile(r'\banalysis::([a-z_][a-z0-9_]*)\s*\(')
ANALYSIS_USING = re.compile(r'^\s*using\s+(namespace\s+)?(gfxstat::)?analysis\b')
COMMENT = re.compile(r'//.*$')


def sources(root, layer):
    for path in sorted((root / layer).rglob("*")):
        if path.suffix in (".h", ".cpp", ".hpp", ".cc"):
            yield path


def check(root):
    problems = []
    checked = 0
    if (root / "cli" / "report").exists():
        problems.append("cli/report/: exists; renderers belong in report/ (report/ci/ for CI exports)")
    for layer, allowed in ALLOWED.items():
        for path in sources(root, layer):
            checked += 1
            rel = path.relative_to(root)
            text = path.read_text(encoding="utf-8", errors="replace")
            lines = text.splitlines()
            for number, line in enumerate(lines, 1):
                m = INCLUDE.match(line)
                if m:
                    target = m.group(1)
                    if target in ALLOWED and target != layer and target not in allowed:
                        problems.append(f"{rel}:{number}: {layer}/ includes {target}/ "
                                        f"({line.strip()}): an arrow the wrong way")
                if layer == "cli" and JSON_INCLUDE.match(line):
                    problems.append(f"{rel}:{number}: cli/ includes a JSON library ({line.strip()}): "
                                    f"JSON is written by report/ and data/")
                if layer in RENDERERS:
                    code = COMMENT.sub("", line)
                    call = ANALYSIS_CALL.search(code)
                    if call and not RENDERER_MAY_CALL.match(call.group(1)):
                        problems.append(f"{rel}:{number}: {layer}/ calls analysis::{call.group(1)}: "
                                        f"a renderer computes no statistic (findings/ does)")
                    if ANALYSIS_USING.match(code):
                        problems.append(f"{rel}:{number}: {layer}/ imports analysis/ names "
                                        f"({code.strip()}): a renderer calls no statistic")
            if layer == "cli" and len(lines) > MAX_CLI_LINES:
                problems.append(f"{rel}: {len(lines)} lines: a file of cli/ stays under {MAX_CLI_LINES} "
                                f"(rendering goes to report/, logic to findings/ or drivers/)")
    return checked, problems


def self_test():
    """Each rule must be able to fail: planted violations in a scratch tree."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        root = pathlib.Path(d)
        for layer in ALLOWED:
            (root / layer).mkdir()
        (root / "cli" / "report").mkdir()
        (root / "data" / "x.cpp").write_text('#include "data/y.h"\n#include "formats/format.h"\n')
        (root / "formats" / "y.h").write_text('  #  include "drivers/run_parsers.h"\n#include <vector>\n')
        (root / "cli" / "z.cpp").write_text('#include "drivers/run_parsers.h"\n#include <nlohmann/json.hpp>\n'
                                            + "int x;\n" * MAX_CLI_LINES)
        (root / "findings" / "f.cpp").write_text('#include "report/compare_text.h"\n#include "data/sample.h"\n')
        (root / "plot" / "p.cpp").write_text('#include "findings/compare_findings.h"\n#include "text/plural.h"\n')
        (root / "report" / "r.cpp").write_text('#include "analysis/comparison.h"\n'
                                               'analysis::Verdict v;  // analysis::median(x) in a comment\n'
                                               'double m = analysis::median(x);\n'
                                               'using namespace gfxstat::analysis;\n')
        (root / "analysis" / "a.cpp").write_text('#include "text/plural.h"\n')
        (root / "text" / "t.cpp").write_text('#include "data/utf8.h"\n')
        _, problems = check(root)
        expected = sorted([
            "analysis/a.cpp:1: analysis/ includes text/",
            "cli/report/: exists; renderers belong in report/",
            "cli/z.cpp: 352 lines: a file of cli/ stays under 350",
            "cli/z.cpp:2: cli/ includes a JSON library",
            "data/x.cpp:2: data/ includes formats/",
            "findings/f.cpp:1: findings/ includes report/",
            "formats/y.h:1: formats/ includes drivers/",
            "plot/p.cpp:1: plot/ includes findings/",
            "report/r.cpp:3: report/ calls analysis::median: a renderer computes no statistic",
            "report/r.cpp:4: report/ imports analysis/ names",
            "text/t.cpp:1: text/ includes data/",
        ])
        got = sorted(problems)
        for want in expected:
            if not any(p.startswith(want) for p in got):
                sys.exit(f"layers_test self-test: a planted violation was not caught: {want}\ngot: {got}")
        if len(got) != len(expected):
            sys.exit(f"layers_test self-test: expected {len(expected)} problems, got {got}")


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
        sys.exit(f"layers_test: {len(problems)} problem(s) with the layers")
    print(f"layers_test: {checked} sources, every include points downwards, "
          f"renderers compute nothing, cli/ is thin")


if __name__ == "__main__":
    main()
