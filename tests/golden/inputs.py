# SPDX-License-Identifier: MIT
"""Inputs the golden cases make in their temporary directory: results files
written from fixed numbers (a seeded generator), so that every byte of
them, and of what gfxstat prints about them, is the same on every run. The
CLI tests' own generators are reused where they exist."""

import hashlib
import json
import math
import os
import random
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
import blocked_compare_cli_test  # noqa: E402
import fleet_cli_test  # noqa: E402

SOURCE = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def write_records(path, records):
    with open(path, "w") as f:
        f.write("".join(json.dumps(r) + "\n" for r in records))
    return path


def header(ident, **extra):
    return {"format": "gfxstat-results", "version": 1, "id": ident, "created": "2026-12-01T00:00:00Z",
            "generator": "golden inputs", **extra}


def one_variant(d, name, variant, level, seed, runs=12, commit=None, boots=1):
    """A results file of one variant: fps (higher) and frame_ms (lower),
    `level` fps plus 1% noise, `boots` boots; tagged with a commit for history."""
    rng = random.Random(seed)
    recs = [header("%032x" % seed),
            {"type": "metric", "name": "fps", "unit": "fps", "direction": "higher", "primary": True},
            {"type": "metric", "name": "frame_ms", "unit": "ms", "direction": "lower"}]
    env = {"type": "environment", "id": "env-%016x" % seed, "hostname": "dut", "kernel_release": "6.12.0"}
    if commit:
        env["tags"] = {"commit": commit}
    recs.append(env)
    for i in range(runs):
        fps = round(level * (1 + rng.gauss(0, 0.01)), 3)
        recs.append({"type": "run", "variant": variant, "run": i, "boot": "%08x-0000-4000-8000-%012x" % (seed, i % boots),
                     "start": "2026-12-01T00:%02d:%02dZ" % (seed % 60, i), "exit": {"class": "ok", "code": 0},
                     "environment": env["id"], "metrics": {"fps": fps, "frame_ms": round(1000 / fps, 4)}})
    return write_records(os.path.join(d, name), recs)


def ab_pair(d):
    one_variant(d, "a.json", "a", 60.0, 1)
    one_variant(d, "b.json", "b", 57.0, 2)


def same_pair(d):
    one_variant(d, "a.json", "a", 60.0, 1)
    one_variant(d, "a2.json", "a2", 60.0, 3)


def throttled(d):
    """One file, two variants; a third of b's runs throttled (and slower)."""
    rng = random.Random(7)
    recs = [header("7" * 32), {"type": "metric", "name": "fps", "unit": "fps", "direction": "higher"}]
    for v, level in (("a", 60.0), ("b", 60.0)):
        for i in range(12):
            t = v == "b" and i % 3 == 0
            fps = round(level * (0.85 if t else 1) * (1 + rng.gauss(0, 0.01)), 3)
            run = {"type": "run", "variant": v, "run": i, "exit": {"class": "ok", "code": 0}, "metrics": {"fps": fps}}
            run["throttle"] = {"interval_ms": 50, "samples": 20, "throttled_share": 0.4 if t else 0.0,
                               "reasons": ["pl1"] if t else [], "gpu": "card0"}
            recs.append(run)
    return write_records(os.path.join(d, "throttled.json"), recs)


def drifting(d):
    """Two variants of 20 runs, each run in an environment of its own whose
    load average and temperature rise while b's values fall (a drift that
    the recorded readings explain)."""
    rng = random.Random(13)
    recs = [header("d" * 32), {"type": "metric", "name": "fps", "unit": "fps", "direction": "higher"}]
    for v in ("a", "b"):
        for i in range(20):
            env = "env-%016x" % (len(recs))
            recs.append({"type": "environment", "id": env, "hostname": "dut", "load_average": "%.2f" % (
                0.1 + (0.1 * i if v == "b" else 0)), "temp_cpu": "%d" % (50 + (i if v == "b" else 0))})
            fps = round(60 * (1 - (0.004 * i if v == "b" else 0)) * (1 + rng.gauss(0, 0.002)), 3)
            recs.append({"type": "run", "variant": v, "run": i, "exit": {"class": "ok", "code": 0}, "environment": env,
                         "metrics": {"fps": fps}})
    return write_records(os.path.join(d, "drift.json"), recs)


def volatile_load(d):
    """A baseline and a candidate of 12 runs each, every run with the
    machine's load average and temperature of its moment: interleaved.json
    runs them in turn while the load climbs and falls (context only);
    loaded.json runs the candidate after the baseline while something else
    loads the machine (a finding)."""
    for name, interleaved in (("interleaved.json", True), ("loaded.json", False)):
        rng = random.Random(29)
        recs = [header("f" * 32), {"type": "metric", "name": "fps", "unit": "fps", "direction": "higher"}]
        order = [("baseline", "candidate")[i % 2] for i in range(24)] if interleaved else \
            ["baseline"] * 12 + ["candidate"] * 12
        index = {"baseline": 0, "candidate": 0}
        for i, v in enumerate(order):
            if interleaved:
                load = 0.77 + 0.89 * (0.5 + 0.5 * math.sin(i * 0.6))
            else:
                load = (0.2 if v == "baseline" else 1.5) + 0.2 * rng.random()
            env = "env-%016x" % len(recs)
            recs.append({"type": "environment", "id": env, "hostname": "dut", "kernel_release": "6.9.0",
                         "load_average": "%.2f %.2f %.2f" % (load, load * 0.9, load * 0.8),
                         "temp_coretemp": "%.1f" % (48 + 8 * rng.random())})
            recs.append({"type": "run", "variant": v, "run": index[v], "exit": {"class": "ok", "code": 0},
                         "environment": env, "metrics": {"fps": round(60 * (1 + rng.gauss(0, 0.01)), 3)}})
            index[v] += 1
        write_records(os.path.join(d, name), recs)


def paired_suite(d):
    """Twelve benchmarks measured once a side: a suite paired by benchmark."""
    rng = random.Random(17)
    names = ["%d %s" % (n, k) for n in (2, 4, 8, 16, 32, 64) for k in ("linear", "tiled")]
    recs = [header("e" * 32)] + [{"type": "metric", "name": n, "unit": "MiB/s", "direction": "higher"} for n in names]
    for v, factor in (("before", 1.0), ("after", 0.97)):
        recs.append({"type": "run", "variant": v, "run": 0, "exit": {"class": "ok", "code": 0},
                     "metrics": {n: round(1000 * (i + 1) * factor * (1 + rng.gauss(0, 0.01)), 2)
                                 for i, n in enumerate(names)}})
    return write_records(os.path.join(d, "paired.json"), recs)


def failed_runs(d):
    """Two variants, b with failed and timed-out runs."""
    rng = random.Random(11)
    recs = [header("b" * 32), {"type": "metric", "name": "fps", "unit": "fps", "direction": "higher"}]
    for v in ("a", "b"):
        for i in range(10):
            run = {"type": "run", "variant": v, "run": i, "exit": {"class": "ok", "code": 0},
                   "metrics": {"fps": round(60 * (1 + rng.gauss(0, 0.01)), 3)}}
            if v == "b" and i in (2, 5):
                run["exit"] = {"class": "fail", "code": 1}
                run["metrics"] = {}
            if v == "b" and i == 7:
                run["exit"] = {"class": "timeout"}
                run["metrics"] = {}
            recs.append(run)
    return write_records(os.path.join(d, "failed.json"), recs)


def build_commit(i):
    return hashlib.sha1(b"build %d" % i).hexdigest()


def history(d, builds=10, step_at=6):
    """One file per build, tagged commit=..., fps 3% lower from `step_at` on."""
    for i in range(builds):
        one_variant(d, "b%02d.json" % i, "bench", 100.0 if i < step_at else 97.0, 100 + i, runs=6,
                    commit=build_commit(i))


def blocked(d):
    blocked_compare_cli_test.design_file(d, "ab.json", 16, 0.03, failed_block=4)


def fleet(d):
    doc = json.load(open(os.path.join(SOURCE, "tests", "data", "fleet_reference.json")))
    fleet_cli_test.fleet_file(d, doc["fleet"])


def suite(d):
    """Four benchmarks of one unit, two variants, runs on two GPUs (a tag)."""
    rng = random.Random(20261203)
    shift = {"upload_linear": 0.90, "upload_tiled": 1.03, "download_x": 1.0, "fill_rect": 0.998}
    recs = [header("5" * 32)] + [{"type": "metric", "name": t, "unit": "MiB/s", "direction": "higher"} for t in shift]
    recs += [{"type": "environment", "id": "env-%016x" % i, "tags": {"gpu": gpu}} for i, gpu in enumerate(("bdw", "skl"))]
    for variant in ("base", "patch"):
        for i in range(8):
            values = {t: round(1000 * (s if variant == "patch" else 1) * (1 + rng.gauss(0, 0.004)), 3)
                      for t, s in shift.items()}
            recs.append({"type": "run", "variant": variant, "run": i, "exit": {"class": "ok", "code": 0},
                         "environment": "env-%016x" % (i % 2), "metrics": values})
    return write_records(os.path.join(d, "suite.json"), recs)


def columns(d):
    """Column files: two and three columns, space and comma separated."""
    rng = random.Random(5)
    with open(os.path.join(d, "x.txt"), "w") as f:
        f.write("".join("%.3f %.3f\n" % (10 + rng.gauss(0, 0.3), 20 + rng.gauss(0, 1)) for _ in range(15)))
    with open(os.path.join(d, "y.txt"), "w") as f:
        f.write("".join("%.3f %.3f\n" % (10.6 + rng.gauss(0, 0.3), 20 + rng.gauss(0, 1)) for _ in range(15)))
    with open(os.path.join(d, "z.csv"), "w") as f:
        f.write("".join("a,%.3f,b\n" % (11 + rng.gauss(0, 0.3)) for _ in range(15)))


def script(d, name, text):
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o755)
    return path


def steady_script(d):
    """A benchmark printing fixed values in turn (a counter file)."""
    script(d, "bench.sh", "#!/bin/sh\nn=$(cat n 2>/dev/null || echo 0)\necho $((n + 1)) > n\n"
           "echo \"score: $((100 + n % 3))\"\n")


def campaign_plan(d, expect=True):
    """Two variants, 2 boots each, 2 runs and a warm-up a boot; the workload
    prints 100 + V + (a counter mod 3), V the variant's environment."""
    count = os.path.join(d, "count")
    command = ["sh", "-c", "n=$(cat %s 2>/dev/null || echo 0); echo $((n + 1)) > %s; echo $((100 + V + n %% 3))"
               % (count, count)]
    variants = [{"label": v, "reboot": True, "env": {"V": str(i)}} for i, v in enumerate(("a", "b"))]
    if expect:
        for v in variants:
            v["expect"] = {"command": ["true"]}
    plan = {"name": "try", "variants": variants, "runs_per_boot": 2, "boots_per_variant": 2, "warmup_runs": 1,
            "workload": {"command": command, "parser": "lines", "metric_name": "fps", "unit": "fps",
                         "direction": "higher"},
            "reboot_command": ["true"], "seed": 3}
    with open(os.path.join(d, "plan.json"), "w") as f:
        json.dump(plan, f, indent=1)


def campaign_plan_without_expect(d):
    campaign_plan(d, expect=False)


GIT_ENV = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org",
           "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z"}


def bisect_repo(d, bisecting=True, commits=5):
    """A benchmark script taking its level as argument (plus a counter mod 3)
    and a git repository of 5 commits, bisection under way between the
    first and the last; the references are recorded by the case's prep."""
    script(d, "bench.sh", "#!/bin/sh\nn=$(cat n 2>/dev/null || echo 0)\necho $((n + 1)) > n\n"
           "echo \"score: $(($1 + n % 3))\"\n")
    repo = os.path.join(d, "repo")
    os.mkdir(repo)
    env = dict(os.environ, HOME=d, **GIT_ENV)

    def git(*args):
        return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, env=env, text=True).stdout
    git("init", "-q", "-b", "main")
    for i in range(commits):
        with open(os.path.join(repo, "f"), "w") as f:
            f.write("%d\n" % i)
        git("add", "f")
        git("commit", "-q", "-m", "commit %d" % i)
    if bisecting:
        git("bisect", "start", "HEAD", "HEAD~4")
    return git("rev-list", "--reverse", "HEAD").split()


def history_repo(d, builds=10, step_at=6):
    """history()'s files, tagged with the commits of a git repository."""
    for i, commit in enumerate(bisect_repo(d, bisecting=False, commits=builds)):
        one_variant(d, "b%02d.json" % i, "bench", 100.0 if i < step_at else 97.0, 100 + i, runs=6, commit=commit)


def bisect_repo_idle(d):
    bisect_repo(d, bisecting=False)


def tunable_machine(d):
    """A copy of the fake machine that tune may change (tests/data/probe_root/tunable)."""
    shutil.copytree(os.path.join(SOURCE, "tests", "data", "probe_root", "tunable"), os.path.join(d, "root"),
                    symlinks=True)


def all_of(*makers):
    def make(d):
        for m in makers:
            m(d)
    return make
