#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Costs that must stay linear in small inputs that are wide or long:
`show` on a table of thousands of metric columns (once a 256 KiB buffer
per metric and a pass over the runs per metric: 8,000 columns took 45 s
and 1.7 GB), `run --parser lines` on 50 MB of output (once ten times the
output in memory) and on 20 MB of one-digit lines (once 16 times), and a
--metric regex on a line of 1 MiB (std::regex backtracked: 18 s on 64
KiB), with --timeout covering the parsing.

Checks are on peak memory (each child's own, from wait4) and on what the
commands print, never on wall time: these machines are shared and noisy.
Each command has a generous time limit only so that a regression fails
instead of hanging."""

import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402
from testlib import check, finish  # noqa: E402

LIMIT_S = 60


def measured(args, d, tag):
    """(status, stdout, stderr, peak RSS in KiB) of `args`; status None when
    it ran past LIMIT_S (then it is killed)."""
    out_path, err_path = os.path.join(d, tag + ".out"), os.path.join(d, tag + ".err")
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        p = subprocess.Popen(args, stdout=out, stderr=err)
        deadline = time.monotonic() + LIMIT_S
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                p.kill()
                os.wait4(p.pid, 0)
                return None, "", f"still running after {LIMIT_S} s", 0
            time.sleep(0.02)
    p.returncode = os.waitstatus_to_exitcode(status)
    with open(out_path, errors="replace") as f:
        text = f.read()
    with open(err_path, errors="replace") as f:
        errors = f.read()
    return p.returncode, text, errors, usage.ru_maxrss


def wide_csv(d, n):
    path = os.path.join(d, f"wide{n}.csv")
    with open(path, "w") as f:
        f.write(",".join(f"m{i}" for i in range(n)) + "\n")
        f.write(",".join(f"{i % 97}.5" for i in range(n)) + "\n")
    return path


def test_show_wide(g, d):
    """show and show --json on one row of 2,000 and of 20,000 columns."""
    rss = {}
    for n in (2000, 20000):
        results = os.path.join(d, f"wide{n}.json")
        rc, _, err, _ = measured([g, "import", "--from", "csv", wide_csv(d, n), "-o", results], d, "import")
        check(rc == 0, f"import of {n} columns: rc {rc}: {err}")
        rc, out, err, kib = measured([g, "show", results], d, "show")
        check(rc == 0 and f"1 variant, {n} metrics, 1 run" in out, f"show of {n} metrics: rc {rc}: {err}")
        rss[n, "text"] = kib
        rc, out, err, kib = measured([g, "show", "--json", results], d, "show-json")
        ok = rc == 0
        if ok:
            j = json.loads(out)
            ok = len(j["metrics"]) == n and j["variants"][0]["samples"][f"m{n - 1}"] == 1
        check(ok, f"show --json of {n} metrics: rc {rc}: {err}")
        rss[n, "json"] = kib
    for form, per_column_kib in (("text", 16), ("json", 32)):
        small, large = rss[2000, form], rss[20000, form]
        print(f"show ({form}): peak RSS {small} KiB at 2,000 columns, {large} KiB at 20,000")
        # Linear: ten times the columns costs well under twenty times the
        # memory, and a column costs kilobytes (it cost 256 KiB).
        check(large < 20 * small, f"show ({form}) memory grows about linearly: {small} -> {large} KiB")
        growth = (large - small) / 18000
        check(growth < per_column_kib,
              f"show ({form}) costs {growth:.1f} KiB per column, under {per_column_kib}")


def test_run_lines(g, d, shape, mib, bound):
    """run --parser lines on `mib` MiB of output, one value a line: `%d.%03d`
    (8 bytes) or one digit (2 bytes, the costliest per byte)."""
    data = os.path.join(d, f"lines-{shape}.txt")
    if shape == "decimal":
        line = b"".join(b"%d.%03d\n" % (100 + i % 900, i % 1000) for i in range(1000))
    else:
        line = b"".join(b"%d\n" % (i % 10) for i in range(1000))
    with open(data, "wb") as f:
        for _ in range(mib * 1024 * 1024 // len(line)):
            f.write(line)
    size_kib = os.path.getsize(data) // 1024
    values = os.path.getsize(data) // (len(line) // 1000)
    results = os.path.join(d, f"lines-{shape}.json")
    rc, _, err, kib = measured([g, "run", "--parser", "lines", "--runs", "1", "-o", results, "--", "cat", data],
                               d, f"run-lines-{shape}")
    check(rc == 0, f"run --parser lines on {size_kib} KiB ({shape}): rc {rc}: {err}")
    ok = False
    if rc == 0:
        # The values counted in the record's text, not loaded: millions of
        # Python numbers would stay in this process's memory, and the next
        # command forked from it starts with that much resident (its peak
        # RSS would count them).
        with open(results) as f:
            runs = [x for x in f if '"type":"run"' in x]
        if len(runs) == 1 and '"value":[' in runs[0]:
            start = runs[0].index('"value":[') + len('"value":[')
            ok = runs[0].count(",", start, runs[0].index("]", start)) + 1 == values
        del runs
    check(ok, f"run --parser lines recorded all {values} values ({shape})")
    # docs/run.md: the output once, 8 bytes a value (packed exact
    # decimals), the record's JSON text about once more. At 8 bytes a line
    # that is about 2.3 times the output; it was 10 (the output copied,
    # the values held twice and grown through doubling buffers, at 32
    # bytes each), then 5 (24-byte tokens). At 2 bytes a line about 5.5
    # (16 with 24-byte tokens).
    print(f"run --parser lines ({shape}): peak RSS {kib} KiB for {size_kib} KiB of output ({kib / size_kib:.1f}x)")
    if os.environ.get("GFXSTAT_SANITIZED"):
        # AddressSanitizer's shadow memory and freed-memory quarantine are
        # not gfxstat's: the bound holds for the build users run.
        print(f"SKIP run --parser lines ({shape}): the {bound} x bound under a sanitizer build")
    else:
        check(kib < bound * size_kib,
              f"run --parser lines ({shape}): peak RSS {kib} KiB under {bound} x the output ({size_kib} KiB)")


def test_regex_long_line(g, d):
    """--metric on a line of 1 MiB; --timeout includes parsing."""
    data = os.path.join(d, "long.txt")
    with open(data, "w") as f:
        # Backtracking is quadratic on this line (18 s at 64 KiB); the value
        # is on the next one.
        f.write("fps=" * (1 << 18) + "\nfps=59.9 fps\n")
    results = os.path.join(d, "regex.json")
    rc, _, err, _ = measured([g, "run", "--metric", "fps=fps=(.*) fps", "--runs", "1", "-o", results, "--",
                              "cat", data], d, "regex")
    ok = rc == 0
    if ok:
        with open(results) as f:
            runs = [json.loads(x) for x in f if '"type":"run"' in x]
        ok = len(runs) == 1 and runs[0]["metrics"].get("fps") == 59.9
    check(ok, f"--metric on a line of 1 MiB: rc {rc}: {err}")

    # What RE2 cannot do in linear time is a usage error, before any run.
    refused = os.path.join(d, "refused.json")
    rc, _, err, _ = measured([g, "run", "--metric", "v=(a)\\1", "--runs", "1", "-o", refused, "--", "true"],
                             d, "backref")
    check(rc == 2 and "backreference" in err and not os.path.exists(refused),
          f"a backreference is refused with exit 2: rc {rc}: {err}")
    rc, _, err, _ = measured([g, "run", "--metric", "v=(\\d+)(?= fps)", "--runs", "1", "-o", refused, "--",
                              "true"], d, "lookahead")
    check(rc == 2 and "lookahead" in err, f"a lookahead is refused with exit 2: rc {rc}: {err}")

    # The program ends at once; matching 40 MB against 200 regexes does
    # not fit in the 1 s --timeout left to it, so the run is a timeout that
    # says parsing took the time (the parser stops at the deadline).
    many = os.path.join(d, "many.txt")
    with open(many, "w") as f:
        f.write(("x" * 199 + "\n") * 200000)
    specs = []
    for i in range(200):
        specs += ["--metric", f"m{i}=(\\d+)y{i}"]
    timed = os.path.join(d, "timed.json")
    rc, _, err, _ = measured([g, "run", *specs, "--timeout", "1", "--runs", "1", "--max-failures", "1",
                              "-o", timed, "--", "cat", many], d, "timeout")
    run = None
    if os.path.exists(timed):
        with open(timed) as f:
            runs = [json.loads(x) for x in f if '"type":"run"' in x]
        run = runs[0] if runs else None
    reason = run["exit"].get("reason", "") if run else ""
    check(run is not None and run["exit"]["class"] == "timeout" and "parsing its output" in reason,
          f"parsing past --timeout is a timeout: rc {rc}: {run}: {err}")


def main():
    g, _ = testlib.paths()
    with tempfile.TemporaryDirectory() as d:
        test_show_wide(g, d)
        test_run_lines(g, d, "decimal", 50, 6)
        test_run_lines(g, d, "digit", 20, 8)
        test_regex_long_line(g, d)
    return finish("scaling: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
