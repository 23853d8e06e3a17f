#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every kind of results-file writer racing on one file: gfxstat run (the
appender), import --append and merge --replace (whole-file rewrites renamed
into place), import onto the existing file (refused), and readers. Each
writer that says it recorded something (exit 0) must find its runs in the
final file exactly once; each that was refused (exit 2, "another gfxstat is
writing") must have left nothing. The file must read back cleanly and no
temporary file may be left beside it.

This is the test for the lost-run bugs of the results lock: a rewrite that
took no lock, and an appender that locked a file the path no longer named.
--seconds sets how long the writers race (CI runs it briefly; make
stress-test runs it longer)."""

import argparse
import glob
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
from testlib import check, finish  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gfxstat", required=True)
    ap.add_argument("--seconds", type=float, default=8.0)
    ap.add_argument("--seed", type=int, default=20261201)
    args = ap.parse_args()
    g = args.gfxstat

    with tempfile.TemporaryDirectory() as d:
        nums = os.path.join(d, "nums.txt")
        with open(nums, "w") as f:
            f.write("1\n2\n3\n4\n5\n")
        results = os.path.join(d, "r.json")
        other = os.path.join(d, "other.json")
        subprocess.run([g, "import", "--from", "lines", nums, "--label", "seed", "-o", results], check=True,
                       capture_output=True)
        subprocess.run([g, "import", "--from", "lines", nums, "--label", "other", "-o", other], check=True,
                       capture_output=True)

        # The appender's lock delayed (strace holds its flock() back half a
        # second) while import --append renames a new file into place: the
        # lock it then gets is on the replaced file, and it must notice.
        if shutil.which("strace"):
            delayed = os.path.join(d, "delayed.json")
            subprocess.run([g, "import", "--from", "lines", nums, "--label", "first", "-o", delayed], check=True,
                           capture_output=True)
            r = subprocess.Popen(["strace", "-f", "-o", "/dev/null", "-e", "inject=flock:delay_enter=500000",
                                  g, "run", "--runs", "2", "--parser", "time", "--label", "R", "-o", delayed,
                                  "--", "true"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 # LeakSanitizer cannot work under ptrace
                                 env=dict(os.environ, ASAN_OPTIONS=(os.environ.get("ASAN_OPTIONS", "") +
                                                                     ":detect_leaks=0").lstrip(":")))
            time.sleep(0.2)
            i = subprocess.run([g, "import", "--from", "lines", nums, "--label", "IMP", "--append", "-o", delayed],
                               capture_output=True)
            out, err = r.communicate()
            check(r.returncode == 0 and i.returncode == 0,
                  f"delayed-lock race: both writers succeed ({r.returncode}: {err.decode()[-200:]}; "
                  f"{i.returncode}: {i.stderr.decode()[-200:]})")
            with open(delayed) as f:
                variants = [json.loads(x).get("variant") for x in f if '"type":"run"' in x]
            check(sorted(variants) == ["IMP", "R", "R", "first"],
                  f"delayed-lock race: the appender's runs are in the file the path names: {variants}")
        else:
            print("SKIP delayed-lock race: strace is not installed")

        lock = threading.Lock()
        expected = {"seed": 1, "other": 0}  # label -> runs it must have in the end
        refused = []                         # labels whose writer was refused
        unexpected = []                      # (command, status, stderr) of surprises
        merged = [False]
        counts = {}
        deadline = time.monotonic() + args.seconds

        def note(kind, label, runs, p):
            with lock:
                counts[(kind, p.returncode)] = counts.get((kind, p.returncode), 0) + 1
                if p.returncode == 0:
                    if label:
                        expected[label] = runs
                    return
                err = p.stderr.decode(errors="replace")
                if p.returncode == 2 and "another gfxstat is writing" in err:
                    if label:
                        refused.append(label)
                    return
                unexpected.append((kind, p.returncode, err.strip()[-300:]))

        def worker(n, kinds):
            rng = random.Random(args.seed + n)
            i = 0
            while time.monotonic() < deadline:
                kind = rng.choice(kinds)
                label = f"{kind}-{n}-{i}"
                i += 1
                if kind == "run":
                    runs = rng.choice([1, 2, 3])
                    cmd = [g, "run", "--runs", str(runs), "--parser", "time", "--label", label, "-o", results,
                           "--", "true"]
                elif kind == "import":
                    runs = 1
                    cmd = [g, "import", "--from", "lines", nums, "--label", label, "--append", "-o", results]
                elif kind == "merge":
                    runs, label = 0, None
                    cmd = [g, "merge", "--replace", "-o", results, results, other]
                else:  # an import that must never replace the file
                    runs, label = 0, None
                    cmd = [g, "import", "--from", "lines", nums, "--label", "clobber", "-o", results]
                p = subprocess.run(cmd, capture_output=True)
                if kind == "clobber":
                    err = p.stderr.decode(errors="replace")
                    if not (p.returncode == 2 and "already exists" in err):
                        with lock:
                            unexpected.append((kind, p.returncode, err.strip()[-300:]))
                    continue
                if kind == "merge" and p.returncode == 0:
                    merged[0] = True
                note(kind, label, runs, p)

        threads = [threading.Thread(target=worker, args=(0, ["run"])),
                   threading.Thread(target=worker, args=(1, ["run", "import"])),
                   threading.Thread(target=worker, args=(2, ["import", "merge", "run"])),
                   threading.Thread(target=worker, args=(3, ["merge", "clobber", "import"]))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if merged[0]:
            expected["other"] = 1

        print("writers (kind, exit status): count:", dict(sorted(counts.items())))
        for u in unexpected:
            check(False, f"writer {u[0]} exited {u[1]}: {u[2]}")

        p = subprocess.run([g, "show", "--json", results], capture_output=True)
        check(p.returncode == 0, f"the raced file reads back: {p.stderr.decode(errors='replace')[-300:]}")
        found = {}
        with open(results) as f:
            for line in f:
                rec = json.loads(line)
                if rec.get("type") == "run" and not rec.get("warmup", False):
                    found[rec["variant"]] = found.get(rec["variant"], 0) + 1
        lost = {k: (v, found.get(k, 0)) for k, v in expected.items() if found.get(k, 0) != v}
        check(not lost, f"every acknowledged run is there exactly once (label: (acknowledged, found)): {lost}")
        ghosts = [k for k in refused if k in found]
        check(not ghosts, f"refused writers left nothing: {ghosts}")
        acknowledged = sum(1 for k in expected if k not in ("seed", "other"))
        check(acknowledged >= 10, f"the race ran: {acknowledged} acknowledged writers")
        check(counts.get(("merge", 0), 0) + counts.get(("import", 0), 0) > 0,
              "at least one rewrite raced the appenders")
        leftovers = [os.path.basename(x) for x in glob.glob(os.path.join(d, "r.json.tmp*"))]
        check(not leftovers, f"no temporary file is left: {leftovers}")
        print(f"{acknowledged} acknowledged writers, {len(refused)} refused, "
              f"{sum(found.values())} runs in the file")
        killed_writers_leave_nothing(g, d)
        index_range_is_kept(g, d)
    return finish("results writers: every acknowledged run recorded exactly once")


def killed_writers_leave_nothing(g, d):
    """import and merge killed by SIGINT, SIGTERM or SIGKILL at random
    moments: the output is absent, the old file, or the whole new one, and
    no temporary file is left (30 kills once left 281 MB of them). One
    window no process can close: a replacing write links its finished file
    under "NAME.tmp.PID", then renames it over NAME; SIGKILL between those
    two calls leaves that name. It must be the killed writer's, and the
    next writer of NAME sweeps it (data/safe_files.h)."""
    big = os.path.join(d, "big.txt")
    with open(big, "w") as f:
        f.write("\n".join(str(i * 0.001) for i in range(150000)) + "\n")
    rng = random.Random(7)
    out = os.path.join(d, "killed.json")
    bad = []
    for k in range(30):
        sig = [signal.SIGKILL, signal.SIGTERM, signal.SIGINT][k % 3]
        if k % 2 == 0:
            cmd = [g, "import", "--from", "lines", big, "--label", f"L{k}", "-o", out + str(k)]
        else:
            if not os.path.exists(out):
                subprocess.run([g, "import", "--from", "lines", big, "--label", "base", "-o", out],
                               check=True, capture_output=True)
            cmd = [g, "merge", "--replace", "-o", out, out, os.path.join(d, "other.json")]
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.0, 0.4))
        p.send_signal(sig)
        p.wait()
        for f in glob.glob(os.path.join(d, "killed.json*")):
            if ".tmp" in f:
                if sig == signal.SIGKILL and cmd[1] == "merge" and f == f"{out}.tmp.{p.pid}":
                    # The link-then-rename window: swept by the next write.
                    subprocess.run([g, "merge", "--replace", "-o", out, out, os.path.join(d, "other.json")],
                                   capture_output=True)
                    if os.path.exists(f):
                        bad.append(os.path.basename(f) + " left after the next write")
                    continue
                bad.append(os.path.basename(f))
                continue
            if f not in (out, out + str(k)):
                continue
            r = subprocess.run([g, "show", "--json", f], capture_output=True)
            if r.returncode != 0:
                bad.append(f"{os.path.basename(f)} unreadable after {sig.name}")
    check(not bad, f"killed import/merge leave no temporary or broken file: {sorted(set(bad))[:5]}")


def index_range_is_kept(g, d):
    """A CSV run index 2^63-1 used to make the next run 2^63, which no
    reader (gfxstat's included) would take again."""
    csv = os.path.join(d, "idx.csv")
    with open(csv, "w") as f:
        f.write("variant,run,fps\nA,9223372036854775807,5\n")
    r = os.path.join(d, "idx.json")
    subprocess.run([g, "import", "--from", "csv", csv, "-o", r], check=True, capture_output=True)
    p = subprocess.run([g, "run", "--runs", "1", "--parser", "lines", "--label", "A", "-o", r, "--", "echo", "5"],
                       capture_output=True)
    err = p.stderr.decode(errors="replace")
    check(p.returncode == 2 and "beyond 2^63-1" in err, f"run refuses an index beyond 2^63-1: {p.returncode} {err}")
    p = subprocess.run([g, "show", r], capture_output=True)
    check(p.returncode == 0, f"the file stays readable: {p.stderr.decode(errors='replace')}")
    p = subprocess.run([g, "run", "--runs", "1", "--parser", "lines", "--label", "B", "-o", r, "--", "echo", "5"],
                       capture_output=True)
    check(p.returncode == 0, f"other labels go on: {p.stderr.decode(errors='replace')}")


if __name__ == "__main__":
    sys.exit(main())
