#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes gfxstat's man pages: gfxstat(1) and gfxstat-COMMAND(1) for every
command.

Everything an option page says about options comes from `gfxstat
__describe` (the options the command's own parser holds), so a page cannot
drift from --help. The prose --help does not hold comes from the README
(a command's section: its paragraphs for DESCRIPTION, its code blocks for
EXAMPLES) and from two small data files in man/: the exit statuses per
command, and gfxstat(1)'s ENVIRONMENT and FILES.

Usage: make_manpages.py --gfxstat BIN --source DIR --out DIR

The page date is SOURCE_DATE_EPOCH when set, else the date of the source
tree's last commit, else none: two builds of one tree give the same pages.
"""

import argparse
import datetime
import json
import os
import re
import subprocess
import sys

SECTION = "1"
DOC_DIR = "/usr/share/doc/gfxstat"


# ------------------------------------------------------------------ roff

def roff_chars(text):
    """Text with roff's special characters escaped: backslashes, and
    non-ASCII characters as \\[uXXXX] so that the page needs no input
    encoding."""
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\e")
        elif ord(ch) > 127:
            out.append("\\[u%04X]" % ord(ch))
        else:
            out.append(ch)
    return "".join(out)


def code(text):
    """Literal text (an option, a command line): hyphens are minus signs,
    so that the text can be copied from the rendered page."""
    return roff_chars(text).replace("-", "\\-")


OPTION_WORD = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)")


def prose(text):
    """Running text: option names in it (--gate, -o) get minus signs like
    the OPTIONS list, other hyphens stay hyphens."""
    out, pos = [], 0
    for m in OPTION_WORD.finditer(text):
        out.append(roff_chars(text[pos:m.start()]))
        out.append(code(m.group(1)))
        pos = m.end()
    out.append(roff_chars(text[pos:]))
    return "".join(out)


def line_safe(line):
    """A text line that roff cannot take for a request: a leading dot or
    apostrophe is preceded by the zero-width \\&."""
    if line.startswith((".", "'")):
        return "\\&" + line
    return line


INLINE = re.compile(r"`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*")


def inline(text):
    """One paragraph of README markdown as roff text: `code` and **bold**
    in bold, *emphasis* in italics."""
    out = []
    pos = 0
    for m in INLINE.finditer(text):
        out.append(prose(text[pos:m.start()]))
        if m.group(1) is not None:
            out.append("\\fB" + code(m.group(1)) + "\\fR")
        elif m.group(2) is not None:
            out.append("\\fB" + prose(m.group(2)) + "\\fR")
        else:
            out.append("\\fI" + prose(m.group(3)) + "\\fR")
        pos = m.end()
    out.append(prose(text[pos:]))
    return "".join(out)


def text_lines(text):
    """A paragraph as roff lines: one sentence-ish line per input line,
    each safe from being read as a request."""
    return [line_safe(l) for l in inline(" ".join(text.split())).split("\n")]


def page_name(command):
    return "gfxstat" if command is None else "gfxstat-" + command


# ---------------------------------------------------------------- README

class Section:
    def __init__(self, heading):
        self.heading = heading
        self.commands = []      # the commands the heading names, in order
        self.paragraphs = []    # ("p", text) or ("li", text)
        self.blocks = []        # (language, [lines])


def heading_commands(heading, known):
    names = []
    for token in re.findall(r"`([^`]+)`", heading):
        words = token.split()
        name = words[1] if len(words) > 1 and words[0] == "gfxstat" else words[0]
        name = name.split("|")[0] if name not in known else name
        if name in known and name not in names:
            names.append(name)
    return names


def read_readme(path, known):
    """The '### ' sections under '## Commands', and the README's intro."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    sections, intro = [], []
    current, in_commands, seen_h2 = None, False, False
    block, para = None, []

    def end_para():
        if para and current is not None:
            text = " ".join(para)
            kind = "li" if text.startswith("- ") else "p"
            current.paragraphs.append((kind, text[2:] if kind == "li" else text))
        elif para and not seen_h2:
            intro.append(" ".join(para))
        para.clear()

    for line in lines:
        if block is not None:
            if line.startswith("```"):
                if current is not None:
                    current.blocks.append(block)
                block = None
            else:
                block[1].append(line)
            continue
        if line.startswith("```"):
            end_para()
            block = (line[3:].strip(), [])
            continue
        if line.startswith("## "):
            end_para()
            seen_h2 = True
            in_commands = line[3:].strip() == "Commands"
            current = None
            continue
        if line.startswith("### ") and in_commands:
            end_para()
            current = Section(line[4:].strip())
            current.commands = heading_commands(current.heading, known)
            sections.append(current)
            continue
        if line.startswith("# "):
            continue
        if not line.strip():
            end_para()
            continue
        if line.startswith("- ") or line.startswith("  "):
            if line.startswith("- "):
                end_para()
            para.append(line.strip() if para else line.rstrip())
            continue
        if para and para[0].startswith("- ") and not line.startswith(" "):
            end_para()
        para.append(line.strip())
    end_para()
    return sections, intro


def split_units(lines):
    """Shell lines cut into examples: leading comment lines, a command, and
    the lines that belong to it (indented: continuations after a
    backslash, comments aligned after it)."""
    units, unit = [], []

    def flush():
        if any(not l.startswith("#") for l in unit):
            units.append(list(unit))
        unit.clear()

    for line in lines:
        if not line.strip():
            flush()
        elif line.startswith("#"):
            if unit and not unit[-1].startswith("#"):
                flush()
            unit.append(line)
        elif line[0].isspace() and unit:
            unit.append(line)
        else:
            if unit and not unit[-1].startswith("#"):
                flush()
            unit.append(line)
    flush()
    return units


def example_units(section):
    """The section's code blocks as examples, each with the command it
    runs: shell blocks cut by split_units, and output shown after a prompt
    ("$ gfxstat ...") as one example."""
    units = []
    for lang, lines in section.blocks:
        if lang == "sh":
            for unit in split_units(lines):
                first = next(l for l in unit if not l.startswith("#"))
                units.append((command_of(first, section), unit))
        elif lang == "" and lines and lines[0].startswith("$ "):
            units.append((command_of(lines[0][2:], section), lines))
    return units


def command_of(line, section):
    """The gfxstat command an example line runs; the section's own command
    for a line that runs something else (ln -s ...)."""
    words = line.split()
    if len(words) >= 2 and words[0] == "gfxstat":
        return words[1]
    return section.commands[0] if section.commands else None


# --------------------------------------------------------------- describe

def describe(gfxstat, *words):
    p = subprocess.run([gfxstat, "__describe", *words], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("make_manpages: gfxstat __describe %s failed: %s" % (" ".join(words), p.stderr.strip()))
    return json.loads(p.stdout)


def option_head(o):
    """The .TP line of an option: its names in bold, its value in italics."""
    if o["positional"]:
        head = "\\fI" + code(o["names"][0]) + "\\fR"
        if o["expected_max"] != 1:
            head += "\\&..."
        return head
    head = ", ".join("\\fB" + code(n) + "\\fR" for n in o["names"])
    if o["expected_max"] != 0:
        t = o["type"]
        if o["choices"]:
            t = re.sub(r":?\{[^}]*\}", "", t) or "TEXT"
        head += " \\fI" + code(t) + "\\fR"
    return head


def option_body(o):
    text = o["description"].rstrip(".")
    if text:
        text = text[0].upper() + text[1:] + "."
    extra = []
    if o["required"]:
        extra.append("Required.")
    if o["choices"]:
        extra.append("One of: " + ", ".join(o["choices"]) + ".")
    if o["default"]:
        extra.append("Default: " + o["default"] + ".")
    out = [line_safe(prose(text))] if text else []
    if extra:
        out.append(line_safe(prose(" ".join(extra))))
    return out


def synopsis(d):
    parts = ["\\fB" + code(d["name"]) + "\\fR"]
    if d["subcommands"]:
        return parts[0] + " \\fIsubcommand\\fR [\\fIargs\\fR...]"
    has_options = any(not o["positional"] for o in d["options"]) or d["options_from"]
    if has_options:
        parts.append("[\\fIoptions\\fR]")
    for o in d["options"]:
        if not o["positional"]:
            continue
        name = "\\fI" + code(o["names"][0]) + "\\fR"
        if o["names"][0] == "command":
            parts.append("[\\fB\\-\\-\\fR " + name + " [\\fIargs\\fR...]]")
            continue
        if o["expected_max"] != 1:
            name += "..."
        parts.append(name if o["required"] else "[" + name + "]")
    return " ".join(parts)


def options_section(d, out):
    for o in d["options"]:
        out.append(".TP")
        out.append(option_head(o))
        out.extend(option_body(o) or ["\\&"])
    for words in d["options_from"]:
        out.append(".PP")
        out.append("And every option of \\fB%s\\fR(%s)." % (page_name(words[0]), SECTION))


# ------------------------------------------------------------------ pages

def th(name, date, version):
    """The title line: page name, section, date (none without a source
    date), source, manual."""
    # .nh: no hyphenation, which would cut file and option names in two.
    return '.TH "%s" %s "%s" "%s" "User Commands"\n.nh' % (code(name.upper()), SECTION, roff_chars(date or ""),
                                                           roff_chars("gfxstat " + version))


def description_paragraphs(paragraphs, out):
    for kind, text in paragraphs:
        if kind == "li":
            out.append(".IP \\(bu 2")
        else:
            out.append(".PP")
        out.extend(text_lines(text))


def examples_section(units, out):
    out.append(".SH EXAMPLES")
    for _, lines in units:
        out.append(".PP")
        out.append(".RS 4")
        out.append(".nf")
        for l in lines:
            out.append(line_safe(code(l)) if l else "\\&")
        out.append(".fi")
        out.append(".RE")


def exit_section(statuses, lead, out):
    out.append(".SH EXIT STATUS")
    if lead:
        out.append(".PP")
        out.extend(text_lines(lead))
    for status, meaning in statuses:
        out.append(".TP")
        out.append("\\fB" + code(status) + "\\fR")
        out.append(line_safe(prose(meaning[0].upper() + meaning[1:] + ".")))


def docs_named(texts):
    names = []
    for t in texts:
        for m in re.findall(r"docs/([\w.-]+\.md)", t):
            if m not in names:
                names.append(m)
    return names


def see_also(command, all_commands, docs, out):
    out.append(".SH SEE ALSO")
    refs = [c for c in [None] + all_commands if c != command]
    out.append(",\n".join("\\fB%s\\fR(%s)" % (code(page_name(c)), SECTION) for c in refs))
    if docs:
        out.append(".PP")
        out.append("In \\fI%s\\fR (\\fIdocs/\\fR in the source): %s." % (code(DOC_DIR), ", ".join(code(d) for d in docs)))


def command_page(command, summary, descs, sections, units, statuses, all_commands, date, version):
    out = [th(page_name(command), date, version)]
    out.append(".SH NAME")
    out.append(code(page_name(command)) + " \\- " + prose(summary))
    out.append(".SH SYNOPSIS")
    for i, d in enumerate(descs):
        if i:
            out.append(".br")
        out.append(synopsis(d))
    out.append(".SH DESCRIPTION")
    top = descs[0]
    for d in descs[: 1]:
        for text in (d["description"], d["footer"]):
            if text.strip():
                out.append(".PP")
                out.extend(text_lines(text))
    paragraphs = [p for s in sections for p in s.paragraphs]
    description_paragraphs(paragraphs, out)
    texts = [d["description"] + " " + d["footer"] for d in descs] + [t for _, t in paragraphs]
    subs = descs[1:]
    if subs:
        out.append(".SH SUBCOMMANDS")
        summaries = {s["name"]: s["summary"] for s in top["subcommands"]}
        for d in subs:
            sub = d["name"].split()[-1]
            out.append(".SS " + code(sub))
            out.append(synopsis(d))
            out.append(".PP")
            out.extend(text_lines(d["description"] or summaries.get(sub, "")))
            if d["footer"].strip():
                out.append(".PP")
                out.extend(text_lines(d["footer"]))
            out.append(".PP")
            out.append("Options:")
            options_section(d, out)
    else:
        out.append(".SH OPTIONS")
        options_section(top, out)
    if units:
        examples_section(units, out)
    exit_section(statuses, "", out)
    see_also(command, all_commands, docs_named(texts), out)
    return "\n".join(out) + "\n"


def main_page(top, intro, main_data, statuses, lead, units, all_commands, docs, date, version):
    out = [th("gfxstat", date, version)]
    out.append(".SH NAME")
    out.append("gfxstat \\- run GPU tests and benchmarks repeatedly and decide with honest statistics "
               "whether a patch changed performance")
    out.append(".SH SYNOPSIS")
    out.append("\\fBgfxstat\\fR \\fIcommand\\fR [\\fIargs\\fR...]")
    out.append(".br")
    out.append("\\fBgfxstat\\fR \\fIcommand\\fR \\fB\\-\\-help\\fR")
    out.append(".SH DESCRIPTION")
    for text in intro:
        out.append(".PP")
        out.extend(text_lines(text))
    out.append(".SH COMMANDS")
    for c in top["commands"]:
        out.append(".TP")
        out.append("\\fB%s\\fR(%s)" % (code(page_name(c["name"])), SECTION))
        out.extend(text_lines(c["summary"]))
    out.append(".SH ENVIRONMENT")
    for name, meaning in main_data["environment"]:
        out.append(".TP")
        out.append("\\fB" + code(name) + "\\fR")
        out.extend(text_lines(meaning))
    out.append(".SH FILES")
    for name, meaning in main_data["files"]:
        out.append(".TP")
        out.append("\\fI" + code(name) + "\\fR")
        out.append(line_safe(prose(meaning[0].upper() + meaning[1:] + ".")))
    if units:
        examples_section(units, out)
    exit_section(statuses, lead, out)
    see_also(None, all_commands, docs, out)
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------- main

def page_date(source):
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if not epoch:
        try:
            p = subprocess.run(["git", "-C", source, "log", "-1", "--format=%ct"],
                               capture_output=True, text=True)
            epoch = p.stdout.strip() if p.returncode == 0 else ""
        except OSError:
            epoch = ""
    if not epoch.isdigit():
        return None
    return datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc).strftime("%Y-%m-%d")


def write_if_changed(path, text):
    """Leaves an unchanged page untouched (its time stamp too)."""
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gfxstat", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    top = describe(args.gfxstat)
    commands = [c["name"] for c in top["commands"]]
    summaries = {c["name"]: c["summary"] for c in top["commands"]}
    readme = os.path.join(args.source, "README.md")
    sections, intro = read_readme(readme, set(commands))
    units = [u for s in sections for u in example_units(s)]
    with open(os.path.join(args.source, "man", "exit_statuses.json"), encoding="utf-8") as f:
        exits = json.load(f)
    with open(os.path.join(args.source, "man", "main_page.json"), encoding="utf-8") as f:
        main_data = json.load(f)
    date, version = page_date(args.source), top["version"]
    os.makedirs(args.out, exist_ok=True)

    for c in commands:
        descs = [describe(args.gfxstat, c)]
        for s in descs[0]["subcommands"]:
            descs.append(describe(args.gfxstat, c, s["name"]))
        mine = [s for s in sections if c in s.commands]
        statuses = exits.get(c, exits["gfxstat"])
        text = command_page(c, summaries[c], descs, mine, [u for u in units if u[0] == c],
                            statuses, commands, date, version)
        write_if_changed(os.path.join(args.out, page_name(c) + "." + SECTION), text)

    firsts, seen = [], set()
    for u in units:
        if u[0] not in seen and not u[1][0].startswith("$"):
            seen.add(u[0])
            firsts.append(u)
    docs = sorted(f for f in os.listdir(os.path.join(args.source, "docs")) if f.endswith(".md"))
    text = main_page(top, intro, main_data, exits["gfxstat"],
                     # The statuses once, as a list (README's paragraph says the
                     # same); what the list does not say is where the rest are.
                     "Every command's own page lists its statuses; these hold for all of them.", firsts,
                     commands, docs, date, version)
    write_if_changed(os.path.join(args.out, "gfxstat." + SECTION), text)


if __name__ == "__main__":
    main()
