#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes a results file of N runs of one value each (metric "latency", us,
# normal(23, 2) with three decimals, seed 20261206), as `gfxstat run` of a
# one-number workload writes them; the variants (default "a") take turns,
# each numbering its runs 0, 1, 2, ...
#
# Usage: bench/one_value_runs.py N [VARIANT...] PATH
import random
import sys

n, variants, path = int(sys.argv[1]), sys.argv[2:-1] or ["a"], sys.argv[-1]
rng = random.Random(20261206)
with open(path, "w") as f:
    f.write('{"format":"gfxstat-results","version":1,"id":"%s","created":"2026-12-06T00:00:00.000000Z",'
            '"generator":"bench"}\n' % ("c" * 32))
    f.write('{"type":"metric","name":"latency","unit":"us","direction":"lower"}\n')
    for r in range(n):
        f.write('{"type":"run","variant":"%s","run":%d,"exit":{"class":"ok","code":0},'
                '"metrics":{"latency":%.3f}}\n' % (variants[r % len(variants)], r // len(variants),
                                                   rng.gauss(23.0, 2.0)))
