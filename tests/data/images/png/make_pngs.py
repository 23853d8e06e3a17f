#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the PNG fixtures of tests/unit/formats/png_read_test.cpp with an
encoder independent of gfxstat's: Python's own zlib (the C library) and
this file's filters and chunks. Run it from this directory to remake
them; the test holds the same pixel formula.

Pixel (x, y) of every image: r = (x * 37 + y * 11) & 255,
g = (x * y * 5 + 3) & 255, b = (255 - x * 13 + y * 7) & 255,
a = (x + y * 29) & 255; grey is r. A palette image names entry
(x + 3 * y) % 11, entry i being (i * 23, 255 - i * 17, i * i).
Row y is filtered with filter y % 5, so every image of 5 rows or more
uses all five filters."""

import struct
import sys
import zlib


def rgba(x, y):
    return ((x * 37 + y * 11) & 255, (x * y * 5 + 3) & 255, (255 - x * 13 + y * 7) & 255, (x + y * 29) & 255)


PALETTE = [(i * 23 & 255, 255 - i * 17 & 255, i * i & 255) for i in range(11)]


def samples(colour_type, depth, x, y):
    r, g, b, a = rgba(x, y)
    if colour_type == 0:
        s = [r]
    elif colour_type == 2:
        s = [r, g, b]
    elif colour_type == 3:
        return bytes([(x + 3 * y) % 11])
    elif colour_type == 4:
        s = [r, a]
    else:
        s = [r, g, b, a]
    if depth == 16:  # the low byte differs from the high one: a reader keeps the high byte
        return b"".join(struct.pack(">H", v << 8 | (v ^ 0x5a)) for v in s)
    return bytes(s)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def filtered(raw_rows, bpp):
    out = b""
    prev = bytes(len(raw_rows[0]))
    for y, row in enumerate(raw_rows):
        f = y % 5
        line = bytearray()
        for i, v in enumerate(row):
            a = row[i - bpp] if i >= bpp else 0
            up = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            pred = [0, a, up, (a + up) // 2, paeth(a, up, c)][f]
            line.append((v - pred) & 255)
        out += bytes([f]) + bytes(line)
        prev = row
    return out


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(width, height, colour_type, depth=8, level=9, idat_pieces=1, text=False):
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour_type]
    bpp = channels * depth // 8
    rows = [b"".join(samples(colour_type, depth, x, y) for x in range(width)) for y in range(height)]
    z = zlib.compress(filtered(rows, bpp), level)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, 0))
    if colour_type == 3:
        out += chunk(b"PLTE", b"".join(bytes(e) for e in PALETTE))
    if text:
        out += chunk(b"tEXt", b"Software\0make_pngs.py")
    step = -(-len(z) // idat_pieces)
    for i in range(0, len(z), step):
        out += chunk(b"IDAT", z[i:i + step])
    return out + chunk(b"IEND", b""), z


def block_type(z):
    return (z[2] >> 1) & 3  # the first deflate block's BTYPE


def decode_rgb8(path):
    """An 8-bit RGB PNG's rows, decoded with Python's zlib: the reference
    values of the kept glretrace snapshot (tests/data/images/apitrace)."""
    with open(path, "rb") as f:
        b = f.read()
    at, idat = 8, b""
    width, height, depth, colour_type = struct.unpack(">IIBB", b[16:26])
    assert (depth, colour_type) == (8, 2), "an 8-bit RGB image"
    while at < len(b):
        (n,) = struct.unpack(">I", b[at:at + 4])
        if b[at + 4:at + 8] == b"IDAT":
            idat += b[at + 8:at + 8 + n]
        at += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), width * 3, [], bytes(width * 3)
    for y in range(height):
        f, src, row = raw[y * (stride + 1)], raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)], bytearray(stride)
        for i in range(stride):
            a, up, c = (row[i - 3] if i >= 3 else 0), prev[i], (prev[i - 3] if i >= 3 else 0)
            row[i] = (src[i] + [0, a, up, (a + up) // 2, paeth(a, up, c)][f]) & 255
        rows.append(bytes(row))
        prev = row
    return width, height, rows


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--pixels":  # --pixels FILE X,Y...
        width, height, rows = decode_rgb8(sys.argv[2])
        print(f"{width}x{height}")
        for xy in sys.argv[3:]:
            x, y = map(int, xy.split(","))
            print(x, y, tuple(rows[y][3 * x:3 * x + 3]))
        return
    made = {}
    for ct in (0, 2, 3, 4, 6):
        made[f"type{ct}-8.png"] = png(7, 10, ct)
    made["type0-16.png"] = png(7, 10, 0, depth=16)
    made["type2-16.png"] = png(7, 10, 2, depth=16)
    made["type4-16.png"] = png(5, 5, 4, depth=16)
    made["type6-16.png"] = png(5, 5, 6, depth=16)
    made["stored.png"] = png(9, 6, 2, level=0, idat_pieces=3, text=True)
    made["dynamic.png"] = png(61, 47, 6, level=9, idat_pieces=4)
    assert block_type(made["stored.png"][1]) == 0, "level 0 writes stored blocks"
    assert block_type(made["dynamic.png"][1]) == 2, "a larger image compresses with dynamic codes"
    assert block_type(made["type2-8.png"][1]) == 1, "a small image compresses with the fixed codes"
    for name, (data, _) in sorted(made.items()):
        with open(name, "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
