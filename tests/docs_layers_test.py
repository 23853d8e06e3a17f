#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The house as written agrees with the house as built.

tests/layers_test.py holds the rules (ALLOWED: which layer may include
which); this test holds the docs to them and to the tree:
  - every layer folder (a key of ALLOWED) has a README.md;
  - each README has one paragraph "May include: ..." whose `dir/` names are
    exactly ALLOWED[layer] (or that says "nothing" where ALLOWED is empty);
  - docs/architecture.md names every layer folder;
  - a path written in docs/architecture.md or a layer README exists: a
    `dir/file.h` or `dir/file.cpp` anywhere in the text (also .py, .md,
    .sh, .json), a `dir/stem` in backticks whose first folder is one of
    the tree's, and, in a README's bullet lists, the backticked files
    before a bullet's first ": " (`stem`, `stem.h`, `chart_*`, `ci/`),
    looked up in the README's folder. Paths are read from the file's
    folder or the tree's root; names with a placeholder (NAME, *, <x>)
    outside a bullet's file list are not looked up;
  - every source (.h, .cpp) of a layer folder, its subfolders included, is
    named by a bullet of that layer's README: its stem, its file name, a
    pattern (`*_command`) or its folder (`ci/`), before the bullet's first
    ": ". A file moved or created is listed where it now lives.
--unlisted prints the sources of each layer that no bullet of its README
names, and passes: the list to work through after a move.
"""
import argparse
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from layers_test import ALLOWED  # noqa: E402  (the one table of the rules)

# Folders of the tree a backticked path without extension may start with.
TOP = set(ALLOWED) | {"tests", "tools", "docs", "bench", "scripts", "examples", "man", "completion", "cmake"}
MAY_INCLUDE = re.compile(r"^\s*May include:\s*(.*)$")
FOLDER_NAME = re.compile(r"`([a-z]+)/`")
URL = re.compile(r"\w+://\S+")
# A path with an extension, anywhere in the text.
FILE_PATH = re.compile(r"(?<![\w./-])((?:\.\./)?[\w.-]+(?:/[\w.-]+)*/[\w-]+\.(?:h|cpp|py|md|sh|json))(?![\w/])")
# A path without extension, in backticks: `drivers/git_revisions`, `report/ci/`.
TICKED_PATH = re.compile(r"`((?:\.\./)?[a-z0-9_]+(?:/[a-z0-9_]+)*/?)`")
PLACEHOLDER = re.compile(r"[A-Z]{3,}|[*<>{}]")
BULLET = re.compile(r"^\s*[-*] (.*)$")
TICKED = re.compile(r"`([^`]+)`")
FILE_NAME = re.compile(r"^[a-z0-9_]+(?:/[a-z0-9_]+)*(?:\*|\.h|\.cpp|/)?$|^[a-z0-9_]*\*[a-z0-9_.]*$")


def exists(root, folder, rel):
    """rel read from folder, or from the root; a stem is its .h or .cpp."""
    for base in (folder, root):
        path = base / rel
        if "*" in rel:
            if any(path.parent.glob(path.name)) or any(path.parent.glob(path.name + ".*")):
                return True
            continue
        if path.exists() or path.with_name(path.name + ".h").exists() \
                or path.with_name(path.name + ".cpp").exists():
            return True
    return False


def may_include_lines(text):
    """(line number, text) of each "May include:" paragraph, its lines joined."""
    found = []
    lines = text.splitlines()
    for number, line in enumerate(lines, 1):
        m = MAY_INCLUDE.match(line)
        if m:
            rest = [m.group(1)]
            for more in lines[number:]:
                if not more.strip():
                    break
                rest.append(more.strip())
            found.append((number, " ".join(rest)))
    return found


def paths_in(text, layer_readme, folder):
    """(line number, path, in a file list) for every path the text names."""
    for number, line in enumerate(text.splitlines(), 1):
        line = URL.sub("", line)
        for m in FILE_PATH.finditer(line):
            if not PLACEHOLDER.search(m.group(1)):
                yield number, m.group(1), False
        for m in TICKED_PATH.finditer(line):
            path = m.group(1)
            first = path.removeprefix("../").split("/")[0]
            if "/" in path.rstrip("/") or path.startswith("../"):
                if first in TOP or path.startswith("../") or (layer_readme and (folder / first).is_dir()):
                    yield number, path, False
    if layer_readme:
        for number, name in listed_names(text):
            yield number, name, True


def bullets(text):
    """(line number, text) of each bullet, its wrapped lines joined."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        bullet = BULLET.match(line)
        if bullet:
            found.append([number, bullet.group(1)])
        elif found and line.startswith("  ") and line.strip() and found[-1][0] is not None:
            found[-1][1] += " " + line.strip()
        elif found:
            found.append([None, ""])  # the list ended
    return [(n, t) for n, t in found if n is not None]


def listed_names(text):
    """(line number, file name) of a README's bullets: the backticked names
    before each bullet's first ": "."""
    for number, item in bullets(text):
        if ": " in item:
            for m in TICKED.finditer(item.split(": ")[0]):
                if FILE_NAME.match(m.group(1)):
                    yield number, m.group(1)


def unlisted(root):
    """Sources of each layer that its README's bullets do not name (a
    layer without a README is reported as missing by check(), and its
    sources are not listed here)."""
    left = []
    for layer in ALLOWED:
        readme = root / layer / "README.md"
        if not readme.exists():
            continue
        names = [n for _, n in listed_names(readme.read_text(encoding="utf-8"))] if readme.exists() else []
        for path in sorted((root / layer).rglob("*")):
            if path.suffix not in (".h", ".cpp"):
                continue
            rel = path.relative_to(root / layer)
            stem = rel.with_suffix("").as_posix()
            if not any(pathlib.PurePosixPath(rel.as_posix()).match(n) or pathlib.PurePosixPath(stem).match(n)
                       or rel.as_posix() == n or stem == n or rel.as_posix().startswith(n.rstrip("/") + "/")
                       and n.endswith("/") for n in names):
                left.append(f"{layer}/{rel.as_posix()}")
    return left


def check(root):
    problems = []
    arch = root / "docs" / "architecture.md"
    documents = []
    if not arch.exists():
        problems.append("docs/architecture.md: missing")
    else:
        text = arch.read_text(encoding="utf-8")
        documents.append((arch, text, False))
        for layer in ALLOWED:
            if not re.search(rf"(?<![\w/]){layer}/", text):
                problems.append(f"docs/architecture.md: does not name the layer {layer}/")
    for layer, allowed in ALLOWED.items():
        readme = root / layer / "README.md"
        if not readme.exists():
            problems.append(f"{layer}/README.md: missing (what lives here, what it may include, "
                            f"where a new thing goes)")
            continue
        text = readme.read_text(encoding="utf-8")
        documents.append((readme, text, True))
        lines = may_include_lines(text)
        if len(lines) != 1:
            problems.append(f"{layer}/README.md: {len(lines)} \"May include:\" paragraphs, want one")
            continue
        number, rest = lines[0]
        named = {name for name in FOLDER_NAME.findall(rest) if name in ALLOWED and name != layer}
        if named != allowed or (not allowed and "nothing" not in rest):
            want = ", ".join(f"`{d}/`" for d in sorted(allowed)) or "nothing of ours"
            problems.append(f"{layer}/README.md:{number}: \"May include:\" names "
                            f"{sorted(named) or 'nothing'}, tests/layers_test.py ALLOWED says {want}")
    for path, text, layer_readme in documents:
        rel = path.relative_to(root)
        for number, name, listed in paths_in(text, layer_readme, path.parent):
            if not exists(root, path.parent, name):
                what = "a file listed here" if listed else "a path"
                problems.append(f"{rel}:{number}: names {what} that does not exist: {name}")
    for source in unlisted(root):
        layer = source.split("/")[0]
        problems.append(f"{layer}/README.md: no bullet of \"What lives here\" names {source} "
                        f"(--unlisted lists every such file)")
    return problems


def self_test():
    """Each rule must be able to fail: a planted tree."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        root = pathlib.Path(d)
        (root / "docs").mkdir()
        for layer, allowed in ALLOWED.items():
            (root / layer).mkdir()
            if layer == "data":
                continue  # planted: no README
            names = ", ".join(f"`{x}/`" for x in sorted(allowed)) or "nothing of ours"
            if layer == "plot":
                names = "`text/`, `report/`"  # planted: one too many
            if layer == "analysis":
                names = "nothing but `text/`"  # planted: ALLOWED is empty
            (root / layer / "README.md").write_text(f"# {layer}/\n\nMay include:\n{names}.\n")
        (root / "text" / "plural.h").write_text("")
        (root / "text" / "plural.cpp").write_text("")
        (root / "text" / "text_width.h").write_text("")
        (root / "text" / "text_width.cpp").write_text("")
        (root / "text" / "README.md").write_text(  # planted: plural.cpp named after ": " only
            "# text/\n\nMay include: nothing of ours.\n\n"
            "- `text_width`, `plural.h`: widths; `plural.cpp` is not listed here\n")
        (root / "analysis" / "rank_formulas.h").write_text("")  # planted: no bullet at all
        (root / "data" / "random_hex.h").write_text("")  # no README: reported as missing only
        (root / "report" / "ci").mkdir()
        (root / "report" / "ci" / "junit_export.cpp").write_text("")
        (root / "report" / "ci" / "lava_report.h").write_text("")  # listed by `ci/`
        (root / "report" / "README.md").write_text(
            "# report/\n\nMay include: " + ", ".join(f"`{x}/`" for x in sorted(ALLOWED["report"])) + ".\n"
            "- `ci/`, `ci/junit_export`, `ci/*_export`, `gone_render`,\n  `*_gone`: the CI exports\n"
            "- `--plot` (not a file): the pictures; see `../docs/gone.md`\n"
            "Exports: `ci/junit_export`, `ci/gone_export`, `cli/gone`, `gone/x`, `kill -9`.\n")
        layers = ", ".join(f"`{x}/`" for x in ALLOWED if x != "drivers")
        (root / "docs" / "architecture.md").write_text(
            f"{layers}\n`text/plural`, text/plural.h, `text/nearest_word`, report/ci/junit_export.cpp\n"
            "`formats/NAME.cpp`, cli/old_report.h, https://example.org/x/y.h\n")
        got = sorted(check(root))
        expected = sorted([
            "data/README.md: missing",
            "plot/README.md:3: \"May include:\" names ['report', 'text']",
            "docs/architecture.md: does not name the layer drivers/",
            "docs/architecture.md:2: names a path that does not exist: text/nearest_word",
            "docs/architecture.md:3: names a path that does not exist: cli/old_report.h",
            "report/README.md:4: names a file listed here that does not exist: gone_render",
            "report/README.md:4: names a file listed here that does not exist: *_gone",
            "report/README.md:6: names a path that does not exist: ../docs/gone.md",
            "report/README.md:7: names a path that does not exist: ci/gone_export",
            "report/README.md:7: names a path that does not exist: cli/gone",
            "analysis/README.md:3: \"May include:\" names ['text']",
            "text/README.md: no bullet of \"What lives here\" names text/plural.cpp",
            "analysis/README.md: no bullet of \"What lives here\" names analysis/rank_formulas.h",
        ])
        for want in expected:
            if not any(p.startswith(want) for p in got):
                sys.exit(f"docs_layers_test self-test: a planted problem was not caught: {want}\ngot: {got}")
        if len(got) != len(expected):
            sys.exit(f"docs_layers_test self-test: expected {len(expected)} problems, got {got}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    ap.add_argument("--unlisted", action="store_true",
                    help="list the sources no README bullet names, and pass")
    args = ap.parse_args()
    self_test()
    root = pathlib.Path(args.source)
    if args.unlisted:
        for name in unlisted(root):
            print(name)
        return
    if not (root / "tests" / "layers_test.py").exists():
        sys.exit(f"docs_layers_test: {root} is not gfxstat's tree: wrong --source?")
    problems = check(root)
    for p in problems:
        print(p)
    if problems:
        sys.exit(f"docs_layers_test: {len(problems)} place(s) where the docs and the tree disagree")
    print(f"docs_layers_test: {len(ALLOWED)} layer READMEs and docs/architecture.md agree with "
          f"tests/layers_test.py and the tree")


if __name__ == "__main__":
    main()
