#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checking runs from the command line (docs/image-checks.md, "Recording"):
`gfxstat run` and `gfxstat ab` with --check-images replay the trace again,
untimed, to checksum its frames, with a seeded fake glretrace and
gfxrecon-replay (tests/cli/fakes/fake_replayer.py) first in PATH. Shown
here: the timed runs' values are the same with and without checking runs;
the image_check records and their fields; where every:K puts them; a
crashing check recorded, not stopping anything; a parser that cannot check
refused; --check-frames and --keep-images; gfxrecon's screenshots hashed
and their private directory removed."""

import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402
from testlib import check, finish  # noqa: E402

FAKE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fakes", "fake_replayer.py")


class Setup:
    """A directory with the fake replayers in bin/ and a fresh state."""

    def __init__(self, g, d, name, seed=7, **env):
        self.g = g
        self.dir = os.path.join(d, name)
        self.bin = os.path.join(self.dir, "bin")
        self.state = os.path.join(self.dir, "state")
        self.tmp = os.path.join(self.dir, "tmp")
        for p in (self.bin, self.state, self.tmp):
            os.makedirs(p)
        for tool in ("glretrace", "gfxrecon-replay"):
            path = os.path.join(self.bin, tool)
            shutil.copy(FAKE, path)
            os.chmod(path, stat.S_IRWXU)
        self.env = dict(os.environ, PATH=self.bin + ":" + os.environ["PATH"], FAKE_STATE=self.state,
                        FAKE_SEED=str(seed), TMPDIR=self.tmp, **env)
        self.results = os.path.join(self.dir, "r.json")

    def gfxstat(self, *args):
        p = subprocess.run([self.g, *args], capture_output=True, env=self.env, cwd=self.dir)
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")

    def records(self, kind=None):
        if not os.path.exists(self.results):
            return []
        with open(self.results) as f:
            out = [json.loads(line) for line in f if line.strip()]
        return [r for r in out if kind is None or r.get("type") == kind]

    def calls(self):
        path = os.path.join(self.state, "calls.jsonl")
        if not os.path.exists(path):
            return []
        with open(path) as f:
            return [json.loads(line) for line in f]

    def sequence(self):
        """"T" a timed invocation, "C" a checking one, in order."""
        return "".join("C" if c["kind"] == "check" else "T" for c in self.calls())


def timed_values(s, metric="fps"):
    return [(r["variant"], r["run"], r.get("metrics", {}).get(metric)) for r in s.records("run")]


def run_checks(g, d):
    plain = Setup(g, d, "plain")
    rc, _, err = plain.gfxstat("run", "-o", "r.json", "--runs", "4", "--parser", "apitrace", "--",
                               "glretrace", "-b", "t.trace")
    check(rc == 0, f"run without --check-images: exit 0, got {rc}: {err}")
    checked = Setup(g, d, "checked")
    rc, _, err = checked.gfxstat("run", "-o", "r.json", "--runs", "4", "--parser", "apitrace", "--check-images",
                                 "--", "glretrace", "-b", "t.trace")
    check(rc == 0, f"run --check-images: exit 0, got {rc}: {err}")
    check(timed_values(plain) == timed_values(checked) and len(timed_values(plain)) == 4,
          f"the timed runs' values do not depend on checking runs: {timed_values(plain)} vs {timed_values(checked)}")
    check(checked.sequence() == "TTTTCC", f"run: a pass of 2 checking runs after the timed ones: {checked.sequence()}")
    check("checking pass: 2 replays in " in err and "not timed" in err, f"run says the checking pass apart: {err}")
    for c in checked.calls():
        if c["kind"] == "check":
            check("-b" not in c["argv"] and c["argv"][:3] == ["--snapshot-format=MD5", "-s", "-"]
                  and c["argv"][-1] == "t.trace", f"the checking command: {c['argv']}")
        else:
            check(c["argv"] == ["-b", "t.trace"], f"the timed command is the user's: {c['argv']}")
    checks = checked.records("image_check")
    runs = checked.records("run")
    envs = {e["id"]: e for e in checked.records("environment")}
    check([c["check"] for c in checks] == [0, 1], f"two image_check records, numbered: {checks}")
    for c in checks:
        check(c["variant"] == "glretrace" and c["tool"] == "glretrace" and c["method"] == "md5",
              f"variant, tool and method: {c}")
        check(c["exit"]["class"] == "ok" and c["exit"].get("code") == 0, f"exit ok: {c}")
        check(sorted(c["images"], key=int) == [str(i) for i in range(6)], f"one checksum a frame, from 0: {c}")
        env = envs.get(c["environment"], {})
        check(c["boot"] == runs[0]["boot"] and env.get("workload") and
              env.get("workload") == envs[runs[0]["environment"]].get("workload") and
              env.get("hostname") == envs[runs[0]["environment"]].get("hostname"),
              f"an environment and boot as the runs record them: {c} {env}")
        check(isinstance(c.get("duration_s"), float) and "start" in c and "design" not in c and "block" not in c,
              f"start and duration, no design: {c}")
    want = hashlib.md5(b"a frame 3").hexdigest()
    check(checks[0]["images"]["3"] == want == checks[1]["images"]["3"], f"frame 3's MD5, lowercase: {checks}")
    check(checks[0]["images"]["0"] != checks[1]["images"]["0"], "frame 0 differs from replay to replay")
    header = checked.records()[0]
    logs = os.listdir(checked.results + ".logs")
    check(f"{header['id'][:16]}-glretrace-check-0001.stdout" in logs, f"the checking run's output is kept: {logs}")

    # every:K: after every K-th timed run, topped up to 2 at the end.
    for every, runs_n, want in (("every:2", 5, "TTCTTCT"), ("every:3", 4, "TTTCTC"), ("every:1", 3, "TCTCTC")):
        s = Setup(g, d, "run-" + every.replace(":", "") + str(runs_n))
        rc, _, err = s.gfxstat("run", "-o", "r.json", "--runs", str(runs_n), "--parser", "apitrace",
                               "--check-images", every, "--", "glretrace", "-b", "t.trace")
        check(rc == 0 and s.sequence() == want, f"run --check-images {every} --runs {runs_n}: {want}, "
                                                f"got {s.sequence()} ({rc}: {err})")

    # A crashing check: recorded with its class, a warning, the runs go on.
    s = Setup(g, d, "crash", FAKE_CRASH_CHECK="1")
    rc, _, err = s.gfxstat("run", "-o", "r.json", "--runs", "3", "--parser", "apitrace", "--check-images", "every:1",
                           "--", "glretrace", "-b", "t.trace")
    checks = s.records("image_check")
    check(rc == 0 and len(s.records("run")) == 3, f"a crashing check stops nothing: {rc}: {err}")
    check(len(checks) == 3 and checks[0]["exit"]["class"] == "crash" and not checks[0].get("images")
          and all(c["exit"]["class"] == "ok" for c in checks[1:]), f"the crash recorded not ok: {checks}")
    check("warning: checking run 0 of variant 'glretrace' did not end ok" in err, f"and said: {err}")
    check("1 did not end ok" in err, f"the pass line counts it: {err}")

    # --check-frames: -S CALLSET, frames numbered by call.
    s = Setup(g, d, "callset")
    rc, _, err = s.gfxstat("run", "-o", "r.json", "--runs", "2", "--parser", "apitrace", "--check-images",
                           "--check-frames", "10-14/2", "--", "glretrace", "-b", "t.trace")
    checks = s.records("image_check")
    check(rc == 0 and checks and sorted(checks[0]["images"], key=int) == ["10", "12", "14"],
          f"--check-frames 10-14/2 numbers frames by call: {checks} {err}")
    check(all("-S" in c["argv"] for c in s.calls() if c["kind"] == "check"), "-S CALLSET given to glretrace")

    # --keep-images with apitrace: PNG snapshot files, kept by frame.
    s = Setup(g, d, "keep")
    rc, _, err = s.gfxstat("run", "-o", "r.json", "--runs", "2", "--parser", "apitrace", "--check-images",
                           "--keep-images", "kept", "--", "glretrace", "-b", "t.trace")
    checks = s.records("image_check")
    check(rc == 0 and len(checks) == 2, f"--keep-images: {rc}: {err}")
    if checks:
        kept = checks[0].get("kept", "")
        check(kept.startswith("kept/") and kept.endswith("-glretrace-check-0000"), f"kept, relative: {kept}")
        files = sorted(os.listdir(os.path.join(s.dir, kept))) if os.path.isdir(os.path.join(s.dir, kept)) else []
        check(files == [f"frame-{i}.png" for i in range(6)], f"one file a frame: {files}")
        if files:
            with open(os.path.join(s.dir, kept, "frame-2.png"), "rb") as f:
                check(hashlib.sha256(f.read()).hexdigest() == checks[0]["images"]["2"] and
                      checks[0]["method"] == "sha256-file", "kept files are what was hashed")
        mode = os.stat(os.path.join(s.dir, "kept")).st_mode
        check(not mode & 0o022, f"the --keep-images directory is private: {oct(mode)}")
    check(os.listdir(s.tmp) == [], f"nothing left in TMPDIR: {os.listdir(s.tmp)}")


def gfxrecon_checks(g, d):
    s = Setup(g, d, "gfxrecon")
    rc, _, err = s.gfxstat("run", "-o", "r.json", "--runs", "2", "--parser", "gfxrecon", "--check-images", "--",
                           "gfxrecon-replay", "cube.gfxr")
    checks = s.records("image_check")
    check(rc == 0 and len(checks) == 2, f"gfxrecon --check-images: {rc}: {err}")
    for c in checks:
        check(c["tool"] == "gfxrecon-replay" and c["method"] == "sha256-file" and
              sorted(c["images"], key=int) == ["1", "2", "3", "4"], f"screenshots by frame from 1: {c}")
        check(c["images"]["2"] == hashlib.sha256(b"BMa frame 2").hexdigest(), f"SHA-256 of each file: {c}")
    for c in s.calls():
        if c["kind"] == "check":
            shots = c["argv"][c["argv"].index("--screenshot-dir") + 1]
            check(c["argv"][0] == "--screenshot-all" and shots.startswith(s.tmp + "/"),
                  f"screenshots into a private directory: {c['argv']}")
            check(not os.path.exists(shots), f"removed once hashed: {shots}")
    check(os.listdir(s.tmp) == [], f"nothing left in TMPDIR: {os.listdir(s.tmp)}")
    s = Setup(g, d, "gfxrecon-keep")
    rc, _, err = s.gfxstat("run", "-o", "r.json", "--runs", "2", "--parser", "gfxrecon", "--check-images",
                           "--keep-images", "kept", "--", "gfxrecon-replay", "cube.gfxr")
    checks = s.records("image_check")
    kept = checks[0].get("kept", "") if checks else ""
    files = sorted(os.listdir(os.path.join(s.dir, kept))) if kept else []
    check(rc == 0 and files == ["frame-1.bmp", "frame-2.bmp", "frame-3.bmp", "frame-4.bmp"],
          f"gfxrecon's kept screenshots: {kept} {files} {err}")


def ab_checks(g, d):
    common = ["--variant", "base", "--variant", "patch", "--env", "patch:FAKE_IMAGE=b", "--runs", "3", "--seed", "5",
              "--parser", "apitrace"]
    plain = Setup(g, d, "ab-plain")
    rc, _, err = plain.gfxstat("ab", "-o", "r.json", *common, "--", "glretrace", "-b", "t.trace")
    check(rc == 0, f"ab without --check-images: {rc}: {err}")
    s = Setup(g, d, "ab-checked")
    rc, _, err = s.gfxstat("ab", "-o", "r.json", *common, "--check-images", "--", "glretrace", "-b", "t.trace")
    check(rc == 0, f"ab --check-images: {rc}: {err}")
    check(timed_values(plain) == timed_values(s) and len(timed_values(s)) == 6,
          f"ab's timed values do not depend on checking runs: {timed_values(plain)} vs {timed_values(s)}")
    check(s.sequence() == "TTTTTTCCCC", f"ab: one pass after the last block: {s.sequence()}")
    checks = s.records("image_check")
    design = [r for r in s.records() if r.get("type") == "design"]
    check([(c["variant"], c["check"]) for c in checks] == [("base", 0), ("patch", 0), ("base", 1), ("patch", 1)],
          f"the pass interleaves the variants, A B A B: {checks}")
    check(design and all(c.get("design") == design[0]["id"] and c.get("block") == 2 for c in checks),
          f"design and last block recorded: {checks}")
    check(checks and checks[0]["images"]["1"] != checks[1]["images"]["1"], "patch's images are its own")
    check("checking pass: 4 replays in " in err, f"ab says the checking pass apart: {err}")
    for every, want, blocks in (("every:1", "TTCCTTCCTTCC", [0, 0, 1, 1, 2, 2]),
                                ("every:2", "TTTTCCTTCC", [1, 1, 2, 2])):
        s = Setup(g, d, "ab-" + every.replace(":", ""))
        rc, _, err = s.gfxstat("ab", "-o", "r.json", *common, "--check-images", every, "--", "glretrace", "-b",
                               "t.trace")
        got = [c.get("block") for c in s.records("image_check")]
        check(rc == 0 and s.sequence() == want and got == blocks,
              f"ab --check-images {every}: {want} {blocks}, got {s.sequence()} {got} ({rc}: {err})")


def campaign_checks(g, d):
    """A campaign's checking pass: 2 checking runs of each variant in each
    of its boots, after the boot's last run, recorded with that boot."""
    s = Setup(g, d, "campaign")
    plan = {"variants": [{"label": "base", "reboot": False},
                         {"label": "patch", "reboot": False, "env": {"FAKE_IMAGE": "b"}}],
            "workload": {"command": ["glretrace", "-b", "t.trace"], "parser": "apitrace"},
            "runs_per_boot": 2, "boots_per_variant": 2, "warmup_runs": 0, "check_images": True}
    with open(os.path.join(s.dir, "plan.json"), "w") as f:
        json.dump(plan, f)
    rc, out, err = s.gfxstat("campaign", "init", "plan.json", "-d", "c")
    check(rc == 0, f"campaign init with check_images: {rc}: {err}")
    with open(os.path.join(s.dir, "c", "plan.json")) as f:
        check(json.load(f).get("check_images") is True, "plan.json keeps check_images")
    rc, out, err = s.gfxstat("campaign", "resume", "c", "--simulate-reboots")
    check(rc == 0 and "checking pass: 4 replays" in err, f"campaign resume: {rc}: {err}")
    s.results = os.path.join(s.dir, "c", "results.json")
    check(s.sequence() == "TTTTCCCCTTTTCCCC", f"a pass after each boot's runs: {s.sequence()}")
    runs, checks = s.records("run"), s.records("image_check")
    boots = sorted({r["boot"] for r in runs})
    check(len(boots) == 2 and sorted({c["boot"] for c in checks}) == boots,
          f"the checks carry the boots of the runs: {boots} {[c['boot'] for c in checks]}")
    for b in boots:
        got = sorted((c["variant"], c["check"]) for c in checks if c["boot"] == b)
        check([v for v, _ in got] == ["base", "base", "patch", "patch"], f"2 of each variant in boot {b}: {got}")
    check(all(c["exit"]["class"] == "ok" and len(c["images"]) == 6 for c in checks), f"all ok: {checks[:1]}")
    plan["workload"]["parser"] = "lines"
    with open(os.path.join(s.dir, "plan2.json"), "w") as f:
        json.dump(plan, f)
    rc, out, err = s.gfxstat("campaign", "init", "plan2.json", "-d", "c2")
    check(rc == 2 and "check_images" in err and "apitrace or gfxrecon" in err,
          f"a plan whose parser cannot check images is refused: {rc}: {err}")


def refusal_checks(g, d):
    s = Setup(g, d, "refused")
    rc, _, err = s.gfxstat("run", "-o", "r.json", "--parser", "glmark2", "--check-images", "--", "glretrace", "t")
    check(rc == 2 and "--check-images reads frames from apitrace's and GFXReconstruct's replayers: --parser "
          "apitrace or gfxrecon (this command's parser: glmark2)" in err, f"glmark2 refused: {rc}: {err}")
    check(not os.path.exists(s.results) and s.calls() == [], "nothing ran, nothing written")
    rc, _, err = s.gfxstat("ab", "-o", "r.json", "--variant", "a", "--variant", "b", "--check-images", "--", "true")
    check(rc == 2 and "(this command's parser: lines)" in err, f"ab refuses the lines parser: {rc}: {err}")
    for args, words in ((["--parser", "apitrace", "--check-images", "--", "sh", "-c", "glretrace t"],
                         "glretrace, eglretrace or apitrace replay"),
                        (["--parser", "apitrace", "--check-images", "--check-frames", "frame", "--", "glretrace", "t"],
                         "'frame' is not a call number"),
                        (["--parser", "apitrace", "--check-images", "sometimes", "--", "glretrace", "t"],
                         "every:K"),
                        (["--parser", "apitrace", "--check-frames", "1", "--", "glretrace", "t"],
                         "--check-frames goes with --check-images"),
                        (["--parser", "apitrace", "--check-images", "--", "glretrace", "-s", "/tmp/x", "t"],
                         "takes snapshots itself")):
        rc, _, err = s.gfxstat("run", "-o", "r.json", *args)
        check(rc == 2 and words in err, f"run {args}: exit 2 and '{words}', got {rc}: {err}")
    check(not os.path.exists(s.results) and s.calls() == [], "refusals run nothing")
    # A LAVA test definition runs the command as given, --check-images and all.
    rc, out, err = s.gfxstat("lava", "testdef", "--", "gfxstat", "run", "-o", "r.json", "--parser", "apitrace",
                             "--check-images", "every:2", "--check-frames", "5-9/2", "--", "glretrace", "-b", "t")
    check(rc == 0 and '"gfxstat run --lava on -o r.json --parser apitrace --check-images every:2 --check-frames '
          '5-9/2 -- glretrace -b t"' in out, f"lava testdef passes --check-images through: {rc}: {out}{err}")


def main():
    g, _ = testlib.paths()
    g = os.path.abspath(g)
    with tempfile.TemporaryDirectory() as d:
        refusal_checks(g, d)
        run_checks(g, d)
        gfxrecon_checks(g, d)
        ab_checks(g, d)
        campaign_checks(g, d)
    return finish("check_images_cli: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
