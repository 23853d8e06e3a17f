#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`campaign install-service` must give each campaign directory a unit of
its own. The unit used to be named after the plan's name (or the
directory's basename) with other characters made '_': two campaigns
laid out from one plan in p1/ab and p2/ab, or in `x y` and `x_y`, wrote
one unit, the second replacing the first, so that the first campaign never
resumed at boot. And a directory named `c2\\` gave a Description line
ending in a backslash, which systemd joins with the next line: the unit
lost its After= line. Now the unit is named after the directory's path as
`systemd-escape --path` writes it, a unit written for another directory is
never replaced (exit 2), and no line of the unit ends in a backslash."""

import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import check, finish, paths, run, write  # noqa: E402

GFXSTAT, SOURCE = paths()

PLAN = ('{"variants": [{"label": "a", "reboot": false}, {"label": "b", "reboot": false}], '
        '"workload": {"command": ["echo", "1"], "parser": "lines"}, '
        '"runs_per_boot": 1, "boots_per_variant": 1, "warmup_runs": 0, "reboot_first": false}')


def directives(text):
    """The unit's directives as systemd reads them: a line that ends in an
    odd number of backslashes goes on with the next line."""
    out, pending = [], ""
    for line in text.split("\n"):
        if not pending and (line.startswith("#") or line.startswith(";")):
            continue
        trailing = len(line) - len(line.rstrip("\\"))
        if trailing % 2 == 1:
            pending += line[:-1] + " "
            continue
        out.append(pending + line)
        pending = ""
    return [d for d in out if d]


def main():
    if os.geteuid() != 0:
        # The unit runs as root: install-service wants a campaign, plan and
        # gfxstat that only root can change.
        print("skipped: install-service needs root here (the campaign and gfxstat must be root's)")
        return 77
    root = tempfile.mkdtemp(prefix="gfxstat-units-")
    try:
        plan = write(root, "plan.json", PLAN)
        units = os.path.join(root, "units")
        os.makedirs(units)

        def init(rel):
            d = os.path.join(root, rel)
            os.makedirs(os.path.dirname(d), exist_ok=True)
            rc, out, err = run([GFXSTAT, "campaign", "init", plan, "-d", d])
            check(rc == 0, f"init {rel} ({rc}: {err})")
            return d

        def install(d, *extra):
            return run([GFXSTAT, "campaign", "install-service", d, "--unit-dir", units, *extra])

        def unit_of(d):
            """The unit file in `units` that resumes `d`."""
            real = os.path.realpath(d)
            found = []
            for name in sorted(os.listdir(units)):
                with open(os.path.join(units, name)) as f:
                    if f'campaign resume "{real}' in f.read():
                        found.append(name)
            return found

        p1, p2 = init("p1/ab"), init("p2/ab")
        for d in (p1, p2):
            rc, out, err = install(d)
            check(rc == 0, f"install-service {d} ({rc}: {err})")
        check(len(unit_of(p1)) == 1 and len(unit_of(p2)) == 1 and unit_of(p1) != unit_of(p2),
              f"same plan in p1/ab and p2/ab: a unit each ({sorted(os.listdir(units))})")

        xs, xu = init("x y"), init("x_y")
        for d in (xs, xu):
            rc, out, err = install(d)
            check(rc == 0, f"install-service {d} ({rc}: {err})")
        check(len(unit_of(xs)) == 1 and len(unit_of(xu)) == 1 and unit_of(xs) != unit_of(xu),
              f"'x y' and 'x_y': a unit each ({sorted(os.listdir(units))})")

        if shutil.which("systemd-escape"):
            esc = subprocess.run(["systemd-escape", "--path", os.path.realpath(p1)], capture_output=True,
                                 text=True).stdout.strip()
            check(unit_of(p1) == [f"gfxstat-campaign-{esc}.service"],
                  f"the unit is named as systemd-escape --path names the directory ({unit_of(p1)}, {esc})")

        # Another campaign's unit is never replaced, whatever --name says.
        if unit_of(p1):
            taken = unit_of(p1)[0]
            before = open(os.path.join(units, taken)).read()
            rc, out, err = install(p2, "--name", taken)
            check(rc == 2 and "p1/ab" in err and "--name" in err,
                  f"a unit of another campaign is refused, naming it ({rc}: {err})")
            check(open(os.path.join(units, taken)).read() == before, "p1's unit is left as it was")
            rc, out, err = install(p1)
            check(rc == 0, f"installing p1's unit again replaces its own ({rc}: {err})")
            # A unit an earlier gfxstat named after the plan ("ab") for this
            # campaign would resume it a second time: said.
            shutil.copy(os.path.join(units, taken), os.path.join(units, "gfxstat-campaign-ab.service"))
            rc, out, err = install(p1)
            check(rc == 0 and "gfxstat-campaign-ab.service, written by an earlier gfxstat" in err,
                  f"an older plan-named unit of the same campaign is warned about ({rc}: {err})")
            os.unlink(os.path.join(units, "gfxstat-campaign-ab.service"))
        foreign = write(units, "not-ours.service", "[Service]\nExecStart=/bin/true\n")
        rc, out, err = install(p1, "--name", "not-ours.service")
        check(rc == 2 and "did not write" in err and open(foreign).read().startswith("[Service]"),
              f"a unit gfxstat did not write is refused and kept ({rc}: {err})")

        # A directory whose name ends in a backslash (the plan's name is its
        # basename): every directive stays whole.
        c2 = init("c2\\")
        rc, out, err = install(c2)
        check(rc == 0 and len(unit_of(c2)) == 1, f"install-service c2\\ ({rc}: {err})")
        if unit_of(c2):
            path = os.path.join(units, unit_of(c2)[0])
            text = open(path).read()
            ds = directives(text)
            check("After=multi-user.target" in ds and any(d.startswith("Description=") for d in ds) and
                  any(d.startswith("ConditionPathExists=") for d in ds),
                  f"no directive is swallowed by a line ending in a backslash: {ds}")
            if shutil.which("systemd-analyze"):
                p = subprocess.run(["systemd-analyze", "verify", path], capture_output=True, text=True)
                check("After" not in p.stderr and "Unknown" not in p.stderr and "ExecStart" not in p.stderr,
                      f"systemd-analyze verify: {p.stderr}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return finish("each campaign directory gets a unit of its own, whole")


if __name__ == "__main__":
    sys.exit(main())
