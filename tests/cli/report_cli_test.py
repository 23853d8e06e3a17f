#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Pictures of a comparison, from real results of `gfxstat run` and
`gfxstat ab` on small commands: compare --plot (every kind, SVG checked
with xmllint and counted: one <circle> per run drawn, warm-ups and invalid
runs marked; PNG through rsvg-convert when it is installed, and a clear
error naming it when it is not; one file per metric; never written through
a symbolic link), and gfxstat report's page (well-formed, self-contained:
nothing fetched, nothing run; labels with markup and control characters
escaped; opened in headless Chromium, screenshotted, and the screenshot not
blank). Chromium missing: exit 77 (ctest's SKIP_RETURN_CODE) after the
checks that do not need it."""

import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import check, finish, paths, run, self_contained, write  # noqa: E402

GFXSTAT, SRC = paths()
PY = sys.executable
SKIP = 77

# Two metrics per run, noisy: M sets the level.
TWO_METRICS = [PY, "-c", "import os, random; m = float(os.environ['M']); "
               "print('fps', m + random.gauss(0, 1)); print('frame_ms', 1000 / m + random.gauss(0, 0.05))"]

# Counts its invocations in COUNTER; on those listed in HANG_AT it writes an
# i915 hang line into the FIFO gfxstat watches as its kernel log
# (GFXSTAT_KMSG), which makes that run invalid (docs/run.md, "Kernel log").
HANGING = r'''
import os
counter = os.environ["COUNTER"]
n = int(open(counter).read()) + 1 if os.path.exists(counter) else 1
open(counter, "w").write(str(n))
if str(n) in os.environ.get("HANG_AT", "").split(","):
    try:
        fd = os.open(os.environ["KMSG_FIFO"], os.O_WRONLY | os.O_NONBLOCK)
        os.write(fd, b"3,%d,%d,-;i915 0000:00:02.0: [drm] GPU HANG: ecode 12:1:85dffffb, in w [1]\n" % (1000 + n, 5124004311 + n))
        os.close(fd)
    except OSError:
        pass
print(100 + n % 3 + (5 if os.environ.get("SLOWER") else 0))
'''


def xml_ok(path, html=False):
    """(ok, messages) of xmllint --noout (--html: its HTML parser)."""
    rc, _, err = run(["xmllint", "--noout", *(["--html"] if html else []), path])
    return rc == 0 and not err.strip(), err


def read(path, mode="r"):
    with open(path, mode) as f:
        return f.read()


def circles(svg):
    """The class of every <circle> of an SVG text."""
    return [m.group(1) if m.group(1) is not None else "" for m in
            re.finditer(r'<circle\b(?:[^>]*?\bclass="([^"]*)")?[^>]*>', svg)]


def png_pixels(path):
    """(width, height, rows of bytes) of an 8-bit RGB or RGBA PNG, decoded
    with zlib (filters undone), or None when the file is not such a PNG."""
    data = read(path, "rb")
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return None
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour not in (2, 6):
                return None
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    if w is None:
        return None
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, rows, bpp


def colours_of(path):
    """The number of distinct colours of a PNG (sampled every 4th pixel of
    every 4th row), or 0 when it cannot be decoded."""
    decoded = png_pixels(path)
    if not decoded:
        return 0
    w, h, rows, bpp = decoded
    seen = set()
    for y in range(0, h, 4):
        row = rows[y]
        for x in range(0, w, 4):
            seen.add(row[x * bpp:x * bpp + 3])
    return len(seen)


def check_svg(path, what):
    ok, err = xml_ok(path)
    check(ok, f"{what}: {path} is well-formed XML: {err[:300]}")
    svg = read(path)
    check("<script" not in svg and "href=\"http" not in svg, f"{what}: no script, no external reference")
    check('class="axis-label"' in svg, f"{what}: labelled axes")
    return svg


def chromium_check(html_path, d, what, expect_svgs):
    """Opens the page in headless Chromium: a screenshot that is not blank,
    and a DOM with the charts, with no console error about the page."""
    chromium = shutil.which("chromium")
    shot = os.path.join(d, os.path.basename(html_path) + ".png")
    common = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
              "--user-data-dir=" + os.path.join(d, "chromium-profile"), "--enable-logging=stderr", "--v=0"]
    try:
        p = subprocess.run([*common, "--screenshot=" + shot, "--window-size=1200,2000", "file://" + html_path],
                           capture_output=True, timeout=180)
    except subprocess.TimeoutExpired:
        check(False, f"{what}: chromium --screenshot ended within 180 s")
        return
    err = p.stderr.decode(errors="replace")
    check(p.returncode == 0, f"{what}: chromium --screenshot exits 0 ({p.returncode}): {err[-500:]}")
    check(os.path.exists(shot) and os.path.getsize(shot) > 1000, f"{what}: the screenshot was written")
    if os.path.exists(shot):
        n = colours_of(shot)
        check(n > 8, f"{what}: the screenshot is not blank ({n} colours)")
    console = [line for line in err.splitlines() if "CONSOLE" in line or "Uncaught" in line or
               "Refused to" in line or "Content Security Policy" in line]
    check(not console, f"{what}: the page loads without console errors: {console[:5]}")
    try:
        p = subprocess.run([*common, "--dump-dom", "file://" + html_path], capture_output=True, timeout=180)
    except subprocess.TimeoutExpired:
        check(False, f"{what}: chromium --dump-dom ended within 180 s")
        return
    dom = p.stdout.decode(errors="replace")
    check(p.returncode == 0 and dom.count("<svg") == expect_svgs,
          f"{what}: Chromium's DOM holds the {expect_svgs} charts ({dom.count('<svg')})")
    return shot


def run_value(path, label, value):
    """One run of a command printing `value` (from its environment, so that
    every run is of the same command), recorded under `label`."""
    p = subprocess.run([GFXSTAT, "run", "-o", path, "--label", label, "--runs", "1", "--", PY, "-c",
                        "import os; print(os.environ['V'])"], capture_output=True,
                       env={**os.environ, "V": str(value)})
    return p.returncode, p.stderr.decode(errors="replace")


def big_results(n):
    """A results file of n runs of each of two variants, a and b, over 4 boots."""
    lines = ['{"format":"gfxstat-results","version":1,"id":"' + "d" * 32 + '",'
             '"created":"2026-12-06T00:00:00.000000Z","generator":"test"}',
             '{"type":"metric","name":"frame_ms","unit":"ms","direction":"lower"}']
    for r in range(2 * n):
        v = "ab"[r % 2]
        value = (16.0 if v == "a" else 16.4) + ((r * 7919) % 1000) / 1000
        lines.append('{"type":"run","variant":"%s","run":%d,"boot":"boot-%d","exit":{"class":"ok","code":0},'
                     '"metrics":{"frame_ms":%.3f}}' % (v, r // 2, r * 4 // (2 * n), value))
    return "\n".join(lines) + "\n"


def main():
    d = tempfile.mkdtemp(prefix="gfxstat-report-")
    env = dict(os.environ)

    # --- an ab design with warm-ups, two metrics ---
    ab = os.path.join(d, "ab.json")
    rc, _, err = run([GFXSTAT, "ab", "-o", ab, "--variant", "A", "--variant", "B", "--env", "A:M=100",
                      "--env", "B:M=104", "--runs", "6", "--warmup", "1", "--order", "alternate",
                      "--metric", r"fps=^fps (\S+)", "--metric", r"frame_ms=^frame_ms (\S+)", "--seed", "3",
                      "--", *TWO_METRICS])
    if not check(rc == 0, f"ab with two metrics and warm-ups: rc {rc}: {err[-400:]}"):
        return finish("")
    # Per variant: 6 measured runs and 1 warm-up, each with both metrics.
    for kind in ("distributions", "run-order", "boot-means"):
        base = os.path.join(d, f"ab-{kind}.svg")
        rc, out, err = run([GFXSTAT, "compare", ab, "--plot", base, "--plot-kind", kind])
        check(rc == 0 and "verdict" in out, f"compare --plot-kind {kind}: rc {rc}, the text report on stdout: {err[-300:]}")
        for metric in ("fps", "frame_ms"):
            path = os.path.join(d, f"ab-{kind}-{metric}.svg")
            if not check(os.path.exists(path), f"{kind}: one file per metric: {path}"):
                continue
            svg = check_svg(path, f"{kind} {metric}")
            cs = circles(svg)
            check(all(c.split()[0] == "run" for c in cs), f"{kind} {metric}: every circle is a run: {set(cs)}")
            if kind == "run-order":
                check(len(cs) == 14, f"run-order {metric}: one circle per run, warm-ups included ({len(cs)} of 14)")
                check(sum("warmup" in c.split() for c in cs) == 2, f"run-order {metric}: the 2 warm-ups marked")
            elif kind == "distributions":
                check(12 <= len(cs) <= 14, f"{kind} {metric}: one circle per run drawn ({len(cs)})")
            else:  # boot means are no runs: none, or every run beside its boot's mean
                check(len(cs) in (0, 12, 14), f"{kind} {metric}: no circle but runs ({len(cs)})")
            if kind == "boot-means":
                check(svg.count('class="interval') >= 2, f"boot-means {metric}: an interval per boot and variant")
            check("fps" in svg if metric == "fps" else "frame_ms" in svg, f"{kind}: the axis names the metric")

    # One metric: FILE itself; --plot-kind needs --plot; a name that is no picture.
    one = os.path.join(d, "one.svg")
    rc, _, err = run([GFXSTAT, "compare", ab, "--metric", "fps", "--plot", one, "--plot-kind", "run-order"])
    check(rc == 0 and os.path.exists(one), f"one metric: the file named: rc {rc}: {err[-300:]}")
    rc, _, err = run([GFXSTAT, "compare", ab, "--plot-kind", "run-order"])
    check(rc == 2 and "--plot" in err, f"--plot-kind without --plot: exit 2: {err[-200:]}")
    rc, out, err = run([GFXSTAT, "compare", ab, "--plot", os.path.join(d, "x.pdf")])
    check(rc == 2 and ".svg" in err and not out, f"--plot x.pdf: exit 2 before any report: {err[-200:]}")

    # Never through a symbolic link: the link's target stays as it was.
    target = write(d, "target.txt", "keep me\n")
    link = os.path.join(d, "link.svg")
    os.symlink(target, link)
    rc, _, err = run([GFXSTAT, "compare", ab, "--metric", "fps", "--plot", link])
    check(rc == 2 and read(target) == "keep me\n", f"--plot through a symbolic link is refused: rc {rc}: {err[-200:]}")

    # PNG: through rsvg-convert when installed; else (and with PATH without
    # it) a clear error naming it, exit 2, nothing compared.
    png = os.path.join(d, "one.png")
    if shutil.which("rsvg-convert"):
        rc, _, err = run([GFXSTAT, "compare", ab, "--metric", "fps", "--plot", png])
        check(rc == 0 and read(png, "rb").startswith(b"\x89PNG"), f"--plot one.png: a PNG: rc {rc}: {err[-300:]}")
        check(colours_of(png) > 3, "--plot one.png: the PNG is not blank")
    else:
        print("note: rsvg-convert is not installed: --plot FILE.png is checked for its error only")
    p = subprocess.run([GFXSTAT, "compare", ab, "--metric", "fps", "--plot", os.path.join(d, "none.png")],
                       capture_output=True, env={**env, "PATH": os.path.join(d, "empty-path")})
    perr = p.stderr.decode(errors="replace")
    check(p.returncode == 2 and "rsvg-convert" in perr and not p.stdout,
          f"--plot x.png without rsvg-convert: exit 2 naming it, nothing printed: {perr[-300:]}")

    # A suite's forest: both metrics of the suite (one unit each: one row per metric).
    forest = os.path.join(d, "forest.svg")
    rc, _, err = run([GFXSTAT, "compare", ab, "--plot", forest, "--plot-kind", "forest"])
    if check(rc == 0 and os.path.exists(forest), f"--plot-kind forest: rc {rc}: {err[-300:]}"):
        svg = check_svg(forest, "forest")
        check("fps" in svg and "frame_ms" in svg, "forest: a row per metric")

    # --- invalid runs, from the kernel log watch, and two files of one variant each ---
    fifo = os.path.join(d, "kmsg.fifo")
    os.mkfifo(fifo, 0o600)
    script = write(d, "hanging.py", HANGING)
    a = os.path.join(d, "a.json")
    b = os.path.join(d, "b.json")
    for path, label, hang, slower in ((a, "base", "2", ""), (b, "patched", "", "1")):
        e = {**env, "GFXSTAT_KMSG": fifo, "KMSG_FIFO": fifo, "COUNTER": path + ".count", "HANG_AT": hang,
             "SLOWER": slower}
        p = subprocess.run([GFXSTAT, "run", "-o", path, "--label", label, "--runs", "6", "--warmup", "1",
                            "--lower-is-better", "--", PY, script], capture_output=True, env=e)
        check(p.returncode == 0, f"run {label}: rc {p.returncode}: {p.stderr.decode(errors='replace')[-300:]}")
    ro = os.path.join(d, "files.svg")
    rc, _, err = run([GFXSTAT, "compare", a, b, "--plot", ro, "--plot-kind", "run-order"])
    if check(rc == 0 and os.path.exists(ro), f"two files, run-order: rc {rc}: {err[-300:]}"):
        cs = circles(check_svg(ro, "two files"))
        # base: 1 warm-up, 6 used, 1 invalid (invocation 2, the first measured run); patched: 1 + 6.
        check(len(cs) == 15, f"two files: one circle per run with a value ({len(cs)} of 15)")
        check(sum("invalid" in c.split() for c in cs) == 1, f"two files: the invalid run marked: {cs}")
        check(sum("warmup" in c.split() for c in cs) == 2, "two files: the warm-ups marked")

    # --drop-outliers: the dropped run is drawn, marked.
    out_file = os.path.join(d, "outlier.json")
    for label, values in (("x", [10, 10.2, 9.9, 10.1, 10.0, 9.8, 10.3, 30]), ("y", [11, 11.2, 10.9, 11.1, 11.0, 10.8, 11.3, 11.1])):
        for v in values:
            rc, err = run_value(out_file, label, v)
            check(rc == 0, f"run {label} {v}: rc {rc}: {err[-200:]}")
    dropped = os.path.join(d, "dropped.svg")
    rc, _, err = run([GFXSTAT, "compare", out_file, "--drop-outliers", "--plot", dropped, "--plot-kind", "run-order"])
    if check(rc == 0 and os.path.exists(dropped), f"--drop-outliers with --plot: rc {rc}: {err[-300:]}"):
        cs = circles(read(dropped))
        check(len(cs) == 16 and sum("dropped" in c.split() for c in cs) == 1,
              f"the dropped outlier is drawn and marked ({len(cs)} circles: {cs})")

    # --- gfxstat report ---
    page = os.path.join(d, "ab.html")
    rc, out, err = run([GFXSTAT, "report", ab, "-o", page])
    check(rc == 0 and not out, f"report: exit 0, nothing on stdout: rc {rc}: {err[-300:]}")
    pages = []
    if check(os.path.exists(page), "report: the page written"):
        html = read(page)
        ok, msg = xml_ok(page)
        check(ok, f"report: the page is well-formed XML: {msg[:300]}")
        rc, _, msg = run(["xmllint", "--html", "--noout", page])
        check(rc == 0, f"report: xmllint --html reads it: {msg[:300]}")
        check(not self_contained(html), f"report: self-contained: {self_contained(html)}")
        check("Content-Security-Policy" in html and "prefers-color-scheme: dark" in html,
              "report: a CSP and a dark variant")
        # Two metrics x (distributions, run order, boot means), and the suite's forest.
        check(html.count("<svg") == 7, f"report: 7 charts ({html.count('<svg')})")
        check("Environment" in html and "gfxstat show" in html, "report: the environment section")
        check("verdict" in html.lower() and "<pre>" in html, "report: compare's report in words")
        pages.append((page, "the ab page", 7))
        check("\ndiagnostics\n" in html, "report: each file's diagnostics, as gfxstat show words them")

    # --no-diagnostics: none computed, compare's or show's: the page has no
    # diagnostics section.
    bare = os.path.join(d, "bare.html")
    rc, out, err = run([GFXSTAT, "report", ab, "-o", bare, "--no-diagnostics"])
    if check(rc == 0 and os.path.exists(bare), f"report --no-diagnostics: rc {rc}: {err[-300:]}"):
        html = read(bare)
        check("gfxstat show" in html and "\ndiagnostics\n" not in html and "nothing unusual" not in html,
              "report --no-diagnostics: the files shown without diagnostics")

    two = os.path.join(d, "files.html")
    rc, out, err = run([GFXSTAT, "report", a, b, "-o", two, "--title", "base vs patched"])
    if check(rc == 0 and os.path.exists(two), f"report on two files: rc {rc}: {err[-300:]}"):
        html = read(two)
        check(xml_ok(two)[0] and "base vs patched" in html, "report on two files: well-formed, titled")
        check(html.count("<svg") == 3, f"report on two files: 3 charts ({html.count('<svg')})")
        pages.append((two, "the two-file page", 3))

    # Large samples: past 2,000 runs a variant, the strip and the run order
    # draw bins and say so, the page stays self-contained and well-formed,
    # and it grows by a few bytes a run, not one mark per run (counted in
    # bytes, never timed).
    big_pages = {}
    for n in (3000, 30000):
        big = write(d, f"big-{n}.json", big_results(n))
        big_page = os.path.join(d, f"big-{n}.html")
        rc, _, err = run([GFXSTAT, "report", big, "-o", big_page])
        if not check(rc == 0 and os.path.exists(big_page), f"report of {n} runs a variant: rc {rc}: {err[-300:]}"):
            continue
        html = read(big_page)
        big_pages[n] = len(html.encode())
        check(xml_ok(big_page)[0], f"report of {n} runs a variant: well-formed")
        check(not self_contained(html), f"report of {n} runs a variant: self-contained: {self_contained(html)}")
        check(html.count("<circle") == 0 and html.count('class="run-bin') > 100,
              f"report of {n} runs a variant: bins, no circle per run ({html.count('<circle')} circles)")
        said = f"runs a variant the runs are drawn as bins, not one mark each: a ({n} runs), b ({n} runs).</figcaption>"
        check(html.count(said) == 2 and "drawn as bins, not one mark per run" in html,
              f"report of {n} runs a variant: the captions say the runs are drawn as bins")
    if len(big_pages) == 2:
        per_run = (big_pages[30000] - big_pages[3000]) / (2 * 27000)
        check(per_run <= 40, f"the page grows by {per_run:.1f} bytes a run past 3,000 runs a variant (at most 40)")

    # Labels with markup and control characters are escaped, in the page
    # and in the charts.
    evil = os.path.join(d, "evil.json")
    for label, value in (("<b>&\"base\"", "1"), ("new\x1b[31m<i>", "2")):
        for v in ("10", "10.5", "9.5", "10.2", "9.8", "10.1"):
            rc, err = run_value(evil, label, float(v) + float(value))
            check(rc == 0, f"run with the label {label!r}: rc {rc}: {err[-200:]}")
    evil_page = os.path.join(d, "evil.html")
    rc, _, err = run([GFXSTAT, "report", evil, "-o", evil_page])
    if check(rc == 0 and os.path.exists(evil_page), f"report with markup in labels: rc {rc}: {err[-300:]}"):
        html = read(evil_page)
        check(xml_ok(evil_page)[0], "report with markup in labels: well-formed")
        check("<b>" not in html and "<i>" not in html and "&lt;b&gt;&amp;&quot;base&quot;" in html,
              "labels' markup escaped")
        check("\x1b" not in html and "\\x1b[31m" in html, "labels' control characters shown escaped, never raw")
        pages.append((evil_page, "the page with markup in labels", 3))
    evil_svg = os.path.join(d, "evil.svg")
    rc, _, err = run([GFXSTAT, "compare", evil, "--plot", evil_svg])
    if check(rc == 0 and os.path.exists(evil_svg), f"--plot with markup in labels: rc {rc}: {err[-300:]}"):
        svg = check_svg(evil_svg, "markup in labels")
        check("\x1b" not in svg and "<b>" not in svg, "the chart escapes the labels")

    # Bad input: exit 2 naming file and line; -o required; nothing written.
    lines = read(ab).splitlines(keepends=True)
    bad = write(d, "bad.json", lines[0] + '{"type": "run", oops\n' + "".join(lines[1:]))
    bad_page = os.path.join(d, "bad.html")
    rc, _, err = run([GFXSTAT, "report", bad, "-o", bad_page])
    check(rc == 2 and "bad.json:2" in err and not os.path.exists(bad_page),
          f"report on a broken file: exit 2 naming file:line, no page: rc {rc}: {err[-300:]}")
    rc, _, err = run([GFXSTAT, "report", ab])
    check(rc == 2 and "--output" in err, f"report without -o: exit 2: {err[-200:]}")
    rc, _, err = run([GFXSTAT, "report", ab, "-o", os.path.join(d, "x.html"), "--gate"])
    check(rc == 2, f"report refuses compare's --gate (no exit status to gate): rc {rc}")

    if not shutil.which("chromium"):
        print("SKIP: chromium (Debian package chromium) is not installed: the pages were not opened in a browser")
        return SKIP if not finish("report_cli: passed (without chromium)") else 1
    for path, what, svgs in pages:
        chromium_check(path, d, what, svgs)
    return finish("report_cli: passed")


if __name__ == "__main__":
    sys.exit(main())
