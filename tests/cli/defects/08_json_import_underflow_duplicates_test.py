#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`import --from hyperfine` and `--from gbench` (and `run --parser gbench`)
refuse what results files and the other importers refuse. The wrong
answers this guards against: `1e-400` stored silently as a time of 0 (a
sample with an impossible value, and three of them a standard deviation
of 0), a member given twice in one JSON object silently resolved to its
last value (the file says two things; which one was meant is not known),
and `1e400` refused without the line or the JSON path. Each refusal names
the file, the line, the JSON path and the value, exits 2 and writes
nothing."""

import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import testlib  # noqa: E402
from testlib import check, finish, run, write  # noqa: E402

HYPERFINE_UNDERFLOW = """{
  "results": [
    {
      "command": "vkcube",
      "times": [0.101,
        1e-400, 0.102]
    }
  ]
}
"""

HYPERFINE_TWICE = """{
  "results": [
    {
      "command": "vkcube",
      "times": [0.101, 0.102],
      "times": [5, 6]
    }
  ]
}
"""

HYPERFINE_TOP_TWICE = """{
  "results": [{"command": "a", "times": [0.1]}],
  "results": [{"command": "b", "times": [0.2]}]
}
"""

HYPERFINE_OVERFLOW = """{
  "results": [
    {"command": "a",
     "times": [0.1, 1e400]}
  ]
}
"""

HYPERFINE_PARAMETERS_TWICE = """{"results": [{"command": "a", "times": [0.1],
  "parameters": {"n": "1", "n": "2"}}]}
"""

GBENCH_UNDERFLOW = """{
  "benchmarks": [
    {"name": "BM_Blit", "run_type": "iteration", "real_time": 12.5,
     "cpu_time": -2.5e-999, "time_unit": "ns"}
  ]
}
"""

GBENCH_TWICE = """{
  "context": {"host_name": "rig"},
  "benchmarks": [
    {"name": "BM_Blit", "run_type": "iteration",
     "real_time": 12.5, "real_time": 99.0, "cpu_time": 12.0, "time_unit": "ns"}
  ]
}
"""

# What must still be accepted: a subnormal is a double (not 0), and a zero
# written with a huge negative exponent is zero as written.
HYPERFINE_SUBNORMAL = """{"results": [{"command": "a", "times": [2.5e-320, 0e-999, 0.5]}]}
"""


def refused(g, d, fmt, name, text, expect_prefix, expect_parts):
    path = write(d, name, text)
    out = os.path.join(d, name + ".results.json")
    rc, _, err = run([g, "import", "--from", fmt, path, "-o", out])
    what = f"import --from {fmt} {name}"
    check(rc == 2, f"{what}: exit 2, got {rc} ({err.strip()})")
    check(f"{path}:{expect_prefix}" in err, f"{what}: names file and line '{path}:{expect_prefix}': {err.strip()}")
    for part in expect_parts:
        check(part in err, f"{what}: says {part!r}: {err.strip()}")
    check(not os.path.exists(out), f"{what}: no results file written")


def main():
    g, _ = testlib.paths()
    with tempfile.TemporaryDirectory() as d:
        refused(g, d, "hyperfine", "underflow.json", HYPERFINE_UNDERFLOW, "6: ",
                ["results[0].times[1]", '"1e-400"', "too close to 0"])
        refused(g, d, "hyperfine", "twice.json", HYPERFINE_TWICE, "6: ",
                ["results[0]", 'member "times" appears twice'])
        refused(g, d, "hyperfine", "top_twice.json", HYPERFINE_TOP_TWICE, "3: ",
                ["top level", 'member "results" appears twice'])
        refused(g, d, "hyperfine", "overflow.json", HYPERFINE_OVERFLOW, "4: ",
                ["results[0].times[1]", '"1e400"', "beyond the range of a double"])
        refused(g, d, "hyperfine", "parameters_twice.json", HYPERFINE_PARAMETERS_TWICE, "2: ",
                ["results[0].parameters", 'member "n" appears twice'])
        refused(g, d, "gbench", "gb_underflow.json", GBENCH_UNDERFLOW, "4: ",
                ["benchmarks[0].cpu_time", '"-2.5e-999"', "too close to 0"])
        refused(g, d, "gbench", "gb_twice.json", GBENCH_TWICE, "5: ",
                ["benchmarks[0]", 'member "real_time" appears twice'])

        # A run's stdout read by the same grammar is refused the same way:
        # the run fails with the reason instead of recording a 0.
        gb = write(d, "stdout_underflow.json", GBENCH_UNDERFLOW)
        out = os.path.join(d, "run.json")
        rc, _, err = run([g, "run", "--runs", "1", "--max-failures", "1", "--no-check", "--parser", "gbench",
                          "-o", out, "--", "cat", gb])
        check(rc != 0, f"run --parser gbench on an underflowing value fails, got {rc}")
        check('stdout:4: benchmarks[0].cpu_time: "-2.5e-999" is too close to 0' in err,
              f"run --parser gbench names line, path and value: {err.strip()}")

        # Subnormals and zeros are numbers, imported as written.
        ok = write(d, "subnormal.json", HYPERFINE_SUBNORMAL)
        out = os.path.join(d, "subnormal.results.json")
        rc, _, err = run([g, "import", "--from", "hyperfine", ok, "-o", out])
        check(rc == 0, f"a subnormal and 0e-999 are imported: {rc} {err.strip()}")
        if rc == 0:
            with open(out) as f:
                text = f.read()
            check('"time":2.5e-320' in text and text.count('"time":0}') == 1 and '"time":0.5' in text,
                  f"values kept as written: {text}")
    return finish("the JSON importers refuse underflow, overflow and duplicate members with line, path and value")


if __name__ == "__main__":
    sys.exit(main())
