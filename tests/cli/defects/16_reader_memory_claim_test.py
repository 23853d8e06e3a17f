#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""SECURITY.md says what the readers' memory really is, and `show` keeps to it.

The wrong answer this guards against: SECURITY.md claimed the readers
"bound their memory and time", while a 320 MB record line took 3.9 GB in
`show`: every value is kept, so memory grows with the file, about 20 times
its size for one-digit values. The page must not claim a bound, must state
the factor for `show`, and `show` must stay within it (measured on a file
of one-digit values, its own peak from wait4, less the peak of a tiny file)."""

import json
import mmap
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import check, finish, paths  # noqa: E402

GFXSTAT, SRC = paths()

HEADER = {"format": "gfxstat-results", "version": 1, "id": "0123456789abcdef0123456789abcdef",
          "created": "2026-11-30T05:00:00.000000Z", "generator": "gfxstat 0.1.0"}


def results_file(path, values):
    """One run of `values` one-digit values: the most values per byte."""
    with open(path, "w") as f:
        f.write(json.dumps(HEADER) + "\n")
        f.write('{"type":"metric","name":"v","unit":"ms","lower_is_better":true}\n')
        f.write('{"type":"run","variant":"a","run":0,"exit":{"class":"ok","code":0},"metrics":{"v":['
                + ",".join(["1"] * values) + "]}}\n")
    return os.path.getsize(path)


def peak_kib(args):
    """(exit status, peak resident KiB) of one gfxstat, from wait4."""
    p = subprocess.Popen([GFXSTAT] + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         stdin=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    return os.waitstatus_to_exitcode(status), usage.ru_maxrss


def sanitized():
    """Whether gfxstat is built with AddressSanitizer (make asan-test)."""
    with open(GFXSTAT, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        return m.find(b"__asan_init") >= 0


def main():
    with open(os.path.join(SRC, "SECURITY.md")) as f:
        page = " ".join(f.read().split())
    check("bound their memory" not in page, "SECURITY.md does not claim the readers bound their memory")
    m = re.search(r"`show` about (\d+) times", page)
    if not check(m is not None, "SECURITY.md states show's peak memory as a multiple of the file's size"):
        return finish("")
    factor = int(m.group(1))

    with tempfile.TemporaryDirectory() as d:
        tiny = os.path.join(d, "tiny.json")
        big = os.path.join(d, "big.json")
        results_file(tiny, 10)
        size = results_file(big, 1_500_000)
        rc0, base = peak_kib(["show", tiny])
        rc1, peak = peak_kib(["show", big])
        check(rc0 == 0 and rc1 == 0, f"show reads both files (rc {rc0}, {rc1})")
        grown = (peak - base) * 1024 / size
        print(f"show: {grown:.1f} times the file's size (SECURITY.md: about {factor})")
        if os.environ.get("GFXSTAT_SANITIZED") or sanitized():
            # AddressSanitizer's shadow memory and quarantine are not
            # gfxstat's: the figure holds for the build users run.
            print("SKIP the measured factor under a sanitizer build")
            return finish("SECURITY.md states the readers' memory")
        # "About": a quarter of slack for allocators and libraries.
        check(grown <= factor * 1.25, f"show holds about {factor} times the file at most: {grown:.1f} times")
        # And the figure is not inflated either: it says what is true.
        check(grown >= factor * 0.5, f"SECURITY.md's {factor} times is near the measured {grown:.1f} times")
    return finish("SECURITY.md states the readers' memory, and show keeps to it")


if __name__ == "__main__":
    sys.exit(main())
