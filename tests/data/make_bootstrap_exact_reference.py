#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes bootstrap_exact_reference.json: the exact bootstrap distribution
of the median of small samples and the intervals drawn from it, the
reference for analysis/bootstrap_exact.cpp and the exact path of
analysis/bootstrap.cpp (tests/unit/analysis/bootstrap_exact_test.cpp).

Shares nothing with the C++, which computes each sample's distribution
from binomial and multinomial formulas over the order statistics: here
every distinct resample (a multiset of the n values' indices) is listed
with itertools, weighted by its multinomial probability n! / prod(c_i!) /
n^n in exact fractions, and its median taken. The two samples are
resampled independently (stratified), so the difference and the ratio of
the medians take every pair of the two distributions, with the product
of the probabilities. Medians, differences and ratios are doubles, as
the C++ computes them (IEEE arithmetic, rounded once), so that equal
medians merge alike; probabilities, means and variances are exact. The intervals follow R's boot.ci in the limit of
infinitely many resamples: the quantile at level p is the smallest value
whose cumulative probability reaches p; z0 = qnorm(P(T* < t0)); the BCa
acceleration from the jackknife (boot's usual.jack, one sample's value
left out at a time).

Run with Debian's python3:
    python3 tests/data/make_bootstrap_exact_reference.py > tests/data/bootstrap_exact_reference.json
"""

import itertools
import json
import math
from collections import Counter
from fractions import Fraction
from statistics import NormalDist

N01 = NormalDist()


def median(values):
    """R's median as a double: the middle value, or the two middle values'
    exact midpoint rounded once."""
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else float((Fraction(v[n // 2 - 1]) + Fraction(v[n // 2])) / 2)


def median_distribution(x):
    """{median: probability} over the distinct resamples of x."""
    n = len(x)
    out = Counter()
    for idx in itertools.combinations_with_replacement(range(n), n):
        counts = Counter(idx)
        w = Fraction(math.factorial(n), math.prod(math.factorial(c) for c in counts.values()) * n ** n)
        out[median([x[i] for i in idx])] += w
    assert sum(out.values()) == 1
    return out


def quantile(dist, level):
    """Smallest value whose cumulative probability reaches level."""
    run = Fraction(0)
    items = sorted(dist.items())
    for v, w in items:
        run += w
        if run >= Fraction(level) - Fraction(1, 10**12):
            return v
    return items[-1][0]


def interval(dist, t0, influence, confidence):
    mean = sum(Fraction(v) * w for v, w in dist.items())
    var = sum(w * (Fraction(v) - mean) ** 2 for v, w in dist.items())
    below = sum(w for v, w in dist.items() if v < t0)
    alpha = [(1 - confidence) / 2, (1 + confidence) / 2]
    out = {"estimate": t0, "bias": float(mean - Fraction(t0)), "std_error": math.sqrt(var),
           "percentile": [float(quantile(dist, a)) for a in alpha]}
    s2 = sum(l * l for l in influence)
    s3 = sum(l ** 3 for l in influence)
    z0 = N01.inv_cdf(float(below)) if 0 < below < 1 else (-math.inf if below == 0 else math.inf)
    out["z0"] = z0 if math.isfinite(z0) else None
    acc = float(s3) / (6 * float(s2) ** 1.5) if s2 > 0 else None
    out["acceleration"] = acc
    bca = None
    if math.isfinite(z0) and acc is not None:
        bca = []
        for a in alpha:
            zs = z0 + N01.inv_cdf(a)
            denom = 1 - acc * zs
            if not denom > 0:
                bca = None
                break
            bca.append(float(quantile(dist, N01.cdf(z0 + zs / denom))))
    out["bca_defined"] = bca is not None
    out["bca"] = bca if bca is not None else out["percentile"]
    return out


def leave_one_out(x):
    return [median(x[:j] + x[j + 1:]) for j in range(len(x))] if len(x) > 1 else []


def case(name, a, b, confidence=0.95):
    da, db = median_distribution(a), median_distribution(b)
    ma, mb = median(a), median(b)
    diff, ratio = Counter(), Counter()
    for va, wa in da.items():
        for vb, wb in db.items():
            diff[vb - va] += wa * wb
            if va != 0:
                ratio[vb / va] += wa * wb
    fa, fb = len(a) - 1, len(b) - 1
    infl_diff = [fa * ((mb - ma) - (mb - m)) for m in leave_one_out(a)] + \
                [fb * ((mb - ma) - (m - ma)) for m in leave_one_out(b)]
    infl_ratio = [fa * (mb / ma - mb / m) for m in leave_one_out(a)] + \
                 [fb * (mb / ma - m / ma) for m in leave_one_out(b)]
    return {
        "name": name, "baseline": a, "candidate": b, "confidence": confidence,
        "baseline_medians": [[float(v), float(w)] for v, w in sorted(da.items())],
        "candidate_medians": [[float(v), float(w)] for v, w in sorted(db.items())],
        "median_difference": interval(diff, mb - ma, infl_diff, confidence),
        "median_ratio": interval(ratio, mb / ma, infl_ratio, confidence),
    }


CASES = [
    case("three_v_three", [100.12, 101.4, 99.87], [100.9, 101.7, 100.2]),
    case("suite_row", [100.1, 100.8, 99.4], [100.5, 99.9, 101.1], 0.9),
    case("ties", [1.0, 1.0, 2.0], [2.0, 3.0, 3.0]),
    case("two_v_two", [10.0, 12.0], [11.0, 15.0]),
    case("four_v_five", [5.1, 4.8, 5.3, 5.0], [5.6, 5.2, 5.9, 5.4, 5.5]),
    case("one_v_three", [7.0], [6.5, 7.2, 7.9]),
    case("six_v_six", [20.1, 19.8, 20.6, 20.0, 19.7, 20.3], [20.9, 20.4, 21.2, 20.7, 20.2, 21.0]),
    case("ten_v_ten", [13.02, 12.98, 13.11, 12.87, 13.05, 13.2, 12.91, 13.0, 13.07, 12.95],
         [13.21, 13.35, 13.1, 13.28, 13.3, 13.15, 13.4, 13.22, 13.19, 13.26]),
]

json.dump({"generator": "tests/data/make_bootstrap_exact_reference.py (exact fractions)", "cases": CASES},
          __import__("sys").stdout, indent=1)
print()
