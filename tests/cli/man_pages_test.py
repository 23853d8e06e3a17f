# SPDX-License-Identifier: MIT
"""The man pages made at build time (tools/make_manpages.py): one per
command, each rendering without a single groff warning, each with every
option its command parses (gfxstat __describe), EXAMPLES and EXIT STATUS;
gfxstat(1) with every GFXSTAT_* variable the sources read."""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from testlib import check, finish, run  # noqa: E402


def describe(g, *words):
    rc, out, err = run([g, "__describe", *words])
    check(rc == 0, f"__describe {' '.join(words)}: exit {rc}: {err}")
    return json.loads(out) if rc == 0 else {"options": [], "subcommands": [], "options_from": []}


def render(page, device):
    p = subprocess.run(["groff", "-man", "-T" + device, "-ww", "-P-cbou" if device == "ascii" else "-z",
                        page], capture_output=True)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def section_names(text):
    return set(re.findall(r"^([A-Z][A-Z ]+)$", text, re.M))


def option_names(d):
    return [n for o in d["options"] for n in o["names"]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gfxstat", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--man-dir", required=True)
    args = ap.parse_args()
    g, src, man = args.gfxstat, args.source, args.man_dir

    top = describe(g)
    commands = [c["name"] for c in top["commands"]]
    check("ministat" in commands and "campaign" in commands, f"the command list: {commands}")
    check("__describe" not in commands and "__complete" not in commands, "hidden commands stay hidden")
    pages = {None: os.path.join(man, "gfxstat.1")}
    for c in commands:
        pages[c] = os.path.join(man, f"gfxstat-{c}.1")

    for command, page in pages.items():
        name = os.path.basename(page)
        if not check(os.path.isfile(page), f"{name} exists"):
            continue
        # Every warning groff has (-ww) is a failure.
        rc, _, err = render(page, "utf8")
        check(rc == 0 and err == "", f"{name}: groff -man -Tutf8 -ww -z warns: {err.strip()}")
        rc, text, err = render(page, "ascii")
        check(rc == 0 and err == "", f"{name}: groff -Tascii warns: {err.strip()}")
        flat = " ".join(text.split())
        sections = section_names(text)
        for s in ("NAME", "SYNOPSIS", "DESCRIPTION", "EXAMPLES", "EXIT STATUS", "SEE ALSO"):
            check(s in sections, f"{name}: a {s} section (has {sorted(sections)})")
        with open(page, encoding="utf-8") as f:
            source = f.read()
        # Escaping: no text line that roff could take for a request, no
        # raw non-ASCII, option hyphens as minus signs.
        for i, line in enumerate(source.split("\n"), 1):
            check(all(ord(c) < 128 for c in line), f"{name}:{i}: non-ASCII text: {line!r}")
        check(not re.search(r"\\fB-", source), f"{name}: an option in bold starts with a raw hyphen")
        if command is None:
            for c in commands:
                check(f"gfxstat-{c}(1)" in flat, f"gfxstat.1 lists gfxstat-{c}(1)")
            continue
        check(f"gfxstat-{command} -" in flat, f"{name}: NAME line")
        d = describe(g, command)
        descs = [d] + [describe(g, command, s["name"]) for s in d["subcommands"]]
        for dd in descs:
            check(dd["name"] in flat, f"{name}: synopsis of {dd['name']}")
            for n in option_names(dd):
                # Whole words: --metric must not pass for --metric-name.
                check(re.search(r"(?<![\w-])" + re.escape(n) + r"(?![\w-])", flat),
                      f"{name}: option {n} of {dd['name']}")
            for words in dd["options_from"]:
                check(f"gfxstat-{words[0]}(1)" in flat, f"{name}: refers to gfxstat-{words[0]}(1)")
            for o in dd["options"]:
                if o["choices"]:
                    check(all(c in flat for c in o["choices"]), f"{name}: the choices of {o['names'][-1]}")
                if not o["positional"] and o["expected_max"] != 0:
                    t = re.sub(r":?\{[^}]*\}", "", o["type"]) or "TEXT"
                    check(f"{o['names'][-1]} {t}" in flat, f"{name}: {o['names'][-1]} with its type {t}")
        for s in d["subcommands"]:
            check(re.search(r"^   " + re.escape(s["name"]) + "$", text, re.M),
                  f"{name}: a subsection for {s['name']}")

    # Examples come from the README: compare's are there, word for word.
    rc, text, _ = render(pages["compare"], "ascii")
    check("gfxstat compare --gate --threshold 2 base.json patch.json" in text, "compare's README example")
    rc, text, _ = render(pages["run"], "ascii")
    check("--workload drm-ioctl" in text, "run's examples from the devices section")
    # Exit statuses per command.
    check(re.search(r"^\s+3\s+With --gate --strict", render(pages["compare"], "ascii")[1], re.M), "compare's exit status 3")
    check(re.search(r"^\s+77\s+The workload skipped", render(pages["run"], "ascii")[1], re.M), "run's exit status 77")

    # A signal's status is 128+N: run, ab and campaign name each.
    for c in ("run", "ab", "campaign"):
        t = render(pages[c], "ascii")[1]
        for status in ("130", "143", "129"):
            check(re.search(r"^\s+" + status + r"\s+\S", t, re.M), f"{c}'s exit status {status}")
    # version has its page and gfxstat(1) names it; the main page's exit
    # statuses are said once.
    check("version" in commands and "version" in pages, f"version is a command: {commands}")
    rc, main_text, _ = render(pages[None], "ascii")
    check("gfxstat-version(1)" in main_text and "--version" in main_text, "gfxstat.1 names version and --version")
    m = re.search(r"^EXIT STATUS\n(.*?)(?=^[A-Z])", main_text, re.M | re.S)
    exits = m.group(1) if m else ""
    check(len(re.findall(r"nothing is printed on stdout", exits)) == 1,
          f"gfxstat.1's exit statuses said once: {exits}")

    # ENVIRONMENT: every GFXSTAT_* variable the sources read.
    rc, main_text, _ = render(pages[None], "ascii")
    env_part = main_text.split("ENVIRONMENT", 1)[-1].split("FILES", 1)[0]
    read = set()
    for layer in ("analysis", "data", "formats", "drivers", "report", "cli"):
        for root, _, files in os.walk(os.path.join(src, layer)):
            for f in files:
                if f.endswith((".cpp", ".h")):
                    with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
                        read |= set(re.findall(r"getenv\(\"(GFXSTAT_\w+)\"\)", fh.read()))
    check("GFXSTAT_SYSFS_ROOT" in read and "GFXSTAT_KMSG" in read, f"getenv found: {sorted(read)}")
    for var in sorted(read):
        check(var in env_part, f"gfxstat.1 ENVIRONMENT names {var}")

    # Reproducible: the same tree and SOURCE_DATE_EPOCH give the same bytes.
    tmp = tempfile.TemporaryDirectory()
    out_a = tmp.name
    env = dict(os.environ, SOURCE_DATE_EPOCH="1700000000")
    subprocess.run([sys.executable, os.path.join(src, "tools/make_manpages.py"), "--gfxstat", g,
                    "--source", src, "--out", out_a], env=env, check=True)
    with open(os.path.join(out_a, "gfxstat-compare.1"), encoding="utf-8") as f:
        first = f.read()
    check('"2023-11-14"' in first.split("\n", 1)[0], f"SOURCE_DATE_EPOCH dates the page: {first.split(chr(10), 1)[0]}")
    os.remove(os.path.join(out_a, "gfxstat-compare.1"))
    subprocess.run([sys.executable, os.path.join(src, "tools/make_manpages.py"), "--gfxstat", g,
                    "--source", src, "--out", out_a], env=env, check=True)
    with open(os.path.join(out_a, "gfxstat-compare.1"), encoding="utf-8") as f:
        check(f.read() == first, "two runs give the same page")
    return finish("man pages: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
