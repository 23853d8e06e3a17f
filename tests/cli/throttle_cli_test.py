#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Throttling end to end against a fake sysfs tree (GFXSTAT_SYSFS_ROOT): a
workload that sets the i915 throttle_reason_pl1 (and lowers
gt_act_freq_mhz) for part of some runs marks exactly those runs; compare
counts them per side and says whether the verdict holds without them;
--drop-throttled leaves them out (and ab takes it too); the throttle
records survive merge and show lists them; a machine without sources
records nothing; a bad "throttle" object is refused with file and line."""

import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import check, finish, paths, run, write  # noqa: E402

GFXSTAT, SRC = paths()
TREES = os.path.join(SRC, "tests", "data", "probe_root", "throttling")

# With THROTTLE=1, runs 1 and 3 of the workload (counted in a file) are
# throttled for 0.3 s of their 0.4 s, then free again; each prints its
# value.
WORKLOAD = r"""
n=$(cat "$COUNT"); echo $((n+1)) > "$COUNT"
g="$ROOT/sys/class/drm/card0"
if [ "$THROTTLE" = 1 ] && { [ "$n" = 1 ] || [ "$n" = 3 ]; }; then
  echo 1 > "$g/gt/gt0/throttle_reason_pl1"; echo 1 > "$g/gt/gt0/throttle_reason_status"
  echo 350 > "$g/gt_act_freq_mhz"
  sleep 0.3
  echo 0 > "$g/gt/gt0/throttle_reason_pl1"; echo 0 > "$g/gt/gt0/throttle_reason_status"
  echo 1100 > "$g/gt_act_freq_mhz"
  sleep 0.1
else
  sleep 0.1
fi
echo "$VALUE.$n"
"""


def runs_of(path):
    with open(path) as f:
        return [r for r in (json.loads(line) for line in f) if r.get("type") == "run"]


def gfxstat_run(env, label, value, results, count, extra=()):
    env = dict(env, VALUE=str(value), COUNT=count, THROTTLE="1" if label == "A" else "0")
    open(count, "w").write("0\n")
    p = subprocess.run(
        [GFXSTAT, "run", "--label", label, "--runs", "6", "-o", results, *extra, "--", "sh", "-c", WORKLOAD],
        capture_output=True, env=env)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def validate(path):
    """Every record of `path` against docs/results-format.schema.json."""
    try:
        import jsonschema
    except ImportError:
        check(False, "python3-jsonschema is installed (scripts/install-deps.sh)")
        return
    with open(os.path.join(SRC, "docs", "results-format.schema.json")) as f:
        validator = jsonschema.Draft202012Validator(json.load(f))
    with open(path) as f:
        for n, line in enumerate(f, 1):
            errors = list(validator.iter_errors(json.loads(line)))
            check(not errors, f"{path}:{n} follows the schema: {[e.message for e in errors][:3]}")


def main():
    d = tempfile.mkdtemp(prefix="gfxstat-throttle-")
    try:
        root = os.path.join(d, "root")
        shutil.copytree(os.path.join(TREES, "i915"), root)
        env = dict(os.environ, GFXSTAT_SYSFS_ROOT=root, ROOT=root)
        results = os.path.join(d, "r.json")
        count = os.path.join(d, "count")

        # ---- the sampler marks the throttled runs, and only those
        rc, out, err = gfxstat_run(env, "A", 10, results, count)
        check(rc == 0, f"run A exits 0 ({rc}): {err}")
        rs = runs_of(results)
        check(len(rs) == 6, f"6 runs of A ({len(rs)})")
        for r in rs:
            t = r.get("throttle")
            if not check(t is not None, f"run {r['run']} has a throttle record: {r}"):
                continue
            throttled = r["run"] in (1, 3)
            check(t["interval_ms"] == 50, f"interval_ms 50: {t}")
            check(t["samples"] >= 2, f"the first and last ticks at least: {t}")
            check(t["gpu"] == "card0", f"gpu card0: {t}")
            check(t["cpu_package_temp_max_c"] == 45, f"package temperature 45 C: {t}")
            check(t["gpu_freq_requested_mean_mhz"] == 1100, f"requested 1100 MHz: {t}")
            if throttled:
                check(0 < t["throttled_share"] < 1, f"run {r['run']}: a throttled stretch: {t}")
                check(t["reasons"] == ["pl1"], f"run {r['run']}: reason pl1: {t}")
                check(t["gpu_freq_min_mhz"] == 350, f"run {r['run']}: min 350 MHz: {t}")
                check(350 < t["gpu_freq_mean_mhz"] < 1100, f"run {r['run']}: mean between: {t}")
            else:
                check(t["throttled_share"] == 0, f"run {r['run']}: not throttled: {t}")
                check(t["reasons"] == [], f"run {r['run']}: no reason: {t}")
                check(t["gpu_freq_min_mhz"] == 1100 and t["gpu_freq_mean_mhz"] == 1100, f"run {r['run']}: 1100 MHz: {t}")

        # B: never throttled (its workload does not touch the tree), and
        # clearly slower (20 against 10).
        rc, out, err = gfxstat_run(env, "B", 20, results, os.path.join(d, "count-b"))
        check(rc == 0, f"run B exits 0 ({rc}): {err}")
        validate(results)

        # ---- compare: counts per side and the verdict without them
        rc, out, err = run([GFXSTAT, "compare", results])
        check(rc == 0, f"compare exits 0 ({rc}): {err}")
        check("throttled: 2 of 6 runs of A, 0 of 6 of B" in out, f"the counts line: {out}")
        check("without them (value, B): the same verdict (changed, " in out, f"the verdict without them: {out}")
        rc, out, err = run([GFXSTAT, "compare", results, "--format", "json"])
        doc = json.loads(out)
        t = doc.get("throttled", {})
        check(t.get("dropped") is False, f"json: not dropped: {t}")
        check(t.get("sides") == [{"label": "A", "throttled": 2, "runs": 6}, {"label": "B", "throttled": 0, "runs": 6}],
              f"json: sides: {t}")
        w = (t.get("without") or [{}])[0]
        check(w.get("compared") is True and w.get("same_verdict") is True and w.get("outcome") == "changed",
              f"json: the verdict without them: {w}")
        check(doc["comparisons"][0]["baseline"]["n"] == 6, "json: all runs compared without --drop-throttled")
        rc, out, err = run([GFXSTAT, "compare", results, "--format", "markdown"])
        check("**throttled: 2 of 6 runs of A, 0 of 6 of B**" in out, f"markdown: the counts: {out}")

        # ---- --drop-throttled leaves them out and says so
        rc, out, err = run([GFXSTAT, "compare", results, "--drop-throttled"])
        check(rc == 0, f"compare --drop-throttled exits 0 ({rc}): {err}")
        check("throttled runs left out (--drop-throttled): 2 of 6 runs of A, 0 of 6 of B" in " ".join(out.split()),
              f"--drop-throttled says what it left out: {out}")
        check("without them" not in out, f"--drop-throttled: no second comparison: {out}")
        rc, out, err = run([GFXSTAT, "compare", results, "--drop-throttled", "--format", "json"])
        doc = json.loads(out)
        check(doc["comparisons"][0]["baseline"]["n"] == 4, f"--drop-throttled: A has 4 values: {doc['comparisons'][0]['baseline']['n']}")
        check(doc["throttled"]["dropped"] is True and doc["throttled"]["left_out"] == 2, f"json: left_out 2: {doc['throttled']}")
        check(doc["comparisons"][0]["baseline"]["max"] == 10.5, f"the unthrottled values stay: {doc['comparisons'][0]['baseline']}")

        # Too few runs left without them: said, not an error; with
        # --drop-throttled it is compare's error (exit 2).
        text = []
        for line in open(results).read().splitlines(True):
            r = json.loads(line)
            if r.get("type") == "run" and r["variant"] == "A" and r["run"] != 0:
                r["throttle"]["throttled_share"] = 0.5
                r["throttle"]["reasons"] = ["thermal"]
                line = json.dumps(r) + "\n"
            text.append(line)
        few = write(d, "few.json", "".join(text))
        rc, out, err = run([GFXSTAT, "compare", few])
        check(rc == 0, f"compare with one unthrottled run of A exits 0 ({rc}): {err}")
        check("throttled: 5 of 6 runs of A, 0 of 6 of B" in out, f"five throttled: {out}")
        check("without them: no comparison (" in out and "1 value;" in out, f"too few without them: {out}")
        rc, out, err = run([GFXSTAT, "compare", few, "--drop-throttled"])
        check(rc == 2 and "1 value;" in err, f"--drop-throttled leaving one run exits 2 ({rc}): {err}")

        # ---- merge carries the records; show lists them
        merged = os.path.join(d, "merged.json")
        rc, out, err = run([GFXSTAT, "merge", "-o", merged, results])
        check(rc == 0, f"merge exits 0 ({rc}): {err}")
        before = [r.get("throttle") for r in runs_of(results)]
        after = [r.get("throttle") for r in runs_of(merged)]
        check(before == after, f"merge keeps every throttle record: {after}")
        rc, out, err = run([GFXSTAT, "show", merged])
        check(rc == 0 and "A: 2 throttled runs of 6 used" in out, f"show lists the throttled runs: {out} {err}")
        check("B: 0 throttled" not in out and "B: " not in out.split("workloads")[0],
              f"show says nothing for a variant without throttled runs: {out}")
        rc, out, err = run([GFXSTAT, "show", merged, "--json"])
        throttled = {v.get("label", v.get("variant")): v.get("throttled") for v in json.loads(out)["variants"]} if rc == 0 else {}
        check(throttled == {"A": 2, "B": 0}, f"show --json counts throttled runs per variant: {throttled} {err}")
        rc, out, err = run([GFXSTAT, "compare", merged])
        check("throttled: 2 of 6 runs of A, 0 of 6 of B" in out, f"compare of the merged file: {out}")

        # ---- two files, one variant each
        a_only = os.path.join(d, "a.json")
        b_only = os.path.join(d, "b.json")
        env2 = dict(env)
        gfxstat_run(env2, "A", 10, a_only, count)
        gfxstat_run(env2, "B", 20, b_only, os.path.join(d, "count-c"))
        rc, out, err = run([GFXSTAT, "compare", a_only, b_only])
        check(rc == 0 and "throttled: 2 of 6 runs of A, 0 of 6 of B" in out, f"across files: {out} {err}")
        # A file whose every run was throttled: named, with how many, not
        # "holds 0 variants".
        text = []
        for line in open(a_only).read().splitlines(True):
            r = json.loads(line)
            if r.get("type") == "run" and not r.get("warmup"):
                r["throttle"]["throttled_share"] = 0.5
                r["throttle"]["reasons"] = ["thermal"]
                line = json.dumps(r) + "\n"
            text.append(line)
        all_throttled = write(d, "all-throttled.json", "".join(text))
        rc, out, err = run([GFXSTAT, "compare", all_throttled, b_only, "--drop-throttled"])
        check(rc == 2 and "all-throttled.json: every measured run of 'A' was throttled (6 of 6): none is left" in err
              and "variants" not in err, f"--drop-throttled emptying a file names it ({rc}): {err}")
        rc, out, err = run([GFXSTAT, "compare", all_throttled, b_only])
        flat = " ".join(out.split())  # the note is wrapped to the width
        check(rc == 0 and "without them: no comparison (" in flat and "was throttled (6 of 6)" in flat,
              f"every run of a file throttled, without --drop-throttled ({rc}): {out} {err}")

        # ---- ab takes --drop-throttled through compare's report options
        rc, out, err = run([GFXSTAT, "ab", "--help"])
        check("--drop-throttled" in out, "ab --help lists --drop-throttled")

        # ---- no source: nothing recorded, nothing said
        bare = os.path.join(d, "bare")
        shutil.copytree(os.path.join(TREES, "none"), bare)
        plain = os.path.join(d, "plain.json")
        p = subprocess.run([GFXSTAT, "run", "--label", "x", "--runs", "3", "-o", plain, "--", "echo", "1"],
                                         capture_output=True, env=dict(os.environ, GFXSTAT_SYSFS_ROOT=bare))
        check(p.returncode == 0, f"run without sources exits 0: {p.stderr}")
        check(all("throttle" not in r for r in runs_of(plain)), "no source, no throttle record")

        # ---- a bad record: file and line, exit 2
        lines = open(results).read().splitlines(True)
        idx = next(i for i, line in enumerate(lines) if '"throttle"' in line)
        bad_line = lines[idx].replace('"interval_ms":50', '"interval_ms":"fast"')
        bad = write(d, "bad.json", "".join(lines[:idx] + [bad_line] + lines[idx + 1:]))
        rc, out, err = run([GFXSTAT, "compare", bad])
        check(rc == 2, f"a bad throttle object exits 2 ({rc})")
        check(f"bad.json:{idx + 1}" in err and '"throttle"."interval_ms"' in err, f"it names file, line, member: {err}")
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return finish("throttle_cli: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
