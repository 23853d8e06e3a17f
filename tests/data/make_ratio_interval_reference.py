#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes ratio_interval_reference.json: Fieller's confidence intervals
for ratios of means, the reference for analysis/ratio_interval.cpp
(tests/unit/analysis/ratio_interval_test.cpp) and for compare's relative intervals
(tests/cli/defects/04_relative_interval_ratio_test.py).

Shares nothing with the C++: textbook formulas in mpmath at 50 digits.
The t quantile is the root of the t distribution's CDF, written with the
regularised incomplete beta function (mpmath.betainc); Fieller's set is
every rho with (b - rho a)^2 <= q^2 (vb - 2 rho cov + rho^2 va), solved as
a quadratic. Independent samples use Welch's degrees of freedom (the
Welch test's own, so that the interval excludes 1 exactly when the test
rejects), paired samples n - 1.

Run with Debian's python3 and python3-mpmath:
    python3 tests/data/make_ratio_interval_reference.py > tests/data/ratio_interval_reference.json
"""

import json
import sys

import mpmath as mp

mp.mp.dps = 50


def t_cdf(x, df):
    x, df = mp.mpf(x), mp.mpf(df)
    tail = mp.betainc(df / 2, mp.mpf(1) / 2, 0, df / (df + x * x), regularized=True) / 2
    return 1 - tail if x > 0 else tail


def t_quantile(p, df):
    return mp.findroot(lambda x: t_cdf(x, df) - p, mp.mpf(2))


def fieller(a, b, va, vb, cov, q):
    A = a * a - q * q * va
    B = a * b - q * q * cov
    C = b * b - q * q * vb
    if A <= 0:
        return None
    root = mp.sqrt(B * B - A * C)
    return (B - root) / A, (B + root) / A


def mean(v):
    return mp.fsum(v) / len(v)


def var(v):
    m = mean(v)
    return mp.fsum((x - m) ** 2 for x in v) / (len(v) - 1)


def independent(name, a, b, confidence):
    a = [mp.mpf(str(x)) for x in a]
    b = [mp.mpf(str(x)) for x in b]
    va, vb = var(a) / len(a), var(b) / len(b)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    q = t_quantile((1 + mp.mpf(confidence)) / 2, df)
    r = fieller(mean(a), mean(b), va, vb, 0, q)
    return {"name": name, "kind": "independent", "baseline": [float(x) for x in a],
            "candidate": [float(x) for x in b], "confidence": confidence, "df": float(df),
            "ratio": float(mean(b) / mean(a)), "bounded": r is not None,
            "low": float(r[0]) if r else None, "high": float(r[1]) if r else None}


def paired(name, a, b, confidence):
    a = [mp.mpf(str(x)) for x in a]
    b = [mp.mpf(str(x)) for x in b]
    n = len(a)
    ma, mb = mean(a), mean(b)
    cov = mp.fsum((x - ma) * (y - mb) for x, y in zip(a, b)) / (n - 1)
    q = t_quantile((1 + mp.mpf(confidence)) / 2, n - 1)
    r = fieller(ma, mb, var(a) / n, var(b) / n, cov / n, q)
    return {"name": name, "kind": "paired", "baseline": [float(x) for x in a],
            "candidate": [float(x) for x in b], "confidence": confidence, "df": n - 1,
            "ratio": float(mb / ma), "bounded": r is not None,
            "low": float(r[0]) if r else None, "high": float(r[1]) if r else None}


# gem_syslatency's latency_mean before and after a change that cut it by
# 86%, with a noisy baseline: the difference over the baseline gave
# [-121.7%, -66.2%].
SYSLAT_BEFORE = [41.2, 55.8, 160.3, 38.9, 47.5, 122.6, 58.1, 44.0, 63.9, 42.1]
SYSLAT_AFTER = [10.3, 9.7, 10.9, 9.8, 10.1, 10.6, 9.5, 10.2, 9.9, 9.8]

CASES = [
    independent("syslatency_mean", SYSLAT_BEFORE, SYSLAT_AFTER, 0.95),
    independent("syslatency_mean_90", SYSLAT_BEFORE, SYSLAT_AFTER, 0.90),
    # Five runs a side (Welch: too few to judge the shape): the difference
    # over the baseline gave [-151%, -19%].
    independent("welch_few_runs", [30.0, 90.0, 60.0, 120.0, 40.0], [10.0, 10.5, 9.5, 10.2, 9.8], 0.95),
    independent("small_change", [100.1, 99.8, 100.4, 100.0, 99.7, 100.3], [101.2, 100.9, 101.5, 101.1, 100.8], 0.95),
    independent("negative_baseline", [-10.0, -11.0, -9.5, -10.5], [-12.0, -12.5, -11.5, -12.2], 0.95),
    independent("unbounded", [0.1, 5.0, -4.0, 2.0], [3.0, 3.2, 2.9, 3.1], 0.95),
    paired("boots", [100.0, 104.0, 98.0, 101.5, 103.0], [95.1, 99.2, 93.0, 97.0, 97.9], 0.95),
    paired("machines_wide", [12.0, 30.0, 18.0], [6.0, 9.0, 11.0], 0.99),
]

json.dump({"generator": "tests/data/make_ratio_interval_reference.py (mpmath %s, 50 digits)" % mp.__version__,
           "cases": CASES}, sys.stdout, indent=1)
sys.stdout.write("\n")
