#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gfxstat run and import with the Mesa world's real programs, on the CPU:
glmark2-es2 and glmark2 on llvmpipe (--parser glmark2, the GL renderer
recorded in each run's environment), an apitrace trace of glmark2-es2
replayed with eglretrace -b, --pcpu, --pframe-times and --pgpu, and on EGL
surfaceless without a display (--parser apitrace), a vkcube capture made with gfxrecon-capture.py on lavapipe and
replayed with gfxrecon-replay (--parser gfxrecon), and glxgears (--parser
glxgears). Everything runs under an Xvfb of its own. A part whose program
or display is missing prints "SKIP: reason" and is not counted; a part
whose program is there must work. Recorded real outputs (tests/fixtures/
mesa/) replayed through `cat` and `gfxstat import` run everywhere."""

import json
import os
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

LVP_ICD = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"
# Small windows, short scenes, two llvmpipe threads: the whole test stays
# well under a minute on two cores.
SIZE = "160x120"


def records(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.endswith("\n")]


def runs_of(path):
    return [r for r in records(path) if r.get("type") == "run"]


def env_of(path, run):
    for r in records(path):
        if r.get("type") == "environment" and r.get("id") == run.get("environment"):
            return r
    return {}


def declared(path):
    return {r["name"]: r for r in records(path) if r.get("type") == "metric"}


def as_list(v):
    return v if isinstance(v, list) else [v]


def skip(reason):
    print("SKIP:", reason)


class Gfxstat:
    def __init__(self, binary, env):
        self.binary = binary
        self.env = env

    def __call__(self, *args, timeout=120, env=None):
        p = subprocess.run([self.binary, *args], capture_output=True, env=env or self.env, timeout=timeout)
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def recorded_outputs(g, fixtures, d):
    """Real outputs replayed through cat: no display needed."""
    out = os.path.join(d, "cat.json")
    rc, _, err = g("run", "--runs", "1", "--parser", "glmark2", "-o", out, "--",
                   "cat", os.path.join(fixtures, "glmark2-es2-two-scenes.stdout"))
    runs = runs_of(out) if rc == 0 else []
    if check(rc == 0 and len(runs) == 1 and runs[0]["exit"]["class"] == "ok", f"glmark2 output through cat: {err}"):
        m = runs[0]["metrics"]
        check(m.get("score") == 277 and m.get("build.duration_0.5.frame_time") == 2.357, f"metrics: {m}")
        e = env_of(out, runs[0])
        check(e.get("gl_renderer") == "llvmpipe (LLVM 15.0.6, 256 bits)" and e.get("glmark2_version") == "2023.01"
              and e.get("gl_version") == "OpenGL ES 3.2 Mesa 22.3.6" and "kernel_release" in e,
              f"the output's renderer joins the probed environment: {e}")
    # The renderer is recorded with ok runs only, and a run that printed
    # none gets the probed environment alone.
    out = os.path.join(d, "cat-glxgears.json")
    rc, _, err = g("run", "--runs", "1", "--parser", "glxgears", "-o", out, "--",
                   "sh", "-c", "echo '300 frames in 5.0 seconds = 60.000 FPS'")
    runs = runs_of(out) if rc == 0 else []
    check(rc == 0 and runs and "gl_renderer" not in env_of(out, runs[0]), f"no renderer printed, none recorded: {err}")

    # A replayer that exits 255 after "error: cannot profile": the run's
    # reason is apitrace's, not the last line of stderr.
    out = os.path.join(d, "cat-pgpu.json")
    cannot = os.path.join(fixtures, "eglretrace-pgpu-cannot-profile.stdout")
    rc, _, err = g("run", "--runs", "1", "--max-failures", "1", "--parser", "apitrace", "-o", out, "--",
                   "sh", "-c", f"cat '{cannot}'; echo 'renderableType = 4' >&2; exit 255")
    runs = runs_of(out)
    check(rc == 4 and len(runs) == 1 and runs[0]["exit"]["class"] == "fail" and
          "exit 255: the driver cannot be profiled" in runs[0]["exit"].get("reason", ""),
          f"cannot profile is the reason: {runs} {err}")

    # Saved outputs: one run per banner, per Rendered line, per FPS line.
    for fmt, name, n, metric, first in [
            ("glmark2", "glmark2-es2-saved-two-runs.stdout", 2, "score", 494),
            ("apitrace", "glretrace-b.stdout", 1, "fps", 335.309),
            ("gfxrecon", "gfxrecon-replay-trimmed.stdout", 1, "load_time", 0.293753)]:
        out = os.path.join(d, f"import-{fmt}.json")
        rc, _, err = g("import", "--from", fmt, os.path.join(fixtures, name), "-o", out)
        runs = runs_of(out) if rc == 0 else []
        check(rc == 0 and len(runs) == n and runs[0]["metrics"].get(metric) == first,
              f"import --from {fmt} {name}: {n} run(s), {metric} {first}: {runs} {err}")
        if fmt == "glmark2" and runs:
            check(all(env_of(out, r).get("gl_renderer", "").startswith("llvmpipe") for r in runs),
                  f"imported glmark2 runs keep the renderer: {[env_of(out, r) for r in runs]}")


def glmark2_part(g, d, env):
    ran = False
    for program, es in [("glmark2-es2", True), ("glmark2", False)]:
        if not shutil.which(program):
            skip(f"{program} is not installed ({'glmark2-es2-x11' if es else 'glmark2-x11'})")
            continue
        ran = True
        out = os.path.join(d, f"{program}.json")
        runs_wanted = 2 if es else 1
        t0 = time.monotonic()
        rc, _, err = g("run", "--runs", str(runs_wanted), "--parser", "glmark2", "--label", program, "-o", out, "--",
                       program, "-b", "build:duration=0.3", "-b", "shading:shading=phong:duration=0.3", "-s", SIZE,
                       env=env)
        runs = runs_of(out) if os.path.exists(out) else []
        if not check(rc == 0 and len(runs) == runs_wanted and all(r["exit"]["class"] == "ok" for r in runs),
                     f"{program}: {runs_wanted} ok runs: exit {rc}: {err} {runs}"):
            continue
        names = ["build.duration_0.3.fps", "build.duration_0.3.frame_time", "shading.duration_0.3.shading_phong.fps",
                 "shading.duration_0.3.shading_phong.frame_time", "score"]
        for r in runs:
            m = r["metrics"]
            check(sorted(m) == sorted(names), f"{program}: metrics {sorted(m)}")
            check(all(m.get(n, 0) > 0 for n in names), f"{program}: every value positive: {m}")
        decl = declared(out)
        check(decl.get("score", {}).get("primary") is True and
              decl.get("build.duration_0.3.frame_time", {}).get("unit") == "ms" and
              decl["build.duration_0.3.frame_time"].get("direction") == "lower" and
              decl.get("build.duration_0.3.fps", {}).get("direction") == "higher", f"{program}: declarations {decl}")
        e = env_of(out, runs[0])
        renderer = e.get("gl_renderer", "")
        print(f"{program}: GL_RENDERER recorded: {renderer!r}, GL_VERSION: {e.get('gl_version')!r} "
              f"({time.monotonic() - t0:.1f} s)")
        check("llvmpipe" in renderer, f"{program}: the renderer string is in the run's environment: {e}")
        check(("OpenGL ES" in e.get("gl_version", "")) == es, f"{program}: GL_VERSION of the right API: {e}")
        check(e.get("glmark2_version", "") != "", f"{program}: glmark2's version recorded: {e}")
    return ran


def apitrace_part(g, d, env):
    needed = ["apitrace", "eglretrace", "glmark2-es2"]
    missing = [p for p in needed if not shutil.which(p)]
    if missing:
        skip(f"apitrace part: {', '.join(missing)} not installed (apitrace, glmark2-es2-x11)")
        return
    trace = os.path.join(d, "es2.trace")
    p = subprocess.run(["apitrace", "trace", "--api", "egl", "-o", trace, "glmark2-es2", "-b", "build:duration=0.2",
                        "-s", SIZE], capture_output=True, env=env, timeout=120)
    if not check(p.returncode == 0 and os.path.getsize(trace) > 0 if os.path.exists(trace) else False,
                 f"apitrace trace of glmark2-es2: exit {p.returncode}: {p.stderr.decode(errors='replace')[-500:]}"):
        return
    out = os.path.join(d, "replay.json")
    rc, _, err = g("run", "--runs", "2", "--parser", "apitrace", "--label", "b", "-o", out, "--",
                   "eglretrace", "-b", trace, env=env)
    runs = runs_of(out) if os.path.exists(out) else []
    if check(rc == 0 and len(runs) == 2 and all(r["exit"]["class"] == "ok" for r in runs),
             f"eglretrace -b: 2 ok runs: exit {rc}: {err} {runs}"):
        for r in runs:
            m = r["metrics"]
            check(m.get("fps", 0) > 0 and m.get("frames", 0) > 0 and m.get("seconds", 0) > 0, f"replay: {m}")
            if m.get("seconds"):
                check(abs(m["frames"] / m["seconds"] - m["fps"]) <= 0.01 * m["fps"],
                      f"fps is frames / seconds: {m}")
        print(f"eglretrace -b: {runs[0]['metrics']}")
    frames = runs[0]["metrics"].get("frames", 0) if runs else 0

    out = os.path.join(d, "pcpu.json")
    rc, _, err = g("run", "--runs", "1", "--parser", "apitrace", "--label", "pcpu", "-o", out, "--",
                   "eglretrace", "--pcpu", trace, env=env)
    runs = runs_of(out) if os.path.exists(out) else []
    if check(rc == 0 and runs and runs[0]["exit"]["class"] == "ok", f"eglretrace --pcpu: exit {rc}: {err} {runs}"):
        cpu = as_list(runs[0]["metrics"].get("frame_cpu_time", []))
        check(len(cpu) == frames and all(v >= 0 for v in cpu) and sum(cpu) > 0,
              f"one CPU time per frame ({frames}): {cpu[:5]}... ({len(cpu)})")

    out = os.path.join(d, "pframe.json")
    rc, _, err = g("run", "--runs", "1", "--parser", "apitrace", "--label", "pframe", "-o", out, "--",
                   "eglretrace", "--pframe-times", trace, env=env)
    runs = runs_of(out) if os.path.exists(out) else []
    if check(rc == 0 and runs and runs[0]["exit"]["class"] == "ok", f"eglretrace --pframe-times: {err} {runs}"):
        ft = as_list(runs[0]["metrics"].get("frame_time", []))
        check(len(ft) == frames - 1 and all(v > 0 for v in ft), f"frame times between {frames} frames: {len(ft)}")

    # Headless, with no X server at all: Debian's eglretrace draws through
    # waffle, whose EGL surfaceless platform needs no display.
    out = os.path.join(d, "surfaceless.json")
    headless = {k: v for k, v in env.items() if k != "DISPLAY"}
    headless["WAFFLE_PLATFORM"] = "surfaceless_egl"
    rc, _, err = g("run", "--runs", "1", "--parser", "apitrace", "--label", "surfaceless", "-o", out, "--",
                   "eglretrace", "-b", trace, env=headless)
    runs = runs_of(out) if os.path.exists(out) else []
    check(rc == 0 and runs and runs[0]["exit"]["class"] == "ok" and runs[0]["metrics"].get("frames") == frames,
          f"eglretrace on EGL surfaceless, without DISPLAY: exit {rc}: {err} {runs}")

    # --pgpu needs timer queries: llvmpipe's GLES contexts have none, and
    # the run must say so; a driver that has them gives a GPU time per frame.
    out = os.path.join(d, "pgpu.json")
    rc, _, err = g("run", "--runs", "1", "--max-failures", "1", "--parser", "apitrace", "--label", "pgpu", "-o", out,
                   "--", "eglretrace", "--pgpu", trace, env=env)
    runs = runs_of(out) if os.path.exists(out) else []
    if check(len(runs) == 1, f"eglretrace --pgpu: one run: exit {rc}: {err}"):
        r = runs[0]
        reason = r["exit"].get("reason", "")
        if r["exit"]["class"] == "ok":
            gpu = as_list(r["metrics"].get("frame_gpu_time", []))
            check(len(gpu) == frames, f"--pgpu: one GPU time per frame: {len(gpu)} of {frames}")
            print("eglretrace --pgpu: this driver has timer queries")
        else:
            check("cannot be profiled" in reason or "cannot be trusted" in reason,
                  f"--pgpu fails with apitrace's reason: {reason!r}")
            print(f"eglretrace --pgpu: {reason}")


def gfxrecon_part(g, d, env):
    capture = shutil.which("gfxrecon-capture-vulkan.py") or shutil.which("gfxrecon-capture.py")
    missing = [p for p in ["vkcube", "gfxrecon-replay"] if not shutil.which(p)]
    if not capture:
        missing.append("gfxrecon-capture.py")
    if missing:
        skip(f"gfxrecon part: {', '.join(missing)} not installed (vulkan-tools, gfxreconstruct)")
        return
    if not os.path.exists(LVP_ICD):
        skip(f"gfxrecon part: no lavapipe ({LVP_ICD}; mesa-vulkan-drivers)")
        return
    venv = dict(env, VK_ICD_FILENAMES=LVP_ICD)
    cube = os.path.join(d, "cube.gfxr")
    p = subprocess.run([capture, "--no-file-timestamp", "-o", cube, "vkcube", "--c", "30", "--width", "160",
                        "--height", "120"], capture_output=True, env=venv, timeout=120)
    if not check(p.returncode == 0 and os.path.exists(cube),
                 f"capture of vkcube: exit {p.returncode}: {(p.stdout + p.stderr).decode(errors='replace')[-500:]}"):
        return
    out = os.path.join(d, "gfxrecon.json")
    rc, _, err = g("run", "--runs", "2", "--timeout", "30", "--parser", "gfxrecon", "-o", out, "--",
                   "gfxrecon-replay", cube, env=venv)
    runs = runs_of(out) if os.path.exists(out) else []
    if check(rc == 0 and len(runs) == 2 and all(r["exit"]["class"] == "ok" for r in runs),
             f"gfxrecon-replay: 2 ok runs: exit {rc}: {err} {runs}"):
        for r in runs:
            m = r["metrics"]
            check(m.get("fps", 0) > 0 and m.get("frames") == 30 and m.get("seconds", 0) > 0 and
                  m.get("total_time", 0) >= m.get("seconds", 0), f"replay of 30 frames: {m}")
        print(f"gfxrecon-replay: {runs[0]['metrics']}")
    # A replay that cannot start: gfxrecon-replay's own words are the reason.
    out = os.path.join(d, "gfxrecon-missing.json")
    rc, _, err = g("run", "--runs", "1", "--max-failures", "1", "--parser", "gfxrecon", "-o", out, "--",
                   "gfxrecon-replay", os.path.join(d, "no-such.gfxr"), env=venv)
    runs = runs_of(out) if os.path.exists(out) else []
    check(len(runs) == 1 and runs[0]["exit"]["class"] == "fail" and
          "Failed to open file" in runs[0]["exit"].get("reason", ""), f"missing capture: {runs} {err}")


def glxgears_part(g, d, env):
    if not shutil.which("glxgears") or not shutil.which("timeout"):
        skip("glxgears is not installed (mesa-utils)")
        return
    # glxgears never stops by itself and prints its rate every 5 seconds.
    out = os.path.join(d, "glxgears.json")
    rc, _, err = g("run", "--runs", "1", "--parser", "glxgears", "-o", out, "--", "sh", "-c",
                   "timeout 5.5 glxgears -info -geometry 64x64; test $? = 124", env=env)
    runs = runs_of(out) if os.path.exists(out) else []
    if check(rc == 0 and len(runs) == 1 and runs[0]["exit"]["class"] == "ok", f"glxgears: exit {rc}: {err} {runs}"):
        fps = as_list(runs[0]["metrics"].get("fps", []))
        check(len(fps) == 1 and fps[0] > 0, f"one rate in 5.5 s: {fps}")
        e = env_of(out, runs[0])
        check("llvmpipe" in e.get("gl_renderer", ""), f"glxgears -info's renderer recorded: {e}")


def main():
    g_path, src = testlib.paths()
    fixtures = os.path.join(src, "tests", "fixtures", "mesa")
    base = dict(os.environ)
    base["LP_NUM_THREADS"] = "2"
    base.pop("DISPLAY", None)
    base.pop("WAYLAND_DISPLAY", None)
    with tempfile.TemporaryDirectory() as d:
        recorded_outputs(Gfxstat(g_path, base), fixtures, d)
        try:
            with XvfbDisplay() as x:
                env = dict(base, DISPLAY=x.display)
                print(f"Xvfb on {x.display}")
                g = Gfxstat(g_path, env)
                t0 = time.monotonic()
                glmark2_part(g, d, env)
                apitrace_part(g, d, env)
                gfxrecon_part(g, d, env)
                glxgears_part(g, d, env)
                print(f"real programs: {time.monotonic() - t0:.1f} s")
        except XvfbUnavailable as e:
            skip(f"every real-program part: {e}")
    return finish("mesa_real: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
