#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Frame times from the command line (docs/frame-times.md): a results file
holding each run's per-frame times (declared "per": "frame") beside the
run's summaries. compare, summary and ministat compare runs, never frames
as if they were independent; show counts frames per run. --metric regexes
with named groups make one metric per name the output prints. And the
frame-time formats: `import --from mangohud|presentmon|piglit-replay`, with
a log written by the real MangoHud when it can run here."""

import csv
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402
from testlib import check, finish, run  # noqa: E402

HEADER = ('{"format":"gfxstat-results","version":1,"id":"0123456789abcdef0123456789abcdef",'
          '"created":"2026-12-01T00:00:00Z","generator":"test"}\n')
DECLARATIONS = (
    '{"type":"metric","name":"frame_time","unit":"ms","direction":"lower","primary":false,"per":"frame"}\n'
    '{"type":"metric","name":"fps_mean","unit":"frames/s","direction":"higher","primary":true}\n')


def frames_file(d, runs=5, frames=100):
    """Two variants, `runs` runs each, `frames` frame times per run; each
    run's fps_mean is 1000 * n / sum, written with 6 decimals."""
    rng = random.Random(20261201)
    lines = [HEADER, DECLARATIONS]
    for variant, base in (("base", 16.0), ("patch", 15.8)):
        for r in range(runs):
            level = base + rng.gauss(0, 0.3)  # the run's own level: frames share it
            t = [round(level + rng.gauss(0, 0.5), 3) for _ in range(frames)]
            fps = 1000 * len(t) / sum(t)
            lines.append(json.dumps({"type": "run", "variant": variant, "run": r, "exit": {"class": "ok"},
                                     "metrics": {"frame_time": t, "fps_mean": round(fps, 6)}}) + "\n")
    return testlib.write(d, "frames.json", "".join(lines))


def within_run_checks(g, d):
    f = frames_file(d)
    # compare: frame_time is not among the default metrics; fps_mean is,
    # with one value per run.
    rc, out, err = run([g, "compare", "--format", "json", "--bootstrap", "0", f])
    check(rc in (0, 1), f"compare of a frames file: rc {rc}: {err}")
    if rc in (0, 1):
        doc = json.loads(out)
        metrics = [c["metric"] for c in doc["comparisons"]]
        check(not any("frame_time" in m for m in metrics), f"compare leaves frame_time out: {metrics}")
        check(any("fps_mean" in m for m in metrics), f"compare compares fps_mean: {metrics}")
        for c in doc["comparisons"]:
            check(c["baseline"]["n"] == 5 and c["candidate"]["n"] == 5,
                  f"compare counts runs (5 a side), not frames: {c['baseline']['n']}, {c['candidate']['n']}")
    # Named explicitly: refused, pointing at the per-run metric.
    for cmd in (["compare", "--metric", "frame_time", f], ["summary", "--metric", "frame_time", f],
                ["ministat", "--metric", "frame_time", f]):
        rc, out, err = run([g] + cmd)
        check(rc == 2 and "holds one value per frame (1000 frames in 10 runs)" in err and "'fps_mean'" in err,
              f"{cmd[0]} --metric frame_time: rc {rc}: {err}{out}")
    # summary without --metric: the only per-run metric.
    rc, out, err = run([g, "summary", "--json", f])
    check(rc == 0, f"summary: rc {rc}: {err}")
    if rc == 0:
        got = [(i["metric"], i["n"]) for i in json.loads(out)["inputs"]]
        check(got == [("fps_mean", 5), ("fps_mean", 5)], f"summary takes fps_mean, 5 runs a variant: {got}")
    # show: frames counted per run; the JSON says what a value is.
    rc, out, err = run([g, "show", f])
    check(rc == 0 and "500 frames in 5 runs" in out and "one value per" in out, f"show: rc {rc}: {out}{err}")
    rc, out, err = run([g, "show", "--json", f])
    if check(rc == 0, f"show --json: rc {rc}: {err}"):
        per = {m["name"]: m["per"] for m in json.loads(out)["metrics"]}
        check(per == {"frame_time": "frame", "fps_mean": "run"}, f"show --json per: {per}")
        check(all(x["metric"] != "frame_time" for x in json.loads(out)["diagnostics"]),
              "show runs no diagnostics on frames")
    # A file holding only frame times has nothing to compare.
    only = testlib.write(d, "only.json", HEADER + DECLARATIONS.splitlines(True)[0] +
                         '{"type":"run","variant":"a","run":0,"exit":{"class":"ok"},"metrics":{"frame_time":[16,17]}}\n'
                         '{"type":"run","variant":"b","run":0,"exit":{"class":"ok"},"metrics":{"frame_time":[16,17]}}\n')
    rc, out, err = run([g, "compare", only])
    check(rc == 2 and "no metric with one sample per run" in err, f"compare of frames only: rc {rc}: {err}")


def named_group_checks(g, d):
    out_path = os.path.join(d, "engines.json")
    script = "printf 'rcs0: 1000 cycles: 5.5us\\nbcs0: 900 cycles: 6us\\nrcs0: 1000 cycles: 5.25us\\n'"
    rc, out, err = run([g, "run", "--runs", "2", "--unit", "us", "--lower-is-better", "-o", out_path,
                        "--metric", r"(?<name>\w+): \d+ cycles: (?<value>[\d.]+)us", "--", "sh", "-c", script])
    check(rc == 0, f"run --metric with named groups: rc {rc}: {err}")
    if rc == 0:
        recs = [json.loads(line) for line in open(out_path) if line.strip()]
        metrics = {r["name"]: r for r in recs if r.get("type") == "metric"}
        check(set(metrics) == {"rcs0", "bcs0"}, f"one metric per engine: {sorted(metrics)}")
        check(all(m["unit"] == "us" and m["direction"] == "lower" for m in metrics.values()),
              f"--unit and the direction apply to every named metric: {metrics}")
        runs = [r for r in recs if r.get("type") == "run"]
        check(len(runs) == 2 and runs[0]["metrics"] == {"rcs0": [5.5, 5.25], "bcs0": 6},
              f"per-engine values: {runs[:1]}")
    # A name that is not a metric name fails the run, naming the line.
    bad = os.path.join(d, "bad.json")
    rc, out, err = run([g, "run", "--runs", "1", "-o", bad, "--metric", r"(?<name>[^:]+): (?<value>\d+)",
                        "--", "sh", "-c", "printf 'ok: 1\\nnot ok: 2\\n'"])
    recs = [json.loads(line) for line in open(bad) if line.strip()] if os.path.exists(bad) else []
    reasons = [r["exit"].get("reason", "") for r in recs if r.get("type") == "run"]
    check(reasons and "line 2" in reasons[0] and "not ok" in reasons[0], f"invalid name: rc {rc}: {reasons} {err}")
    # Two kinds in one spec are refused when the option is read.
    rc, out, err = run([g, "run", "--runs", "1", "-o", os.path.join(d, "x.json"), "--metric",
                        r"x=(?<name>\w+) (?<value>\d+)", "--", "true"])
    check(rc == 2 and "give it without 'x='" in err, f"NAME= with a name group: rc {rc}: {err}")


def summary(t):
    """The per-run summaries of docs/frame-times.md, computed apart from
    gfxstat: exact fractions, and statistics.quantiles' "inclusive" method,
    which is R's type 7."""
    n = len(t)
    median = statistics.median(t)
    slow = sorted(t, reverse=True)

    def low(den):
        k = max(1, math.ceil(n / den))
        return float(1000 * k / sum(slow[:k]))

    return {"frames": n, "fps_mean": float(1000 * n / sum(t)), "frame_time_median": float(median),
            "frame_time_p99": float(t[0] if n == 1 else statistics.quantiles(t, n=100, method="inclusive")[98]),
            "fps_1pct_low": low(100), "fps_0.1pct_low": low(1000),
            "stutters": sum(1 for x in t if x > 2 * median)}


def import_one(g, d, fmt, path, name):
    """The records of `gfxstat import --from fmt path`, or None."""
    out = os.path.join(d, name + ".json")
    rc, _, err = run([g, "import", "--from", fmt, "--label", name, "-o", out, path])
    if not check(rc == 0, f"import --from {fmt} {os.path.basename(path)}: rc {rc}: {err}"):
        return None
    return [json.loads(line) for line in open(out) if line.strip()]


def check_summaries(recs, prefix, want, what):
    metrics = {r["name"]: r for r in recs if r.get("type") == "metric"}
    runs = [r for r in recs if r.get("type") == "run"]
    check(metrics.get(prefix + "frame_time", {}).get("per") == "frame", f"{what}: frame_time is per frame")
    check(metrics.get(prefix + "fps_mean", {}).get("primary") is True, f"{what}: fps_mean is primary")
    if not check(len(runs) == 1, f"{what}: one file, one run: {len(runs)}"):
        return
    got = runs[0]["metrics"]
    check(len(got[prefix + "frame_time"]) == want["frames"], f"{what}: frames {len(got[prefix + 'frame_time'])}")
    for k, v in want.items():
        g = got.get(prefix + k)
        check(g is not None and abs(g - v) <= 1e-12 * abs(v), f"{what}: {k} {g} vs reference {v}")


def mangohud_frames(path):
    """Frame times in ms of a MangoHud 0.6 log (frametime in us), without
    the rows of a frame begun before MangoHud's clock (frametime > elapsed)."""
    rows = list(csv.reader(open(path)))
    head = rows[2]
    ft, el = head.index("frametime"), head.index("elapsed")
    return [Fraction(int(r[ft]), 1000) for r in rows[3:] if int(r[ft]) * 1000 <= int(r[el])]


def real_mangohud_log(d):
    """A log written by the real MangoHud here (vkcube on Xvfb + lavapipe,
    every frame), or None with the reason."""
    for tool in ("mangohud", "xvfb-run", "vkcube"):
        if not shutil.which(tool):
            return None, f"{tool} is not installed"
    out = os.path.join(d, "mangohud-logs")
    os.makedirs(out, exist_ok=True)
    env = dict(os.environ, MANGOHUD_CONFIG=f"output_folder={out},autostart_log=1,log_duration=2,log_interval=0")
    try:
        subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 640x480x24", "mangohud", "vkcube", "--c", "1500"],
                       env=env, capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        return None, "vkcube under MangoHud did not end within 120 s"
    logs = [f for f in os.listdir(out) if f.endswith(".csv") and not f.endswith("_summary.csv")]
    if not logs:
        return None, "MangoHud wrote no log"
    return os.path.join(out, logs[0]), ""


def format_checks(g, d, src):
    fx = os.path.join(src, "tests/fixtures/frames")
    # MangoHud: the real program's log when it runs here, else the fixture
    # the real MangoHud 0.6.8 wrote (tests/fixtures/frames/README.md).
    log, why = real_mangohud_log(d)
    if log:
        print("mangohud: a log written just now by the real MangoHud (vkcube, Xvfb, lavapipe)")
        frames = mangohud_frames(log)
        if len(frames) < 3:
            log, why = None, f"the real MangoHud logged {len(frames)} frames"
    if not log:
        print(f"mangohud: the real MangoHud could not run ({why}); using the fixture it wrote, "
              "mangohud_0.6.8_vkcube.csv")
        log = os.path.join(fx, "mangohud_0.6.8_vkcube.csv")
    recs = import_one(g, d, "mangohud", log, "mangohud")
    if recs:
        check_summaries(recs, "", summary(mangohud_frames(log)), "mangohud")
        envs = [r for r in recs if r.get("type") == "environment"]
        check(envs and "mangohud_driver" in envs[0], f"mangohud: the preamble in the environment: {envs}")
    if log != os.path.join(fx, "mangohud_0.6.8_vkcube.csv"):
        # gfxstat run: the command prints the log MangoHud wrote (docs/frame-times.md).
        ran = os.path.join(d, "ran.json")
        script = ('d=$(mktemp -d) && MANGOHUD_CONFIG=output_folder=$d,autostart_log=1,log_duration=2,log_interval=0 '
                  'xvfb-run -a -s "-screen 0 640x480x24" mangohud vkcube --c 1500 >/dev/null 2>&1 && '
                  'cat "$d"/*[0-9].csv && rm -r "$d"')
        rc, _, err = run([g, "run", "--parser", "mangohud", "--runs", "2", "--timeout", "120", "-o", ran,
                          "--", "sh", "-c", script])
        if check(rc == 0, f"run --parser mangohud: rc {rc}: {err}"):
            recs = [json.loads(x) for x in open(ran) if x.strip()]
            # MangoHud starts logging a second after the program does
            # (autostart_log=1); on a loaded machine a run may end before
            # it writes a log, and then fails saying so. gfxstat runs on
            # until two runs are ok.
            runs = [r for r in recs if r.get("type") == "run" and r["exit"]["class"] == "ok"]
            failed = [r["exit"].get("reason", "") for r in recs if r.get("type") == "run" and r not in runs]
            check(len(runs) == 2 and all("No such file" in why for why in failed),
                  f"run: two ok runs, failures only for a missing log: {len(runs)} ok, {failed}")
            ft = [r for r in recs if r.get("type") == "metric" and r["name"] == "frame_time"]
            check(ft and ft[0].get("per") == "frame", f"run declares frame_time per frame: {ft}")
            for r in runs:
                t = [Fraction(str(x)) for x in r["metrics"].get("frame_time", [])]
                if check(len(t) >= 3, f"run: frames logged: {len(t)}"):
                    want = summary(t)["fps_mean"]
                    check(abs(r["metrics"]["fps_mean"] - want) <= 1e-12 * want,
                          f"run: fps_mean {r['metrics']['fps_mean']} vs {want}")
    rc, _, err = run([g, "import", "--from", "mangohud", "-o", os.path.join(d, "sampled.json"),
                      os.path.join(fx, "mangohud_0.6.8_interval100.csv")])
    check(rc == 2 and "log_interval=0" in err, f"mangohud: a sampled log is refused: rc {rc}: {err}")
    recs = import_one(g, d, "mangohud", os.path.join(fx, "mangohud_0.6.8_vkcube_summary.csv"), "summary")
    if recs:
        got = [r for r in recs if r.get("type") == "run"][0]["metrics"]
        check(got.get("mangohud_fps_mean") == 310.1 and got.get("mangohud_fps_1pct_min") == 14.0,
              f"mangohud summary: {got}")
    # PresentMon: one metric set per process.
    recs = import_one(g, d, "presentmon", os.path.join(fx, "presentmon.csv"), "presentmon")
    if recs:
        rows = list(csv.DictReader(open(os.path.join(fx, "presentmon.csv"))))
        for app in ("game.exe", "dwm.exe"):
            t = [Fraction(r["MsBetweenPresents"]) for r in rows if r["Application"] == app][1:]
            check_summaries(recs, app + ".", summary(t), "presentmon " + app)
    # piglit replay profile: ns.
    path = os.path.join(fx, "piglit_replay_profile.txt")
    recs = import_one(g, d, "piglit-replay", path, "piglit")
    if recs:
        line = [x for x in open(path) if x.startswith("PIGLIT:")][0]
        ns = json.loads(line[7:])["images"][0]["frame_times"]
        check_summaries(recs, "", summary([Fraction(x, 10**6) for x in ns]), "piglit-replay")
    # vkmark: per-run values, nothing within-run.
    recs = import_one(g, d, "vkmark", os.path.join(fx, "vkmark.txt"), "vkmark")
    if recs:
        got = [r for r in recs if r.get("type") == "run"][0]["metrics"]
        check(got.get("score") == 1094 and got.get("vertex.device-local_true") == 1422, f"vkmark: {got}")
        check(all("per" not in r for r in recs if r.get("type") == "metric"), "vkmark: no within-run metric")
    # Runs of frame-time imports compare as runs: three logs a side.
    cmp_file = os.path.join(d, "cmp.json")
    for label in ("a", "b"):
        for k in range(3):
            rows = ["Application,ProcessID,SwapChainAddress,MsBetweenPresents"]
            rng = random.Random(f"{label}{k}")
            rows += [f"g.exe,1,0x1,{16 + (0.5 if label == 'b' else 0) + rng.random():.3f}" for _ in range(200)]
            p = testlib.write(d, f"{label}{k}.csv", "\n".join(rows) + "\n")
            rc, _, err = run([g, "import", "--from", "presentmon", "--label", label, "-o", cmp_file] +
                             (["--append"] if os.path.exists(cmp_file) else []) + [p])
            check(rc == 0 and "(7 samples, 200 frames within runs)" in err, f"import {label}{k}: rc {rc}: {err}")
    rc, out, err = run([g, "compare", "--format", "json", "--bootstrap", "0", cmp_file])
    if check(rc in (0, 1), f"compare of imported PresentMon runs: rc {rc}: {err}"):
        doc = json.loads(out)
        names = [c["metric"] for c in doc["comparisons"]]
        check(any("g.exe.fps_mean" in n for n in names) and not any("g.exe.frame_time " in n + " " for n in names),
              f"compared: {names}")
        check(all(c["baseline"]["n"] == 3 for c in doc["comparisons"]), "three runs a side, not 600 frames")


def main():
    g, src = testlib.paths()
    with tempfile.TemporaryDirectory() as d:
        within_run_checks(g, d)
        named_group_checks(g, d)
        format_checks(g, d, src)
    return finish("frames_cli: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
