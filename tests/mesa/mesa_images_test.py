#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Image checks on real Mesa (docs/image-checks.md): `gfxstat ab
--check-images` of trace replays on the CPU, under an Xvfb of its own.

- apitrace: a glxgears trace recorded here (`apitrace trace`, then `apitrace
  trim` to its first 100 frames), replayed with `glretrace -b` (--parser
  apitrace). One llvmpipe thread against two renders alike: images equal,
  the gate decided by the timings alone. softpipe against llvmpipe renders
  differently (about nine frames in ten), and llvmpipe, several times
  faster, is no improvement: "renders differently", exit 1
  under --gate; with --allow-image-change the timings alone decide. Its
  frames are kept (--keep-images: glretrace's PNG files) and `gfxstat
  report` shows the first differing ones side by side.
- GFXReconstruct: a vkcube capture made here with gfxrecon-capture.py on
  lavapipe, replayed with gfxrecon-replay (--parser gfxrecon): LP_NUM_THREADS
  1 against 2 renders alike; LP_PERF=texmem (an llvmpipe performance
  experiment: textures read a small dummy tile in place of their own
  memory) changes every frame; its kept BMP frames are on the report's page. (LP_PERF's other flags, no_tex among them,
  and LP_NATIVE_VECTOR_WIDTH=128 leave this replay's pixels as they are.)

Frames that change from replay to replay within a variant (on llvmpipe the
glxgears trace's frame 0: its snapshot differed on every replay tried) are
reported as unstable and never fail the gate. The test finds the stable,
unstable and differing frames itself from the image_check records the
results file holds, and holds gfxstat's words to them. "Timings alone" is
`compare --gate` on a copy of the file without its image_check records
(docs/results-format.md: the checks are never samples).

Skips with its reason where a program, lavapipe or Xvfb is missing
(scripts/install-deps.sh installs them)."""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "cli"))
import testlib  # noqa: E402
from testlib import check, finish  # noqa: E402
from xvfb_display import XvfbDisplay, XvfbUnavailable  # noqa: E402

# Where `gfxstat compare --format json` puts a candidate's image verdict
# ("equal", "differ", or a not-judged word): the `images` member of the
# verdict object of each comparison (metric) of that candidate. The compare
# side owns the JSON layout; every path this test assumes into it is here.
JSON_COMPARISONS = "comparisons"          # top level: the list of comparisons
JSON_CANDIDATE_LABEL = ("candidate", "label")  # in a comparison: the candidate's variant
JSON_ROLE = "role"                        # in a comparison: "primary" or "secondary"
JSON_IMAGE_VERDICT = ("verdict", "images")  # in a comparison: "equal" / "differ"

LVP_ICD = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"
RUNS = 3
TRACE_FRAMES = 100  # frames kept of the glxgears trace (apitrace trim)
CUBE_FRAMES = 10


def member(obj, path):
    for key in path:
        if not isinstance(obj, dict):
            return None
        obj = obj.get(key)
    return obj


def json_image_verdicts(doc):
    """{candidate: set of image verdicts of its primary comparisons}."""
    out = {}
    for c in doc.get(JSON_COMPARISONS) or []:
        if c.get(JSON_ROLE, "primary") != "primary":
            continue
        out.setdefault(member(c, JSON_CANDIDATE_LABEL), set()).add(member(c, JSON_IMAGE_VERDICT))
    return out


def records(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.endswith("\n")]


def plural(n, word):
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def words(text):
    """The text with its wrapping undone: lines joined, spaces collapsed."""
    return " ".join(text.split())


def metric_block(text, metric):
    """The words of a metric's verdict in compare's short text: the line
    holding the metric's name alone and the indented lines under it."""
    m = re.search(rf"^{re.escape(metric)}\n((?:[ \t]+\S.*(?:\n|$))+)", text, re.M)
    return words(m.group(1)) if m else ""


class Frames:
    """One variant's ok checking runs: stable frames (every run holds it, one
    checksum) and unstable ones (docs/image-checks.md)."""

    def __init__(self, checks):
        self.runs = [c["images"] for c in checks if c.get("exit", {}).get("class") == "ok"]
        held = sorted({int(k) for imgs in self.runs for k in imgs})
        self.stable, self.unstable = {}, []
        for f in held:
            sums = {imgs.get(str(f)) for imgs in self.runs}
            if len(sums) == 1 and None not in sums:
                self.stable[f] = sums.pop()
            else:
                self.unstable.append(f)


class Gfxstat:
    def __init__(self, binary, env):
        self.binary = binary
        self.env = env

    def __call__(self, *args, timeout=240):
        p = subprocess.run([self.binary, *args], capture_output=True, env=self.env, timeout=timeout)
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def experiment(g, d, name, variants, parser, command, tool, method, first_frame, frames, differ, runs=RUNS,
               keep_images=False):
    """`gfxstat ab --check-images --gate` of two variants ((label, [KEY=VAL]),
    the baseline first), then compare on its file; `differ`: whether the two
    render differently (checked from the records first: the premise).
    keep_images: with --keep-images, and `gfxstat report`'s page must show
    the first differing frame as baseline | candidate | difference."""
    (base, _), (cand, _) = variants
    out = os.path.join(d, f"{name}.json")
    args = ["ab", "-o", out, "--variant", base, "--variant", cand]
    for label, kvs in variants:
        for kv in kvs:
            args += ["--env", f"{label}:{kv}"]
    args += ["--runs", str(runs), "--parser", parser, "--check-images", "--gate"]
    kept = os.path.join(d, f"{name}-kept")
    if keep_images:
        args += ["--keep-images", kept]
    args += ["--", *command]
    t0 = time.monotonic()
    rc, so, se = g(*args)
    print(f"{name}: gfxstat ab: rc {rc}, {time.monotonic() - t0:.1f} s")
    print(se[-1500:])
    print(so[:2500])
    if not check(os.path.exists(out) and rc in (0, 1), f"{name}: ab ran the experiment: rc {rc}: {se[-800:]}"):
        return
    recs = records(out)

    # The records: timed runs as asked, checking runs beside them.
    for label, _ in variants:
        timed = [r for r in recs if r.get("type") == "run" and r.get("variant") == label and not r.get("warmup")]
        check(len(timed) == runs and all(r["exit"]["class"] == "ok" for r in timed),
              f"{name}: {label}: {runs} ok timed runs: {[r['exit'] for r in timed]}")
        checks = [r for r in recs if r.get("type") == "image_check" and r.get("variant") == label]
        ok = [c for c in checks if c["exit"]["class"] == "ok"]
        check(len(ok) >= 2, f"{name}: {label}: 2 ok checking runs at least: {[c['exit'] for c in checks]}")
        check(all(c.get("tool") == tool and c.get("method") == method for c in checks),
              f"{name}: {label}: checks by {tool}, {method}: {[(c.get('tool'), c.get('method')) for c in checks]}")
        want = [str(f) for f in range(first_frame, first_frame + frames)]
        check(all(sorted(c["images"], key=int) == want for c in ok),
              f"{name}: {label}: every check holds frames {want[0]}..{want[-1]}: "
              f"{[sorted(c['images'], key=int)[:3] for c in ok]}")
    fb = Frames([r for r in recs if r.get("type") == "image_check" and r.get("variant") == base])
    fc = Frames([r for r in recs if r.get("type") == "image_check" and r.get("variant") == cand])
    compared = sorted(set(fb.stable) & set(fc.stable))
    differing = [f for f in compared if fb.stable[f] != fc.stable[f]]
    print(f"{name}: frames unstable in {base}: {fb.unstable}, in {cand}: {fc.unstable}; "
          f"{len(differing)} of {len(compared)} compared differ (first: {differing[:1]})")
    if differ:
        check(differing != [], f"{name}: the premise: {cand} draws other pixels than {base} (Mesa changed?)")
    else:
        check(compared != [] and differing == [], f"{name}: the premise: {cand} draws what {base} draws: "
              f"{len(differing)} of {len(compared)} differ")

    # Timings alone: the same file without its checks.
    stripped = os.path.join(d, f"{name}-timings.json")
    with open(out) as src, open(stripped, "w") as dst:
        for line in src:
            if json.loads(line).get("type") != "image_check":
                dst.write(line)
    rc_t, so_t, se_t = g("compare", stripped, "--gate")
    check(rc_t in (0, 1), f"{name}: compare --gate on the timings alone: rc {rc_t}: {se_t[-500:]}")

    rc_c, so_c, se_c = g("compare", out, "--gate")
    text = words(so_c)
    verdict = (f"renders differently: {len(differing)} of {plural(len(compared), 'frame')} (first: {differing[0]})"
               if differing else f"images equal: {plural(len(compared), 'frame')}")
    check(verdict in text, f"{name}: compare says {verdict!r}: {so_c[-2000:]}")
    check(verdict in words(so), f"{name}: ab says {verdict!r} too")
    for label, fr in [(base, fb), (cand, fc)]:
        if fr.unstable:
            note = f"frames unstable in {label}: {len(fr.unstable)} (first: {fr.unstable[0]})"
            check(note in text, f"{name}: unstable frames are reported: {note!r}: {so_c[-2000:]}")
    _, so_j, se_j = g("compare", out, "--format", "json")
    try:
        doc = json.loads(so_j)
    except ValueError:
        doc = {}
    got = json_image_verdicts(doc)
    want_word = "differ" if differing else "equal"
    check(got.get(cand) == {want_word}, f"{name}: JSON: {cand}'s verdicts have images {want_word!r}: {got} {se_j[-300:]}")

    if differ:
        check("renders differently" in text, f"{name}: the text says 'renders differently'")
        check(rc_c == 1, f"{name}: compare --gate fails a candidate that renders differently: rc {rc_c}")
        check(rc == 1, f"{name}: ab --gate fails it too: rc {rc}")
        rc_a, _, _ = g("compare", out, "--gate", "--allow-image-change")
        check(rc_a == rc_t, f"{name}: --allow-image-change: the timings alone decide: rc {rc_a}, timings {rc_t}")
        # Faster is no improvement when the frames differ: where the timings'
        # own verdict on the watched metric (fps, both parsers' primary)
        # calls it one, the report with the checks must not.
        _, so_tj, _ = g("compare", stripped, "--format", "json")
        try:
            timings = json.loads(so_tj)
        except ValueError:
            timings = {}
        faster = any(c.get("metric") == "fps" and member(c, ("verdict", "outcome")) == "improvement"
                     for c in timings.get("comparisons") or [])
        print(f"{name}: the timings alone call {cand} {'an improvement' if faster else 'no improvement'}")
        if faster:
            # The verdict ends the block ("..., p <0.001, improvement").
            check(not metric_block(so_c, "fps").endswith("improvement"),
                  f"{name}: a candidate that renders differently is no improvement: {metric_block(so_c, 'fps')!r}")
        if keep_images:
            # The kept images on the page: three PNGs (baseline, candidate,
            # difference) a differing frame, up to 4 frames.
            page = os.path.join(d, f"{name}.html")
            rc_r, _, se_r = g("report", out, "-o", page)
            html = open(page).read() if rc_r == 0 and os.path.exists(page) else ""
            pictures = html.count('src="data:image/png;base64,')
            want_pictures = 3 * min(4, len(differing))
            print(f"{name}: report: {pictures} pictures of kept frames on the page")
            check(pictures == want_pictures and "renders differently" in html,
                  f"{name}: report shows the kept images of the differing frames: {pictures} pictures, "
                  f"want {want_pictures}: {se_r[-500:]}")
        return faster
    check("renders differently" not in text, f"{name}: no 'renders differently' for variants that render alike")
    check(rc_c == rc_t and rc == rc_t,
          f"{name}: equal images (and unstable frames) leave the gate to the timings: compare {rc_c}, ab {rc}, "
          f"timings {rc_t}")
    return None


def apitrace_part(g, d, env):
    missing = [p for p in ["apitrace", "glretrace", "glxgears", "timeout"] if not shutil.which(p)]
    if missing:
        print(f"SKIP: apitrace part: {', '.join(missing)} not installed (apitrace, mesa-utils)")
        return
    whole = os.path.join(d, "gears-whole.trace")
    trace = os.path.join(d, "gears.trace")
    # glxgears never stops by itself: a second of it is over a thousand
    # frames on llvmpipe; the first 100 are kept, a replay of a fraction of
    # a second on llvmpipe and about one on softpipe.
    p = subprocess.run(["timeout", "1", "apitrace", "trace", "-o", whole, "glxgears", "-geometry", "300x300"],
                       capture_output=True, env=env, timeout=60)
    if not check(os.path.exists(whole), f"apitrace trace of glxgears: {p.stderr.decode(errors='replace')[-500:]}"):
        return
    p = subprocess.run(["apitrace", "trim", f"--frames=0-{TRACE_FRAMES - 1}", "-o", trace, whole],
                       capture_output=True, env=env, timeout=60)
    if not check(p.returncode == 0 and os.path.exists(trace), f"apitrace trim: {p.stderr.decode(errors='replace')}"):
        return
    p = subprocess.run(["glretrace", "-b", trace], capture_output=True, env=env, timeout=60)
    m = re.search(rb"Rendered (\d+) frames", p.stdout)
    frames = int(m.group(1)) if m else 0
    if not check(frames >= 20, f"the trimmed trace replays ({frames} frames): {p.stdout[-300:]}"):
        return
    print(f"glxgears trace: {frames} frames")
    command = ["glretrace", "-b", trace]
    experiment(g, d, "gl-threads", [("one-thread", ["LP_NUM_THREADS=1"]), ("two-threads", ["LP_NUM_THREADS=2"])],
               "apitrace", command, "glretrace", "md5", 0, frames, differ=False)
    # softpipe the baseline: llvmpipe, the candidate, is several times faster.
    # One more block than elsewhere, for the timings to show it on busy cores.
    experiment(g, d, "gl-drivers", [("softpipe", ["GALLIUM_DRIVER=softpipe", "LP_NUM_THREADS=1"]),
                                    ("llvmpipe", ["GALLIUM_DRIVER=llvmpipe", "LP_NUM_THREADS=1"])],
               "apitrace", command, "glretrace", "sha256-file", 0, frames, differ=True, runs=RUNS + 1,
               keep_images=True)


def gfxrecon_part(g, d, env):
    capture = shutil.which("gfxrecon-capture-vulkan.py") or shutil.which("gfxrecon-capture.py")
    missing = [p for p in ["vkcube", "gfxrecon-replay"] if not shutil.which(p)]
    if not capture:
        missing.append("gfxrecon-capture.py")
    if missing:
        print(f"SKIP: gfxrecon part: {', '.join(missing)} not installed (vulkan-tools, gfxreconstruct)")
        return
    if not os.path.exists(LVP_ICD):
        print(f"SKIP: gfxrecon part: no lavapipe ({LVP_ICD}; mesa-vulkan-drivers)")
        return
    venv = dict(env, VK_ICD_FILENAMES=LVP_ICD)
    cube = os.path.join(d, "cube.gfxr")
    p = subprocess.run([capture, "--no-file-timestamp", "-o", cube, "vkcube", "--c", str(CUBE_FRAMES),
                        "--width", "160", "--height", "120"], capture_output=True, env=venv, timeout=120)
    if not check(p.returncode == 0 and os.path.exists(cube),
                 f"capture of vkcube: exit {p.returncode}: {(p.stdout + p.stderr).decode(errors='replace')[-500:]}"):
        return
    gv = Gfxstat(g.binary, venv)
    command = ["gfxrecon-replay", cube]
    experiment(gv, d, "vk-threads", [("one-thread", ["LP_NUM_THREADS=1"]), ("two-threads", ["LP_NUM_THREADS=2"])],
               "gfxrecon", command, "gfxrecon-replay", "sha256-file", 1, CUBE_FRAMES, differ=False)
    experiment(gv, d, "vk-texmem", [("lavapipe", ["LP_NUM_THREADS=2"]), ("texmem", ["LP_NUM_THREADS=2",
                                                                                    "LP_PERF=texmem"])],
               "gfxrecon", command, "gfxrecon-replay", "sha256-file", 1, CUBE_FRAMES, differ=True,
               keep_images=True)


def main():
    g_path, _ = testlib.paths()
    base = dict(os.environ)
    for k in ["DISPLAY", "WAYLAND_DISPLAY", "GALLIUM_DRIVER", "LP_PERF", "LP_NUM_THREADS", "VK_ICD_FILENAMES"]:
        base.pop(k, None)
    base["LIBGL_ALWAYS_SOFTWARE"] = "1"
    try:
        with XvfbDisplay() as x, tempfile.TemporaryDirectory() as d:
            env = dict(base, DISPLAY=x.display)
            t0 = time.monotonic()
            g = Gfxstat(g_path, env)
            apitrace_part(g, d, env)
            gfxrecon_part(g, d, env)
            print(f"real programs: {time.monotonic() - t0:.1f} s")
    except XvfbUnavailable as e:
        print(f"SKIP: {e}")
    return finish("mesa_images: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
