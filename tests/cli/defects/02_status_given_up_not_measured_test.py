#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`campaign status` must count as measured only the runs whose values the
analysis will use. A step interrupted max_run_attempts times is given up
and recorded as a failed run; a run can also simply fail. Both are done
(never run again) but hold no value: status used to count them as measured
("2 of 2 runs, measured in 1 boot", "4 of 4 measured") while `summary`
found fewer values. Now measured_done (text, JSON, per variant) counts the
ok runs, and given-up and failed steps are counted apart and named."""

import json
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import check, finish, paths, write  # noqa: E402

GFXSTAT, SOURCE = paths()


def main():
    with tempfile.TemporaryDirectory() as root:
        boot = os.path.join(root, "boot_id")
        with open(boot, "w") as f:
            f.write(f"{random.getrandbits(128):032x}\n")
        env = dict(os.environ, GFXSTAT_BOOT_ID_FILE=boot, MACHINE=root)
        # Variant b's first run "crashes the machine" (kills resume, its
        # parent): with max_run_attempts 1 the next resume gives it up.
        # Variant a's first run fails (exit 1).
        script = ('if [ -n "$OFFSET" ] && [ ! -e "$MACHINE/crashed" ]; then touch "$MACHINE/crashed"; '
                  'kill -9 $PPID; sleep 1; fi; '
                  'if [ -z "$OFFSET" ] && [ ! -e "$MACHINE/failed" ]; then touch "$MACHINE/failed"; exit 1; fi; '
                  'echo $(( ${OFFSET:-0} + 100 ))')
        plan = {
            "name": "given-up",
            "variants": [{"label": "a", "reboot": False},
                         {"label": "b", "reboot": False, "env": {"OFFSET": "3"}}],
            "workload": {"command": ["sh", "-c", script], "parser": "lines", "metric_name": "fps",
                         "unit": "fps", "direction": "higher"},
            "runs_per_boot": 3, "boots_per_variant": 1, "warmup_runs": 0, "order": "abba", "seed": 7,
            "max_run_attempts": 1, "reboot_first": False,
            "reboot_command": "echo no reboot needed",
        }
        plan_path = write(root, "plan.json", json.dumps(plan))
        d = os.path.join(root, "c")

        def gfx(*args):
            p = subprocess.run([GFXSTAT, *args], env=env, capture_output=True, timeout=60)
            return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")

        rc, out, err = gfx("campaign", "init", plan_path, "-d", d)
        check(rc == 0, f"init ({rc}: {err})")
        rcs = []
        for _ in range(4):
            rc, out, err = gfx("campaign", "resume", d)
            rcs.append(rc)
            if rc == 0 and "complete" in err:
                break
        check(rcs[0] == -9 and rcs[-1] == 0, f"the first resume is killed, a later one completes: {rcs} ({err})")

        rc, out, err = gfx("campaign", "status", d, "--json")
        check(rc == 0, f"status --json ({rc}: {err})")
        st = json.loads(out) if rc == 0 else {}
        check(st.get("complete") is True and st.get("runs_done") == 6, f"every step is done: {st}")
        kinds = [a["kind"] for a in st.get("anomalies", [])]
        check(sorted(kinds) == ["failed_run", "given_up"],
              f"the anomalies name each once (a given-up step is not a failed run too): {kinds}")
        check(st.get("measured_done") == 4 and st.get("measured_total") == 6,
              f"4 of 6 measured: one failed, one given up ({st.get('measured_done')} of {st.get('measured_total')})")
        check(st.get("given_up") == 1 and st.get("failed") == 1,
              f"given up and failed counted apart: {st.get('given_up')}, {st.get('failed')}")
        by = {v["label"]: v for v in st.get("variants", [])}
        check(by.get("a", {}).get("measured_done") == 2 and by.get("a", {}).get("failed") == 1 and
              by.get("a", {}).get("given_up") == 0, f"variant a: 2 measured, 1 failed: {by.get('a')}")
        check(by.get("b", {}).get("measured_done") == 2 and by.get("b", {}).get("given_up") == 1 and
              by.get("b", {}).get("failed") == 0, f"variant b: 2 measured, 1 given up: {by.get('b')}")

        # What summary finds is what status calls measured.
        for label in ("a", "b"):
            rc, out, err = gfx("summary", os.path.join(d, "results.json"), "--variant", label, "--json",
                               "--no-diagnostics")
            n = None
            if rc == 0:
                doc = json.loads(out)
                found = []

                def walk(x):
                    if isinstance(x, dict):
                        if "n" in x and isinstance(x["n"], int):
                            found.append(x["n"])
                        for y in x.values():
                            walk(y)
                    elif isinstance(x, list):
                        for y in x:
                            walk(y)
                walk(doc)
                n = found[0] if found else None
            check(n == by.get(label, {}).get("measured_done"),
                  f"summary --variant {label} finds as many values as status says are measured ({n}: {err})")

        rc, out, err = gfx("campaign", "status", d)
        check(rc == 0 and "6 of 6 done (4 of 6 measured; 1 given up, 1 failed)" in out,
              f"text: measured, given up and failed: {out}")
        check("3 of 3 runs, 2 of 3 measured in 1 boot, 1 failed (a)" in out,
              f"text: variant a's line names its failed run: {out}")
        check("3 of 3 runs, 2 of 3 measured in 1 boot, 1 given up (b)" in out,
              f"text: variant b's line names its given-up run: {out}")
    return finish("campaign status counts given-up and failed steps apart from measured ones")


if __name__ == "__main__":
    sys.exit(main())
