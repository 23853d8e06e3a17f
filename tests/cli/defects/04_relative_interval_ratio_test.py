#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Relative intervals of a positive quantity never pass -100%. compare
divided the difference's interval by the baseline's mean or median, so a
gem_syslatency latency that fell from 67 us to 10 us over a noisy
baseline read `-86% [-121.7%, -66.2%]`, and `--summaries` `95% CI -118.6%
to -51.5%`: bounds no latency can reach. Guards against: a relative bound
at or below -100% where every value is positive (Mann-Whitney and Welch
primaries, --brief, the full report, JSON, --summaries); Welch's and
--summaries' relative interval differing from Fieller's interval for the
ratio of means, as tests/data/make_ratio_interval_reference.py computes it
(mpmath) into tests/data/ratio_interval_reference.json; a boot's mean
interval in the boot-means picture below 0."""

import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import check, finish, load_json, paths, run, write  # noqa: E402

GFXSTAT, SRC = paths()
CASES = {c["name"]: c for c in load_json(SRC, "tests/data/ratio_interval_reference.json")["cases"]}


def results(path, base, cand, boots=None):
    """latency_mean (and latency_max = 3x / 5x) of two variants; boot ids when given."""
    lines = [{"format": "gfxstat-results", "version": 1, "id": "0" * 32,
              "created": "2026-11-30T05:00:00.000000Z", "generator": "test"},
             {"type": "metric", "name": "latency_mean", "unit": "us", "direction": "lower", "primary": True},
             {"type": "metric", "name": "latency_max", "unit": "us", "direction": "lower", "primary": True}]
    n = 0
    for variant, values, scale in (("before", base, 3), ("after", cand, 5)):
        for i, v in enumerate(values):
            run_ = {"type": "run", "variant": variant, "run": n, "exit": {"class": "ok", "code": 0},
                    "metrics": {"latency_mean": v, "latency_max": round(v * scale, 3)}}
            if boots:
                run_["boot"] = boots[i]
            lines.append(run_)
            n += 1
    with open(path, "w") as f:
        f.write("".join(json.dumps(x) + "\n" for x in lines))


def brief_intervals(out):
    """{metric: (change %, low %, high %)} from compare --brief."""
    got = {}
    for m in re.finditer(r"^(latency_\w+)\s.*?([+-][\d.]+)% \[([+-][\d.]+)%, ([+-][\d.]+)%\]", out, re.M):
        got[m.group(1)] = tuple(float(x) for x in m.group(2, 3, 4))
    return got


def main():
    with tempfile.TemporaryDirectory() as d:
        # Ten runs a side, skewed baseline: the rank test is primary.
        syslat = CASES["syslatency_mean"]
        f = os.path.join(d, "syslat.json")
        results(f, syslat["baseline"], syslat["candidate"])
        rc, out, err = run([GFXSTAT, "compare", "--brief", f])
        check(rc == 0, f"compare --brief: exit {rc}: {err}")
        got = brief_intervals(out)
        check(set(got) == {"latency_mean", "latency_max"}, f"--brief gives both intervals: {out}")
        for metric, (change, lo, hi) in got.items():
            check(lo > -100, f"{metric}: lower bound {lo}% is below -100% for a positive quantity: {out}")
            check(lo <= change <= hi, f"{metric}: the interval [{lo}, {hi}] holds its change {change}")

        rc, out, err = run([GFXSTAT, "compare", "--json", os.path.join(d, "c.json"), f])
        check(rc == 0, f"compare --json: exit {rc}: {err}")
        with open(os.path.join(d, "c.json")) as j:
            doc = j.read()
        lows = [float(x) for x in re.findall(r'"relative_change_ci":\s*\[\s*(-?[\d.e+-]+)', doc)]
        check(lows and all(x > -1 for x in lows), f"JSON relative_change_ci lower bounds {lows} pass -100%")

        # Five runs a side: Welch's t is primary, and its relative interval
        # is Fieller's for the ratio of means.
        few = CASES["welch_few_runs"]
        f = os.path.join(d, "few.json")
        results(f, few["baseline"], few["candidate"])
        rc, out, err = run([GFXSTAT, "compare", "--brief", "--metric", "latency_mean", f])
        check(rc == 0, f"compare --brief (Welch): exit {rc}: {err}")
        got = brief_intervals(out).get("latency_mean")
        check(got is not None, f"--brief (Welch) gives an interval: {out}")
        if got:
            want = ((few["ratio"] - 1) * 100, (few["low"] - 1) * 100, (few["high"] - 1) * 100)
            for g, w, what in zip(got, want, ("change", "low", "high")):
                # --brief prints 3 significant digits
                check(abs(g - w) <= 0.051 * max(1, abs(w) / 10), f"Welch {what}: {g}% printed, Fieller gives {w:.3f}%")

        # --summaries: N, mean and sd a side, Welch's t; the relative
        # interval is Fieller's with Welch's degrees of freedom.
        def stats(v):
            m = sum(v) / len(v)
            return len(v), m, (sum((x - m) ** 2 for x in v) / (len(v) - 1)) ** 0.5
        na, ma, sa = stats(syslat["baseline"])
        nb, mb, sb = stats(syslat["candidate"])
        # ministat's table (N, Min, Max, Median, Avg, Stddev).
        table = write(d, "sum.txt", "    N           Min           Max        Median           Avg        Stddev\n"
                      f"x {na} {min(syslat['baseline'])} {max(syslat['baseline'])} 50 {ma!r} {sa!r}\n"
                      f"+ {nb} {min(syslat['candidate'])} {max(syslat['candidate'])} 10 {mb!r} {sb!r}\n")
        rc, out, err = run([GFXSTAT, "compare", "--summaries", table])
        m = re.search(r"95% CI ([+-][\d.]+)% to ([+-][\d.]+)%", out)
        check(rc == 0 and m is not None, f"compare --summaries: exit {rc}, an interval: {out} {err}")
        if m:
            lo, hi = float(m.group(1)), float(m.group(2))
            want_lo, want_hi = (syslat["low"] - 1) * 100, (syslat["high"] - 1) * 100
            check(lo > -100, f"--summaries: lower bound {lo}% below -100%")
            check(abs(lo - want_lo) < 0.051 and abs(hi - want_hi) < 0.051,
                  f"--summaries: [{lo}%, {hi}%], Fieller gives [{want_lo:.2f}%, {want_hi:.2f}%]")

        # Boot means: three boots a side, one of them far off; the boot
        # picture's per-boot mean intervals stay above 0.
        base = [20, 150, 35, 40, 42, 38, 41, 39, 40]
        cand = [10, 11, 30, 9, 10, 10.5, 9.8, 10.1, 10.2]
        f = os.path.join(d, "boots.json")
        results(f, base, cand, boots=["b1", "b1", "b1", "b2", "b2", "b2", "b3", "b3", "b3"])
        svg = os.path.join(d, "boots.svg")
        rc, _, err = run([GFXSTAT, "compare", "--metric", "latency_mean", "--plot", svg, "--plot-kind", "boot-means",
                          f])
        check(rc in (0, 1), f"compare --plot boot-means: exit {rc}: {err}")
        text = open(svg).read() if os.path.exists(svg) else ""
        tips = re.findall(r"<title>([^<]*)</title>", text)
        lows = [float(x) for t in tips for x in re.findall(r"interval (-?[\d.]+) us", t)]
        check(bool(lows), f"the boot-means picture has intervals in its tooltips: {tips[:5]}")
        check(all(x >= 0 for x in lows), f"a boot's mean interval passes below 0: {lows}")
    return finish("relative intervals of positive quantities are ratios'")


if __name__ == "__main__":
    sys.exit(main())
