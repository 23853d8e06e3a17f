#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The file arguments of ministat and summary, and ministat's report per
metric: LABEL=FILE names a data set (benchstat's `old=a.txt`), FILE:N reads
column N of that file (ministat's -C, per file), a file whose own name holds
'=' is still that file; the errors (exit 2, what and where); `gfxstat
ministat results.json` on a file of several metrics prints one report per
metric, each exactly what `--metric NAME` alone prints, under a line naming
the metric; --metric (repeatable) and --filter narrow."""

import json
import os
import subprocess
import sys
import tempfile
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import check, finish, paths, run, write  # noqa: E402

HEADER = ('{"format":"gfxstat-results","version":1,"id":"0123456789abcdef0123456789abcdef",'
          '"created":"2026-12-01T00:00:00Z","generator":"test"}\n')


def run_in(cwd, args):
    """(exit status, stdout, stderr) of a command run in directory `cwd`."""
    p = subprocess.run(args, capture_output=True, cwd=cwd)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def records(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def results_file(d, name, metrics, runs):
    """A results file: `metrics` are declaration dicts, `runs` (variant,
    {metric: value}) pairs."""
    lines = [HEADER] + [json.dumps(dict(type="metric", **m)) + "\n" for m in metrics]
    counts = {}
    for variant, values in runs:
        k = counts.get(variant, 0)
        counts[variant] = k + 1
        lines.append(json.dumps({"type": "run", "variant": variant, "run": k, "exit": {"class": "ok"},
                                 "metrics": values}) + "\n")
    return write(d, name, "".join(lines))


def table_rows(out):
    """ministat's table and comparisons: everything from the header line on."""
    lines = out.splitlines()
    i = next((k for k, line in enumerate(lines) if line.startswith("    N ")), len(lines))
    return lines[i:]


def label_checks(g, d):
    a = write(d, "a.txt", "1 10\n2 20\n3 31\n4 40\n5 52\n6 60\n7 77\n")
    b = write(d, "b.txt", "2 11\n3 19\n4 33\n5 41\n6 50\n7 64\n9 70\n")

    # ministat: the legend shows the labels, nothing else changes.
    for flags in ([], ["-n"], ["-s", "-w", "60"]):
        rc0, plain, _ = run([g, "ministat", *flags, a, b])
        rc, out, err = run([g, "ministat", *flags, "old=" + a, "new=" + b])
        check(rc == rc0 == 0, f"ministat {flags} labels: {rc} {err}")
        want = plain.splitlines()
        want[0], want[1] = "x old", "+ new"
        check(out.splitlines() == want, f"ministat {flags} labels: legend only differs:\n{out}\nvs\n{plain}")
    rc, out, _ = run(["sh", "-c", f'cat {a} | "$0" ministat -n base=- new={b}', g])
    check(rc == 0 and out.splitlines()[:2] == ["x base", "+ new"], f"ministat base=-: {out}")

    # summary: the data set's name in the table and the JSON.
    rc, out, err = run([g, "summary", "--json", "--no-diagnostics", "old=" + a, "new=" + b])
    j = json.loads(out) if rc == 0 else {"inputs": []}
    check([i["name"] for i in j["inputs"]] == ["old", "new"], f"summary --json labels: {out} {err}")
    rc0, plain, _ = run([g, "summary", "--json", "--no-diagnostics", a, b])
    for i, k in zip(j["inputs"], json.loads(plain)["inputs"]):
        check({x: y for x, y in i.items() if x != "name"} == {x: y for x, y in k.items() if x != "name"},
              f"summary --json: labels change only names: {i} {k}")
    rc, out, err = run([g, "summary", "--no-diagnostics", "old=" + a, "new=" + b])
    check(rc == 0 and "old" in out and "new" in out and "a.txt" not in out, f"summary text labels: {out} {err}")

    # FILE:N is -C N for that file alone.
    rc0, c2, _ = run([g, "ministat", "-C", "2", a, b])
    rc, out, err = run([g, "ministat", a + ":2", b + ":2"])
    check(rc == rc0 == 0 and out == c2, f"ministat FILE:2 is -C 2:\n{out}\nvs\n{c2}\n{err}")
    col2 = write(d, "a-col2.txt", "10\n20\n31\n40\n52\n60\n77\n")
    rc, out, err = run([g, "ministat", "-C", "1", "old=" + a + ":2", b])
    rc0, want, _ = run([g, "ministat", col2, b])
    check(rc == 0 and out.splitlines()[0] == "x old" and table_rows(out) == table_rows(want),
          f"ministat per-file column beside -C 1:\n{out}\nvs\n{want}\n{err}")
    rc, out, err = run([g, "summary", "--json", a + ":2", b])
    j = json.loads(out) if rc == 0 else {"inputs": [{}, {}]}
    mean2 = Fraction(10 + 20 + 31 + 40 + 52 + 60 + 77, 7)
    check(abs(Fraction(j["inputs"][0].get("mean", 0)) - mean2) < Fraction(1, 10**12)
          and j["inputs"][0].get("name") == a and j["inputs"][1].get("mean") == 36 / 7,
          f"summary FILE:2 beside column 1: {out} {err}")
    # Messages about the file name the file and its own column.
    c = write(d, "c.txt", "1 5\n2\n3 7\n4 8\n")
    rc, out, err = run([g, "ministat", "lab=" + c + ":2", b])
    check(rc == 0 and f"warning: {c}: 1 line without column 2 skipped (first: line 2)" in err,
          f"ministat: the skipped-line warning names the file and its column: {err}")
    rc, out, err = run([g, "summary", a + ":3"])
    check(rc == 2 and err.endswith(f"gfxstat summary: {a}: no numbers in column 3\n")
          and f"{a}: 7 lines without column 3 skipped" in err, f"summary FILE:3: {err}")

    # A file whose own name holds '=' (or ends ":N") is that file.
    e = os.path.join(d, "eq")
    os.mkdir(e)
    write(e, "x=y.txt", "100\n101\n102\n")
    write(e, "y.txt", "1\n2\n3\n")
    write(e, "t:2", "7 1\n8 2\n9 3\n")
    rc, out, err = run_in(e, [g, "ministat", "-n", "x=y.txt", "t:2"])
    check(rc == 0 and out.splitlines()[:2] == ["x x=y.txt", "+ t:2"] and " 100 " in out and " 7 " in out,
          f"ministat x=y.txt and t:2 are those files: {out} {err}")
    os.unlink(os.path.join(e, "x=y.txt"))
    rc, out, err = run_in(e, [g, "ministat", "-n", "x=y.txt"])
    check(rc == 0 and out.splitlines()[0] == "x x" and "      1 " in out, f"x=y.txt once it is gone: {out} {err}")
    rc, out, err = run_in(e, [g, "summary", "--json", "--no-diagnostics", "t:2:2"])
    check(rc == 0 and json.loads(out)["inputs"][0]["name"] == "t:2" and json.loads(out)["inputs"][0]["mean"] == 2,
          f"summary t:2:2 (column 2 of t:2): {out} {err}")

    # Errors: exit 2 (ministat's "Cannot open": 1), the argument named.
    for cmd in ("ministat", "summary"):
        rc, out, err = run([g, cmd, "a\x1b[2Jb=" + a])
        check(rc == 2 and out == "" and "\x1b" not in err and "a\\x1b[2Jb=" in err
              and "the label holds a control character" in err, f"{cmd}: label with ESC: {rc} {err!r}")
        rc, out, err = run([g, cmd, "=" + a])
        check(rc == 2 and f"={a}: the label before '=' is empty" in err, f"{cmd}: empty label: {rc} {err}")
        rc, out, err = run([g, cmd, "nope=" + os.path.join(d, "missing.txt")])
        check(rc == (1 if cmd == "ministat" else 2) and "nope=" + os.path.join(d, "missing.txt") in err,
              f"{cmd}: neither a file nor a label of one: {rc} {err}")
    return a, b


def results_label_checks(g, d, bench):
    # A column of a results file: refused, naming the argument.
    for cmd in ("ministat", "summary"):
        rc, out, err = run([g, cmd, "--metric", "gl_4", bench + ":2"])
        check(rc == 2 and err == f"gfxstat {cmd}: {bench}:2: a column applies to column files; "
                                  "results files have metrics: use --metric\n", f"{cmd} results:2: {err}")
        rc, out, err = run([g, cmd, "--metric", "gl_4", "new=" + bench])
        check(rc == 2 and f"{bench}: holds 2 variants; a label names one data set" in err,
              f"{cmd}: a label on a file of two variants: {err}")
    rc, out, err = run([g, "ministat", "new=" + bench])
    check(rc == 2 and out == "" and f"{bench}: holds 2 variants; a label names one data set" in err,
          f"a label on a file of two variants, a report per metric: {err}")
    rc, out, err = run([g, "ministat", "-n", "--metric", "gl_4", "--variant", "after", "new=" + bench])
    check(rc == 0 and out.splitlines()[0] == "x new", f"a label on the one variant chosen: {out} {err}")

    # One variant per file: the labels name them, the numbers are the file's.
    recs = records(bench)
    split = {}
    for v in ("before", "after"):
        split[v] = write(d, v + ".json", "".join(json.dumps(r) + "\n" for r in recs
                                                  if r.get("type") != "run" or r["variant"] == v))
    rc0, want, _ = run([g, "ministat", "--metric", "gl_manhattan", bench])
    rc, out, err = run([g, "ministat", "--metric", "gl_manhattan", "old=" + split["before"],
                        "new=" + split["after"]])
    check(rc == 0 and out.splitlines()[:2] == ["x old", "+ new"]
          and out.splitlines()[2:] == want.splitlines()[2:], f"labelled one-variant files:\n{out}\nvs\n{want}")
    rc, out, err = run([g, "summary", "--json", "--no-diagnostics", "old=" + split["before"], "new=" + split["after"]])
    names = [i["name"] for i in json.loads(out)["inputs"]] if rc == 0 else []
    check(names == ["old"] * 9 + ["new"] * 9, f"summary of every metric with labels: {names} {err}")
    return split


def reports(out):
    """ministat's reports per metric, [(heading, body)], split where a
    blank line comes before a heading."""
    parts = out.split("\n\n== ")
    got = []
    for k, part in enumerate(parts):
        head, _, body = (("== " if k else "") + part).partition("\n")
        got.append((head, body + ("\n" if k + 1 < len(parts) else "")))
    return got


def many_checks(g, d, bench, split):
    names = [r["name"] for r in records(bench) if r.get("type") == "metric"]
    check(len(names) == 9, f"gfxbench9 declares 9 metrics: {names}")
    for flags in ([], ["-A"], ["-n"], ["-s", "-c", "99"]):
        rc, out, err = run([g, "ministat", *flags, bench])
        got = reports(out)
        check(rc == 0 and [h for h, _ in got] == [f"== {n} (fps, higher is better) ==" for n in names],
              f"ministat {flags} gfxbench9: a report per metric, in the file's order: {rc} {err}\n{out}")
        for (head, body), n in zip(got, names):
            rc1, alone, err1 = run([g, "ministat", *flags, "--metric", n, bench])
            check(rc1 == 0 and body == alone, f"ministat {flags}: {n}'s report is --metric {n}'s:\n{body}\nvs\n{alone}")
    # The same from standard input.
    with open(bench, "rb") as f:
        p = subprocess.run([g, "ministat", "-A"], stdin=f, capture_output=True)
    rc, want, _ = run([g, "ministat", "-A", bench])
    check(p.returncode == 0 and p.stdout.decode() == want, f"gfxbench9 on stdin: {p.stderr.decode()}")

    # --metric narrows, in the file's order; one --metric is today's report.
    rc, out, err = run([g, "ministat", "-n", "--metric", "gl_trex", "--metric", "gl_4", bench])
    check(rc == 0 and [h for h, _ in reports(out)] == ["== gl_4 (fps, higher is better) ==",
                                                       "== gl_trex (fps, higher is better) =="],
          f"--metric twice: {out} {err}")
    rc, out, err = run([g, "ministat", "-n", "--metric", "gl_trex", bench])
    check(rc == 0 and out.startswith("x before\n+ after\n") and "==" not in out, f"one --metric: {out}")
    rc, out, err = run([g, "ministat", "--metric", "gl_4", "--metric", "gl_trx", bench])
    check(rc == 2 and out == "" and "no metric 'gl_trx'" in err and "gl_trex" in err, f"--metric unknown: {err}")
    rc, out, err = run([g, "ministat", "--metric", "gl_4", "--metric", "gl_4", bench])
    check(rc == 2 and "given twice" in err, f"--metric twice the same: {err}")
    rc, out, err = run([g, "ministat", "-n", "--variant", "after", bench])
    check(rc == 0 and len(reports(out)) == 9 and all(b.startswith("x after\n    N") for _, b in reports(out)),
          f"--variant in every report: {out} {err}")

    # Labels in every report; two files of one variant each.
    rc, out, err = run([g, "ministat", "-A", "old=" + split["before"], "new=" + split["after"]])
    got = reports(out)
    check(rc == 0 and len(got) == 9, f"labelled files, a report per metric: {rc} {err}")
    for (head, body), n in zip(got, names):
        _, alone, _ = run([g, "ministat", "-A", "--metric", n, "old=" + split["before"], "new=" + split["after"]])
        check(body == alone and body.startswith("x old\n+ new\n"), f"labelled {n}: {body}\nvs\n{alone}")

    # Frame times are within-run data: skipped, as compare skips them.
    frames = results_file(d, "frames.json", [
        {"name": "frame_time", "unit": "ms", "direction": "lower", "per": "frame"},
        {"name": "fps_mean", "unit": "frames/s", "direction": "higher"},
        {"name": "p99", "unit": "", "direction": "unknown"}],
        [(v, {"frame_time": [16.0 + k, 16.5, 17.0], "fps_mean": 60.0 + k + (v == "b"), "p99": 20.0 - k})
         for v in ("a", "b") for k in range(5)])
    rc, out, err = run([g, "ministat", "-n", frames])
    check(rc == 0 and [h for h, _ in reports(out)] == ["== fps_mean (frames/s, higher is better) ==",
                                                       "== p99 (direction unknown) =="],
          f"frame times skipped: {out} {err}")
    rc, out, err = run([g, "ministat", "--metric", "fps_mean", "--metric", "frame_time", frames])
    check(rc == 2 and out == "" and "one value per frame" in err, f"frame_time named: {err}")

    # A report that cannot be made is said; the others are printed; exit 2.
    short = results_file(d, "short.json", [
        {"name": "m1", "unit": "ms", "direction": "lower"}, {"name": "m2", "unit": "ms", "direction": "lower"},
        {"name": "m3", "unit": "ms", "direction": "lower"}],
        [(v, {"m1": 1.0 + k, "m3": 2.0 * k, **({"m2": 3.0 + k} if k < 2 or v == "a" else {})})
         for v in ("a", "b") for k in range(4)])
    rc, out, err = run([g, "ministat", "-n", short])
    got = reports(out)
    check(rc == 2 and [h for h, _ in got] == ["== m1 (ms, lower is better) ==", "== m3 (ms, lower is better) =="]
          and "gfxstat ministat: m2: Dataset b must contain at least 3 data points" in err,
          f"a report with too few values: {rc}\n{out}\n{err}")

    # Column files and a report per metric do not mix.
    col = write(d, "col.txt", "1\n2\n3\n")
    rc, out, err = run([g, "ministat", bench, col])
    check(rc == 2 and out == "" and f"{col} is a column file" in err and "--metric" in err,
          f"column file beside several metrics: {err}")
    rc, out, err = run([g, "ministat", "-n", "--metric", "gl_4", bench, "lab=" + col])
    check(rc == 0 and "x " + bench + ":before" in out and "* lab" in out, f"one --metric, mixed inputs: {out} {err}")


def filter_checks(g, d, bench):
    # --filter (data/bench_filter.h) keeps metrics and variants; each report
    # kept is the metric's own.
    names = [r["name"] for r in records(bench) if r.get("type") == "metric"]
    rc, everything, _ = run([g, "ministat", "-A", bench])
    rc, out, err = run([g, "ministat", "-A", "--filter", "*", bench])
    check(rc == 0 and out == everything, f"--filter '*' is no filter: {rc} {err}")
    rc, out, err = run([g, "ministat", "-A", "--filter", "/_off$/", bench])
    got = reports(out)
    offs = [n for n in names if n.endswith("_off")]
    check(rc == 0 and [h for h, _ in got] == [f"== {n} (fps, higher is better) ==" for n in offs],
          f"--filter /_off$/: {rc} {err}\n{out}")
    for (head, body), n in zip(got, offs):
        _, alone, _ = run([g, "ministat", "-A", "--metric", n, bench])
        check(body == alone, f"--filter: {n}'s report is --metric {n}'s:\n{body}\nvs\n{alone}")
    rc, out, err = run([g, "ministat", "-n", "--filter", "name:gl_trex", bench])
    check(rc == 0 and [h for h, _ in reports(out)] == ["== gl_trex (fps, higher is better) =="],
          f"--filter name:gl_trex: {rc} {out} {err}")
    rc, out, err = run([g, "ministat", "-n", "--filter", "variant:after", "--metric", "gl_4", "--metric", "gl_trex",
                        bench])
    got = reports(out)
    check(rc == 0 and len(got) == 2 and all(b.startswith("x after\n    N") for _, b in got),
          f"--filter variant:after with --metric: {out} {err}")
    rc, out, err = run([g, "ministat", "--filter", "nothing_like_it", bench])
    check(rc == 2 and out == "" and "--filter 'nothing_like_it' keeps no metric" in err, f"--filter keeps none: {err}")
    rc, out, err = run([g, "ministat", "--filter", "(gl_4", bench])
    check(rc == 2 and out == "" and "--filter: at column" in err, f"--filter syntax error: {rc} {err}")
    col = write(d, "filtered.txt", "1\n2\n3\n")
    rc, out, err = run([g, "ministat", "--filter", "gl_4", col])
    check(rc == 2 and out == "" and "--filter applies to results files" in err, f"--filter, column file: {err}")


def main():
    g, src = paths()
    g = os.path.abspath(g)  # some checks run in another directory
    d = tempfile.mkdtemp(prefix="gfxstat-inputs-")
    bench = os.path.join(src, "tests/data/results/gfxbench9.json")
    label_checks(g, d)
    split = results_label_checks(g, d, bench)
    many_checks(g, d, bench, split)
    filter_checks(g, d, bench)
    return finish("suite inputs: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
