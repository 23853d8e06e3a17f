#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gfxstat store (docs/store.md) through the command line, the whole body
once per backend (--backend sqlite: files in a temporary directory;
--backend postgresql: databases on a server of the test's own,
tests/store/pg_server.py, or exit 77 saying why there is none): every
fixture results file and every golden input pushed into a store and got
back gives the same `compare --format json` as the file itself; ls counts
what was pushed; get keeps what a selection names and writes like every
results file (never through a link); check finds a broken count and a
value, line or identity changed behind its back (through sqlite3 or psql);
a newer schema and a database of something else are refused by name; 8
processes pushing at once each find their push stored exactly once, also
into a store none of them had made yet; a push killed midway leaves the
store as it was. PostgreSQL: a password given in the URL (a wrong one) is
never shown, and PGPASSFILE gives the right one."""

import glob
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "store"))
import pg_server  # noqa: E402
import testlib  # noqa: E402
from testlib import check, finish  # noqa: E402


class SqliteBackend:
    """Stores as SQLite files in the test's directory."""
    name = "sqlite"

    def __init__(self, tmp):
        self.tmp = tmp

    def new(self, label):
        return "sqlite:" + os.path.join(self.tmp, label + ".sqlite")

    def missing(self):
        return self.new("missing")

    def copy(self, url, label):
        dest = self.new(label)
        shutil.copy(url[len("sqlite:"):], dest[len("sqlite:"):])
        return dest

    def remove(self, url):
        os.remove(url[len("sqlite:"):])

    def query(self, url, sql):
        db = sqlite3.connect(url[len("sqlite:"):])
        rows = [tuple(str(v) for v in r) for r in db.execute(sql)]
        db.close()
        return rows

    def execute(self, url, sql, **texts):
        """Runs one statement, the texts bound by name ({name} in `sql`);
        returns the rows it changed."""
        db = sqlite3.connect(url[len("sqlite:"):])
        n = db.execute(sql.format(**{k: ":" + k for k in texts}), texts).rowcount
        db.commit()
        db.close()
        return n

    def tables(self, url):
        return [r[0] for r in self.query(url, "SELECT name FROM sqlite_master WHERE type = 'table'")]


class PostgresBackend:
    """Stores as databases of a server the test starts in its directory."""
    name = "postgresql"

    def __init__(self, tmp):
        # Beside the test's directory, not in it (mkdtemp's 0700 would keep
        # the server's user out).
        self.dir = tempfile.mkdtemp(prefix="gfxstat_store_cli_pg.")
        self.count = 0
        self.pool = []
        try:
            self.server = pg_server.start(self.dir)  # raises pg_server.Unavailable
        except BaseException:
            self.close()
            raise

    def new(self, label):
        # Empty databases made ten at a time (one psql for them all).
        if not self.pool:
            names = ["s%d" % (self.count + i) for i in range(1, 11)]
            self.count += len(names)
            args = ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", self.server]
            for n in names:
                args += ["-c", f"CREATE DATABASE {n}"]
            subprocess.run(args, check=True, capture_output=True)
            self.pool = names
        return pg_server.database_url(self.server, self.pool.pop(0))

    def missing(self):
        return self.new("empty")  # a database must exist: an empty one is no store yet

    def database(self, url):
        return url.split("?")[0].rsplit("/", 1)[1]

    def copy(self, url, label):
        self.count += 1
        name = "s%d_%s" % (self.count, label)
        pg_server.psql(self.server, f"CREATE DATABASE {name} TEMPLATE {self.database(url)}")
        return pg_server.database_url(self.server, name)

    def remove(self, url):
        pg_server.psql(self.server, f"DROP DATABASE {self.database(url)} WITH (FORCE)")

    def query(self, url, sql):
        return [tuple(r) for r in pg_server.psql(url, sql)]

    def execute(self, url, sql, **texts):
        args = ["psql", "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url, "-f", "-"]
        for k, v in texts.items():
            args[1:1] = ["-v", f"{k}={v}"]
        p = subprocess.run(args, input=sql.format(**{k: ":'%s'" % k for k in texts}) + ";\n",
                           capture_output=True, text=True)
        m = re.search(r"^(?:UPDATE|DELETE|INSERT \d+) (\d+)$", p.stdout, re.M)
        if p.returncode != 0:
            raise RuntimeError(f"psql: {p.stderr}")
        return int(m.group(1)) if m else 0

    def tables(self, url):
        return [r[0] for r in self.query(url, "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")]

    def close(self):
        pg_server.stop(self.dir)
        shutil.rmtree(self.dir, ignore_errors=True)

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


def round_trip(gfx, backend, tmp, group, files):
    """Each file through a store of its own and back, under the same name in
    another directory; compare --format json of each file, and of the group's
    files together, must not change."""
    back = os.path.join(tmp, "back", group)
    os.makedirs(back)
    for f in files:
        url = backend.new("rt-%s-%s" % (group, os.path.basename(f)))
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
    kind = "sqlite"
    if "--backend" in sys.argv:
        at = sys.argv.index("--backend")
        kind = sys.argv[at + 1]
        del sys.argv[at:at + 2]
    gfx, source = testlib.paths()
    tmp = tempfile.mkdtemp(prefix="gfxstat_store_cli.")
    os.environ.pop("GFXSTAT_STORE", None)
    backend = None
    try:
        if kind == "postgresql":
            try:
                backend = PostgresBackend(tmp)
            except pg_server.Unavailable as e:
                print(f"SKIP: {e}")
                return 77
        else:
            backend = SqliteBackend(tmp)
        # The round trip over every fixture results file, and the golden inputs.
        fixtures = sorted(f for f in glob.glob(os.path.join(source, "tests/data/results/*.json")) if is_results(f))
        check(len(fixtures) >= 8, f"fixtures found: {fixtures}")
        compared = round_trip(gfx, backend, tmp, "fixtures", fixtures)
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
                compared += round_trip(gfx, backend, tmp, maker, made)
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
        url = backend.new("all")
        rc, _, err = store_cmd(gfx, url, "init")
        check(rc == 0 and "schema v2" in err, f"init: {rc} {err}")
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
            tampered = backend.copy(url, "tampered")
            check(backend.execute(tampered, sql) == 1, f"tamper with {what}")
            rc, out, err = store_cmd(gfx, tampered, "check")
            check(rc == 1 and "record " in out and "problem" in out, f"check finds {what} changed: {rc} {out} {err}")
            backend.remove(tampered)
        row = backend.query(url, "SELECT r.id, r.line FROM records r JOIN samples s ON s.record = r.id "
                                 "WHERE r.kind = 'run' ORDER BY r.id LIMIT 1")[0]
        rec = json.loads(row[1])
        name = next(iter(rec["metrics"]))
        val = rec["metrics"][name]
        rec["metrics"][name] = [v * 2 + 1 for v in val] if isinstance(val, list) else val * 2 + 1
        tampered = backend.copy(url, "tampered")
        check(backend.execute(tampered, "UPDATE records SET line = {line} WHERE id = %d" % int(row[0]),
                              line=json.dumps(rec, separators=(",", ":"))) == 1, "tamper with a run's line")
        rc, out, err = store_cmd(gfx, tampered, "check")
        check(rc == 1 and f"record {row[0]} " in out and "in the run's line" in out,
              f"check finds a run's line changed: {rc} {out} {err}")
        backend.remove(tampered)
        check(backend.execute(url, "DELETE FROM samples WHERE record = (SELECT min(record) FROM samples)") >= 1,
              "tamper: delete a run's samples")
        rc, out, err = store_cmd(gfx, url, "check")
        check(rc == 1 and "samples" in out and "problem" in out, f"check finds a missing sample: {rc} {out} {err}")

        # upgrade of a v1 store; a newer schema refused by name.
        rc, _, err = store_cmd(gfx, url, "upgrade")
        check(rc == 0 and "already schema v2, nothing to do" in err, f"upgrade v1: {err}")
        # A v1 store (made as v1 made it: v2's columns dropped) is refused
        # with the upgrade's name, then upgraded: its runs' skeletons filled
        # from their lines, get and compare --format json unchanged.
        v1 = backend.new("v1")
        for f in fixtures:
            store_cmd(gfx, v1, "push", f)
        os.makedirs(os.path.join(tmp, "v1-before"))
        os.makedirs(os.path.join(tmp, "v1-after"))
        rc, _, err = store_cmd(gfx, v1, "get", "*", "-o", os.path.join(tmp, "v1-before", "all.json"))
        check(rc == 0, f"get before the downgrade: {err}")
        for sql in ("ALTER TABLE records DROP COLUMN skeleton", "ALTER TABLE run_metrics DROP COLUMN scalar",
                    "UPDATE schema_version SET version = 1"):
            backend.execute(v1, sql)
        rc, _, err = store_cmd(gfx, v1, "ls")
        check(rc == 2 and "this store is schema v1; this gfxstat uses v2: run gfxstat store upgrade" in err,
              f"a v1 store asks for the upgrade: {rc} {err}")
        rc, _, err = store_cmd(gfx, v1, "upgrade")
        check(rc == 0 and "v2: added each run's skeleton" in err, f"upgrade from v1: {rc} {err}")
        skeletons = backend.query(v1, "SELECT count(*) FROM records WHERE kind = 'run' AND skeleton IS NULL")
        check(int(skeletons[0][0]) == 0, f"every run has its skeleton after the upgrade: {skeletons}")
        rc, out, err = store_cmd(gfx, v1, "check")
        check(rc == 0, f"check after the upgrade: {rc} {out} {err}")
        rc, _, err = store_cmd(gfx, v1, "get", "*", "-o", os.path.join(tmp, "v1-after", "all.json"))
        check(rc == 0, f"get after the upgrade: {err}")
        with open(os.path.join(tmp, "v1-before", "all.json")) as a, open(os.path.join(tmp, "v1-after", "all.json")) as b:
            # (several files merge under a new header: its id and time are new)
            check(a.read().split("\n", 1)[1] == b.read().split("\n", 1)[1],
                  "get '*' is the same before and after the upgrade")
        a = compare_json(gfx, os.path.join(tmp, "v1-before"), ["all.json"])
        b = compare_json(gfx, os.path.join(tmp, "v1-after"), ["all.json"])
        check(a == b and a[0] in (0, 1, 3), f"compare --format json the same after the upgrade: {a[0]} {b[0]}")
        backend.execute(v1, "UPDATE records SET skeleton = NULL WHERE id = (SELECT min(id) FROM records WHERE kind = 'run')")
        rc, out, _ = store_cmd(gfx, v1, "check")
        check(rc == 1 and "skeleton" in out, f"check finds a skeleton that differs from its line: {rc} {out}")
        newer = backend.copy(url, "newer")
        backend.execute(newer, "UPDATE schema_version SET version = 3")
        rc, _, err = store_cmd(gfx, newer, "ls")
        check(rc == 2 and "this store is schema v3; this gfxstat reads up to v2: upgrade gfxstat" in err,
              f"newer schema: {rc} {err}")

        # A database of something else is refused, and left as it was.
        foreign = backend.new("foreign")
        backend.execute(foreign, "CREATE TABLE notes (text TEXT)")
        for sub in (["init"], ["push", fixtures[0]], ["upgrade"]):
            rc, _, err = store_cmd(gfx, foreign, *sub)
            check(rc == 2 and "not a gfxstat store" in err, f"{sub[0]} into a foreign database: {rc} {err}")
        tables = backend.tables(foreign)
        check(tables == ["notes"], f"a foreign database untouched: {tables}")

        rc, _, err = store_cmd(gfx, backend.missing(), "ls")
        check(rc == 2 and "store init" in err, f"a missing store: {err}")
        if backend.name == "postgresql":
            # A password in the URL (a wrong one) is never shown, whatever
            # the server answers; the right one comes from PGPASSFILE.
            for sub in (["init"], ["ls"], ["push", fixtures[0]], ["get", "*", "-o", "-"], ["check"], ["upgrade"]):
                wrong = pg_server.password_url(backend.dir, "hunter2")
                rc, out, err = store_cmd(gfx, wrong, *sub)
                check(rc == 2 and "PostgreSQL store: cannot connect" in err and "password authentication failed" in err
                      and "hunter2" not in out + err, f"{sub[0]} with a wrong password: {rc} {out} {err}")
            passfile = testlib.write(tmp, "pgpass", f"*:*:*:{pg_server.PASSWORD_USER}:{pg_server.PASSWORD}\n")
            os.chmod(passfile, 0o600)
            right = pg_server.password_url(backend.dir)
            p = subprocess.run([gfx, "store", "init", "--store", right], capture_output=True, text=True,
                               env=dict(os.environ, PGPASSFILE=passfile))
            check(p.returncode == 0 and "PostgreSQL store: schema v2, ready" in p.stderr
                  and pg_server.PASSWORD not in p.stdout + p.stderr, f"PGPASSFILE: {p.returncode} {p.stderr}")
            p = subprocess.run([gfx, "store", "ls", "--store", right], capture_output=True, text=True,
                               env=dict(os.environ, PGPASSFILE=os.path.join(tmp, "no-such-pgpass")))
            check(p.returncode == 2 and "PostgreSQL store: cannot connect" in p.stderr,
                  f"no password: refused: {p.returncode} {p.stderr}")

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
        conc = backend.new("conc")
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
        counts = {v: int(n) for v, n in backend.query(conc, "SELECT variant, count(*) FROM records "
                                                            "WHERE kind = 'run' GROUP BY variant")}
        check(len(acked) == 8 and all(counts.get(f"w{w}") == 300 for w in acked),
              f"every acknowledged push present exactly once: {counts}")
        rc, out, _ = store_cmd(gfx, conc, "check")
        check(rc == 0, f"check after concurrent pushes: {out}")

        # 8 jobs making the same new store at once, again and again: none is
        # refused ("database is locked" from the switch to WAL, or "not a
        # gfxstat store" from a store another job had just made).
        # (PostgreSQL makes a schema under a lock of its own, without
        # SQLite's race: fewer rounds there.)
        refused = []
        for round_ in range(12 if backend.name == "sqlite" else 4):
            fresh = backend.new(f"fresh{round_}")
            procs = [subprocess.Popen([gfx, "store", "push", f, "--store", fresh], stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE) for f in files]
            for p in procs:
                _, err = p.communicate()
                if p.returncode != 0:
                    refused.append(err.decode().strip())
        check(not refused, f"8 jobs making one new store at once, 12 rounds: refused {refused[:3]}")

        # A push killed midway (SIGKILL, at a moment the test does not
        # choose) leaves the store as it was, or holds the whole push had it
        # committed first: never a part of it. (Fewer runs on PostgreSQL,
        # whose push takes longer: still killed midway.)
        big_runs = 20000 if backend.name == "sqlite" else 8000
        recs = [{"format": "gfxstat-results", "version": 1, "id": "%032x" % 0xdead,
                 "created": "2026-12-01T00:00:00Z", "generator": "store_cli_test"},
                {"type": "metric", "name": "fps", "unit": "fps", "direction": "higher"}]
        recs += [{"type": "run", "variant": "big", "run": i, "boot": "b", "exit": {"class": "ok"},
                  "metrics": {"fps": [60 + (i % 7) * 0.25, 61.5]}} for i in range(big_runs)]
        big = testlib.write(tmp, "big.json", "".join(json.dumps(r) + "\n" for r in recs))
        killed_store = backend.new("killed")
        store_cmd(gfx, killed_store, "push", files[0])
        killed = 0
        for delay in (0.15, 0.3, 0.6):
            p = subprocess.Popen([gfx, "store", "push", big, "--store", killed_store], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE)
            time.sleep(delay)
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)
                killed += 1
            p.communicate()
            stored = {v: int(n) for v, n in backend.query(killed_store, "SELECT variant, count(*) FROM records "
                                                                        "WHERE kind = 'run' GROUP BY variant")}
            check(stored.get("w0") == 300 and stored.get("big", 0) in (0, big_runs),
                  f"a push killed after {delay} s: all of it or nothing: {stored}")
        check(killed >= 1, "a push was killed midway")
        rc, out, _ = store_cmd(gfx, killed_store, "check")
        check(rc == 0, f"check after a killed push: {out}")
        rc, _, err = store_cmd(gfx, killed_store, "push", big)
        check(rc == 0, f"the killed push, again: {err}")
        stored = dict(backend.query(killed_store, "SELECT variant, count(*) FROM records WHERE kind = 'run' "
                                                  "GROUP BY variant"))
        check(stored.get("big") == str(big_runs), f"the push whole once not killed: {stored}")

        # Help and unknown subcommands.
        rc, out, _ = testlib.run([gfx, "store", "--help"])
        check(rc == 0 and "gfxstat store push FILE..." in out, f"store --help: {out}")
        rc, _, err = testlib.run([gfx, "store", "pusj"])
        check(rc == 2 and "push" in err, f"unknown subcommand: {err}")
    finally:
        if isinstance(backend, PostgresBackend):
            backend.close()
        shutil.rmtree(tmp, ignore_errors=True)
    return finish(f"store_cli ({kind}): all checks passed")


if __name__ == "__main__":
    sys.exit(main())
