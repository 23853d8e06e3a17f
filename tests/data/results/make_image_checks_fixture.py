#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes image_checks.json: a trace replay's timings (fps, higher is
better) beside its checking runs (docs/results-format.md, "Image check
records"), for compare's image verdicts. Three variants of one file:

  main     the baseline: 8 timed runs, 3 checking runs of frames 1..120;
           frame 1 differs on every replay (llvmpipe's first frame);
  patched  10% faster, and frames 42, 43 and 50 differ from main's:
           "renders differently: 3 of 119 frames (first: 42)";
  tidy     10% faster, every stable frame as main's: images equal.

python3 make_image_checks_fixture.py > image_checks.json
"""

import json
import random


def md5ish(*parts):
    """A fixed 32-digit lowercase hex "checksum" of `parts`."""
    rng = random.Random("/".join(str(p) for p in parts))
    return "".join(rng.choice("0123456789abcdef") for _ in range(32))


def lines():
    rng = random.Random(20261206)
    yield {"format": "gfxstat-results", "version": 1, "id": "1a6ec4ec000000000000000000000041", "created":
           "2026-12-06T00:00:00Z", "generator": "make_image_checks_fixture.py"}
    yield {"type": "metric", "name": "fps", "unit": "fps", "direction": "higher"}
    boot = "7a310000-0000-0000-0000-000000000000"
    levels = {"main": 100.0, "patched": 110.0, "tidy": 110.0}
    for variant, level in levels.items():
        for i in range(8):
            yield {"type": "run", "variant": variant, "run": i, "boot": boot,
                   "exit": {"class": "ok", "code": 0}, "metrics": {"fps": round(level + rng.gauss(0, 0.5), 4)}}
    for variant in levels:
        for c in range(3):
            images = {}
            for frame in range(1, 121):
                if frame == 1:
                    images[str(frame)] = md5ish(variant, c, frame)  # unstable: differs every replay
                elif variant == "patched" and frame in (42, 43, 50):
                    images[str(frame)] = md5ish("patched", frame)
                else:
                    images[str(frame)] = md5ish("frame", frame)
            yield {"type": "image_check", "variant": variant, "check": c, "boot": boot,
                   "exit": {"class": "ok", "code": 0}, "tool": "glretrace", "method": "md5", "images": images}


if __name__ == "__main__":
    for line in lines():
        print(json.dumps(line, separators=(",", ":")))
