#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Results files from the command line: gfxstat import / show / merge, and
results files given to ministat and summary. Checks exit statuses, that no
half-written output is ever left, that every file gfxstat writes validates
against docs/results-format.schema.json (with the independent Python
jsonschema package), and that a results file gives exactly the statistics
of the column file it was imported from."""

import glob
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402
from testlib import check, finish, run  # noqa: E402


def records(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def main():
    g, src = testlib.paths()
    try:
        import jsonschema
    except ImportError:
        print("python3-jsonschema is missing (scripts/install-deps.sh installs it)")
        return 1
    with open(os.path.join(src, "docs/results-format.schema.json")) as f:
        schema = json.load(f)
    validator = jsonschema.Draft202012Validator(schema)

    def valid(path):
        for i, rec in enumerate(records(path)):
            errs = list(validator.iter_errors(rec))
            if errs:
                check(False, f"{path}: record {i + 1} fails the schema: {errs[0].message}")
                return False
        first = records(path)[0]
        return check(first.get("format") == "gfxstat-results", f"{path}: header first") or True

    a = os.path.join(src, "examples/bdw-syslatency-mean-a.txt")
    b = os.path.join(src, "examples/bdw-syslatency-mean-b.txt")
    campaign = os.path.join(src, "tests/data/results/campaign.json")

    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        # Import two column files; the results file gives ministat exactly the
        # report the column files give, legend names aside.
        rc, _, err = run([g, "import", "--from", "lines", a, b, "--label", "before", "--label", "after",
                          "--metric", "latency", "--unit", "us", "--lower-is-better",
                          "--tag", "kernel=6.9.0", "-o", out])
        check(rc == 0, f"import lines: rc {rc}: {err}")
        check("2 runs (17 samples) of 2 variants" in err, f"import summary line: {err!r}")
        valid(out)
        recs = records(out)
        runs = [r for r in recs if r.get("type") == "run"]
        check([r["variant"] for r in runs] == ["before", "after"], "variants in file order")
        check(runs[0]["metrics"]["latency"][0] == 678.892, "first value kept")
        with open(a) as f:
            want = [float(line.split()[0]) for line in f if line.strip() and not line.startswith("#")]
        check(runs[0]["metrics"]["latency"] == want, "all values of a kept in order")
        envs = [r for r in recs if r.get("type") == "environment"]
        check(len(envs) == 1 and envs[0]["tags"] == {"kernel": "6.9.0"}, "--tag recorded")

        rc1, o1, _ = run([g, "ministat", out])
        rc2, o2, _ = run([g, "ministat", a, b])
        check(rc1 == 0 and rc2 == 0, "ministat on results and on columns")
        check(o1.splitlines()[2:] == o2.splitlines()[2:], "ministat: results file == column files")
        check(o1.splitlines()[:2] == ["x before", "+ after"], f"legend from variants: {o1.splitlines()[:2]}")

        rc1, j1, _ = run([g, "summary", "--json", out])
        rc2, j2, _ = run([g, "summary", "--json", a, b])
        s1, s2 = json.loads(j1)["inputs"], json.loads(j2)["inputs"]
        for x, y in zip(s1, s2):
            for k in ("n", "min", "q1", "median", "q3", "max", "mean", "stddev", "exact"):
                check(x[k] == y[k], f"summary {k}: {x[k]} vs {y[k]}")
        check(s1[0]["metric"] == "latency" and s1[0]["unit"] == "us", "summary names metric and unit")

        # Standard input works for results files too.
        with open(out, "rb") as f:
            rc, o3, _ = run([g, "ministat"], stdin=f.read())
        check(rc == 0 and o3.splitlines()[2:] == o2.splitlines()[2:], "results file on stdin")

        # Never replace an existing file without --append; --append continues
        # run indices; the old runs are kept.
        before = open(out, "rb").read()
        rc, _, err = run([g, "import", "--from", "lines", a, "-o", out])
        check(rc == 2 and "already exists" in err, f"refuses to overwrite: {rc} {err}")
        check(open(out, "rb").read() == before, "existing file untouched")
        rc, _, err = run([g, "import", "--from", "lines", a, "--label", "before", "--metric", "latency",
                          "--unit", "us", "--lower-is-better", "--append", "-o", out])
        check(rc == 0, f"--append: {err}")
        runs = [r for r in records(out) if r.get("type") == "run"]
        check([(r["variant"], r["run"]) for r in runs] == [("before", 0), ("after", 0), ("before", 1)],
              f"append continues indices: {[(r['variant'], r['run']) for r in runs]}")
        valid(out)
        # A metric declared differently is refused, and nothing changes.
        before = open(out, "rb").read()
        rc, _, err = run([g, "import", "--from", "lines", a, "--metric", "latency", "--unit", "ms",
                          "--append", "-o", out])
        check(rc == 2 and "unit 'us'" in err, f"unit conflict refused: {err}")
        check(open(out, "rb").read() == before, "file untouched after a refused append")

        # Bad input: exit 2, file:line named, no output and no temporary file.
        bad = os.path.join(d, "bad.txt")
        with open(bad, "w") as f:
            f.write("1\n2\nx3\n")
        out2 = os.path.join(d, "bad.json")
        rc, _, err = run([g, "import", "--from", "lines", bad, "-o", out2])
        check(rc == 2 and f"{bad}:3:" in err, f"bad lines input: {err}")
        check(not os.path.exists(out2), "no output after an error")
        check(glob.glob(os.path.join(d, "*.tmp.*")) == [], "no temporary files left")
        rc, _, err = run([g, "import", "--from", "nosuch", a, "-o", out2])
        check(rc == 2 and "unknown format" in err and "hyperfine" in err, f"unknown format: {err}")

        # show: the facts a reviewer asks for first.
        rc, o, err = run([g, "show", campaign])
        check(rc == 0, f"show: {err}")
        for want in ["2 variants, 2 metrics, 32 runs, 4 boots",
                     "baseline    16    13  1 failed, 2 warm-ups",
                     "patched     16    13  1 crashed, 2 warm-ups",
                     "kernel differs: 6.9.0 (baseline) vs 6.9.0+patch (patched)",
                     "GPU max frequency (MHz) differs: 1100 (baseline) vs 950 (patched)",
                     "5d1c0a2e         8        0"]:
            check(want in o, f"show prints {want!r}:\n{o}")
        check("CPU governor" not in o, "fields that agree are not listed")
        rc, o, _ = run([g, "show", "--json", campaign])
        j = json.loads(o)
        check(rc == 0 and [v["used"] for v in j["variants"]] == [13, 13], "show --json used runs")
        check(j["variants"][0]["exit"]["fail"] == 1 and j["variants"][1]["exit"]["crash"] == 1,
              "show --json exit classes")
        check(len(j["boots"]) == 4 and j["variants"][0]["samples"] == {"latency": 13, "max": 13},
              "show --json boots and samples")

        # show: the load average is context, and a finding only when the
        # candidate ran entirely under a higher one.
        for name, order, loads, finding in (
                ("interleaved", ["a", "b"] * 8, [0.4 + 0.1 * (i % 9) for i in range(16)], False),
                ("loaded", ["a"] * 8 + ["b"] * 8, [0.2 + 0.01 * i if i < 8 else 1.6 + 0.01 * i for i in range(16)],
                 True)):
            path = os.path.join(d, name + ".json")
            recs = [{"format": "gfxstat-results", "version": 1, "id": "ab" * 16, "created": "2026-12-01T00:00:00Z",
                     "generator": "test"},
                    {"type": "metric", "name": "fps", "unit": "fps", "direction": "higher"}]
            index = {"a": 0, "b": 0}
            for i, v in enumerate(order):
                env = "env-%016x" % i
                recs.append({"type": "environment", "id": env, "load_average": "%.2f 1.00 1.00" % loads[i],
                             "kernel_release": "6.9.0"})
                recs.append({"type": "run", "variant": v, "run": index[v], "exit": {"class": "ok", "code": 0},
                             "environment": env, "metrics": {"fps": 60 + i % 3}})
                index[v] += 1
            with open(path, "w") as f:
                f.write("".join(json.dumps(r) + "\n" for r in recs))
            rc, o, err = run([g, "show", path])
            check(rc == 0 and "load_average" not in o and "changes within a variant" not in o,
                  f"show {name}: the load is no difference:\n{o}{err}")
            check("load average (1 min) " in o and " over 16 runs" in o, f"show {name}: the load's range:\n{o}")
            check(("b ran under higher load: load average (1 min) 1.68 to 1.75" in " ".join(o.split())) == finding,
                  f"show {name}: a finding {finding}:\n{o}")
            rc, o, err = run([g, "show", "--json", path])
            j = json.loads(o)
            check(rc == 0 and [c["field"] for c in j["context"]] == ["load_average"]
                  and len(j["context_differences"]) == (1 if finding else 0)
                  and all(e["field"] != "load_average" for e in j["environment"]),
                  f"show --json {name}: context and its differences: {o}")

        # A fleet merged from several machines: runs per machine, machines
        # told apart by their key (two CI images both named "localhost"),
        # and runs whose environment names no machine counted apart.
        fleet = os.path.join(d, "fleet.json")
        with open(fleet, "w") as f:
            f.write('{"format":"gfxstat-results","version":1,"id":"00000000000000000000000000000f1e"}\n')
            f.write('{"type":"metric","name":"fps","unit":"fps","direction":"higher"}\n')
            machines = [("dut-01", "m-00000000000000a1"), ("localhost", "m-00000000000000b2"),
                        ("localhost", "m-00000000000000c3")]
            for i, (host, key) in enumerate(machines):
                f.write(json.dumps({"type": "environment", "id": f"env-{i:016x}", "hostname": host,
                                    "machine": key}) + "\n")
            f.write('{"type":"environment","id":"env-00000000000000ff","kernel_release":"6.9.0"}\n')
            idx = {"base": 0, "mr": 0}
            for i in range(len(machines)):
                for boot in range(2 if i else 3):
                    for variant in ("base", "mr") if i != 1 else ("base",):
                        for _ in range(2):
                            f.write(json.dumps({"type": "run", "variant": variant, "run": idx[variant],
                                                "boot": f"{i}{boot}000000-0000-0000-0000-000000000000",
                                                "environment": f"env-{i:016x}", "exit": {"class": "ok"},
                                                "metrics": {"fps": 100 + i}}) + "\n")
                            idx[variant] += 1
            f.write(json.dumps({"type": "run", "variant": "mr", "run": idx["mr"], "environment": "env-00000000000000ff",
                                "exit": {"class": "ok"}, "metrics": {"fps": 99}}) + "\n")
        valid(fleet)
        rc, o, err = run([g, "show", fleet])
        check(rc == 0, f"show fleet: {err}")
        table = o[o.find("runs per machine"):]
        for want in ["machine                         boots  base  mr",
                     "dut-01                              3     6   6",
                     "localhost (m-00000000000000b2)      2     4   0",
                     "localhost (m-00000000000000c3)      2     4   4",
                     "1 run of unknown machine"]:
            check(want in table, f"show fleet prints {want!r}:\n{o}")
        rc, o, _ = run([g, "show", "--json", fleet])
        j = json.loads(o)
        check(rc == 0 and [(m["name"], m["boots"], m["runs"]) for m in j["machines"]] ==
              [("dut-01", 3, {"base": 6, "mr": 6}), ("localhost", 2, {"base": 4}),
               ("localhost", 2, {"base": 4, "mr": 4})] and j["runs_of_unknown_machine"] == 1,
              f"show --json machines: {j.get('machines')}")
        rc, o, _ = run([g, "show", campaign])
        check("runs per machine" not in o, "one machine: no machines table")

        # ministat/summary on a file with several metrics: --metric required,
        # the error lists them; --variant selects; excluded runs are noted.
        rc, o, err = run([g, "ministat", campaign])
        check(rc == 0 and "== latency (us, lower is better) ==\n" in o and "\n\n== max (us, lower is better) ==\n" in o,
              f"several metrics: a report each: {o} {err}")
        rc, o, err = run([g, "ministat", "--metric", "latency", campaign])
        check(rc == 0 and "x  13" in o and "+  13" in o, f"ministat --metric: {o} {err}")
        check("baseline: 1 failed, 2 warm-ups left out of latency" in err, f"exclusions noted: {err}")
        rc, o, err = run([g, "ministat", "-n", "--metric", "max", "--variant", "patched", campaign])
        check(rc == 0 and o.splitlines()[0] == "x patched" and "+" not in o, f"--variant: {o}")
        rc, _, err = run([g, "ministat", "--metric", "nope", campaign])
        check(rc == 2 and "no metric 'nope'" in err, f"unknown metric: {err}")
        rc, _, err = run([g, "summary", "--metric", "latency", "--variant", "nope", campaign])
        check(rc == 2 and "no variant 'nope'" in err and "'baseline', 'patched'" in err,
              f"unknown variant: {err}")
        # Check the numbers against Python on the same selection.
        sel = [r["metrics"]["latency"] for r in records(campaign)
               if r.get("type") == "run" and r["variant"] == "baseline"
               and r["exit"]["class"] == "ok" and not r.get("warmup")]
        rc, o, _ = run([g, "summary", "--json", "--metric", "latency", "--variant", "baseline", campaign])
        s = json.loads(o)["inputs"][0]
        mean = sum(sel) / len(sel)
        check(s["n"] == len(sel) == 13 and abs(s["mean"] - mean) < 1e-12 and s["runs_excluded"] == 3,
              f"summary of selection: {s}")

        # A torn last record (writer killed mid-append) is reported, ignored,
        # and every earlier run is still read.
        torn = os.path.join(d, "torn.json")
        text = open(campaign).read()
        with open(torn, "w") as f:
            f.write(text + text.splitlines()[-1][:57])
        rc, o, err = run([g, "summary", "--json", "--metric", "latency", torn])
        check(rc == 0 and "incomplete last record" in err and "ignored" in err, f"torn tail: {err}")
        check(json.loads(o)["inputs"][0]["n"] == 13, "torn tail: earlier runs intact")
        # Damage before the last line is an error naming the line.
        lines = text.splitlines(True)
        broken = os.path.join(d, "broken.json")
        with open(broken, "w") as f:
            f.write("".join(lines[:7] + [lines[7][:40] + "\n"] + lines[8:]))
        rc, _, err = run([g, "show", broken])
        check(rc == 2 and f"{broken}:8:" in err and "broken JSON" in err, f"corrupt line: {err}")
        newer = os.path.join(d, "newer.json")
        with open(newer, "w") as f:
            f.write(text.replace('"version":1', '"version":2', 1))
        rc, _, err = run([g, "show", newer])
        check(rc == 2 and "newer gfxstat" in err, f"newer version refused: {err}")

        # merge: provenance kept, identical duplicates kept once, conflicts refused.
        m = os.path.join(d, "m.json")
        rc, _, err = run([g, "merge", campaign, out, "-o", m])
        check(rc == 0 and "35 runs from 2 files" in err, f"merge: {err}")
        rc, _, err = run([g, "merge", campaign, "-o", os.path.join(d, "m1.json")])
        check(rc == 0 and "32 runs from 1 file" in err and "1 files" not in err, f"merge of one file: {err}")
        one, two = os.path.join(d, "one.txt"), os.path.join(d, "two.txt")
        with open(one, "w") as f:
            f.write("1.5\n")
        with open(two, "w") as f:
            f.write("1.5\n2.5\n")
        rc, _, err = run([g, "compare", one, two])
        check(rc == 2 and "has 1 value;" in err and "value(s)" not in err, f"compare counts in words: {err}")
        rc, _, err = run([g, "compare", campaign])
        wide = [line for line in err.splitlines() if len(line) > 72]
        check(rc == 0 and "note:" in err and wide == [], f"compare's notes fit 72 columns ({rc}): {wide or err}")
        valid(m)
        mr = records(m)
        check(len(mr[0]["merged_from"]) == 2 and mr[0]["merged_from"][0]["path"] == campaign,
              "merged_from lists the inputs")
        mruns = [r for r in mr if r.get("type") == "run"]
        check(len(mruns) == 32 + 3, f"merged run count {len(mruns)}")
        check({r["origin"] for r in mruns[:32]} == {"7f3a9c1e5b2d4f6a8c0e1a3b5d7f9e2c"},
              "runs keep the id of their first file as origin")
        rc, o, _ = run([g, "summary", "--json", "--metric", "latency", "--variant", "baseline", m])
        check(json.loads(o)["inputs"][0]["n"] == 13, "merged file selects the same runs")
        m2 = os.path.join(d, "m2.json")
        rc, _, err = run([g, "merge", campaign, campaign, m, "-o", m2])
        check(rc == 0 and "kept once" in err and len([r for r in records(m2) if r.get("type") == "run"]) == 35,
              f"identical duplicates kept once: {err}")
        changed = os.path.join(d, "changed.json")
        with open(changed, "w") as f:
            f.write(text.replace('"run":3,', '"run":3,"warmup":true,', 1))
        rc, _, err = run([g, "merge", campaign, changed, "-o", os.path.join(d, "m3.json")])
        check(rc == 2 and "refusing to merge" in err and changed + ":" in err and campaign + ":" in err,
              f"conflicting duplicate refused: {err}")
        check(not os.path.exists(os.path.join(d, "m3.json")), "no output after a refused merge")
        other = os.path.join(d, "other.json")
        with open(other, "w") as f:
            f.write(text.replace('"unit":"us"', '"unit":"ms"', 1).replace("7f3a9c1e", "00000000", 1))
        rc, _, err = run([g, "merge", campaign, other, "-o", os.path.join(d, "m4.json")])
        check(rc == 2 and "metric 'latency'" in err, f"metric conflict refused: {err}")
        rc, _, err = run([g, "merge", campaign, "-o", m])
        check(rc == 2 and "already exists" in err, f"merge refuses to overwrite: {err}")

        # Every importer's output is a valid results file that show, summary
        # and ministat read.
        fixtures = os.path.join(src, "tests/data/import")
        for fmt, name in [("csv", "runs.csv"), ("gotest", "bench.txt"), ("ezbench", "completed.txt"),
                          ("hyperfine", "scan.json"), ("gbench", "repetitions.json"),
                          ("pts", "composite.xml")]:
            out = os.path.join(d, f"{fmt}.json")
            rc, _, err = run([g, "import", "--from", fmt, os.path.join(fixtures, fmt, name), "-o", out])
            if not check(rc == 0, f"import --from {fmt}: {err}") and not os.path.exists(out):
                continue
            valid(out)
            rc, o, err = run([g, "show", "--json", out])
            check(rc == 0, f"show {fmt}: {err}")
            shown = json.loads(o) if rc == 0 else {"metrics": []}
            metric = shown["metrics"][0]["name"] if shown["metrics"] else ""
            rc, o, err = run([g, "summary", "--json", "--metric", metric, out])
            check(rc == 0 and all(x["n"] > 0 for x in json.loads(o)["inputs"]) if rc == 0 else False,
                  f"summary of imported {fmt}, metric {metric!r}: {err}")

    # Image checks (checking runs, never timed) and a newer gfxstat's record
    # type: show counts the checks and warns once per unknown type; merge
    # keeps the checks (once, with their origin) and leaves the unknown out.
    with tempfile.TemporaryDirectory() as d:
        base = os.path.join(d, "r.json")
        rc, _, err = run([g, "import", "--from", "lines", a, b, "--label", "before", "--label", "after",
                          "--metric", "latency", "--unit", "us", "--lower-is-better", "-o", base])
        check(rc == 0, f"import for image checks: {err}")
        md5 = "83E8C5C65A2413E1D91701FB6B1CA881"
        extra = [{"type": "image_check", "variant": v, "check": 0, "exit": {"class": "ok"}, "tool": "glretrace",
                  "method": "md5", "images": {"0": md5, "1": md5.lower()}} for v in ("before", "after")]
        extra.insert(1, {"type": "shader_stats", "x": 1})
        extra.append({"type": "shader_stats", "x": 2})
        with open(base, "a") as f:
            for rec in extra:
                f.write(json.dumps(rec, separators=(",", ":")) + "\n")
        rc, o, err = run([g, "show", base])
        check(rc == 0, f"show with image checks: rc {rc}: {err}")
        check("image checks: 1 per variant" in o, f"show counts image checks: {o!r}")
        check("did not end ok" not in o, f"show: every check ended ok: {o!r}")
        # Checks that did not end ok are said, as the checking pass says them.
        failing = os.path.join(d, "failing.json")
        shutil.copyfile(base, failing)
        with open(failing, "a") as f:
            f.write(json.dumps({"type": "image_check", "variant": "after", "check": 1,
                                "exit": {"class": "timeout", "reason": "timed out after 3 s"},
                                "tool": "glretrace", "method": "md5", "images": {}}) + "\n")
        rc, o, err = run([g, "show", failing])
        check(rc == 0 and "1 did not end ok: their frames are not counted" in " ".join(o.split()),
              f"show says which checks did not end ok: {o!r} {err}")
        check(err.count('unknown type "shader_stats"') == 1 and "skipped 2 records" in err,
              f"one warning for the unknown type: {err!r}")
        merged = os.path.join(d, "m.json")
        copy = os.path.join(d, "copy.json")
        shutil.copyfile(base, copy)
        rc, _, err = run([g, "merge", "-o", merged, base, copy])
        check(rc == 0, f"merge with image checks: rc {rc}: {err}")
        if rc == 0:
            recs = records(merged)
            checks = [r for r in recs if r.get("type") == "image_check"]
            check(len(checks) == 2 and all(c.get("origin") for c in checks)
                  and all(c["images"]["0"] == md5.lower() for c in checks), f"merged image checks: {checks}")
            check(not any(r.get("type") == "shader_stats" for r in recs), "merge leaves unknown records out")
            valid(merged)
        # A malformed image check is an error naming file and line.
        with open(base, "a") as f:
            f.write('{"type":"image_check","variant":"after","check":1,"exit":{"class":"ok"},'
                    '"tool":"glretrace","method":"md5","images":{"1":"xyz"}}\n')
        rc, _, err = run([g, "show", base])
        check(rc == 2 and "r.json:" in err and "hex digits" in err, f"bad checksum: rc {rc}: {err!r}")

    return finish("results CLI: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
