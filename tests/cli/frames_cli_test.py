#!/usr/bin/env python3
"""Frame times from the command line (docs/frame-times.md): a results file
holding each run's per-frame times (declared "per": "frame") beside the
run's summaries. compare, summary and ministat compare runs, never frames
as if they were independent; show counts frames per run. --metric regexes
with named groups make one metric per name the output prints. And the
frame-time formats: `import --from mangohud|presentmon|piglit-replay`, with
a log written by the real MangoHud when it can run here."""

import json
import os
import random
import sys
import tempfile

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


def main():
    g, src = testlib.paths()
    with tempfile.TemporaryDirectory() as d:
        within_run_checks(g, d)
        named_group_checks(g, d)
    return finish("frames_cli: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
