#!/usr/bin/env python3
"""Writes the results files the diagnostics tests read, from the R reference
cases in tests/data/reference_cases.json:

- clustered.json: clustered_balanced_5x6 (2 builds x 5 boots x 6 runs), one
  run per value, the boot labels turned into boot ids;
- clustered_null.json: clustered_balanced_3x10_null, likewise;
- confounded.json: the first boot of each build only (one boot per variant).

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


def main():
    with open(REF) as f:
        cases = {c["id"]: c for c in json.load(f)["clustered_cases"]}
    write(os.path.join(HERE, "clustered.json"), cases["clustered_balanced_5x6"])
    write(os.path.join(HERE, "clustered_null.json"), cases["clustered_balanced_3x10_null"])
    write(os.path.join(HERE, "confounded.json"), cases["clustered_balanced_5x6"], lambda b: b in ("a1", "b1"))


if __name__ == "__main__":
    main()
