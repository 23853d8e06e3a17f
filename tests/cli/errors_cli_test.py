#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gfxstat explains itself: every error starts with the command's name,
unknown commands, options and values suggest the nearest valid word (and
nonsense none), a file of an import format says how to import it, a lost
write to stdout is an error, and a stopped run exits 128 + the signal.

The table below is bad invocations, at least three per command (nested
campaign and tune ones included): unknown options with and without a
close match, bad values, missing and wrong files. For each: exit status 2
(ministat's "Cannot open" is 1, as Debian's), the first line of stderr
starts with the exact prefix, no crash or traceback, no control character.
Then --version, ministat --help, run --help's lists, the JSON outputs'
gfxstat_version, /dev/full, SIGTERM.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from testlib import check, finish, paths, write  # noqa: E402

GFXSTAT, SRC = paths()
IMPORT = os.path.join(SRC, "tests/data/import")
RESULTS = os.path.join(SRC, "tests/data/results/campaign.json")
HYPERFINE = os.path.join(IMPORT, "hyperfine/scan.json")
ESC = "\x1b]0;pwned\x07"  # a terminal title sequence, in an argument

# What a crash or an uncaught exception prints.
CRASH = ("Traceback", "terminate called", "Aborted", "core dumped", "Segmentation fault", "AddressSanitizer",
         "runtime error:", "what():")


def control_bytes(data):
    """Control bytes in `data` other than newline and tab (C0, DEL, C1 as UTF-8)."""
    bad = [b for b in data if (b < 0x20 and b not in (0x09, 0x0A)) or b == 0x7F]
    bad += [m.group(0) for m in re.finditer(rb"\xc2[\x80-\x9f]", data)]
    return bad


def run_raw(args, stdout=subprocess.PIPE, cwd=None):
    p = subprocess.run([GFXSTAT, *args], stdout=stdout, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, cwd=cwd,
                       timeout=120)
    return p.returncode, p.stdout if p.stdout is not None else b"", p.stderr


def table(d):
    """(arguments, prefix of the first stderr line, texts stderr must hold, texts it must not, exit status)."""
    a = write(d, "a.txt", "1\n2\n3\n4\n")
    two = write(d, "two.txt", "1\n2\n")
    b = write(d, "b.txt", "2\n3\n4\n5\n")
    missing = os.path.join(d, "missing.json")
    out = os.path.join(d, "out.json")
    camp = os.path.join(d, "camp")
    esc_file = os.path.join(d, "x" + ESC + ".json")
    gotest = os.path.join(IMPORT, "gotest/bench.txt")
    csv = os.path.join(IMPORT, "csv/runs.csv")
    pts = os.path.join(IMPORT, "pts/composite.xml")
    ezbench = os.path.join(IMPORT, "ezbench/completed.txt")
    gbench = os.path.join(IMPORT, "gbench/repetitions.json")
    hint = "this looks like a hyperfine export: gfxstat import --from hyperfine " + HYPERFINE + " -o results.json"
    rows = [
        # gfxstat itself
        (["comapre", a, b], "gfxstat: unknown command 'comapre'", ["did you mean compare?"], [], 2),
        (["xyz"], "gfxstat: unknown command 'xyz'", [], ["did you mean"], 2),
        ([], "gfxstat: missing COMMAND", [], [], 2),
        (["-V"], "gfxstat: unknown option '-V'", [], [], 2),
        (["--verison"], "gfxstat: unknown option '--verison'", ["did you mean --version?"], [], 2),
        (["sumary", a], "gfxstat: unknown command", ["did you mean summary?"], [], 2),
        ([ESC], "gfxstat: unknown command", ["\\x1b"], [], 2),
        # ministat (its own whines, after the command's name)
        (["ministat", "--nope", a], "gfxstat ministat: unrecognized option '--nope'", [], ["Unknown option"], 2),
        (["ministat", "-x", a], "gfxstat ministat: unrecognized option '-x'", [], ["Unknown option"], 2),
        (["ministat", "-C"], "gfxstat ministat: option requires an argument: '-C'", [], [], 2),
        (["ministat", two], "gfxstat ministat: Dataset ", ["must contain at least 3 data points"], [], 2),
        (["ministat", "-C", "0", a], "gfxstat ministat: Column number should be positive.", [], [], 2),
        (["ministat", "-w", "abc", a], "gfxstat ministat: Invalid width", [], [], 2),
        (["ministat", missing], "gfxstat ministat: Cannot open", [], [], 1),
        (["ministat", "--metric", "x", gotest], "gfxstat ministat: ",
         ["this looks like go test -bench output: gfxstat import --from gotest " + gotest], [], 2),
        # summary
        (["summary", "--nope", a], "gfxstat summary: unknown option '--nope'", [], ["did you mean"], 2),
        (["summary", "--jsn", a], "gfxstat summary: unknown option '--jsn'", ["did you mean --json?"], [], 2),
        (["summary", missing], "gfxstat summary: " + missing + ": cannot open", [], [], 2),
        (["summary", "-C", "x", a], "gfxstat summary: --column", [], [], 2),
        (["summary", "--json=maybe", a], "gfxstat summary: --json: 'maybe' is not", ["flag"], [], 2),
        (["summary", csv], "gfxstat summary: ", ["this looks like a CSV table: gfxstat import --from csv " + csv], [], 2),
        # compare
        (["compare", "--treshold", "5", a, b], "gfxstat compare: unknown option '--treshold'",
         ["did you mean --threshold?", "see 'gfxstat compare --help'"], [], 2),
        (["compare", "--frobnicate", a, b], "gfxstat compare: unknown option '--frobnicate'", [], ["did you mean"], 2),
        (["compare"], "gfxstat compare: missing files", [], [], 2),
        (["compare", "--format", "jsn", a, b], "gfxstat compare: --format: unknown value 'jsn'",
         ["did you mean json?"], [], 2),
        (["compare", "--threshold", "nan", a, b], "gfxstat compare: --threshold", [], [], 2),
        (["compare", "--width", "5", a, b], "gfxstat compare: --width", [], [], 2),
        (["compare", "--seed", "abc", a, b], "gfxstat compare: --seed: 'abc' is not a whole number", [], [], 2),
        (["compare", "--seed", "-1", a, b], "gfxstat compare: --seed: must not be negative", [], [], 2),
        (["compare", "--confidence", "150", a, b], "gfxstat compare: --confidence: must be in (0.5, 1), e.g. 0.95",
         [], ["expected must"], 2),
        (["summary", "--width", "abc", a], "gfxstat summary: --width: 'abc' is not a number from 40 to 1000", [], [], 2),
        (["summary", "--width", "20", a], "gfxstat summary: --width: '20' is not from 40 to 1000", [], [], 2),
        (["run", "--runs", "abc", "-o", "x.json", "--", "true"], "gfxstat run: --runs: 'abc' is not a number", [], [], 2),
        (["compare", a, "--metric"], "gfxstat compare: --metric needs a value", [], [], 2),
        (["compare", "--metric", "latnecy", RESULTS], "gfxstat compare: ", ["has no metric 'latnecy'",
                                                                          "did you mean latency?"], [], 2),
        (["compare", "--lower-is-better", "--higher-is-better", a, b], "gfxstat compare: --lower-is-better", [], [], 2),
        (["compare", HYPERFINE], "gfxstat compare: " + HYPERFINE, [hint], [], 2),
        (["compare", ezbench, a], "gfxstat compare: ", ["this looks like EzBench output: gfxstat import --from ezbench"],
         [], 2),
        (["compare", missing, a], "gfxstat compare: " + missing + ": cannot open", [], ["looks like"], 2),
        (["compare", "--" + ESC, a, b], "gfxstat compare: unknown option", [], [], 2),
        # import
        (["import", "--from", "hyperfin", HYPERFINE, "-o", out], "gfxstat import: unknown format 'hyperfin'",
         ["did you mean hyperfine?"], [], 2),
        (["import", "--frm", "hyperfine", HYPERFINE, "-o", out], "gfxstat import: unknown option '--frm'",
         ["did you mean --from?"], [], 2),
        (["import", "--from", "hyperfine", missing, "-o", out], "gfxstat import: " + missing, [], [], 2),
        (["import", "--from", "qwertyuiop", a, "-o", out], "gfxstat import: unknown format", ["known:"],
         ["did you mean"], 2),
        (["import", "--from", "lines", a], "gfxstat import: --output is required", [], [], 2),
        # show
        (["show"], "gfxstat show: missing file", [], [], 2),
        (["show", RESULTS, "extra"], "gfxstat show: unexpected argument 'extra'", [], [], 2),
        (["show", pts], "gfxstat show: " + pts, ["this looks like a Phoronix Test Suite result file: "
                                                 "gfxstat import --from pts " + pts + " -o results.json"], [], 2),
        (["show", gbench], "gfxstat show: ", ["gfxstat import --from gbench"], [], 2),
        (["show", a], "gfxstat show: " + a, [], ["looks like"], 2),
        (["show", d], "gfxstat show: " + d, [], [], 2),
        (["show", esc_file], "gfxstat show: ", ["\\x1b"], [], 2),
        # merge
        ([ "merge", RESULTS], "gfxstat merge: --output is required", [], [], 2),
        (["merge", "--replase", RESULTS, "-o", out], "gfxstat merge: unknown option '--replase'",
         ["did you mean --replace?"], [], 2),
        (["merge", HYPERFINE, "-o", out], "gfxstat merge: " + HYPERFINE, [hint], [], 2),
        (["merge", missing, "-o", out], "gfxstat merge: " + missing, [], [], 2),
        # run (each refused before anything runs)
        (["run", "-o", out, "--timeout", "nan", "--", "true"], "gfxstat run: --timeout", [], [], 2),
        (["run", "-o", out, "--cooldown", "nan", "--", "true"], "gfxstat run: --cooldown", [], [], 2),
        (["run", "--", "true"], "gfxstat run: --output is required", [], [], 2),
        (["run", "-o", out, "--workload", "wakup-latency"], "gfxstat run: --workload: unknown value 'wakup-latency'",
         ["did you mean wakeup-latency?"], [], 2),
        (["run", "-o", out, "--runz", "3", "--", "true"], "gfxstat run: unknown option '--runz'",
         ["did you mean --runs?"], [], 2),
        (["run", "-o", out, "--parser", "bogus", "--", "true"], "gfxstat run: ", ["known parsers"], ["did you mean"], 2),
        (["run", "-o", out, "--parser", "glmrak2", "--", "true"], "gfxstat run: unknown parser",
         ["did you mean glmark2?"], [], 2),
        (["run", "-o", out, "--runs", "0", "--", "true"], "gfxstat run: --runs", [], [], 2),
        # workload
        (["workload"], "gfxstat workload: missing name", [], [], 2),
        (["workload", "bogus"], "gfxstat workload: name: unknown value 'bogus'", [], [], 2),
        (["workload", "wakeup-latency", "--duration", "-1"], "gfxstat workload: --duration", [], [], 2),
        (["workload", "wakeup-latency", "--duration", "nan"], "gfxstat workload: --duration", [], [], 2),
        # ab
        (["ab", "--variant", "A", "--variant", "B", "--", "true"], "gfxstat ab: --output is required", [], [], 2),
        (["ab", "-o", out, "--varient", "A", "--", "true"], "gfxstat ab: unknown option '--varient'",
         ["did you mean --variant?"], [], 2),
        (["ab", "-o", out, "--variant", "A", "--variant", "B", "--timeout", "nan", "--", "true"], "gfxstat ab: --timeout",
         [], [], 2),
        (["ab", "-o", out, "--variant", "A", "--variant", "B", "--workload", "drm-ioctl", "--", "true"], "gfxstat ab: ",
         [], [], 2),
        # campaign and its subcommands
        (["campaign"], "gfxstat campaign: missing SUBCOMMAND", [], [], 2),
        (["campaign", "resme", camp], "gfxstat campaign: unknown subcommand 'resme'", ["did you mean resume?"], [], 2),
        (["campaign", "frobnicate"], "gfxstat campaign: unknown subcommand", [], ["did you mean"], 2),
        (["campaign", "init"], "gfxstat campaign init: missing plan", [], [], 2),
        (["campaign", "init", missing, "-d", os.path.join(d, "new")], "gfxstat campaign init: " + missing, [], [], 2),
        (["campaign", "init", a, "-d", os.path.join(d, "new")], "gfxstat campaign init: " + a, [], [], 2),
        (["campaign", "status", missing], "gfxstat campaign status: " + missing, [], [], 2),
        (["campaign", "status", "--jsn", camp], "gfxstat campaign status: unknown option '--jsn'",
         ["did you mean --json?"], [], 2),
        (["campaign", "status"], "gfxstat campaign status: missing", [], [], 2),
        (["campaign", "stop", missing], "gfxstat campaign stop: " + missing, [], [], 2),
        (["campaign", "stop", "--nwo", camp], "gfxstat campaign stop: unknown option '--nwo'", ["did you mean --now?"],
         [], 2),
        (["campaign", "stop"], "gfxstat campaign stop: missing", [], [], 2),
        (["campaign", "resume", missing], "gfxstat campaign resume: " + missing, [], [], 2),
        (["campaign", "resume", "--contineu", camp], "gfxstat campaign resume: unknown option '--contineu'",
         ["did you mean --continue?"], [], 2),
        (["campaign", "resume"], "gfxstat campaign resume: missing", [], [], 2),
        (["campaign", "install-service", missing], "gfxstat campaign install-service: " + missing, [], [], 2),
        (["campaign", "install-service", "--enabel", camp], "gfxstat campaign install-service: unknown option",
         ["did you mean --enable?"], [], 2),
        (["campaign", "install-service"], "gfxstat campaign install-service: missing", [], [], 2),
        (["campaign", "analyze"], "gfxstat campaign analyze: missing DIR", [], [], 2),
        (["campaign", "analyze", missing], "gfxstat campaign analyze: " + missing, [], [], 2),
        (["campaign", "analyze", camp, "--treshold", "3"], "gfxstat campaign analyze: unknown option '--treshold'",
         ["did you mean --threshold?"], [], 2),
        # devices
        (["devices", "--jsn"], "gfxstat devices: unknown option '--jsn'", ["did you mean --json?"], [], 2),
        (["devices", "extra"], "gfxstat devices: unexpected argument 'extra'", [], [], 2),
        (["devices", "--qwertyuiop"], "gfxstat devices: unknown option", [], ["did you mean"], 2),
        # tune and its subcommands (never near the real machine: --root)
        (["tune"], "gfxstat tune: missing SUBCOMMAND", [], [], 2),
        (["tune", "shwo"], "gfxstat tune: unknown subcommand 'shwo'", ["did you mean show?"], [], 2),
        (["tune", "xyzzy"], "gfxstat tune: unknown subcommand", [], ["did you mean"], 2),
        (["tune", "--aply"], "gfxstat tune: unknown subcommand '--aply'", ["did you mean apply?"], [], 2),
        (["tune", "show", "--root", missing], "gfxstat tune show: --root", [], [], 2),
        (["tune", "show", "--jsno"], "gfxstat tune show: unknown option '--jsno'", ["did you mean --json?"], [], 2),
        (["tune", "show", "extra"], "gfxstat tune show: unexpected argument 'extra'", [], [], 2),
        (["tune", "apply", "--gpu-freq", "abc", "--root", missing], "gfxstat tune apply: ", [], [], 2),
        (["tune", "apply", "--gpu-frq", "300", "--root", missing], "gfxstat tune apply: unknown option '--gpu-frq'",
         ["did you mean --gpu-freq?"], [], 2),
        (["tune", "apply", "--root"], "gfxstat tune apply: --root needs a value", [], [], 2),
        (["tune", "reset", "--bogus"], "gfxstat tune reset: unknown option '--bogus'", [], [], 2),
        (["tune", "reset", "--rot", missing], "gfxstat tune reset: unknown option '--rot'", ["did you mean --root?"],
         [], 2),
        (["tune", "reset", "--root", missing], "gfxstat tune reset: --root", [], [], 2),
        # version
        (["version", "--jsn"], "gfxstat version: unknown option '--jsn'", ["did you mean --json?"], [], 2),
        (["version", "extra"], "gfxstat version: unexpected argument 'extra'", [], [], 2),
        (["--version", "--frobnicate"], "gfxstat version: unknown option", [], [], 2),
    ]
    return rows


def check_table(d):
    camp = os.path.join(d, "camp")
    plan = write(d, "plan.json", json.dumps({
        "variants": [{"label": "a", "reboot": False}, {"label": "b", "reboot": False}],
        "workload": {"command": ["echo", "1"]}, "runs_per_boot": 2, "boots_per_variant": 1, "reboot_first": False}))
    rc, _, err = run_raw(["campaign", "init", plan, "-d", camp])
    check(rc == 0, f"a campaign to be wrong about: {rc} {err!r}")
    per_command = {}
    for args, prefix, holds, lacks, status in table(d):
        what = " ".join(args).encode("unicode_escape").decode()
        rc, out, err = run_raw(args)
        text = err.decode(errors="replace")
        first = text.split("\n", 1)[0]
        check(rc == status, f"{what}: exit {status} ({rc}): {text!r}")
        check(first.startswith(prefix), f"{what}: first line starts {prefix!r}: {first!r}")
        for h in holds:
            check(h in text, f"{what}: says {h!r}: {text!r}")
        for h in lacks:
            check(h not in text, f"{what}: does not say {h!r}: {text!r}")
        check(not any(c in text for c in CRASH) and rc >= 0, f"{what}: no crash ({rc}): {text!r}")
        check(not control_bytes(err), f"{what}: no control character on stderr: {err!r}")
        check(not control_bytes(out), f"{what}: no control character on stdout: {out!r}")
        # Every line of an error from a known command starts with its name.
        if prefix.startswith("gfxstat ") and not args[0].startswith("ministat") and args[0] not in ("campaign", "tune"):
            name = prefix.split(":", 1)[0]
            lines = [line for line in text.split("\n") if line]
            check(all(line.startswith(name + ":") for line in lines), f"{what}: every line starts {name}: {text!r}")
        key = prefix.split(":", 1)[0].removeprefix("gfxstat").strip()
        per_command[key] = per_command.get(key, 0) + 1
    for cmd in ("ministat", "summary", "compare", "import", "show", "merge", "run", "workload", "ab", "campaign",
                "campaign init", "campaign status", "campaign stop", "campaign resume", "campaign install-service",
                "campaign analyze", "devices", "tune", "tune show", "tune apply", "tune reset", "version"):
        check(per_command.get(cmd, 0) >= 3, f"at least 3 bad invocations of {cmd}: {per_command.get(cmd, 0)}")


def check_help_and_version():
    rc, out, err = run_raw(["--version"])
    version = out.decode().strip()
    check(rc == 0 and re.fullmatch(r"gfxstat \S+", version) is not None and err == b"", f"--version: {rc} {out!r}")
    rc, out2, _ = run_raw(["version"])
    check(rc == 0 and out2 == out, f"gfxstat version is --version: {out2!r}")
    rc, out, _ = run_raw(["version", "--json"])
    check(rc == 0 and json.loads(out) == {"gfxstat_version": version.split(" ", 1)[1]}, f"version --json: {out!r}")
    rc, out, _ = run_raw(["--help"])
    check(rc == 0 and b"version" in out, "gfxstat --help names version")

    rc, out, err = run_raw(["ministat", "--help"])
    check(rc == 0 and out.startswith(b"Usage: gfxstat ministat [-C column]") and b"--help" in out and err == b"",
          f"ministat --help: usage on stdout, exit 0 ({rc}): {out[:80]!r} {err!r}")
    # The symlink keeps ministat's own whine, without a prefix.
    link_dir = tempfile.mkdtemp()
    try:
        link = os.path.join(link_dir, "ministat")
        os.symlink(os.path.abspath(GFXSTAT), link)
        p = subprocess.run([link, "-C", "0"], capture_output=True, stdin=subprocess.DEVNULL)
        check(p.returncode == 2 and p.stderr.startswith(b"Column number should be positive.\nUsage: ministat "),
              f"ministat (the link) keeps its whine: {p.stderr[:80]!r}")
    finally:
        shutil.rmtree(link_dir)

    # run --help and ab --help: every parser and workload, one line each,
    # as the registries know them (their own error messages list them).
    _, _, err = run_raw(["run", "-o", "/nonexistent/x.json", "--no-check", "--parser", "nonesuch", "--", "true"])
    m = re.search(r"known parsers: ([^\n]*)", err.decode())
    parsers = m.group(1).split(", ") if m else []
    _, _, err = run_raw(["workload", "nonesuch"])
    m = re.search(r"known: ([^\n]*)", err.decode())
    workloads = m.group(1).split(", ") if m else []
    check(len(parsers) >= 10 and "time" in parsers and len(workloads) >= 4, f"the registries: {parsers} {workloads}")
    for cmd in ("run", "ab"):
        rc, out, _ = run_raw([cmd, "--help"])
        text = out.decode()
        check(rc == 0 and "Parsers (--parser NAME" in text and "Workloads (--workload NAME)" in text,
              f"{cmd} --help has the lists")
        for name in parsers + workloads:
            check(re.search(rf"^  {re.escape(name)}  +\S", text, re.M) is not None,
                  f"{cmd} --help lists {name} with its line")


def check_json_versions(d):
    _, out, _ = run_raw(["--version"])
    version = (out.decode().split() or [""])[-1]
    a = write(d, "ja.txt", "1\n2\n3\n4\n")
    b = write(d, "jb.txt", "2\n3\n4\n5\n")
    for args in (["compare", "--format", "json", a, b], ["show", "--json", RESULTS], ["summary", "--json", a],
                 ["devices", "--json"], ["tune", "show", "--json"],
                 ["campaign", "status", "--json", os.path.join(d, "camp")]):
        rc, out, err = run_raw(args)
        try:
            doc = json.loads(out)
        except ValueError:
            doc = {}
        check(doc.get("gfxstat_version") == version, f"{' '.join(args)}: gfxstat_version {version} ({rc}) {err!r}")


def check_output_errors(d):
    a = write(d, "fa.txt", "1\n2\n3\n4\n")
    b = write(d, "fb.txt", "2\n3\n4\n5\n")
    ab_out = os.path.join(d, "ab.json")
    cases = [(["compare", a, b], "gfxstat compare"), (["show", RESULTS], "gfxstat show"),
             (["summary", a], "gfxstat summary"), (["ministat", a, b], "gfxstat ministat"),
             (["devices"], "gfxstat devices"), (["devices", "--json"], "gfxstat devices"),
             (["tune", "show"], "gfxstat tune show"), (["version"], "gfxstat version"),
             (["compare", "--help"], "gfxstat compare"),
             (["import", "--from", "lines", "-o", "-", a], "gfxstat import"),
             (["merge", RESULTS, "-o", "-"], "gfxstat merge"),
             (["ab", "-o", ab_out, "--variant", "A", "--variant", "B", "--runs", "2", "--no-check", "--", "echo", "1"],
              "gfxstat ab")]
    with open("/dev/full", "wb") as full:
        for args, prog in cases:
            rc, _, err = run_raw(args, stdout=full)
            last = err.decode(errors="replace").rstrip("\n").split("\n")[-1]
            check(rc == 2 and last == f"{prog}: cannot write the output: No space left on device",
                  f"{' '.join(args)} > /dev/full: exit 2 and says why ({rc}): {err!r}")
            # No success line before the lost write, no second error.
            if args[0] in ("import", "merge"):
                check(err.decode(errors="replace").count("\n") == 1,
                      f"{' '.join(args)} > /dev/full: the error alone: {err!r}")
    # The runs of ab were recorded all the same: only the report was lost.
    check(os.path.exists(ab_out), "ab > /dev/full: the runs are in the results file")


def check_hints_and_signals(d):
    # Standard input is guessed from the bytes already read.
    with open(HYPERFINE, "rb") as f:
        p = subprocess.run([GFXSTAT, "compare", "-"], stdin=f, capture_output=True)
    check(p.returncode == 2 and b"gfxstat import --from hyperfine - -o results.json" in p.stderr,
          f"compare - < a hyperfine export: the hint ({p.returncode}): {p.stderr!r}")
    out = os.path.join(d, "true.json")
    rc, _, err = run_raw(["run", "-o", out, "--runs", "1", "--no-check", "--", "true"])
    check("no numbers in the output" in err.decode() and "to time the command itself, use --parser time" in
          err.decode(), f"run -- true points to --parser time: {err!r}")
    rc, _, err = run_raw(["run", "-o", os.path.join(d, "time.json"), "--runs", "1", "--no-check", "--parser", "time",
                          "--", "true"])
    check(rc == 0, f"--parser time times true: {rc} {err!r}")

    # SIGTERM ends run with 143, as a shell reports it; SIGINT with 130.
    for sig in (signal.SIGTERM, signal.SIGINT):
        res = os.path.join(d, f"sig{int(sig)}.json")
        p = subprocess.Popen([GFXSTAT, "run", "--runs", "5", "--no-check", "-o", res, "--", "sh", "-c",
                              "echo 1; sleep 30"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        # The stop handler is in place once the first run has begun: wait for its log.
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not os.path.isdir(res + ".logs") and not os.path.exists(res):
            time.sleep(0.1)
        time.sleep(0.5)
        p.send_signal(sig)
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        err = p.stderr.read().decode(errors="replace")
        check(p.returncode == 128 + int(sig), f"{sig.name}: exit {128 + int(sig)} ({p.returncode}): {err}")


def import_formats():
    """The formats `gfxstat import --from` takes, as its --help lists them."""
    rc, out, _ = run_raw(["__complete", "values", "import", "--from"])
    names = out.decode().split()
    check(rc == 0 and "csv" in names and "presentmon" in names, f"import's formats: {names}")
    return names


def check_hinted_imports(d):
    """Every fixture that compare refuses with a hint: the hinted import
    really imports it, or (a fixture of bad input) no format does."""
    formats = import_formats()
    files = []
    for top in ("tests/fixtures", "tests/data/run_outputs", "tests/data/import"):
        for root, _, names in os.walk(os.path.join(SRC, top)):
            files += [os.path.join(root, n) for n in sorted(names) if not n.endswith((".md", ".py"))]
    # Each file whose hinted import fails is tried with every format (some
    # thirty files times every format: most of this test's processes).
    # Under the sanitizers a process costs some thirty times more, and the
    # point there is memory checks of the same parsers, which the first
    # few such files already exercise with every format: the rest are
    # left to the plain build's run of this test.
    sweep_left = 3 if os.environ.get("GFXSTAT_SANITIZED") else len(files)
    hinted = 0
    for i, f in enumerate(files):
        rc, _, err = run_raw(["compare", f])
        m = re.search(r"gfxstat import --from (\S+) ", err.decode(errors="replace"))
        if not m:
            continue
        hinted += 1
        out = os.path.join(d, f"hinted{i}.json")
        rc, _, ierr = run_raw(["import", "--from", m.group(1), f, "-o", out])
        if rc == 0 or sweep_left == 0:
            continue
        sweep_left -= 1
        others = [x for x in formats if x != m.group(1) and
                  run_raw(["import", "--from", x, f, "-o", out])[0] == 0]
        check(not others, f"{f}: the hint says --from {m.group(1)} ({ierr.decode(errors='replace').strip()}), "
                          f"but --from {others} imports it")
    check(hinted >= 40, f"hints given for the fixtures: {hinted}")
    # The first words say what the file is, not the JSON error.
    rc, _, err = run_raw(["compare", HYPERFINE])
    first = err.decode().splitlines()[0] if err else ""
    check(rc == 2 and f"{HYPERFINE} is not a gfxstat results file: this looks like a hyperfine export" in first,
          f"compare of a hyperfine export leads with what it is: {first!r}")
    with open(HYPERFINE, "rb") as f:
        p = subprocess.run([GFXSTAT, "show", "-"], stdin=f, capture_output=True)
    check(p.returncode == 2 and b"gfxstat import --from hyperfine - -o results.json" in p.stderr,
          f"show - < a hyperfine export: the hint ({p.returncode}): {p.stderr!r}")
    rc, _, err = run_raw(["compare", os.path.join(SRC, "tests/fixtures/frames/presentmon.csv")])
    check(b"--from presentmon " in err, f"presentmon.csv: --from presentmon: {err!r}")


def main():
    with tempfile.TemporaryDirectory() as d:
        check_hinted_imports(d)
        check_table(d)
        check_help_and_version()
        check_json_versions(d)
        check_output_errors(d)
        check_hints_and_signals(d)
    return finish("errors_cli: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
