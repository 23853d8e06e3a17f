#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Command-line behaviour of gfxstat ministat and gfxstat summary: exit
statuses, error messages, and the documented deviations from Debian's
ministat (docs/ministat-compat.md). Independent of the differential test,
which needs /usr/bin/ministat; everything here is checked against values
computed in this file."""

import argparse
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import check, finish, run, write  # noqa: E402


def stats_row(out, symbol="x"):
    """Fields of the summary row of data set `symbol`."""
    for line in out.splitlines():
        if line.startswith(symbol + " ") and len(line.split()) == 7:
            return line.split()[1:]
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gfxstat", required=True)
    g = ap.parse_args().gfxstat
    ms = [g, "ministat"]
    with tempfile.TemporaryDirectory() as d:
        ok = write(d, "ok", "1\n2\n3\n4\n5\n")
        ok2 = write(d, "ok2", "3\n4\n5\n6\n7\n")

        # Exit statuses and messages for bad input: file, line, what; exit 2;
        # nothing on stdout.
        for text, line, word in [("1\n2\nabc\n", 3, 'found "abc"'),
                                 ("1\ninf\n3\n", 2, "not a finite number"),
                                 ("nan\n1\n2\n", 1, "not a finite number"),
                                 ("1\n2\n1e400\n", 3, "beyond the range of a double"),
                                 ("1\n2\n3x\n", 3, 'found "3x"')]:
            bad = write(d, "bad", text)
            rc, out, err = run(ms + [ok, bad])
            check(rc == 2, f"bad input {text!r}: exit {rc}")
            check(f"{bad}:{line}:" in err and word in err, f"bad input {text!r}: message {err!r}")
            check(out == "", f"bad input {text!r}: stdout not empty")
            rc, out, err = run([g, "summary", bad])
            check(rc == 2 and f"{bad}:{line}:" in err, f"summary bad input {text!r}: {rc} {err!r}")

        few = write(d, "few", "1\n2\n")
        rc, out, err = run(ms + [few])
        check(rc == 2 and f"Dataset {few} must contain at least 3 data points" in err,
              f"too few points: {rc} {err!r}")
        # A file that cannot be opened: exit 1 and ministat's words, as
        # Debian's ministat (err(1, "Cannot open %s", n)); bad content is 2.
        rc, out, err = run(ms + [ok, "/nonexistent/file"])
        check(rc == 1 and "Cannot open /nonexistent/file: No such file or directory" in err and out == "",
              f"missing file: {rc} {err!r} {out!r}")
        if shutil.which("ministat"):
            mrc, _, merr = run(["ministat", ok, "/nonexistent/file"])
            check(mrc == rc and merr.split(": ", 1)[1] == err.split(": ", 1)[1],
                  f"missing file: ministat says {mrc} {merr!r}, gfxstat {rc} {err!r}")
        rc, out, err = run([g, "summary", "/nonexistent/file"])
        check(rc == 2 and "/nonexistent/file: cannot open" in err, f"summary, missing file: {rc} {err!r}")
        rc, out, err = run(ms + ["-x", ok])
        check(rc == 2 and "Usage:" in err, f"unknown option: {rc} {err!r}")
        rc, out, err = run(ms + [ok] * 8)
        check(rc == 2 and "Too many datasets" in err, f"8 files: {rc}")
        for c in ["0", "100", "abc", "-5"]:
            rc, out, err = run(ms + ["-c", c, ok, ok2])
            check(rc == 2, f"-c {c}: exit {rc}")
        for w in ["abc", "-1"]:
            rc, out, err = run(ms + ["-w", w, ok])
            check(rc == 2, f"-w {w}: exit {rc}")
        rc, out, err = run(ms + ["-d", "", ok])
        check(rc == 2, "empty delimiter")
        rc, out, err = run(ms + ["-C", "0", ok])
        check(rc == 2, "column 0")

        # -w 1 crashes ministat; gfxstat says there is no room for a plot.
        rc, out, err = run(ms + ["-w", "1", ok, ok2])
        check(rc == 0 and "[no plot, width 1 is too narrow]" in out, f"-w 1: {rc} {out!r}")

        # Naive one-pass variance: ministat prints 0 and -nan here.
        big = write(d, "big", "1000000001\n1000000002\n1000000003\n")
        rc, out, err = run(ms + ["-n", big])
        check(stats_row(out) == ["3", "1e+09", "1e+09", "1e+09", "1e+09", "1"], f"1e9 sd: {out!r}")
        tenth = write(d, "tenth", "100000000.1\n100000000.2\n100000000.3\n")
        rc, out, err = run(ms + ["-n", tenth])
        check(stats_row(out) == ["3", "1e+08", "1e+08", "1e+08", "1e+08", "0.1"], f"1e8 sd: {out!r}")

        # Even n: median is the mean of the middle two.
        even = write(d, "even", "4\n1\n3\n2\n")
        rc, out, err = run(ms + ["-n", even])
        check(stats_row(out)[3] == "2.5", f"even median: {out!r}")

        # Negative baseline: the relative half-width is not negative.
        neg = write(d, "neg", "-10\n-12\n-11\n-9\n-10\n")
        neg2 = write(d, "neg2", "-4\n-5\n-3\n-4.5\n-4\n")
        rc, out, err = run(ms + ["-A", neg, neg2])
        rel = [l for l in out.splitlines() if l.startswith("\t") and "%" in l]
        check(len(rel) == 1 and "+/- -" not in rel[0] and rel[0].startswith("\t-"),
              f"negative baseline: {out!r}")

        # Levels ministat rejects or mislabels use the exact t quantile.
        rc, out, err = run(ms + ["-A", "-c", "97.5", ok, ok2])
        check(rc == 0 and "at 97.5% confidence" in out, f"-c 97.5: {out!r}")
        rc, out, err = run(ms + ["-A", "-c", "99.95", ok, ok2])
        check(rc == 0 and "at 99.95% confidence" in out, f"-c 99.95: {out!r}")

        # Lines longer than ministat's 8191-byte buffer are one value.
        long = write(d, "long", "1\n2\n" + " " * 10000 + "3\n")
        rc, out, err = run(ms + ["-n", long])
        check(stats_row(out) is not None and stats_row(out)[0] == "3", f"long line: {out!r}")

        # Values near the double limit: ministat segfaults.
        huge = write(d, "huge", "1.7e308\n1.6e308\n1.5e308\n")
        huge2 = write(d, "huge2", "-1.7e308\n-1.6e308\n-1.5e308\n")
        rc, out, err = run(ms + [huge, huge2])
        check(rc == 0 and "1.6e+308" in out and "inf" not in out.split("Stddev")[1].split("\n")[1],
              f"near DBL_MAX: {rc} {out!r}")

        # Standard input, '-' and -q (= -A).
        rc, out, err = run(ms, b"1\n2\n3\n")
        check(rc == 0 and out.startswith("x <stdin>\n"), f"stdin: {out!r}")
        rc, out, err = run(ms + ["-", ok], b"5\n6\n7\n")
        check(rc == 0 and "x -\n" in out, f"'-' as a file: {rc} {out!r}")
        rc1, out1, _ = run(ms + ["-q", ok, ok2])
        rc2, out2, _ = run(ms + ["-A", ok, ok2])
        check(rc1 == 0 and out1 == out2 and "+---" not in out1, "-q is -A")

        # A symlink named ministat is the same program.
        link = os.path.join(d, "ministat")
        os.symlink(os.path.abspath(g), link)
        for flags in [[], ["-s", "-w", "50"], ["-n"]]:
            a = run(ms + flags + [ok, ok2])
            b = run([link] + flags + [ok, ok2])
            check(a[:2] == b[:2], f"symlink differs for {flags}")
        rc, out, err = run([link, "-x"])
        check(rc == 2 and err.startswith(link + ": invalid option") or "invalid option" in err,
              f"symlink usage: {err!r}")

        # Warnings for lines that lack the column go to stderr only.
        cols = write(d, "cols", "1 10\n2 20\n3\n4 40\n")
        rc, out, err = run(ms + ["-n", "-C", "2", cols])
        check(rc == 0 and "1 line without column 2 skipped (first: line 3)" in err
              and stats_row(out)[0] == "3", f"skipped lines: {err!r}")

        # summary --json: inputs in order, full precision, exact decimals.
        nist = os.path.join(os.path.dirname(__file__), "..", "data", "nist", "NumAcc4.txt")
        rc, out, err = run([g, "summary", "--json", nist, even])
        check(rc == 0, f"summary --json exit {rc}: {err}")
        doc = json.loads(out)
        first, second = doc["inputs"]
        check(first["n"] == 1001 and first["mean"] == 10000000.2 and first["stddev"] == 0.1,
              f"NumAcc4 summary: {first}")
        check(first["exact"] is True and first["binary_tokens"] == 0, "exact flag")
        # Diagnostics are their own contract (docs/diagnostics.md), checked
        # in results_cli_test.py; here only that four values are not judged.
        diagnostics = second.pop("diagnostics", None)
        check(diagnostics is not None and diagnostics["bimodality"]["judged"] is False
              and diagnostics["boots"] is None and diagnostics["drift"]["trend"] is not None,
              f"even summary diagnostics: {diagnostics}")
        check(second == {"name": even, "n": 4, "min": 1.0, "q1": 1.75, "median": 2.5,
                         "q3": 3.25, "max": 4.0, "mean": 2.5, "stddev": 1.2909944487358056,
                         "exact": True, "binary_tokens": 0}, f"even summary: {second}")
        hexf = write(d, "hex", "0x1p0\n2\n3\n")
        rc, out, err = run([g, "summary", "--json", hexf])
        j = json.loads(out)["inputs"][0]
        check(j["exact"] is False and j["binary_tokens"] == 1 and j["mean"] == 2.0, f"hex: {j}")
        rc, out, err = run([g, "summary", ok])
        check(rc == 0 and ok in out and "Median" in out, f"summary text: {out!r}")
        empty = write(d, "empty", "# nothing\n")
        rc, out, err = run([g, "summary", empty])
        check(rc == 2 and "no numbers" in err, f"summary empty: {rc} {err!r}")
        rc, out, err = run([g, "summary", "--bogus"])
        check(rc == 2, f"summary bad option: {rc}")
        rc, out, err = run([g, "nosuchcommand"])
        check(rc == 2, "unknown command")

    return finish("all command-line checks passed")


if __name__ == "__main__":
    sys.exit(main())
