#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every link of the docs leads somewhere inside the repository.

The docs read here are the ones gfxstat ships or shows first: README.md,
SECURITY.md, CONTRIBUTING.md, docs/*.md and every README under examples/.
In them:
  - a markdown link `[text](target)` or `![alt](target)` that is not a URL
    (scheme:...) names a file or folder of the repository, read from the
    linking file's folder as GitHub and a browser read it, that exists and
    stays inside the repository; its `#anchor`, if any, is the slug of a
    heading of the target (GitHub's slugs: lower case, punctuation
    dropped, spaces to hyphens, -1, -2 for repeats); `#anchor` alone is a
    heading of the same file;
  - a repository path in backticks, outside fenced code blocks, the way
    the docs cite files (`docs/ministat-compat.md`, `examples/lava/`,
    `cli/command_table.cpp`, the stem `formats/igt`), exists, read from
    the file's folder or from the repository's root. A path is taken as
    the repository's when its first folder is one of the repository's
    top-level entries (what git tracks) or `.`/`..`; names with a
    placeholder (NAME, <x>, *, $VAR, ...) are left alone;
  - a page cited with a section, `docs/ci-reports.md`, "LAVA", has a
    heading that starts with that text;
  - nothing leaves the repository: no link or cited path climbs out of it
    (`../elsewhere/`), and no absolute path, anywhere in the text, names
    this checkout or a place beside it (check_absolute).
Every failure names the file, the line and the target.
"""
import argparse
import pathlib
import re
import subprocess
import sys
import unicodedata

# [text](target) and ![alt](target); the target ends at the first space
# (a title may follow) or the closing parenthesis.
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
# An inline code span (one backtick each side).
CODE_SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
# A path-like code span: no spaces, a slash, only path characters.
PATH_LIKE = re.compile(r"^(?:\.{1,2}/|/)?[\w.+-]+(?:/[\w.+-]*)*$")
# A page cited with its section: `docs/ci-reports.md`, "LAVA" (the quote
# may run onto the next line).
SECTION_REF = re.compile(r"`([\w./-]+\.md)`,?\s+\"([^\"]+)\"")
# Paths in plain prose: an absolute one anywhere (code blocks included),
# one that climbs out with ../ outside code spans.
BARE_ABSOLUTE = re.compile(r"(?<![\w.:/~$-])(/[\w.+-]+(?:/[\w.+-]*)+)")
BARE_PARENT = re.compile(r"(?<![\w./-])(\.\./[\w./+-]*)")
PLACEHOLDER = re.compile(r"[A-Z]{3,}|[*<>{}$]|\.\.\.|…")
SYSTEM_ROOTS = {"usr", "etc", "proc", "sys", "dev", "var", "run", "tmp", "boot", "lib",
                "lib64", "opt", "home", "root", "srv", "mnt", "media", "bin", "sbin"}
STEM_SUFFIXES = (".h", ".cpp", ".py")


def doc_files(root):
    """The docs this test reads, as paths under root."""
    files = [root / name for name in ("README.md", "SECURITY.md", "CONTRIBUTING.md")]
    files += sorted((root / "docs").glob("*.md"))
    files += sorted(p for p in (root / "examples").rglob("README*") if p.is_file())
    return [f for f in files if f.is_file()]


def slug(heading):
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"`([^`]*)`", r"\1", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = text.strip().lower()
    kept = []
    for ch in text:
        if ch in " -_" or ch.isalnum() or unicodedata.category(ch).startswith("M"):
            kept.append(ch)
    return "".join(kept).replace(" ", "-")


def heading_lines(path):
    """The raw text of a markdown file's headings, outside code fences."""
    in_fence = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        m = None if in_fence else HEADING.match(line)
        if m:
            yield m.group(2)


def anchors(path, cache={}):
    """The anchors of a markdown file's headings, repeats numbered."""
    if path not in cache:
        seen = {}
        found = set()
        for text in heading_lines(path):
            base = slug(text)
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
        cache[path] = found
    return cache[path]


def inside(root, path):
    try:
        path.resolve().relative_to(root.resolve())
        return True
    except ValueError:
        return False


def prose_lines(text):
    """(line number, line) outside fenced code blocks."""
    in_fence = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if not in_fence:
            yield number, line


def check_link(root, doc, target):
    """None when the markdown link target is sound, else why not."""
    if not target or URL.match(target):
        return None
    path_part, _, anchor = target.partition("#")
    if path_part.startswith("/"):
        return "an absolute path: a link must stay inside the repository, relative to its file"
    dest = (doc.parent / path_part) if path_part else doc
    if not inside(root, dest):
        return "leaves the repository"
    if not dest.exists():
        return "no such file or folder in the repository"
    if anchor:
        if dest.is_dir() or dest.suffix != ".md":
            return f"#{anchor} on a target that is not a markdown file"
        if anchor not in anchors(dest.resolve()):
            return f"no heading of {dest.resolve().relative_to(root.resolve())} has the anchor #{anchor}"
    return None


def check_absolute(root, text):
    """An absolute path may name the system's places (/usr/share/...,
    /proc/...) or anything else a reader's machine has (a URL's path, a
    path made up to fail), but never this checkout (write it relative) nor
    what lies beside it: under the folder the checkout sits in, unless that
    is a system folder such as /tmp, or under the checkout's own top
    folder when that is no system folder (/work/... beside /work/x/gfxstat)."""
    path = pathlib.Path(text)
    if inside(root, path):
        return "an absolute path into this checkout: write it relative to the repository"
    parent = root.parent
    if len(parent.parts) > 2 or (len(parent.parts) == 2 and parent.parts[1] not in SYSTEM_ROOTS):
        if inside(parent, path):
            return f"leaves the repository (a path beside the checkout, under {parent})"
    parts = [p for p in text.split("/") if p]
    if len(root.parts) > 1 and parts and parts[0] == root.parts[1] and parts[0] not in SYSTEM_ROOTS:
        return f"leaves the repository (a path under /{parts[0]}, where the checkout lives)"
    return None


def check_code_path(root, top, doc, text):
    """None when a code span is no repository path or one that exists."""
    if " " in text or "/" not in text or not PATH_LIKE.match(text) or URL.match(text):
        return None
    if PLACEHOLDER.search(text):
        return None
    if text.startswith("/"):
        return check_absolute(root, text)
    first = text.split("/")[0]
    if first not in top and first not in (".", ".."):
        return None
    for base in (doc.parent, root):
        dest = base / text
        if not inside(root, dest):
            continue
        if dest.exists() or any(dest.with_name(dest.name + s).exists() for s in STEM_SUFFIXES):
            return None
    if first == ".." and not inside(root, root / text):
        return "leaves the repository"
    return "no such file or folder in the repository"


def top_entries(root):
    """The repository's top-level files and folders: what git tracks, in a
    checkout (a build folder is no part of the repository), else what is
    there but build folders."""
    p = subprocess.run(["git", "-C", str(root), "ls-files"], capture_output=True, text=True)
    if p.returncode == 0 and p.stdout.strip():
        return {line.split("/")[0] for line in p.stdout.splitlines()}
    return {p.name for p in root.iterdir() if not p.name.startswith("build")}


def headings(path):
    """The text of a markdown file's headings, backticks dropped."""
    return [text.replace("`", "") for text in heading_lines(path)]


def check_section(root, doc, cited, section):
    """None when the page cited (`docs/x.md`, "Section") has that heading."""
    for base in (doc.parent, root):
        dest = base / cited
        if inside(root, dest) and dest.is_file():
            names = [h.lower() for h in headings(dest)]
            if section.lower() in names or any(h.startswith(section.lower()) for h in names):
                return None
            return f"no heading of {dest.resolve().relative_to(root)} reads \"{section}\""
    return None  # the path itself is checked (and reported) as a code span


def check_file(root, top, doc):
    failures = []
    rel = doc.relative_to(root)
    text = doc.read_text(encoding="utf-8")
    prose = list(prose_lines(text))
    prose_numbers = {number for number, _ in prose}
    for number, line in enumerate(text.splitlines(), 1):
        if number in prose_numbers:
            line = CODE_SPAN.sub("", line)  # code spans are checked below
        for m in BARE_ABSOLUTE.finditer(line):
            why = check_absolute(root, m.group(1))
            if why:
                failures.append(f"{rel}:{number}: {m.group(1)}: {why}")
    joined = "\n".join(line for _, line in prose)
    starts = []
    offset = 0
    for number, line in prose:
        starts.append((offset, number))
        offset += len(line) + 1
    for m in SECTION_REF.finditer(joined):
        number = max(n for o, n in starts if o <= m.start())
        why = check_section(root, doc, m.group(1), " ".join(m.group(2).split()))
        if why:
            failures.append(f"{rel}:{number}: `{m.group(1)}`, \"{m.group(2)}\": {why}")
    for number, line in prose:
        for m in LINK.finditer(line):
            why = check_link(root, doc, m.group(1))
            if why:
                failures.append(f"{rel}:{number}: link ({m.group(1)}): {why}")
        without_links = LINK.sub("", line)
        for m in BARE_PARENT.finditer(CODE_SPAN.sub("", without_links)):
            if not inside(root, doc.parent / m.group(1)) or not inside(root, root / m.group(1)):
                failures.append(f"{rel}:{number}: {m.group(1)}: leaves the repository")
        for m in CODE_SPAN.finditer(without_links):
            why = check_code_path(root, top, doc, m.group(1).strip())
            if why:
                failures.append(f"{rel}:{number}: `{m.group(1)}`: {why}")
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", required=True, help="the repository's root")
    args = ap.parse_args()
    root = pathlib.Path(args.source).resolve()
    top = top_entries(root)
    docs = doc_files(root)
    if not docs:
        print(f"docs_links: no docs found under {root}")
        return 1
    failures = []
    for doc in docs:
        failures += check_file(root, top, doc)
    for f in failures:
        print("FAIL:", f)
    if failures:
        print(f"{len(failures)} broken link(s) in {len(docs)} file(s)")
        return 1
    print(f"docs_links: every link and cited path of {len(docs)} file(s) is in the repository")
    return 0


if __name__ == "__main__":
    sys.exit(main())
