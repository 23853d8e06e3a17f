#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gfxstat report's "Image checks" section, end to end: a results file of
timed runs and checking runs (image_check records) whose kept directories
hold frames this test writes (P6 PNM and RGBA PNG as glretrace writes
them, 32-bit bottom-up BMP as gfxrecon-replay writes them). The page must hold the
section with the verdict, baseline | candidate | difference as PNG data
URIs for a differing frame, two pictures for frames of different sizes,
wide frames shrunk to 512 pixels or less, and a note for a frame not kept.
Every PNG is decoded here with Python's zlib (an independent decoder): its
chunks' CRCs, its IDAT stream, its rows unfiltered and compared pixel by
pixel with the images written. A file without image checks gets no
section and no picture."""

import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import check, finish, paths, run, self_contained  # noqa: E402

GFXSTAT, SRC = paths()
MAGENTA = (255, 0, 255)


def gradient(w, h, seed=0):
    """Rows of (r, g, b) tuples."""
    return [[((x * 7 + seed) % 256, (y * 11) % 256, (x * y + seed) % 256) for x in range(w)] for y in range(h)]


def pnm(img):
    h, w = len(img), len(img[0])
    return b"P6\n# gfxstat test\n%d %d\n255\n" % (w, h) + bytes(c for row in img for px in row for c in px)


def bmp(img):
    """32-bit BGRA, bottom-up rows, BITMAPINFOHEADER."""
    h, w = len(img), len(img[0])
    px = b"".join(bytes(c for (r, g, b) in row for c in (b, g, r, 255)) for row in reversed(img))
    header = struct.pack("<2sIHHI", b"BM", 54 + len(px), 0, 0, 54)
    info = struct.pack("<IiiHHIIiiII", 40, w, h, 1, 32, 0, len(px), 2835, 2835, 0, 0)
    return header + info + px


def png_rgba(img):
    """8-bit RGBA (alpha 200), rows filtered by filter y % 5, as glretrace
    writes a snapshot of a frame with alpha; Python's zlib compresses."""
    h, w = len(img), len(img[0])
    raw, prev = b"", bytes(w * 4)
    for y, row in enumerate(img):
        line = bytes(c for (r, g, b) in row for c in (r, g, b, 200))
        f, out = y % 5, bytearray()
        for i, v in enumerate(line):
            a, up, c = (line[i - 4] if i >= 4 else 0), prev[i], (prev[i - 4] if i >= 4 else 0)
            out.append((v - [0, a, up, (a + up) // 2, paeth(a, up, c)][f]) & 255)
        raw += bytes([f]) + bytes(out)
        prev = line

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def decode_png(data, what):
    """(width, height, rows of (r, g, b)) of an 8-bit RGB PNG; None (and a
    failed check) when it is not one."""
    if not check(data[:8] == b"\x89PNG\r\n\x1a\n", f"{what}: PNG signature"):
        return None
    at, idat, ihdr, types = 8, b"", None, []
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        check(zlib.crc32(kind + body) == crc, f"{what}: CRC of {kind!r}")
        types.append(kind)
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    check(types[0] == b"IHDR" and types[-1] == b"IEND", f"{what}: chunks {types}")
    if not check(ihdr is not None and ihdr[2:] == (8, 2, 0, 0, 0), f"{what}: 8-bit RGB: {ihdr}"):
        return None
    w, h = ihdr[0], ihdr[1]
    try:
        raw = zlib.decompress(idat)  # checks the Adler-32 too
    except zlib.error as e:
        check(False, f"{what}: zlib: {e}")
        return None
    stride = w * 3
    if not check(len(raw) == h * (stride + 1), f"{what}: {len(raw)} bytes for {w}x{h}"):
        return None
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - 3] if x >= 3 else 0
            b, c = prev[x], prev[x - 3] if x >= 3 else 0
            pred = [0, a, b, (a + b) // 2, paeth(a, b, c)][f]
            line[x] = (line[x] + pred) & 255
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, 3)])
        prev = line
    return w, h, rows


def pictures(html):
    """[(alt, png bytes)] in page order."""
    return [(alt, __import__("base64").b64decode(b64))
            for b64, alt in re.findall(r'<img src="data:image/png;base64,([A-Za-z0-9+/=]+)" width="\d+" '
                                       r'height="\d+" alt="([^"]*)"/>', html)]


def main():
    with tempfile.TemporaryDirectory() as d:
        work = os.path.join(d, "results")
        os.makedirs(work)
        a, b = os.path.join(d, "a.txt"), os.path.join(d, "b.txt")
        with open(a, "w") as f:
            f.write("\n".join(str(100 + i % 3) for i in range(8)) + "\n")
        with open(b, "w") as f:
            f.write("\n".join(str(90 + i % 3) for i in range(8)) + "\n")
        results = os.path.join(work, "r.json")
        rc, _, err = run([GFXSTAT, "import", "--from", "lines", a, b, "--label", "main", "--label", "fast&<er>",
                          "--metric", "frame_ms", "--unit", "ms", "--lower-is-better", "-o", results])
        check(rc == 0, f"import: {err}")
        plain = os.path.join(work, "plain.json")
        with open(results) as f, open(plain, "w") as g:
            g.write(f.read())

        # Frames 1..5: 1 equal; 2 differs in a block of pixels; 3 differs in
        # size; 4 is wide (shrunk on the page); 5 differs but its candidate
        # image was not kept.
        base = {1: gradient(16, 8), 2: gradient(64, 48), 3: gradient(40, 30), 4: gradient(1030, 20), 5: gradient(8, 8)}
        cand = {k: [list(r) for r in v] for k, v in base.items()}
        for y in range(10, 14):
            for x in range(20, 25):
                r, g, bl = cand[2][y][x]
                cand[2][y][x] = (r, (g + 60) % 256, bl)
        changed = 4 * 5
        cand[3] = gradient(41, 30)
        cand[4][3][1000] = (0, 0, 0)
        keep_main = os.path.join(work, "keep", "main")
        keep_cand = os.path.join(work, "keep", "fast&<er>")
        os.makedirs(keep_main)
        os.makedirs(keep_cand)
        for k in range(1, 6):
            with open(os.path.join(keep_main, f"frame-{k}.pnm"), "wb") as f:
                f.write(pnm(base[k]))
            if k == 3:  # kept by glretrace's default: PNG
                with open(os.path.join(keep_cand, f"frame-{k}.png"), "wb") as f:
                    f.write(png_rgba(cand[k]))
            elif k != 5:
                with open(os.path.join(keep_cand, f"frame-{k}.bmp"), "wb") as f:
                    f.write(bmp(cand[k]))
        md5 = {v: {str(k): ("%032x" % (k if v == "main" or k == 1 else 1000 + k)) for k in range(1, 6)}
               for v in ("main", "fast&<er>")}
        recs = []
        for v, kept in (("main", "keep/main"), ("fast&<er>", "keep/fast&<er>")):
            for i in range(2):
                rec = {"type": "image_check", "variant": v, "check": i, "exit": {"class": "ok"},
                       "tool": "glretrace", "method": "md5", "images": md5[v]}
                if i == 0:
                    rec["kept"] = kept
                recs.append(rec)
        with open(results, "a") as f:
            for rec in recs:
                f.write(json.dumps(rec, separators=(",", ":")) + "\n")

        # From another directory, the results file named relatively: kept
        # directories are relative to the file, not to the working directory.
        page = os.path.join(d, "page.html")
        p = subprocess.run([GFXSTAT, "report", "results/r.json", "-o", page], cwd=d, capture_output=True)
        check(p.returncode == 0, f"report: rc {p.returncode}: {p.stderr.decode(errors='replace')}")
        html = open(page).read() if os.path.exists(page) else ""
        check('<section id="images">' in html and "<h2>Image checks</h2>" in html, "the Image checks section")
        check("fast&amp;&lt;er&gt; vs main: renders differently: 4 of 5 frames (first: 2)" in html,
              "the verdict line, escaped")
        check("fast&<er>" not in html, "no name unescaped")
        # The candidate is faster by its timing alone; its frames differ, so
        # the verdicts table never calls it an improvement.
        verdict_cells = re.findall(r'<td class="gs-[a-z-]+">([^<]*)</td>', html)
        check("renders differently" in verdict_cells and "improvement" not in verdict_cells,
              f"the verdicts table overrules the improvement: {verdict_cells}")
        rc, _, err = run(["xmllint", "--noout", page])
        check(rc == 0 and not err.strip(), f"the page is well-formed: {err}")
        check("Frame 4: 1 of 20600 pixels differs" in html, "frame 4's caption")
        check(self_contained(html) == [], f"nothing fetched or run: {self_contained(html)}")
        pics = pictures(html)
        check(html.count("data:image/png;base64,") == len(pics) == 8,
              f"3 + 2 + 3 pictures: {len(pics)} of {html.count('data:image/png')}")
        check(re.search(r"Frame 2: 20 of 3,?072 pixels differ \(shown in magenta over the baseline in grey\), "
                        r"by at most 60 in a channel\.", html) is not None, "frame 2's caption")
        check("Frame 3: the images differ in size (40x30 in main, 41x30 in fast&amp;&lt;er&gt;): no difference "
              "image." in html, "frame 3's caption")
        check("Frame 5: no kept image of fast&amp;&lt;er&gt; (looked in results/keep/fast&amp;&lt;er&gt;)." in html,
              "the note of the frame not kept")
        decoded = [decode_png(png, alt) for alt, png in pics]
        if len(decoded) == 8 and all(decoded):
            (bw, bh, brows), (cw, ch, crows), (dw, dh, drows) = decoded[:3]
            check((bw, bh, cw, ch, dw, dh) == (64, 48) * 3, f"frame 2's sizes: {decoded[0][:2]}")
            check(brows == base[2], "frame 2: the baseline's pixels, from PNM")
            check(crows == cand[2], "frame 2: the candidate's pixels, from BMP")
            marked = [(x, y) for y in range(dh) for x in range(dw) if drows[y][x] == MAGENTA]
            check(len(marked) == changed and all(20 <= x < 25 and 10 <= y < 14 for x, y in marked),
                  f"frame 2: the difference marks the changed pixels: {len(marked)}")
            grey = [px for row in drows for px in row if px != MAGENTA]
            check(all(px[0] == px[1] == px[2] and px[0] < 128 for px in grey), "frame 2: the rest dimmed grey")
            check(decoded[4][:2] == (41, 30) and decoded[3][2] == base[3], "frame 3: two pictures, as written")
            check(decoded[4][2] == cand[3] and "frame-3.png" in pics[4][0],
                  f"frame 3: the candidate's pixels, from an RGBA PNG: {pics[4][0]}")
            for k in (5, 6, 7):
                check(decoded[k][:2] == (344, 7), f"frame 4 shrunk by 3 (1030 -> 344): {decoded[k][:2]}")
            marked = [(x, y) for y, row in enumerate(decoded[7][2]) for x, px in enumerate(row) if px == MAGENTA]
            check(marked == [(1000 // 3, 3 // 3)], f"frame 4: its one differing pixel stays marked: {marked}")
            check(pics[0][0].startswith("main: results/keep/main/frame-2.pnm") and pics[2][0] == "difference",
                  f"captions: {[alt for alt, _ in pics[:3]]}")

        # No image check: no section, no picture, no picture style.
        plain_page = os.path.join(d, "plain.html")
        rc, _, err = run([GFXSTAT, "report", plain, "-o", plain_page])
        check(rc == 0, f"report without image checks: {err}")
        text = open(plain_page).read() if rc == 0 else ""
        check("Image checks" not in text and "data:image" not in text and "gs-pictures" not in text,
              "no image section without image checks")

        # Nothing kept: the verdict and a sentence, never a failure.
        bare = os.path.join(work, "bare.json")
        with open(plain) as f, open(bare, "w") as g:
            g.write(f.read())
            for rec in recs:
                rec.pop("kept", None)
                g.write(json.dumps(rec, separators=(",", ":")) + "\n")
        bare_page = os.path.join(d, "bare.html")
        rc, _, err = run([GFXSTAT, "report", bare, "-o", bare_page])
        text = open(bare_page).read() if rc == 0 else ""
        check(rc == 0 and "renders differently: 4 of 5 frames" in text and "data:image" not in text
              and "The images of main were not kept" in text, f"nothing kept: rc {rc}: {err}")
    return finish("report images CLI: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
