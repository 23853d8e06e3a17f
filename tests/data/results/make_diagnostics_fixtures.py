#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the results files the diagnostics tests read, from the R reference
cases in tests/data/reference_cases.json:

- clustered.json: clustered_balanced_5x6 (2 builds x 5 boots x 6 runs), one
  run per value, the boot labels turned into boot ids;
- clustered_null.json: clustered_balanced_3x10_null, likewise;
- confounded.json: the first boot of each build only (one boot per variant);
- partial_boots.json: clustered.json with the boot id of one candidate run
  missing (imported data can be like that);
- shared_boots.json: an interleaved A/B: 4 boots at levels 100, 108, 92,
  104, each running baseline and candidate (+3%) five times, alternating,
  with fixed small noise.

Run from the repository root; the output is checked in.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
REF = os.path.join(HERE, "..", "reference_cases.json")


def boot_id(label):
    # A fixed, boot_id-shaped identifier per label.
    h = "".join(f"{ord(c):02x}" for c in label).ljust(32, "0")[:32]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def write(path, case, keep=lambda boot: True):
    data = case["data"]
    lines = [{"format": "gfxstat-results", "version": 1, "id": case["id"].replace("_", "")[:32].ljust(32, "0"),
              "created": "2026-11-30T00:00:00Z", "generator": "make_diagnostics_fixtures.py"},
             {"type": "metric", "name": "y", "unit": "ms", "direction": "lower"}]
    index = {}
    for build, boot, y in zip(data["build"], data["boot"], data["y"]):
        if not keep(boot):
            continue
        variant = {"a": "baseline", "b": "candidate"}[build]
        run = index.get(variant, 0)
        index[variant] = run + 1
        lines.append({"type": "run", "variant": variant, "run": run, "boot": boot_id(boot),
                      "exit": {"class": "ok", "code": 0}, "metrics": {"y": y}})
    with open(path, "w") as f:
        for line in lines:
            f.write(json.dumps(line, separators=(",", ":")) + "\n")


def write_shared(path):
    lines = [{"format": "gfxstat-results", "version": 1, "id": "5a4ed0b0075000000000000000000000",
              "created": "2026-11-30T00:00:00Z", "generator": "make_diagnostics_fixtures.py"},
             {"type": "metric", "name": "y", "unit": "ms", "direction": "lower"}]
    noise = [0.11, -0.07, 0.03, -0.12, 0.05, 0.08, -0.02, -0.09, 0.06, -0.04]
    index = {"baseline": 0, "candidate": 0}
    k = 0
    for b, level in enumerate([100, 108, 92, 104]):
        for rep in range(5):
            for variant, factor in (("baseline", 1.0), ("candidate", 1.03)):
                y = round(level * factor + noise[k % len(noise)], 4)
                k += 1
                lines.append({"type": "run", "variant": variant, "run": index[variant],
                              "boot": boot_id(f"s{b}"), "exit": {"class": "ok", "code": 0}, "metrics": {"y": y}})
                index[variant] += 1
    with open(path, "w") as f:
        for line in lines:
            f.write(json.dumps(line, separators=(",", ":")) + "\n")


def main():
    with open(REF) as f:
        cases = {c["id"]: c for c in json.load(f)["clustered_cases"]}
    write(os.path.join(HERE, "clustered.json"), cases["clustered_balanced_5x6"])
    write(os.path.join(HERE, "clustered_null.json"), cases["clustered_balanced_3x10_null"])
    write(os.path.join(HERE, "confounded.json"), cases["clustered_balanced_5x6"], lambda b: b in ("a1", "b1"))
    write(os.path.join(HERE, "partial_boots.json"), cases["clustered_balanced_5x6"])
    with open(os.path.join(HERE, "partial_boots.json")) as f:
        text = f.read().splitlines()
    for i, line in enumerate(text):
        rec = json.loads(line)
        if rec.get("variant") == "candidate" and rec.get("run") == 7:
            del rec["boot"]
            text[i] = json.dumps(rec, separators=(",", ":"))
    with open(os.path.join(HERE, "partial_boots.json"), "w") as f:
        f.write("\n".join(text) + "\n")
    write_shared(os.path.join(HERE, "shared_boots.json"))


if __name__ == "__main__":
    main()
