#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Text that fits a mail reply: `tune show`, `history`, `show` and `devices`
print lines of at most 72 columns by default, and `--width 120` lets a line
grow past 72 where its content needs it (never past 120), with the same
words: a wider layout moves words, it never drops or cuts one. Inputs: the
fake machines of tests/data/probe_root (the tunable one, an empty root)
and this machine itself; a series of builds measured here (a git
repository and `gfxstat run` per commit, as history_cli_test.py makes
it); the results files of tests/data/results. `devices` reads the
machine's /dev/dri, which no fake tree replaces: its layouts of fake
devices are tests/unit/report/devices_render_test.cpp's; here its text on
this machine fits, and --width is checked like the others'.

history's bisect command, broken over lines with shell continuations, is
run by sh (git a shell function that prints its words) and must give the
same words as the one-line command of --full."""

import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402
from testlib import check, finish  # noqa: E402
import history_cli_test  # noqa: E402

DEFAULT, WIDE = 72, 120


def gx(g, *args, env=None):
    p = subprocess.run([g, *args], capture_output=True, env=env)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def widest(text):
    return max((len(line) for line in text.split("\n")), default=0)


def check_widths(g, what, args, needs_wide=True, env=None, ok=(0,)):
    """The default and --width 120 outputs of `args`: every line within its
    width, the same words in both, and (needs_wide) a line past 72 at 120.
    Returns the default output."""
    rc, out, err = gx(g, *args, env=env)
    check(rc in ok, f"{what}: exit {rc}: {err}")
    check(out != "", f"{what}: some text")
    check(widest(out) <= DEFAULT, f"{what}: lines at most {DEFAULT} columns by default, widest {widest(out)}:\n{out}")
    rc, wide, err = gx(g, *args, "--width", str(WIDE), env=env)
    check(rc in ok, f"{what} --width {WIDE}: exit {rc}: {err}")
    check(widest(wide) <= WIDE, f"{what} --width {WIDE}: lines at most {WIDE} columns, widest {widest(wide)}:\n{wide}")
    if needs_wide:
        check(widest(wide) > DEFAULT, f"{what} --width {WIDE}: a line past {DEFAULT} where the content needs it:\n{wide}")
    # A shell continuation ("\" at a line's end) is layout, not a word.
    words = lambda s: [w for w in s.split() if w != "\\"]  # noqa: E731
    check(words(out) == words(wide), f"{what}: the same words at 72 and 120:\n{out}\n{wide}")
    rc, _, err = gx(g, *args, "--width", "39", env=env)
    check(rc == 2 and "39" in err, f"{what} --width 39: refused (exit 2), got {rc}: {err}")
    return out


def tune_show(g, src, d):
    env = {k: v for k, v in os.environ.items() if k not in ("GFXSTAT_SYSFS_ROOT", "COLUMNS")}
    tunable = os.path.join(src, "tests/data/probe_root/tunable")
    out = check_widths(g, "tune show (tunable)", ["tune", "show", "--root", tunable], env=env)
    check("not found here" not in out, f"tune show (tunable): every source is there:\n{out}")
    check(out.endswith("7 things may add noise to measurements\n"), f"tune show (tunable): the count:\n{out}")
    # The plain table where it fits.
    rc, table, _ = gx(g, "tune", "show", "--root", tunable, "--width", "1000", env=env)
    head = table.split("\n")[0]  # then 7 rows, the count and the end
    check(rc == 0 and head.startswith("what               state ") and head.endswith("  advice") and
          len(table.split("\n")) == 1 + 7 + 1 + 1, f"tune show --width 1000: the table, a row a finding:\n{table}")
    rc, js, _ = gx(g, "tune", "show", "--root", tunable, "--json", "--width", "40", env=env)
    check(rc == 0 and js.startswith("{") and "not found" not in js, f"tune show --json: as before:\n{js}")

    empty = os.path.join(d, "empty-root")
    os.mkdir(empty)
    out = check_widths(g, "tune show (empty root)", ["tune", "show", "--root", empty], needs_wide=False, env=env)
    said = " ".join(out.split())
    for missing in ("cpufreq control (no /sys/devices/system/cpu/cpu0/cpufreq)",
                    "turbo/boost switch (no intel_pstate/no_turbo or cpufreq boost file)",
                    "GPU frequency controls (no i915, xe or amdgpu card under /sys/class/drm)",
                    "battery (none)", "load average (no /proc/loadavg)", "swap (no /proc/swaps)"):
        check(missing in said, f"tune show (empty root) says it did not find {missing}:\n{out}")
    check(said.startswith("what state advice other GPU clients none - not found here: ") or
          "not found here:" in out.split("\n")[2], f"tune show (empty root): the table, then what was not found:\n{out}")

    # This machine, read as it is.
    out = check_widths(g, "tune show (this machine)", ["tune", "show"], needs_wide=False, env=env)
    said = " ".join(out.split())
    if not os.path.isdir("/sys/devices/system/cpu/cpu0/cpufreq"):
        check("cpufreq control (no /sys/devices/system/cpu/cpu0/cpufreq)" in said,
              f"tune show here: no cpufreq, and it says so:\n{out}")
    cards = [c for c in (os.listdir("/sys/class/drm") if os.path.isdir("/sys/class/drm") else [])
             if re.fullmatch(r"card\d+", c)]
    if not cards:
        check("GPU frequency controls (no i915, xe or amdgpu card under /sys/class/drm)" in said,
              f"tune show here: no GPU, and it says so:\n{out}")


def bisect_lines(text):
    """Each bisect command of a history report as the lines a user pastes."""
    commands, lines = [], text.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("    bisect: "):
            commands.append(line[len("    bisect: "):])
        elif line == "    bisect:":
            block = []
            for more in lines[i + 1:]:
                if not more.startswith("      "):
                    break
                block.append(more)
            commands.append("\n".join(block))
    return commands


def as_sh_runs(command, d):
    """What sh makes of `command`: the words of each git it calls."""
    script = "git() { printf '<%s>' \"$@\"; echo; }\n" + command + "\n"
    p = subprocess.run(["sh", "-c", script], capture_output=True, text=True, cwd=d)
    return p.returncode, p.stdout


def history(g, d):
    _repo, _shas, files = history_cli_test.make_history(g, d)
    out = check_widths(g, "history", ["history", *files], ok=(1,))
    rc, full, err = gx(g, "history", "--full", *files)
    check(rc == 1 and widest(full) > WIDE, f"history --full: today's whole report, its long lines kept:\n{full}")
    check(" ".join(out.split()).replace(" \\ ", " ").replace("bisect: ", "bisect: ") ==
          " ".join(full.split()), f"history: the default and --full hold the same words:\n{out}\n{full}")
    wrapped, whole = bisect_lines(out), bisect_lines(full)
    check(len(wrapped) == 1 and len(whole) == 1, f"history: one bisect command each: {wrapped} {whole}")
    if len(wrapped) == 1 and len(whole) == 1:
        check("\n" in wrapped[0] and all(l.endswith(" \\") for l in wrapped[0].split("\n")[:-1]),
              f"history: the bisect command broken with shell continuations:\n{wrapped[0]}")
        a, b = as_sh_runs(wrapped[0], d), as_sh_runs(whole[0], d)
        check(a == b and a[0] == 0 and a[1].count("\n") == 2 and "<sh><bench.sh>" in a[1],
              f"history: sh reads the wrapped command as the one line: {a} {b}")
    # The HTML page embeds the whole report, as before.
    page = os.path.join(d, "h.html")
    rc, _, err = gx(g, "history", "--html", page, *files)
    with open(page) as f:
        html = f.read()
    first = whole[0].split(" && ")[0] if whole else "?"
    check(first in html, f"history --html: the whole one-line command in the page: {first}")


def show(g, src):
    files = ["clustered.json", "campaign.json", "gfxbench9.json", "partial_boots.json"]
    wider = False
    for name in files:
        path = os.path.join(src, "tests/data/results", name)
        check_widths(g, f"show {name}", ["show", path], needs_wide=False)
        wider |= widest(gx(g, "show", path, "--width", str(WIDE))[1]) > DEFAULT
    check(wider, "show --width 120: some report uses the room")


def devices(g):
    # No fake tree replaces /dev/dri: the text on this machine fits both ways.
    check_widths(g, "devices", ["devices"], needs_wide=False)
    rc, out, _ = gx(g, "devices", "--json", "--width", "40")
    check(rc == 0 and out.startswith("{"), f"devices --json --width 40: JSON as before: {out}")


def main():
    g, src = testlib.paths()
    with tempfile.TemporaryDirectory() as d:
        tune_show(g, src, d)
        history(g, d)
    show(g, src)
    devices(g)
    return finish("width_cli: tune show, history, show and devices fit 72 columns, and --width widens them")


if __name__ == "__main__":
    sys.exit(main())
