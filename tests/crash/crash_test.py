#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Crash safety of results-file appends (ResultsAppender).

1. Kill rounds: 1-2 writers in sequence append to one file and are killed
   with SIGKILL after a random delay. Then every run a writer acknowledged
   ("acked N", printed only after append_run returned) must be in the file
   exactly once and complete; the file must be valid JSON Lines apart from
   at most a torn last line; gfxstat's reader must agree; and the next
   appender must cut a torn tail off and continue.
2. Torn writes, deterministically (a kill rarely lands inside a small
   write()): a valid file cut at every byte offset inside its last records.
   Each copy must read back with all complete records (gfxstat's reader and
   an independent one here agree), and an appender must repair it and go on.
3. Self-check: a writer that acknowledges a run before writing it must be
   caught, so that this test can fail.

Uses only the standard library. Exit status 0 on success, 1 on a violation.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from decimal import Decimal


class Violation(Exception):
    pass


def expected_run(i):
    """The metrics crash_writer.cpp's make_run() writes for run i."""
    return {
        "lat": [Decimal(f"{i}.125"), Decimal(f"{3 * i}.5"), Decimal(f"{i + 1}e-9")],
        "fps": Decimal(7 * i),
        "pad": [Decimal(f"{k}.{i}") for k in range(i % 23)],
    }


def loads(raw):
    return json.loads(raw, parse_float=Decimal, parse_int=Decimal)


def scan(data):
    """Independent reading of a results file's bytes.

    Returns (torn, {run index: line}) or raises Violation. Checks every rule
    the writer must keep: header first, declarations before use, unique run
    identities, every record complete with the values make_run() gives it.
    """
    if not data:
        raise Violation("the file exists but is empty (creation is atomic)")
    parts = data.split(b"\n")
    tail = parts.pop()  # bytes after the last '\n'
    lines = [(no, raw) for no, raw in enumerate(parts, 1) if raw.strip()]
    torn = False
    if tail.strip():
        try:
            loads(tail)
            lines.append((len(parts) + 1, tail))  # complete, only lacks '\n'
        except ValueError:
            torn = True
    if not lines:
        raise Violation("no header")
    metrics, envs, runs = set(), set(), {}
    for k, (no, raw) in enumerate(lines):
        try:
            rec = loads(raw)
        except ValueError as e:
            raise Violation(f"line {no} is not valid JSON ({e}): {raw[:120]!r}")
        if not isinstance(rec, dict):
            raise Violation(f"line {no} is not an object")
        if k == 0:
            if rec.get("format") != "gfxstat-results" or rec.get("version") != 1:
                raise Violation(f"line {no}: bad header {rec}")
            continue
        kind = rec.get("type")
        if kind == "metric":
            metrics.add(rec["name"])
        elif kind == "environment":
            envs.add(rec["id"])
        elif kind == "run":
            i = int(rec["run"])
            if rec.get("variant") != "v" or rec.get("exit") != {"class": "ok"}:
                raise Violation(f"line {no}: unexpected run record {rec}")
            if i in runs:
                raise Violation(f"run {i} is in the file twice (lines {runs[i]} and {no})")
            if rec.get("environment") not in envs:
                raise Violation(f"line {no}: environment used before it is recorded")
            for name in rec["metrics"]:
                if name not in metrics:
                    raise Violation(f"line {no}: metric {name} used before it is declared")
            if rec["metrics"] != expected_run(i):
                raise Violation(f"line {no}: run {i} is damaged: {rec['metrics']}")
            runs[i] = no
        else:
            raise Violation(f"line {no}: unknown record {rec}")
    return torn, runs


def check_acked(path, acked):
    """Every acknowledged run is present; returns (torn, runs)."""
    if not os.path.exists(path):
        if acked:
            raise Violation(f"runs {sorted(acked)} were acknowledged but there is no file")
        return False, {}
    with open(path, "rb") as f:
        torn, runs = scan(f.read())
    missing = sorted(set(acked) - set(runs))
    if missing:
        raise Violation(f"acknowledged runs {missing} are not in the file")
    return torn, runs


def run_checker(writer, paths):
    """crash_writer check: gfxstat's view of each file, then a repair."""
    out = subprocess.run([writer, "check", *paths], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, check=True, timeout=120).stdout.decode()
    results, cur = {}, None
    for line in out.splitlines():
        word, _, rest = line.partition(" ")
        if word == "file":
            cur = {"runs": [], "path": rest}
        elif word == "end":
            results[cur["path"]] = cur
        elif word == "run":
            cur["runs"].append(int(rest))
        elif word in ("read", "after"):
            fields = dict(kv.split("=") for kv in rest.split())
            cur[word] = {k: int(v) for k, v in fields.items()}
        elif word in ("repaired", "appended"):
            cur[word] = int(rest)
        elif word == "error":
            cur["error"] = rest
    return [results[p] for p in paths]


def verify_with_gfxstat(writer, path, torn, runs, view):
    """gfxstat's reader agrees with scan(); its appender repairs and goes on."""
    if "error" in view:
        raise Violation(f"gfxstat: {view['error']}")
    if view["read"]["torn"] != int(torn):
        raise Violation(f"gfxstat torn={view['read']['torn']}, independent reading torn={int(torn)}")
    if sorted(view["runs"]) != sorted(runs):
        raise Violation(f"gfxstat read runs {view['runs']}, expected {sorted(runs)}")
    if view["repaired"] != int(torn):
        raise Violation(f"appender repaired={view['repaired']} for torn={int(torn)}")
    if view["after"]["torn"] != 0 or view["after"]["runs"] != len(runs) + 1:
        raise Violation(f"after repair and one append: {view['after']}, had {len(runs)} runs")
    after_torn, after_runs = check_acked(path, set(runs) | {view["appended"]})
    if after_torn:
        raise Violation("torn tail after the repairing append")
    if len(after_runs) != len(runs) + 1:
        raise Violation("records lost by the repairing append")


def kill_round(writer, path, rng, max_delay):
    acked = set()
    for _ in range(rng.choice((1, 2))):
        p = subprocess.Popen([writer, "append", path], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0, max_delay))
        p.kill()  # SIGKILL
        out, _ = p.communicate()
        for line in out.decode().splitlines():
            if line.startswith("acked "):
                i = int(line.split()[1])
                if i in acked:
                    raise Violation(f"run {i} acknowledged twice")
                acked.add(i)
    torn, runs = check_acked(path, acked)
    if os.path.exists(path):
        verify_with_gfxstat(writer, path, torn, runs, run_checker(writer, [path])[0])
    return len(acked), torn


def torn_sweep(writer, workdir):
    base = os.path.join(workdir, "base.jsonl")
    subprocess.run([writer, "append", base, "--count", "6"], check=True,
                   stdout=subprocess.DEVNULL, timeout=120)
    with open(base, "rb") as f:
        data = f.read()
    scan(data)
    starts = [i + 1 for i, b in enumerate(data) if b == ord("\n")]
    first = starts[-3]  # start of the second-to-last record
    paths, expect = [], []
    for k in range(first, len(data)):
        cut = os.path.join(workdir, f"cut-{k}.jsonl")
        with open(cut, "wb") as f:
            f.write(data[:k])
        paths.append(cut)
        expect.append(scan(data[:k]))
    torn_seen = 0
    for cut, (torn, runs), view in zip(paths, expect, run_checker(writer, paths)):
        try:
            verify_with_gfxstat(writer, cut, torn, runs, view)
        except Violation as e:
            raise Violation(f"{os.path.basename(cut)}: {e}")
        torn_seen += torn
        os.unlink(cut)
    if torn_seen < len(paths) - 4:
        raise Violation(f"only {torn_seen} of {len(paths)} cuts were torn: sweep is not testing much")
    return len(paths), torn_seen


def self_check(writer, workdir):
    """A writer that acknowledges before writing must be caught, every time."""
    for n in range(3):
        path = os.path.join(workdir, f"fault-{n}.jsonl")
        p = subprocess.Popen([writer, "append", path, "--fault", "ack-then-hang"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        acked = set()
        try:
            for line in p.stdout:  # blocks until the (premature) acknowledgement
                if line.startswith(b"acked "):
                    acked.add(int(line.split()[1]))
                    break
        finally:
            p.kill()
            p.communicate()
        if not acked:
            raise Violation("self-check: the faulty writer never acknowledged a run")
        try:
            check_acked(path, acked)
        except Violation:
            continue  # caught, as it must be
        raise Violation("self-check: a run acknowledged before it was written went unnoticed")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--writer", required=True, help="path to crash_writer")
    ap.add_argument("--rounds", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-delay", type=float, default=0.05, help="seconds before the kill")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="gfxstat-crash-") as workdir:
        try:
            self_check(args.writer, workdir)
            cuts, torn_cuts = torn_sweep(args.writer, workdir)
            acked_total = torn_rounds = 0
            for r in range(args.rounds):
                path = os.path.join(workdir, f"round-{r}.jsonl")
                try:
                    acked, torn = kill_round(args.writer, path, rng, args.max_delay)
                except Violation as e:
                    raise Violation(f"round {r}: {e}")
                acked_total += acked
                torn_rounds += torn
        except Violation as e:
            print(f"FAIL: {e}", file=sys.stderr)
            return 1
    print(f"ok: self-check caught the faulty writer; {cuts} cut positions "
          f"({torn_cuts} torn) repaired; {args.rounds} kill rounds, {acked_total} "
          f"acknowledged runs all present, {torn_rounds} torn tails from kills")
    return 0


if __name__ == "__main__":
    sys.exit(main())
