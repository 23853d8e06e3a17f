#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Reference values for tests/unit/analysis/frame_times_test.cpp, computed apart from
gfxstat: exact rationals (fractions) for sums and fps, the statistics
module's 'inclusive' quantiles (R's type 7) for the median and p99.

The frame times are the test's formula: 16 ms plus a quarter-millisecond
step from a multiplicative hash (13 levels, so many ties), and every 50th
frame a hitch of 40 to 46 ms. All are multiples of 0.25: exact as doubles.
"""
import math
import statistics
from fractions import Fraction


def frames(n):
    out = []
    for i in range(n):
        if i % 50 == 49:
            out.append(Fraction(40 + i % 7))
        else:
            out.append(16 + Fraction((i * 7919) % 13, 4))
    return out


def summary(t):
    n = len(t)
    fps_mean = 1000 * n / sum(t)
    median = statistics.median(t)
    p99 = t[0] if n == 1 else statistics.quantiles(t, n=100, method="inclusive")[98]
    slow = sorted(t, reverse=True)

    def low(den):
        k = max(1, math.ceil(n / den))
        return k, 1000 * k / sum(slow[:k])

    k1, low1 = low(100)
    k01, low01 = low(1000)
    stutters = sum(1 for x in t if x > 2 * median)
    return n, float(sum(t)), float(fps_mean), float(median), float(p99), k1, float(low1), k01, float(low01), stutters


for n in (1, 2, 3, 99, 100, 101, 1000, 1001):
    print("{%d, %r, %r, %r, %r, %d, %r, %d, %r, %d}," % summary(frames(n)))
