#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A seeded stand-in for apitrace's glretrace and GFXReconstruct's
gfxrecon-replay, for check_images_cli_test.py. Installed under the
replayer's name (its base name says which it plays) in a directory put
first in PATH. It writes one JSON line per invocation to
$FAKE_STATE/calls.jsonl (argv, kind: timed or check).

glretrace: `-b` replays "timed": it prints "Rendered 200 frames in S secs,
average of F fps" with F drawn from $FAKE_SEED and the count of timed
invocations so far (checking invocations never move it), so the timed
values of two gfxstat runs with the same seed are identical whether or
not checking runs come between them. `--snapshot-format=MD5 -s -` prints
one MD5 a frame (6 frames; with -S CALLSET one a listed call): frame 0
differs on every invocation, as a glxgears trace's first frame does on
llvmpipe; the others are those of the image named by $FAKE_IMAGE.
`-s PREFIX` writes PREFIX%010u.png files instead.
gfxrecon-replay: prints "Total time" and "Replay FPS" lines, the same way
seeded; with --screenshot-all --screenshot-dir D it writes
D/screenshot_frame_N.bmp for frames 1 to 4.
$FAKE_CRASH_CHECK=N: the N-th checking invocation (from 1) dies of SIGSEGV.
"""

import hashlib
import json
import os
import random
import signal
import sys

FRAMES = 6


def counter(state, name):
    """The value of the counter `name` before this call; counts this one."""
    path = os.path.join(state, name)
    n = int(open(path).read()) if os.path.exists(path) else 0
    with open(path, "w") as f:
        f.write(str(n + 1))
    return n


def image(frame, nonce):
    """The bytes of a frame: frame 0 never twice the same."""
    if frame == 0:
        return f"unstable {nonce} {os.getpid()}".encode()
    return f"{os.environ.get('FAKE_IMAGE', 'a')} frame {frame}".encode()


def calls(callset):
    out = []
    for part in callset.split(","):
        first, _, rest = part.partition("-")
        last, _, step = rest.partition("/")
        out.extend(range(int(first), int(last or first) + 1, int(step or 1)))
    return out


def main():
    state = os.environ["FAKE_STATE"]
    argv = sys.argv[1:]
    tool = os.path.basename(sys.argv[0])
    checking = ("--snapshot-format=MD5" in argv or "-s" in argv or "--screenshot-all" in argv)
    with open(os.path.join(state, "calls.jsonl"), "a") as f:
        f.write(json.dumps({"tool": tool, "argv": argv, "kind": "check" if checking else "timed"}) + "\n")
    if checking:
        n = counter(state, "checks") + 1
        if os.environ.get("FAKE_CRASH_CHECK") == str(n):
            sys.stdout.flush()
            os.kill(os.getpid(), signal.SIGSEGV)
        if tool == "gfxrecon-replay":
            d = argv[argv.index("--screenshot-dir") + 1]
            for frame in range(1, 5):
                with open(os.path.join(d, f"screenshot_frame_{frame}.bmp"), "wb") as out:
                    out.write(b"BM" + image(frame, n))
            print("Total time: 0.500000 seconds")
            print("Replay FPS: 8.000000 fps, 0.500000 seconds, 4 frames, framerange 1-4")
            return 0
        numbers = calls(argv[argv.index("-S") + 1]) if "-S" in argv else list(range(FRAMES))
        prefix = argv[argv.index("-s") + 1]
        for i, frame in enumerate(numbers):
            data = image(i if "-S" not in argv else frame, n)
            if prefix == "-":
                print(hashlib.md5(data).hexdigest().upper())
            else:
                name = frame if "--call-nos=yes" in argv else i
                with open(f"{prefix}{name:010d}.png", "wb") as out:
                    out.write(b"\x89PNG" + data)
                print(f"Wrote {prefix}{name:010d}.png")
        return 0
    n = counter(state, "timed")
    rng = random.Random(int(os.environ.get("FAKE_SEED", "1")) * 100003 + n)
    fps = rng.uniform(100, 200)
    if tool == "gfxrecon-replay":
        print(f"Total time: {4 / fps:.6f} seconds")
        print(f"Replay FPS: {fps:.6f} fps, {4 / fps:.6f} seconds, 4 frames, framerange 1-4")
    else:
        print(f"Rendered 200 frames in {200 / fps:.6g} secs, average of {fps:.6g} fps")
    return 0


if __name__ == "__main__":
    sys.exit(main())
