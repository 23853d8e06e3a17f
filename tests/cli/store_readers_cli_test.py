#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Readers take a store selection (docs/store.md): compare, history,
bisect check, report, summary, show, ministat and ab (its baseline) read
`store:SELECTION` and print what they print for the equivalent results
file (`store get SELECTION`); history over stored nightlies equals history
over the nightlies' files; last:N picks the builds by first start and in
git's order; machine: is the hostname; the issue's
`compare --store URL --baseline 'branch:main machine:dut-3 last:10'
mr.json --gate` gates; bad selections exit 2 naming the selection."""

import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import check, finish, paths  # noqa: E402

GFX, SRC = paths()
PY = sys.executable


def run(args, cwd=None, env=None):
    p = subprocess.run(args, capture_output=True, cwd=cwd, env=env)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def results_file(path, fid, variant, host, tags, day, mean, runs=6, seed=0, failed=False):
    """A nightly: `runs` runs of metric fps (higher) and ms (lower), the
    hostname `host`, the tags, runs started on November `day`."""
    rnd = random.Random(seed)
    lines = [{"format": "gfxstat-results", "version": 1, "id": fid, "created": "2026-12-01T00:00:00Z",
              "generator": "store_readers_cli_test"},
             {"type": "metric", "name": "fps", "unit": "fps", "direction": "higher"},
             {"type": "metric", "name": "ms", "unit": "ms", "direction": "lower"},
             {"type": "environment", "id": "env-%016x" % (seed + 1), "hostname": host, "kernel_release": "6.12",
              "tags": tags}]
    for r in range(runs):
        run_ = {"type": "run", "variant": variant, "run": r, "boot": "b%d-%d" % (seed, r // 3),
                "start": "2026-11-%02dT%02d:00:00Z" % (day, r), "environment": "env-%016x" % (seed + 1)}
        if failed and r == runs - 1:
            run_["exit"] = {"class": "fail", "code": 1}
            run_["metrics"] = {}
        else:
            run_["exit"] = {"class": "ok", "code": 0}
            run_["metrics"] = {"fps": round(mean + rnd.gauss(0, 0.3), 3), "ms": round(1000 / mean + rnd.gauss(0, 0.01), 4)}
        lines.append(run_)
    with open(path, "w") as f:
        for line in lines:
            f.write(json.dumps(line, separators=(",", ":")) + "\n")
    return path


TIME = re.compile(r"\d{4}-\d\d-\d\dT[0-9:.]+Z")
ID = re.compile(r"\b[0-9a-f]{32}\b")


def normal(text, names, side):
    """`text` with each input's name (side 0: the store argument, 1: the
    file) made one, the times a merge stamps its header with made one, and
    the ids of files (a merge's header has a new one) made one, and blanks
    made one (a name's length moves where lines wrap)."""
    for pair in names:
        text = text.replace(pair[side], "INPUT")
    return " ".join(ID.sub("ID", TIME.sub("TIME", text)).split())


def same(what, a, b, names=()):
    """Two (rc, stdout, stderr): equal exit status and stdout, the names
    of the inputs aside."""
    out_a, out_b = normal(a[1], names, 0), normal(b[1], names, 1)
    ok = a[0] == b[0] and out_a == out_b
    return check(ok, f"{what}: the store selection reads as the file does: exit {a[0]} vs {b[0]}\n"
                     f"--- store ({a[2][-300:]}):\n{out_a[:800]}\n--- file ({b[2][-300:]}):\n{out_b[:800]}")


def git_repo(d, n):
    """A repository of n commits; their full ids, oldest first."""
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@x", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@x", GIT_AUTHOR_DATE="2026-01-01T00:00:00Z",
               GIT_COMMITTER_DATE="2026-01-01T00:00:00Z")
    os.makedirs(d)
    subprocess.run(["git", "init", "-q", d], check=True, env=env)
    shas = []
    for i in range(n):
        with open(os.path.join(d, "f"), "w") as f:
            f.write(str(i))
        subprocess.run(["git", "-C", d, "add", "f"], check=True, env=env)
        subprocess.run(["git", "-C", d, "commit", "-q", "-m", "c%d" % i], check=True, env=env)
        shas.append(subprocess.run(["git", "-C", d, "rev-parse", "HEAD"], check=True, env=env,
                                   capture_output=True, text=True).stdout.strip())
    return shas


def builds_in(path):
    """The commit tags of a results file's runs."""
    envs, builds = {}, set()
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            if r.get("type") == "environment":
                envs[r["id"]] = r.get("tags", {})
            elif r.get("type") == "run":
                builds.add(envs.get(r.get("environment"), {}).get("commit", r["variant"]))
    return builds


def main():
    tmp = tempfile.mkdtemp(prefix="gfxstat_store_readers.")
    os.environ.pop("GFXSTAT_STORE", None)
    os.environ["XDG_DATA_HOME"] = os.path.join(tmp, "xdg")
    try:
        url = "sqlite:" + os.path.join(tmp, "results.sqlite")
        shas = git_repo(os.path.join(tmp, "repo"), 10)
        # Main's nightlies on dut-3 and dut-4; builds pushed in git order,
        # but build 2 started after all others (start order != git order).
        days = [1, 2, 20, 4, 5, 6, 7, 8, 9, 10]
        nightly = {"dut-3": [], "dut-4": []}
        seed = 0
        for b, sha in enumerate(shas):
            for host in ("dut-3", "dut-4"):
                seed += 1
                mean = 100 if b < 5 or host == "dut-3" else 95  # dut-4: a 5% drop at build 5
                nightly[host].append(results_file(
                    os.path.join(tmp, "n-%s-%d.json" % (host, b)), "%032x" % seed, "main", host,
                    {"commit": sha, "branch": "main"}, days[b], mean, seed=seed, failed=(b == 4)))
        for host in ("dut-3", "dut-4"):
            rc, _, err = run([GFX, "store", "push", "--store", url, *nightly[host]])
            check(rc == 0, f"push {host}'s nightlies: {err}")
        # A merge request: as main (mr.json), and 10% slower (slow.json).
        mr = results_file(os.path.join(tmp, "mr.json"), "%032x" % 900, "mr", "dut-3",
                          {"commit": "f" * 40}, 21, 100, runs=10, seed=900)
        slow = results_file(os.path.join(tmp, "slow.json"), "%032x" % 901, "mr", "dut-3",
                            {"commit": "e" * 40}, 21, 90, runs=10, seed=901)
        same_label = results_file(os.path.join(tmp, "main-mr.json"), "%032x" % 902, "main", "dut-3",
                                  {"commit": "d" * 40}, 21, 100, runs=10, seed=902)
        rc, _, err = run([GFX, "store", "push", "--store", url, mr])
        check(rc == 0, f"push mr.json: {err}")

        def get(selection, name):
            path = os.path.join(tmp, name)
            rc, _, err = run([GFX, "store", "get", "--store", url, selection, "-o", path, "--replace"])
            check(rc == 0, f"store get {selection!r}: {err}")
            return path

        # Every reader: the store selection against the file `store get` writes.
        sel3 = "variant:main machine:dut-3"
        f3 = get(sel3, "main3.json")
        fmr = get("variant:mr", "mrsel.json")
        both = get("machine:dut-3", "both3.json")
        arg3, argmr, argboth = "store:" + sel3, "store:variant:mr", "store:machine:dut-3"
        names = [(arg3, f3), (argmr, fmr), (argboth, both)]
        s = ["--store", url]
        same("compare", run([GFX, "compare", *s, arg3, argmr, "--format", "json"]),
             run([GFX, "compare", f3, fmr, "--format", "json"]), names)
        same("compare, one selection of two variants", run([GFX, "compare", *s, argboth, "--full"]),
             run([GFX, "compare", both, "--full"]), names)
        same("summary", run([GFX, "summary", *s, arg3]), run([GFX, "summary", f3]), names)
        same("summary --metric", run([GFX, "summary", *s, "--metric", "fps", arg3, argmr]),
             run([GFX, "summary", "--metric", "fps", f3, fmr]), names)
        same("show", run([GFX, "show", *s, argboth]), run([GFX, "show", both]), names)
        same("show --json", run([GFX, "show", *s, "--json", argboth]), run([GFX, "show", "--json", both]), names)
        same("ministat", run([GFX, "ministat", "--store", url, "--metric", "fps", arg3, argmr]),
             run([GFX, "ministat", "--metric", "fps", f3, fmr]), names)
        # GFXSTAT_STORE names the store when --store does not.
        env = dict(os.environ, GFXSTAT_STORE=url)
        same("ministat through GFXSTAT_STORE", run([GFX, "ministat", "-q", "--metric", "fps", arg3, argmr], env=env),
             run([GFX, "ministat", "-q", "--metric", "fps", f3, fmr]), names)
        good, bad = "store:machine:dut-4 commit:" + shas[0], "store:machine:dut-4 commit:" + shas[9]
        fgood, fbad = get(good[6:], "good.json"), get(bad[6:], "bad.json")
        same("bisect check", run([GFX, "bisect", "check", *s, "--good", good, "--bad", bad, "--target-metric", "fps",
                                  "--format", "json"]),
             run([GFX, "bisect", "check", "--good", fgood, "--bad", fbad, "--target-metric", "fps", "--format", "json"]),
             [(good, fgood), (bad, fbad)])
        page_s, page_f = os.path.join(tmp, "s.html"), os.path.join(tmp, "f.html")
        a = run([GFX, "report", *s, arg3, argmr, "-o", page_s])
        b = run([GFX, "report", f3, fmr, "-o", page_f])
        if check(a[0] == 0 and b[0] == 0, f"report from the store and from files: {a[2][-300:]} {b[2][-300:]}"):
            hs, hf = normal(open(page_s).read(), names, 0), normal(open(page_f).read(), names, 1)
            check(hs == hf, "report: the page from the store is the page from the files")

        # history --store over the stored nightlies equals history over the files.
        for host in ("dut-3", "dut-4"):
            a = run([GFX, "history", *s, "store:variant:main machine:" + host, "--metric", "fps", "--format", "json"])
            b = run([GFX, "history", *nightly[host], "--metric", "fps", "--format", "json"])
            # The same, but for where each build's runs were read from.
            refs = [(q % (host, sha), path) for q in ("'store:variant:main machine:%s commit:%s'",
                                                      "store:variant:main machine:%s commit:%s")
                    for sha, path in zip(shas, nightly[host])]
            ja, jb = (json.loads(normal(x[1], refs, side)) if x[1].startswith("{") else {}
                      for side, x in enumerate((a, b)))
            for j in (ja, jb):
                for build in j.get("builds", []):
                    build.pop("sources", None)
            check(a[0] == b[0] and ja == jb and ja, f"history --format json {host}: the store's equals the files' "
                                                    f"({a[0]} vs {b[0]}: {a[2][-300:]})")
            check(a[0] == (1 if host == "dut-4" else 0), f"history of {host} (a drop on dut-4 only): exit {a[0]}")
            a = run([GFX, "history", *s, "store:variant:main machine:" + host, "--metric", "fps"])
            b = run([GFX, "history", *nightly[host], "--metric", "fps"])
            # Its bisect references: the stored build's runs, or its file.
            refs = [("'store:variant:main machine:%s commit:%s'" % (host, sha), path)
                    for sha, path in zip(shas, nightly[host])]
            same("history text " + host, a, b, refs)
            check("--good 'store:variant:main machine:dut-4 commit:" in a[1] or host == "dut-3",
                  f"history's bisect command names the stored builds: {a[1][-600:]}")

        # last:N in start order: build 2 started last.
        p = get("machine:dut-3 variant:main last:2", "last2.json")
        check(builds_in(p) == {shas[9], shas[2]}, f"last:2 by first start: builds 9 and 2, not {builds_in(p)}")
        p = get("machine:dut-3 branch:main last:3", "last3.json")
        check(builds_in(p) == {shas[8], shas[9], shas[2]}, "last:3 through a tag term (the filter decides)")
        # last:N in git order (history and compare take --order git --git).
        repo = os.path.join(tmp, "repo")
        rc, out, err = run([GFX, "history", *s, "store:variant:main machine:dut-3 last:2", "--order", "git",
                            "--git", repo, "--metric", "fps", "--format", "json"])
        hist = json.loads(out) if out.strip().startswith("{") else {}
        keys = [b.get("key") for b in hist.get("builds", [])] if hist else []
        check(keys == [shas[8], shas[9]], f"last:2 in git order: builds 8 and 9 ({keys}; {err[-300:]})")
        rc, out, err = run([GFX, "compare", *s, "--baseline", "machine:dut-3 last:2", "--order", "git", "--git", repo,
                            mr, "--format", "json"])
        rc2, out2, _ = run([GFX, "compare", get("machine:dut-3 variant:main (commit:%s OR commit:%s)" % (shas[8], shas[9]),
                                                "git2.json"), mr, "--format", "json"])
        check(rc == rc2 and json.loads(out or "{}").get("metrics") == json.loads(out2 or "{}").get("metrics"),
              f"compare --order git: last:2 is builds 8 and 9 ({rc} vs {rc2}: {err[-300:]})")
        # A build not in the history: a note, and left out.
        extra = results_file(os.path.join(tmp, "x.json"), "%032x" % 950, "main", "dut-3",
                             {"commit": "0123456789abcdef0123456789abcdef01234567", "branch": "main"}, 28, 100, seed=950)
        run([GFX, "store", "push", "--store", url, extra])
        rc, out, err = run([GFX, "compare", *s, "--baseline", "variant:main machine:dut-3 last:2", "--order", "git",
                            "--git", repo, mr, "--format", "json"])
        check(rc in (0, 1, 3) and "not in the history of HEAD" in " ".join(err.split()) and "0123456789abcdef" in err,
              f"last:N --order git notes a build git does not know (rc {rc}): {err[-400:]}")
        check(json.loads(out or "{}").get("metrics") == json.loads(out2 or "{}").get("metrics"),
              "the unknown build is left out: last:2 is still builds 8 and 9")
        rc, _, err = run([GFX, "compare", *s, "--baseline", "machine:dut-3 last:2", "--order", "git", mr])
        check(rc == 2 and "--git" in err, f"--order git without --git is refused: {rc} {err}")

        # machine: is the hostname, in the store and in files.
        p = get("machine:dut-4", "dut4.json")
        with open(p) as f:
            hosts = {json.loads(line).get("hostname") for line in f if '"type":"environment"' in line}
        check(hosts == {"dut-4"}, f"machine:dut-4 keeps dut-4's runs only: {hosts}")
        merged = get("variant:main", "allmain.json")
        a = run([GFX, "ministat", "-n", "--metric", "fps", "--filter", "machine:dut-4", merged])
        b = run([GFX, "ministat", "-n", "--metric", "fps", "--filter", "hostname:dut-4", merged])
        check(a[0] == 0 and a[1] == b[1], f"--filter machine: on a file is its hostname: {a[2][-300:]}")

        # The example, exactly, with the gate's exit statuses.
        example = [GFX, "compare", "--store", url, "--baseline", "branch:main machine:dut-3 last:10"]
        rc, out, err = run(example + [mr, "--gate"])
        check(rc == 0, f"the MR as fast as main's last builds passes the gate (rc {rc}): {err[-300:]} {out[-400:]}")
        rc, out, err = run(example + [slow, "--gate"])
        check(rc == 1 and "regress" in out.lower(), f"a 10% slower MR fails the gate (rc {rc}): {out[-400:]}")
        rc, out, err = run(example + [same_label, "--gate", "--format", "json"])
        labels = [c.get("label") for m in json.loads(out or "{}").get("metrics", []) for c in m.get("candidates", [])]
        check(rc in (0, 1, 3) and any("main-mr.json:main" in str(x) for x in labels) or "main-mr.json:main" in out,
              f"a candidate of the baseline's label is named apart by its file (rc {rc}): {labels} {err[-300:]}")
        rc, out, err = run([GFX, "compare", "--baseline", "store:branch:main machine:dut-3 last:10", mr, "--gate"],
                           env=dict(os.environ, GFXSTAT_STORE=url))
        check(rc == 0, f"--baseline store:SELECTION with GFXSTAT_STORE (rc {rc}): {err[-300:]}")

        # Bad selections: exit 2, the message names the selection.
        for sel, why in [("machine:(dut-3", "expected"), ("last:0", "last:0"), ("variant:main OR last:3", "top level"),
                         ("variant:nothing", "no stored run")]:
            rc, _, err = run([GFX, "compare", "--store", url, "--baseline", sel, mr])
            check(rc == 2 and ("store:" + sel) in err and why in err, f"--baseline {sel!r}: exit 2 naming it: {rc} {err}")
            rc, _, err = run([GFX, "show", "--store", url, "store:" + sel])
            check(rc == 2 and ("store:" + sel) in err, f"show store:{sel}: exit 2 naming it: {rc} {err}")
            rc, _, err = run([GFX, "ministat", "--store", url, "store:" + sel])
            check(rc == 2 and ("store:" + sel) in err, f"ministat store:{sel}: exit 2 naming it: {rc} {err}")
        rc, _, err = run([GFX, "history", "--store", os.path.join("sqlite:" + tmp, "none.sqlite"), "store:*"])
        check(rc == 2 and "store:*" in err, f"a missing store: exit 2 naming the argument: {rc} {err}")
        # A file literally named store:x is read as ./store:x.
        shutil.copy(mr, os.path.join(tmp, "store:x"))
        a = run([GFX, "show", "./store:x"], cwd=tmp)
        b = run([GFX, "show", "mr.json"], cwd=tmp)
        same("./store:x is the file", a, b, [("./store:x", "mr.json")])

        # ab with a stored baseline: only the candidate runs, a fixed number
        # of times, compared with the stored runs.
        out_path = os.path.join(tmp, "ab.json")
        counter = os.path.join(tmp, "noise")
        noisy = [PY, "-c", "import os, random; p = os.environ['NOISE_COUNTER']; "
                 "n = int(open(p).read()) if os.path.exists(p) else 0; open(p, 'w').write(str(n + 1)); "
                 "random.seed(n); print(float(os.environ['M']) + random.gauss(0, 0.3))"]
        env = dict(os.environ, NOISE_COUNTER=counter, M="50")
        rc, out, err = run([GFX, "ab", "--store", url, "--baseline", "branch:main machine:dut-3 last:3",
                            "--variant", "mr", "-o", out_path, "--metric-name", "fps", "--unit", "fps", "--higher-is-better",
                            "--runs", "4", "--gate", "--", *noisy], env=env)
        with open(out_path) as f:
            ran = [json.loads(line) for line in f if '"type":"run"' in line]
        check(len(ran) == 4 and {r["variant"] for r in ran} == {"mr"},
              f"ab --baseline runs only the candidate, --runs times ({len(ran)} runs): {err[-400:]}")
        check("interleaved" in err and "stored" in err, f"ab says why the runs are fixed: {err[-400:]}")
        check(rc == 1 and "regress" in out.lower(), f"a candidate at half main's fps fails the gate (rc {rc}): {out[-300:]} {err[-300:]}")
        expect = run([GFX, "compare", get("branch:main machine:dut-3 last:3", "ab-base.json"), out_path, "--gate"])
        def table(text):  # the report up to its pointer to the full one, which names ab's output
            return text[:text.find("--full")] if "--full" in text else text
        def table_of(text):
            return table(text)[:table(text).rfind("\n")]
        check(rc == expect[0] and table_of(out) == table_of(expect[1]) and "gfxstat compare --full 'store:branch:main" in out,
              f"ab's report is compare's of the stored baseline against its file:\n{out[-500:]}\n{expect[1][-500:]}")
        rc, _, err = run([GFX, "ab", "--store", url, "--baseline", "variant:nothing", "--variant", "mr",
                          "-o", os.path.join(tmp, "ab2.json"), "--", *noisy], env=env)
        check(rc == 2 and "store:variant:nothing" in err and not os.path.exists(os.path.join(tmp, "ab2.json")),
              f"ab with a baseline that selects nothing stops before running: {rc} {err}")
        rc, _, err = run([GFX, "ab", "--store", url, "--baseline", "variant:main", "--variant", "mr",
                          "--max-runs", "5", "-o", os.path.join(tmp, "ab3.json"), "--", *noisy], env=env)
        check(rc == 2 and "--max-runs" in err, f"ab --baseline refuses the stop rule's options: {rc} {err}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return finish("store readers: every reader takes store:SELECTION")


if __name__ == "__main__":
    sys.exit(main())
