#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gfxstat store (docs/store.md) through the command line: every fixture
results file and every golden input pushed into a store and got back gives
the same `compare --format json` as the file itself; ls counts what was
pushed; get keeps what a selection names and writes like every results
file (never through a link); check finds a broken count and a value,
line or identity changed behind its back; a newer schema
and a PostgreSQL URL are refused by name (no password shown); 8 processes
pushing at once each find their push stored exactly once, also into a
store none of them had made yet."""

import glob
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402
from testlib import check, finish  # noqa: E402

GOLDEN_MAKERS = ["ab_pair", "same_pair", "throttled", "drifting", "volatile_load", "paired_suite", "failed_runs",
                 "history", "blocked", "fleet", "suite"]


def is_results(path):
    with open(path, "rb") as f:
        return f.read(12).startswith(b'{"format"')


def count_runs(path):
    with open(path) as f:
        return sum(1 for line in f if line.startswith('{"type":"run"') or line.startswith('{"type": "run"'))


def store_cmd(gfx, url, *args):
    return testlib.run([gfx, "store", *args, "--store", url])


def compare_json(gfx, cwd, names):
    p = subprocess.run([gfx, "compare", "--format", "json", *names], cwd=cwd, capture_output=True)
    return p.returncode, p.stdout


def round_trip(gfx, tmp, group, files):
    """Each file through a store of its own and back, under the same name in
    another directory; compare --format json of each file, and of the group's
    files together, must not change."""
    back = os.path.join(tmp, "back", group)
    os.makedirs(back)
    for f in files:
        url = "sqlite:" + os.path.join(tmp, "rt-%s-%s.sqlite" % (group, os.path.basename(f)))
        rc, _, err = store_cmd(gfx, url, "push", f)
        if not check(rc == 0, f"round trip: push {group}/{os.path.basename(f)}: {err}"):
            continue
        rc, _, err = store_cmd(gfx, url, "get", "*", "-o", os.path.join(back, os.path.basename(f)))
        check(rc == 0, f"round trip: get {group}/{os.path.basename(f)}: {err}")
    orig = os.path.dirname(files[0])
    names = [os.path.basename(f) for f in files]
    sets = [[n] for n in names] + ([names] if len(names) > 1 else [])
    compared = 0
    for s in sets:
        a = compare_json(gfx, orig, s)
        b = compare_json(gfx, back, s)
        check(a == b, f"round trip {group} {s}: compare differs: exit {a[0]} vs {b[0]}\n{a[1][:300]!r}\n{b[1][:300]!r}")
        compared += a[0] in (0, 1, 3)
    return compared


def main():
    gfx, source = testlib.paths()
    tmp = tempfile.mkdtemp(prefix="gfxstat_store_cli.")
    os.environ.pop("GFXSTAT_STORE", None)
    try:
        # The round trip over every fixture results file, and the golden inputs.
        fixtures = sorted(f for f in glob.glob(os.path.join(source, "tests/data/results/*.json")) if is_results(f))
        check(len(fixtures) >= 8, f"fixtures found: {fixtures}")
        compared = round_trip(gfx, tmp, "fixtures", fixtures)
        sys.path.insert(0, os.path.join(source, "tests", "golden"))
        import inputs  # noqa: E402
        groups = 0
        for maker in GOLDEN_MAKERS:
            d = os.path.join(tmp, "golden", maker)
            os.makedirs(d)
            getattr(inputs, maker)(d)
            made = sorted(f for f in glob.glob(os.path.join(d, "*.json")) if is_results(f))
            if made:
                groups += 1
                compared += round_trip(gfx, tmp, maker, made)
        check(groups >= 8, f"golden inputs made: {groups} groups")
        check(compared >= 20, f"round trip: only {compared} comparisons gave a verdict")

        # One store of the fixtures (the first of each file id: some
        # fixtures were made from one another and share runs): ls counts them.
        ids, distinct = set(), []
        for f in fixtures:
            with open(f) as fh:
                ident = json.loads(fh.readline())["id"]
            if ident not in ids:
                ids.add(ident)
                distinct.append(f)
        fixtures = distinct
        url = "sqlite:" + os.path.join(tmp, "all.sqlite")
        rc, _, err = store_cmd(gfx, url, "init")
        check(rc == 0 and "schema v1" in err, f"init: {rc} {err}")
        rc, _, err = store_cmd(gfx, url, "push", *fixtures)
        check(rc == 0, f"push fixtures: {rc} {err}")
        runs = sum(count_runs(f) for f in fixtures)
        rc, out, err = store_cmd(gfx, url, "ls", "--width", "60")
        check(rc == 0 and f"{len(fixtures)} files, {runs} runs" in out, f"ls: {runs} runs expected: {out} {err}")
        check(all(len(line) <= 60 for line in out.splitlines() if line.startswith("  ")), f"ls --width 60: {out}")
        check("~" in out, f"ls --width 60 cuts a long metric name: {out}")
        check("\nmachines (" in out and "bdw-nuc" in out, f"ls names the machines: {out}")
        rc, _, err = store_cmd(gfx, url, "push", fixtures[0])
        check(rc == 0 and "0 runs stored" in err and "already there" in err, f"re-push is a no-op: {err}")
        rc, out2, _ = store_cmd(gfx, url, "ls", "--width", "60")
        check(out2 == out, "ls unchanged by a re-push")

        # get with a selection.
        sel = os.path.join(tmp, "sel.json")
        rc, _, err = store_cmd(gfx, url, "get", "variant:baseline", "-o", sel)
        check(rc == 0, f"get variant:baseline: {err}")
        if rc == 0:
            with open(sel) as f:
                recs = [json.loads(line) for line in f]
            got = [r for r in recs if r.get("type") == "run"]
            check(got and all(r["variant"] == "baseline" for r in got), "get: only baseline runs")
            expect = sum(1 for fx in fixtures for line in open(fx) if '"type":"run"' in line.replace(" ", "")
                         and json.loads(line)["variant"] == "baseline")
            check(len(got) == expect, f"get: {len(got)} baseline runs, {expect} stored")
            rc, _, err = testlib.run([gfx, "show", sel])
            check(rc == 0, f"show reads what get wrote: {err}")
        rc, _, err = store_cmd(gfx, url, "get", "variant:baseline", "-o", sel)
        check(rc == 2 and "exists" in err, f"get refuses an existing output: {rc} {err}")
        target = os.path.join(tmp, "target.txt")
        testlib.write(tmp, "target.txt", "keep\n")
        link = os.path.join(tmp, "link.json")
        os.symlink(target, link)
        rc, _, err = store_cmd(gfx, url, "get", "*", "-o", link, "--replace")
        check(rc == 2 and open(target).read() == "keep\n", f"get never writes through a link: {rc} {err}")
        rc, _, err = store_cmd(gfx, url, "get", "variant:(", "-o", os.path.join(tmp, "bad.json"))
        check(rc == 2 and "column" in err, f"a bad selection names the column: {err}")

        # check: sound, then a sample removed behind the store's back.
        rc, out, err = store_cmd(gfx, url, "check")
        check(rc == 0 and "sound" in out, f"check: {rc} {out} {err}")
        # A value changed behind the store's back, in a sample row or in a
        # run's line, with the counts unchanged: check names the record.
        for what, sql in [("a sample's text", "UPDATE samples SET text = '1e+300' WHERE "
                           "(record, metric, position) = (SELECT record, metric, position FROM samples LIMIT 1)"),
                          ("a sample's number", "UPDATE samples SET value = value + 1 WHERE "
                           "(record, metric, position) = (SELECT record, metric, position FROM samples LIMIT 1)"),
                          ("a run's variant column", "UPDATE records SET variant = 'forged' WHERE id = "
                           "(SELECT min(id) FROM records WHERE kind = 'run')")]:
            tampered = os.path.join(tmp, "tampered.sqlite")
            shutil.copy(url[len("sqlite:"):], tampered)
            db = sqlite3.connect(tampered)
            check(db.execute(sql).rowcount == 1, f"tamper with {what}")
            db.commit()
            db.close()
            rc, out, err = store_cmd(gfx, "sqlite:" + tampered, "check")
            check(rc == 1 and "record " in out and "problem" in out, f"check finds {what} changed: {rc} {out} {err}")
            os.remove(tampered)
        db = sqlite3.connect(url[len("sqlite:"):])
        row = db.execute("SELECT r.id, r.line FROM records r JOIN samples s ON s.record = r.id "
                         "WHERE r.kind = 'run' ORDER BY r.id LIMIT 1").fetchone()
        db.close()
        rec = json.loads(row[1])
        name = next(iter(rec["metrics"]))
        val = rec["metrics"][name]
        rec["metrics"][name] = [v * 2 + 1 for v in val] if isinstance(val, list) else val * 2 + 1
        tampered = os.path.join(tmp, "tampered.sqlite")
        shutil.copy(url[len("sqlite:"):], tampered)
        db = sqlite3.connect(tampered)
        db.execute("UPDATE records SET line = ? WHERE id = ?", (json.dumps(rec, separators=(",", ":")), row[0]))
        db.commit()
        db.close()
        rc, out, err = store_cmd(gfx, "sqlite:" + tampered, "check")
        check(rc == 1 and f"record {row[0]} " in out and "in the run's line" in out,
              f"check finds a run's line changed: {rc} {out} {err}")
        os.remove(tampered)
        db = sqlite3.connect(url[len("sqlite:"):])
        db.execute("DELETE FROM samples WHERE record = (SELECT min(record) FROM samples)")
        db.commit()
        db.close()
        rc, out, err = store_cmd(gfx, url, "check")
        check(rc == 1 and "samples" in out and "problem" in out, f"check finds a missing sample: {rc} {out} {err}")

        # upgrade of a v1 store; a newer schema refused by name.
        rc, _, err = store_cmd(gfx, url, "upgrade")
        check(rc == 0 and "already schema v1, nothing to do" in err, f"upgrade v1: {err}")
        newer = os.path.join(tmp, "newer.sqlite")
        shutil.copy(url[len("sqlite:"):], newer)
        db = sqlite3.connect(newer)
        db.execute("UPDATE schema_version SET version = 3")
        db.commit()
        db.close()
        rc, _, err = store_cmd(gfx, "sqlite:" + newer, "ls")
        check(rc == 2 and "this store is schema v3; this gfxstat reads up to v1: upgrade gfxstat" in err,
              f"newer schema: {rc} {err}")

        # A database of something else is refused, and left as it was.
        foreign = os.path.join(tmp, "foreign.sqlite")
        db = sqlite3.connect(foreign)
        db.execute("CREATE TABLE notes (text TEXT)")
        db.commit()
        db.close()
        for sub in (["init"], ["push", fixtures[0]], ["upgrade"]):
            rc, _, err = store_cmd(gfx, "sqlite:" + foreign, *sub)
            check(rc == 2 and "not a gfxstat store" in err, f"{sub[0]} into a foreign database: {rc} {err}")
        db = sqlite3.connect(foreign)
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        db.close()
        check(tables == ["notes"], f"a foreign database untouched: {tables}")

        # PostgreSQL: recognised, refused, its password never shown.
        rc, out, err = store_cmd(gfx, "postgresql://ci:s3cr3t@db.example.org/gfx", "ls")
        check(rc == 2 and "PostgreSQL stores come in a later gfxstat" in err and "s3cr3t" not in out + err,
              f"postgresql: {rc} {err}")
        rc, _, err = store_cmd(gfx, "sqlite:" + os.path.join(tmp, "missing.sqlite"), "ls")
        check(rc == 2 and "store init" in err, f"a missing store: {err}")

        # GFXSTAT_STORE names the store when --store does not.
        env = dict(os.environ, GFXSTAT_STORE=url)
        p = subprocess.run([gfx, "store", "ls"], env=env, capture_output=True, text=True)
        check(p.returncode == 0 and "files" in p.stdout, f"GFXSTAT_STORE: {p.stderr}")

        # A conflicting push: the same file id and run, another value.
        with open(fixtures[0]) as f:
            lines = f.read().splitlines()
        changed = []
        done = False
        for line in lines:
            r = json.loads(line)
            if not done and r.get("type") == "run" and r.get("metrics"):
                k = next(iter(r["metrics"]))
                r["metrics"][k] = 12345.5
                done = True
            changed.append(json.dumps(r))
        conflicting = testlib.write(tmp, "conflict.json", "\n".join(changed) + "\n")
        before = store_cmd(gfx, url, "ls")[1]
        rc, _, err = store_cmd(gfx, url, "push", conflicting)
        check(rc == 2 and "conflict.json" in err and os.path.basename(fixtures[0]) in err,
              f"a conflicting push names both: {rc} {err}")
        check(store_cmd(gfx, url, "ls")[1] == before, "a refused push writes nothing")

        # Concurrency: 8 processes push 8 files into one store at once.
        conc = "sqlite:" + os.path.join(tmp, "conc.sqlite")
        files = []
        for w in range(8):
            recs = [{"format": "gfxstat-results", "version": 1, "id": "%032x" % (0xc0c0 + w),
                     "created": "2026-12-01T00:00:00Z", "generator": "store_cli_test"},
                    {"type": "metric", "name": "fps", "unit": "fps", "direction": "higher"}]
            for i in range(300):
                recs.append({"type": "run", "variant": f"w{w}", "run": i, "boot": "b", "exit": {"class": "ok"},
                             "metrics": {"fps": 60 + (i % 7) * 0.25}})
            files.append(testlib.write(tmp, f"w{w}.json", "".join(json.dumps(r) + "\n" for r in recs)))
        procs = [subprocess.Popen([gfx, "store", "push", f, "--store", conc], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE) for f in files]
        acked = []
        for w, p in enumerate(procs):
            _, err = p.communicate()
            if check(p.returncode == 0, f"concurrent push w{w}: {err.decode()}"):
                acked.append(w)
        db = sqlite3.connect(conc[len("sqlite:"):])
        counts = dict(db.execute("SELECT variant, count(*) FROM records WHERE kind = 'run' GROUP BY variant"))
        db.close()
        check(len(acked) == 8 and all(counts.get(f"w{w}") == 300 for w in acked),
              f"every acknowledged push present exactly once: {counts}")
        rc, out, _ = store_cmd(gfx, conc, "check")
        check(rc == 0, f"check after concurrent pushes: {out}")

        # 8 jobs making the same new store at once, again and again: none is
        # refused ("database is locked" from the switch to WAL, or "not a
        # gfxstat store" from a store another job had just made).
        refused = []
        for round_ in range(12):
            fresh = "sqlite:" + os.path.join(tmp, f"fresh{round_}.sqlite")
            procs = [subprocess.Popen([gfx, "store", "push", f, "--store", fresh], stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE) for f in files]
            for p in procs:
                _, err = p.communicate()
                if p.returncode != 0:
                    refused.append(err.decode().strip())
        check(not refused, f"8 jobs making one new store at once, 12 rounds: refused {refused[:3]}")

        # Help and unknown subcommands.
        rc, out, _ = testlib.run([gfx, "store", "--help"])
        check(rc == 0 and "gfxstat store push FILE..." in out, f"store --help: {out}")
        rc, _, err = testlib.run([gfx, "store", "pusj"])
        check(rc == 2 and "push" in err, f"unknown subcommand: {err}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return finish("store_cli: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
