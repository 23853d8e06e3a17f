#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gfxstat compare on results merged from a fleet: 3 machines x 4 boots x 5
runs a variant, written by hand as `gfxstat merge` leaves them (each run
with its origin and its environment, which names its machine), the
candidate 8% slower on dut-03 only. The values and the expected numbers
come from tests/data/fleet_reference.json (tests/data/make_fleet_reference.py:
numpy and scipy). Checked: the machine-level primary test (the paired t on
per-machine differences) and its p, "machines needed", the variance shares
of each side, each machine's change, the odd machine named in text,
markdown and JSON, machine names escaped, and the same runs without
machines compared as before."""

import json
import math
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402
from testlib import check, finish, run  # noqa: E402

ORIGINS = ["a0000000000000000000000000000001", "a0000000000000000000000000000002",
           "a0000000000000000000000000000003"]


def close(got, want, rel=1e-9, what=""):
    ok = got is not None and abs(got - want) <= rel * max(abs(want), 1e-300)
    return check(ok, f"{what}: {got} != {want}")


def fleet_file(d, ref, name="fleet.json", machines=True, hostnames=None):
    """The merged file: one origin and one environment per machine; dut-03's
    environment has a hostname only (older gfxstat), the others a machine
    id too."""
    names = hostnames or ref["machines"]
    lines = [{"format": "gfxstat-results", "version": 1, "id": "f1ee7000000000000000000000000000",
              "created": "2026-12-03T00:00:00Z", "generator": "test",
              "merged_from": [{"id": o, "path": f"{n}.json", "created": "2026-12-02T00:00:00Z"}
                              for o, n in zip(ORIGINS, ref["machines"])]},
             {"type": "metric", "name": "frame_time", "unit": "ms", "direction": "lower"}]
    for i, host in enumerate(names):
        env = {"type": "environment", "id": f"env-000000000000000{i + 1}", "kernel_release": "6.12.0"}
        if machines:
            env["hostname"] = host
            if i < 2:
                env["machine"] = f"{i + 1:02d}" * 8
        lines.append(env)
    for variant in ("baseline", "candidate"):
        side = ref[variant]
        index = [0, 0, 0]
        for v, m, b in zip(side["values"], side["machine"], side["boot"]):
            lines.append({"type": "run", "variant": variant, "run": index[m], "origin": ORIGINS[m],
                          "boot": f"boot-{variant}-{m}-{b}", "exit": {"class": "ok"},
                          "environment": f"env-000000000000000{m + 1}", "metrics": {"frame_time": v}})
            index[m] += 1
    return testlib.write(d, name, "".join(json.dumps(x) + "\n" for x in lines))


def main():
    g, src = testlib.paths()
    doc = testlib.load_json(src, "tests/data/fleet_reference.json")
    ref = doc["fleet"]
    expected = {c["id"]: c["expected"] for c in doc["cases"]}
    with tempfile.TemporaryDirectory() as d:
        path = fleet_file(d, ref)
        rc, out, err = run([g, "compare", path, "--bootstrap", "0", "--format", "json"])
        check(rc == 0, f"compare --format json exits 0: {rc} {err}")
        c = json.loads(out)["comparisons"][0] if rc == 0 else {}
        v = c.get("verdict", {})
        check(v.get("primary_test") == "paired_machine_means", f"machine-level primary test: {v.get('primary_test')}")
        check(v.get("unit") == "machines", f"runs_needed counts machines: {v.get('unit')}")
        check(isinstance(v.get("runs_needed"), (int, float)) and v["runs_needed"] >= 2, f"machines needed: {v}")
        close(v.get("p"), ref["paired"]["p"], 1e-6, "paired t p (scipy)")
        close(v.get("change"), ref["paired"]["change"], 1e-9, "change: mean of the machines' differences")
        close(v.get("relative_change"), ref["paired"]["relative_change"], 1e-9, "relative change")
        check(v.get("outcome") == "inconclusive", f"3 machines that disagree settle nothing: {v.get('outcome')}")
        check("machines per side" in v.get("reason", ""), f"the reason counts machines: {v.get('reason')}")
        m = c.get("machines", {})
        check(m.get("by_machines") is True and m.get("paired") is True, f"machines are the unit, paired: {m}")
        check(m.get("shared_machines") == 3, "3 machines ran both variants")
        check(m.get("machines_needed") == v.get("runs_needed"), "machines_needed is runs_needed")
        for side in ("baseline", "candidate"):
            got, want = m.get("components", {}).get(side) or {}, expected["fleet_" + side]
            for key in ("share_machines", "share_boots", "share_within", "sigma2_machines", "sigma2_boots",
                        "sigma2_within", "sigma2_machines_raw"):
                close(got.get(key), want[key], 1e-9, f"{side} {key} (Python reference)")
            close(got.get("f_machines", {}).get("p"), want["p_machines"], 1e-6, f"{side} machines F p")
            close(got.get("f_boots", {}).get("p"), want["p_boots"], 1e-6, f"{side} boots F p")
            check(got.get("levels") == 2 and got.get("boots") == 12, f"{side}: 3 machines > 12 boots")
        rows = m.get("rows", [])
        check(len(rows) == 3, f"a row per machine: {len(rows)}")
        for row, want in zip(rows, ref["rows"]):
            check(row["name"] == want["machine"], f"machine named by hostname: {row['name']}")
            check(row["unit"] == "boots", f"{row['name']}: Welch on boot means")
            close(row["relative_change"], want["relative_change"], 1e-9, f"{row['name']} relative change")
            close(row["relative_ci"][0], want["relative_ci"][0], 1e-7, f"{row['name']} interval")
            close(row["welch"]["p"], want["welch_p"], 1e-6, f"{row['name']} Welch p")
            close(row["leave_one_out"]["p_adjusted"], want["loo_p_adjusted"], 1e-6, f"{row['name']} leave-one-out p")
            check(row["stands_out"] == (want["machine"] == ref["odd_machine"]), f"{row['name']} stands out?")
        check(rows and rows[0]["machine"] == "01" * 8, "a machine's id is its machine field")
        check(rows and rows[2]["machine"] == "dut-03", "without a machine field, the hostname is the machine")
        check((m.get("outlier") or {}).get("name") == "dut-03", f"the odd machine: {m.get('outlier')}")

        rc, out, err = run([g, "compare", "--full", path, "--bootstrap", "0"])
        check(rc == 0, f"text compare exits 0: {rc} {err}")
        flat = " ".join(out.split())
        check("Machines:" in out, "text has a Machines: section:\n" + out)
        check("INCONCLUSIVE by paired t on machine means" in flat, "the verdict names the machine-level test")
        odd = ref["rows"][2]["relative_change"] * 100
        check(f"dut-03 alone slowed down by {odd:.3g}%; the other 2 machines agree on" in flat,
              f"the odd machine's sentence ({odd:.3g}%):\n" + out)
        check("(machines needed)" in flat, "machines needed in words")
        share = expected["fleet_baseline"]["share_machines"] * 100
        check(f"{share:.0f}% between machines" in flat, f"the baseline's share between machines ({share:.0f}%)")
        dut03 = [line for line in out.splitlines() if line.strip().startswith("dut-03")]
        check(dut03 and "<- stands out" in dut03[0], f"dut-03's row is marked: {dut03}")
        check(all(len(line) <= 72 for line in out.splitlines()), "no line wider than 72 columns")

        rc, out, err = run([g, "compare", path, "--bootstrap", "0", "--format", "markdown"])
        check(rc == 0 and "**Machines**" in out and "**stands out**" in out and "dut-03 alone" in out,
              f"markdown names the machines: {rc} {err}\n{out}")

        # A hostname with a terminal escape is printed escaped.
        evil = fleet_file(d, ref, "evil.json", hostnames=["dut-01", "dut-02", "dut\x1b[2J-03"])
        rc, out, err = run([g, "compare", "--full", evil, "--bootstrap", "0"])
        check(rc == 0 and "\x1b" not in out and "dut\\x1b[2J-03 alone" in " ".join(out.split()),
              f"machine names are escaped: {rc} {err}\n{out}")

        # The same runs without machines: the test is not machine-level.
        plain = fleet_file(d, ref, "plain.json", machines=False)
        rc, out, err = run([g, "compare", plain, "--bootstrap", "0", "--format", "json"])
        c = json.loads(out)["comparisons"][0] if rc == 0 else {}
        check(rc == 0 and "machines" not in c, f"no machines object without machines: {rc} {err}")
        check(c.get("verdict", {}).get("primary_test") in ("welch_boot_means", "welch", "mann_whitney"),
              f"without machines the test is as before: {c.get('verdict', {}).get('primary_test')}")
    return finish("fleet_compare_cli: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
