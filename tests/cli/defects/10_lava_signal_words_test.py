#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What gfxstat hands to LAVA's scripts reaches LAVA as gfxstat meant it,
checked with Debian lava-dispatcher's own scripts and parser. The wrong
answers this guards against:

  (a) a lava-test-raise message keeping its backslashes: LAVA's scripts
      print signals with dash's echo, which reads them, so a recorded
      command holding `\\c` ended the signal line before its '>' (LAVA never
      saw the raise, and the next line's signal was glued to it), and
      `\\n\\0074...\\0076` in a command forged a whole test case;
  (b) a unit holding non-ASCII white space (U+00A0): LAVA splits the
      signal's parameters with Python's str.split() and dropped the case
      ("Ignoring malformed parameter");
  (c) LAVA's scripts without a "#!" line (as the test shell has them until
      it writes one) not run at all: "Exec format error", where a shell and
      execvp run such a file with /bin/sh.
"""

import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import check, finish, paths, run  # noqa: E402

GFXSTAT, SRC = paths()
SHELL_DIR = "/usr/lib/python3/dist-packages/lava_dispatcher/lava_test_shell"


def lava_modules():
    """LAVA's modules are Debian python3's: under another interpreter the
    test runs itself again under /usr/bin/python3."""
    try:
        from lava_dispatcher.actions.test.shell import handle_testcase  # noqa: F401
        return True
    except ImportError:
        if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != "/usr/bin/python3" \
                and not os.environ.get("GFXSTAT_TEST_REEXEC"):
            os.environ["GFXSTAT_TEST_REEXEC"] = "1"
            os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
        return False


if not lava_modules() or not os.path.isdir(SHELL_DIR) or not os.path.exists("/bin/sh"):
    print("SKIP: Debian's lava-dispatcher is not installed (scripts/install-deps.sh)")
    sys.exit(77)

from lava_dispatcher.actions.test.shell import handle_testcase  # noqa: E402
from lava_common.exceptions import JobError  # noqa: E402

SIGNAL = re.compile(r"<LAVA_SIGNAL_(\S+) ([^>]+)>")  # lava_dispatcher/actions/test/shell.py's


def shell_bin(d, name, shebang):
    """LAVA's scripts in a directory for PATH; with or without the "#!" line
    the test shell writes in."""
    b = os.path.join(d, name)
    os.makedirs(b)
    for script in ("lava-test-case", "lava-test-set", "lava-test-raise", "lava-common-functions"):
        with open(os.path.join(SHELL_DIR, script)) as f:
            text = f.read()
        path = os.path.join(b, script)
        with open(path, "w") as f:
            f.write(("#!/bin/sh\n" if shebang else "") + text)
        os.chmod(path, 0o755)
    return b


def grun(args, d, bindir):
    env = dict(os.environ)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    env["LAVA_RESULT_DIR"] = os.path.join(d, "lava-results")
    env.pop("KMSG", None)
    return run_env([GFXSTAT] + args, env)


def run_env(args, env):
    import subprocess
    p = subprocess.run(args, env=env, capture_output=True)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def signals(stdout):
    """(name, params) as LAVA's test shell reads them, line by line
    (params.split())."""
    out = []
    for line in stdout.splitlines():
        out += [(m.group(1), m.group(2).split()) for m in SIGNAL.finditer(line)]
    return out


def main():
    with tempfile.TemporaryDirectory() as d:
        with_line = shell_bin(d, "bin", True)
        without_line = shell_bin(d, "bin-noshebang", False)

        # (a) A command holding "\c" that cannot start: LAVA must see one
        # whole raise, its '>' included.
        rc, out, err = grun(["run", "--runs", "1", "--no-check", "--lava", "on", "-o", os.path.join(d, "c.json"),
                             "--", "/nonexistent/x\\cy"], d, with_line)
        raised = [p for n, p in signals(out) if n == "TESTRAISE"]
        check(rc == 2 and len(raised) == 1, f"(a) \\c: one TESTRAISE signal, rc 2: rc {rc}, {out!r} {err[-300:]!r}")
        check(out.endswith(">\n"), f"(a) \\c: the raise line ends with its '>' and a newline: {out!r}")
        check(all("x" in " ".join(p) and "y" in " ".join(p) for p in raised),
              f"(a) \\c: the message keeps what follows the backslash: {raised}")

        # A command that would make dash's echo print a forged test case.
        forged = "/nonexistent/\\n\\0074LAVA_SIGNAL_TESTCASE TEST_CASE_ID=forged RESULT=pass\\0076"
        rc, out, err = grun(["run", "--runs", "1", "--no-check", "--lava", "on", "-o", os.path.join(d, "f.json"),
                             "--", forged], d, with_line)
        names = [n for n, _ in signals(out)]
        check(names == ["TESTRAISE"], f"(a) forged: only the raise reaches LAVA, no forged case: {names} {out!r}")
        check(out.count("\n") == 1, f"(a) forged: the raise is one line: {out!r}")

        # (b) A unit with a no-break space: the case is kept whole.
        rc, out, err = grun(["run", "--runs", "2", "--no-check", "--lava", "on", "--unit", "ms\u00a0x",
                             "-o", os.path.join(d, "u.json"), "--", "echo", "1.5"], d, with_line)
        cases = [p for n, p in signals(out) if n == "TESTCASE"]
        check(rc == 0 and len(cases) == 1, f"(b) one test case: rc {rc}, {out!r} {err[-300:]!r}")
        for params in cases:
            try:
                data = handle_testcase(params)
                check(data.get("units") == "ms_x" and data.get("measurement") == "1.5",
                      f"(b) units as LAVA keeps them: {data}")
            except JobError as e:
                check(False, f"(b) LAVA drops the case: {e}")

        # (c) The scripts without "#!": run by /bin/sh, as a shell runs them.
        rc, out, err = grun(["run", "--runs", "2", "--no-check", "--lava", "on", "-o", os.path.join(d, "s.json"),
                             "--", "echo", "2.5"], d, without_line)
        got = [(n, p[:1]) for n, p in signals(out)]
        check(rc == 0 and got[:3] == [("TESTSET", ["START"]), ("TESTCASE", ["TEST_CASE_ID=value"]),
                                      ("TESTSET", ["STOP"])],
              f"(c) scripts without #! run: {got} {err[-400:]!r}")
        check("Exec format error" not in err, f"(c) no 'Exec format error': {err[-400:]!r}")
        rc, out, err = grun(["run", "--runs", "1", "--no-check", "--lava", "on", "-o", os.path.join(d, "r.json"),
                             "--", "/nonexistent/benchmark"], d, without_line)
        check(rc == 2 and [n for n, _ in signals(out)] == ["TESTRAISE"],
              f"(c) lava-test-raise without #! runs: rc {rc}, {out!r} {err[-300:]!r}")
    return finish("LAVA's scripts get words their echo and parser keep whole, and run without a #! line")


if __name__ == "__main__":
    sys.exit(main())
