#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What a run ran, recorded and checked: each run's environment holds its
workload (the command as given, or the built-in workload with its options,
and the parser), `gfxstat run` refuses to add runs of another workload to a
variant (a user's `sleep 1` and `sleep 0.01` runs landed in one variant and
nothing said so), `--force` lets them in and `show` then warns. Also: the
parsers' primary metrics in the declarations, and `show` on runs without
boot ids (imports) saying the boots are unknown, not "1 boot"."""

import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402
from testlib import check, finish, run  # noqa: E402


def records(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def of_type(path, t):
    return [r for r in records(path) if r.get("type") == t]


def validate(schema, path, what):
    try:
        import jsonschema
    except ImportError:
        return
    validator = jsonschema.Draft202012Validator(schema)
    for i, rec in enumerate(records(path)):
        errors = list(validator.iter_errors(rec))
        if not check(not errors, f"{what}: line {i + 1} breaks the schema: {errors[:1]}"):
            return


def workloads_of_runs(path):
    """The workload each run's environment recorded, in run order."""
    envs = {e["id"]: e for e in of_type(path, "environment")}
    return [envs.get(r.get("environment"), {}).get("workload") for r in of_type(path, "run")]


def main():
    g, src = testlib.paths()
    schema = testlib.load_json(src, "docs/results-format.schema.json")
    with tempfile.TemporaryDirectory() as d:
        res = os.path.join(d, "int.json")
        base = [g, "run", "--parser", "time", "--label", "int", "-o", res]

        # The complaint: runs of `sleep 0.05`, then of `sleep 0.01`, one label.
        rc, out, err = run(base + ["--runs", "2", "--", "sleep", "0.05"])
        check(rc == 0, f"first run: {rc} {err!r}")
        ws = workloads_of_runs(res)
        check(ws == [{"argv": ["sleep", "0.05"], "parser": "time"}] * 2,
              f"each run's environment records the workload: {ws}")
        validate(schema, res, "int.json")
        metrics = {m["name"]: m for m in of_type(res, "metric")}
        check(metrics.get("wall", {}).get("primary") is True, f"wall is primary: {metrics.get('wall')}")
        for name in ["user", "sys", "max_rss"]:
            check(metrics.get(name, {}).get("primary") is False, f"{name} is secondary: {metrics.get(name)}")
        check(not any("exact" in m for m in metrics.values()), f"no metric of time is exact: {metrics}")

        with open(res, "rb") as f:
            before = f.read()
        rc, out, err = run(base + ["--runs", "2", "--", "sleep", "0.01"])
        check(rc == 2, f"another workload in the variant is refused: exit {rc}")
        check(res in err and "'int'" in err and "sleep 0.05" in err and "sleep 0.01" in err
              and "--force" in err, f"the refusal names the file, the variant and both workloads: {err!r}")
        with open(res, "rb") as f:
            check(f.read() == before, "a refused run writes nothing to the results file")

        # The same workload goes on; another label is another variant.
        rc, out, err = run(base + ["--runs", "1", "--", "sleep", "0.05"])
        check(rc == 0, f"the same workload appends: {rc} {err!r}")
        rc, out, err = run([g, "run", "--parser", "time", "--label", "short", "-o", res, "--runs", "1",
                            "--", "sleep", "0.01"])
        check(rc == 0, f"another label takes another workload: {rc} {err!r}")
        # A parser's settings are part of the workload too.
        rc, out, err = run([g, "run", "--label", "int", "-o", res, "--runs", "1", "--", "sleep", "0.05"])
        check(rc == 2 and "parser lines" in err and "parser time" in err,
              f"another parser is another workload: {rc} {err!r}")

        rc, out, err = run(base + ["--runs", "2", "--force", "--", "sleep", "0.01"])
        check(rc == 0, f"--force records them: {rc} {err!r}")
        check(len([r for r in of_type(res, "run") if r["variant"] == "int"]) == 5, "5 runs of 'int'")

        rc, out, err = run([g, "show", res])
        check(rc == 0, f"show: {rc} {err!r}")
        check("warning:" in err and "'int' mixes 2 workloads" in err, f"show warns on stderr: {err!r}")
        check("workloads\n" in out and "int: sleep 0.05 (parser time) (3 runs)" in out
              and "int: sleep 0.01 (parser time) (2 runs)" in out and "short: sleep 0.01 (parser time)\n" in out,
              f"show lists each variant's workloads: {out!r}")
        check("warning: variant 'int' mixes 2 workloads" in out, f"show's text warns: {out!r}")
        check("nothing unusual" not in out, f"a mixed variant is not 'nothing unusual': {out!r}")
        rc, out, err = run([g, "show", "--json", res])
        j = json.loads(out) if rc == 0 else {}
        variants = {v["variant"]: v for v in j.get("variants", [])}
        check(variants.get("int", {}).get("mixes_workloads") is True
              and variants.get("short", {}).get("mixes_workloads") is False,
              f"show --json marks the mixed variant: {variants}")
        check(len(j.get("warnings", [])) == 1 and "mixes 2 workloads" in j["warnings"][0],
              f"show --json warns: {j.get('warnings')}")
        ws = variants.get("int", {}).get("workloads", [])
        check([w.get("workload") for w in ws] == [{"argv": ["sleep", "0.05"], "parser": "time"},
                                                  {"argv": ["sleep", "0.01"], "parser": "time"}]
              and [w.get("runs") for w in ws] == [3, 2], f"show --json lists the workloads: {ws}")

        # Runs from before workloads were recorded do not block.
        old = os.path.join(d, "old.json")
        with open(old, "w") as f:
            for rec in records(res):
                rec.pop("workload", None)
                f.write(json.dumps(rec) + "\n")
        rc, out, err = run([g, "run", "--parser", "time", "--label", "int", "-o", old, "--runs", "1",
                            "--", "sleep", "0.02"])
        check(rc == 0, f"runs that recorded no workload do not block: {rc} {err!r}")
        rc, out, err = run([g, "show", old])
        check("mixes" not in err and "not recorded (5 runs)" in out, f"show on old runs: {err!r} {out!r}")

        # A built-in workload: its name and options, not this gfxstat's path.
        wl = os.path.join(d, "wl.json")
        rc, out, err = run([g, "run", "--workload", "wakeup-latency", "--duration", "0.05", "--runs", "1", "-o", wl])
        check(rc == 0, f"wakeup-latency: {rc} {err!r}")
        ws = workloads_of_runs(wl)
        check(ws == [{"builtin": "wakeup-latency", "options": {"duration": "0.05", "load-threads": "0"},
                      "parser": "wakeup-latency"}], f"a built-in workload is recorded by name: {ws}")
        validate(schema, wl, "wl.json")
        wm = {m["name"]: m.get("primary") for m in of_type(wl, "metric")}
        check(wm.get("latency_mean") is True and wm.get("latency_p99") is False, f"wakeup-latency's primary: {wm}")
        rc, out, err = run([g, "run", "--workload", "wakeup-latency", "--duration", "0.1", "--runs", "1", "-o", wl])
        check(rc == 2 and "--duration 0.05" in err and "--duration 0.1" in err,
              f"another --duration is another workload: {rc} {err!r}")

        # Text from data reaches the terminal escaped.
        esc = os.path.join(d, "esc.json")
        rc, out, err = run([g, "run", "--parser", "time", "--label", "e\x1bl", "-o", esc, "--runs", "1",
                            "--", "sh", "-c", "printf '\\033]0;x\\007'"])
        check(rc == 0, f"escape run: {rc} {err!r}")
        rc, out, err = run([g, "run", "--parser", "time", "--label", "e\x1bl", "-o", esc, "--runs", "1",
                            "--", "sh", "-c", "true\x1b[2J"])
        check(rc == 2 and "\x1b" not in err and "\\x1b" in err, f"the refusal escapes: {err!r}")
        rc, out, err = run([g, "run", "--parser", "time", "--label", "e\x1bl", "-o", esc, "--runs", "1", "--force",
                            "--", "sh", "-c", "true\x1b[2J"])
        rc, out, err = run([g, "show", esc])
        check("\x1b" not in out + err and "e\\x1bl: sh -c" in out and "\\x1b[2J" in out,
              f"show escapes labels and commands: {out!r} {err!r}")

        # Boots: runs with no boot id are unknown boots, not one boot.
        col = os.path.join(d, "col.txt")
        with open(col, "w") as f:
            f.write("1\n2\n3\n")
        a, b = os.path.join(d, "a.json"), os.path.join(d, "b.json")
        run([g, "import", "--from", "lines", col, "-o", a])
        run([g, "import", "--from", "lines", col, "-o", b])
        rc, out, err = run([g, "show", a])
        first = out.split("\n")[0]
        check(rc == 0 and first.endswith(", boots unknown") and "1 boot" not in first,
              f"show says the boots are unknown: {first!r}")
        m = os.path.join(d, "m.json")
        run([g, "merge", "-o", m, a, b])
        rc, out, err = run([g, "show", m])
        first = out.split("\n")[0]
        check(first.endswith(", boots unknown"), f"after a merge too: {first!r}")
        # One known boot beside them: counted, and the unknown ones said apart.
        bootf = os.path.join(d, "boot_id")
        with open(bootf, "w") as f:
            f.write("11111111-2222-3333-4444-555555555555\n")
        env = dict(os.environ, GFXSTAT_BOOT_ID_FILE=bootf)
        k = os.path.join(d, "k.json")
        import subprocess
        subprocess.run([g, "run", "--parser", "time", "--label", "t", "-o", k, "--runs", "1", "--", "true"],
                       env=env, capture_output=True)
        mk = os.path.join(d, "mk.json")
        run([g, "merge", "-o", mk, a, k])
        rc, out, err = run([g, "show", mk])
        # The counts follow the name, or its line when the path is long.
        lines = out.split("\n")
        first = lines[1].strip() if lines[0].endswith(":") else lines[0]
        check(first.endswith(", 1 boot, 1 run of unknown boot"), f"known and unknown boots: {first!r}")
        rc, out, err = run([g, "show", "--json", mk])
        j = json.loads(out) if rc == 0 else {}
        check(j.get("known_boots") == 1 and j.get("runs_of_unknown_boot") == 1, f"show --json boots: {out[:200]!r}")
    return finish("all workload checks passed")


if __name__ == "__main__":
    sys.exit(main())
