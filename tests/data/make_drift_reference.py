#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent reference values for analysis/drift.cpp (trend, Pettitt change
point, first-run effect). Writes tests/data/drift_reference.json.

Standard library only, and deliberately the most direct textbook way, sharing
nothing with the C++ code:
  * the least-squares slope, its standard error, Spearman's rho, Kendall's
    S / tau-b and its tie-corrected variance, the Welch / prediction t
    statistics and df are exact rationals (fractions.Fraction on the exact
    binary values of the doubles); only the final square root is a float;
  * ranks, Kendall's S and Pettitt's U_t are O(n^2) / O(n^3) double loops
    over the definitions (no rank identity, no merge sort);
  * Student t tail probabilities come from the regularized incomplete beta
    function (continued fraction, Lentz), itself checked below against the
    closed-form finite series for integer df (Abramowitz & Stegun 26.7.3/4);
    t quantiles by bisection on that tail; normal tails are math.erfc;
  * medians are exact rationals rounded once to a double (what the C++
    type-7 median returns); relative_shift is computed exactly from those
    two doubles.

The input series are generated here with seeded random.Random and stored in
the JSON as shortest round-trip decimals, so the C++ test reads exactly the
doubles used here. Two real series come from NIST StRD (tests/data/nist).

Run from anywhere: python3 tests/data/make_drift_reference.py
"""

import json
import itertools
import math
import os
import random
import sys
from collections import Counter
from fractions import Fraction as F

HERE = os.path.dirname(os.path.abspath(__file__))


# ---------------------------------------------------------------- t tails
def _betacf(a, b, x):
    """Continued fraction of the incomplete beta (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 100000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        de = d * c
        h *= de
        if abs(de - 1) < 1e-16:
            return h
    raise RuntimeError("betacf did not converge")


def betai(a, b, x, one_minus_x):
    """Regularized incomplete beta I_x(a, b); 1 - x passed separately."""
    if x <= 0:
        return 0.0
    if one_minus_x <= 0:
        return 1.0
    lbt = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
           + a * math.log(x) + b * math.log(one_minus_x))
    if x < (a + 1) / (a + b + 2):
        return math.exp(lbt) * _betacf(a, b, x) / a
    return 1 - math.exp(lbt) * _betacf(b, a, one_minus_x) / b


def t_two_sided_sq(t2, df):
    """P(|T| > t) for t^2 = t2 (a Fraction or float), T ~ Student t(df)."""
    if t2 == 0:
        return 1.0
    t2 = F(t2)
    df_f = F(df)
    x = float(df_f / (df_f + t2))
    omx = float(t2 / (df_f + t2))
    return min(1.0, betai(float(df) / 2, 0.5, x, omx))


def t_two_sided_series(t, df):
    """Abramowitz & Stegun 26.7.3 / 26.7.4, integer df: 1 - A(t|df)."""
    theta = math.atan(abs(t) / math.sqrt(df))
    s, c = math.sin(theta), math.cos(theta)
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for k in range(2, df - 1, 2):
            term *= (k - 1) / k * c * c
            total += term
        a = s * total
    elif df == 1:
        a = 2 * theta / math.pi
    else:
        term, total = 1.0, 1.0
        for k in range(3, df - 1, 2):
            term *= (k - 1) / k * c * c
            total += term
        a = 2 / math.pi * (theta + s * c * total)
    return 1 - a


def t_upper_quantile(alpha_two_sided, df):
    """q with P(|T| > q) = alpha, by bisection."""
    lo, hi = 0.0, 1.0
    while t_two_sided_sq(hi * hi, df) > alpha_two_sided:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if t_two_sided_sq(F(mid) * F(mid), df) > alpha_two_sided:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def self_check():
    worst = 0.0
    for df in (1, 2, 3, 4, 5, 9, 10, 11, 28, 29, 48, 198):
        for t in (0.1, 0.7, 1.5, 2.2, 3.3, 5.0):
            a = t_two_sided_sq(F(t) * F(t), df)
            b = t_two_sided_series(t, df)
            if b > 1e-4:  # the series loses digits in 1 - A for tiny p
                worst = max(worst, abs(a - b) / b)
    assert worst < 1e-11, worst
    # Two textbook quantiles: t_{0.975, 10} = 2.228138851986274,
    # t_{0.975, 1} = 12.70620473617471.
    assert abs(t_upper_quantile(0.05, 10) - 2.228138851986274) < 1e-12
    assert abs(t_upper_quantile(0.05, 1) - 12.70620473617471) < 1e-10
    return worst


# ---------------------------------------------------------------- helpers
def sign(v):
    return (v > 0) - (v < 0)


def sqrt_signed(sq, s):
    """s * sqrt(sq) for an exact non-negative rational sq."""
    return math.copysign(math.sqrt(float(sq)), s) if sq != 0 else 0.0


def mean(xs):
    return sum(xs, F(0)) / len(xs)


def var(xs):
    m = mean(xs)
    return sum(((x - m) ** 2 for x in xs), F(0)) / (len(xs) - 1)


def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def midranks(ys):
    """Rank of y_i = #(y_j < y_i) + (#(y_j == y_i) + 1) / 2, by definition."""
    out = []
    for yi in ys:
        less = sum(1 for yj in ys if yj < yi)
        eq = sum(1 for yj in ys if yj == yi)
        out.append(F(less) + F(eq + 1, 2))
    return out


# ---------------------------------------------------------------- statistics
def trend(values, confidence):
    ys = [F(v) for v in values]
    n = len(ys)
    xs = [F(i) for i in range(n)]
    xbar, ybar = mean(xs), mean(ys)
    sxx = sum((x - xbar) ** 2 for x in xs)
    sxy = sum((x - xbar) * (y - ybar) for x, y in zip(xs, ys))
    slope = sxy / sxx
    sse = sum((y - ybar - slope * (x - xbar)) ** 2 for x, y in zip(xs, ys))
    se2 = sse / (n - 2) / sxx
    se = math.sqrt(float(se2))
    q = t_upper_quantile(1 - confidence, n - 2)
    out = {
        "slope": float(slope),
        "slope_ci_low": float(slope) - q * se,
        "slope_ci_high": float(slope) + q * se,
        "slope_p": 0.0 if se2 == 0 else t_two_sided_sq(slope * slope / se2, n - 2),
        "relative_drift": float(slope * (n - 1) / abs(ybar)),
    }
    # Spearman: Pearson's r of the mid-ranks.
    rx, ry = midranks(xs), midranks(ys)
    mx, my = mean(rx), mean(ry)
    sab = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    saa = sum((a - mx) ** 2 for a in rx)
    sbb = sum((b - my) ** 2 for b in ry)
    rho2 = sab * sab / (saa * sbb)
    out["spearman_rho"] = sqrt_signed(rho2, sab)
    out["spearman_p"] = 0.0 if rho2 == 1 else t_two_sided_sq(rho2 * (n - 2) / (1 - rho2), n - 2)
    if n <= 9:
        # Exact: the share of all n! orderings of the value ranks whose
        # |sum of rank products| is at least the observed one.
        obs = abs(sum(a * b for a, b in zip(rx, ry)) - n * mx * my)
        hits = total = 0
        for perm in itertools.permutations(ry):
            total += 1
            hits += abs(sum(a * b for a, b in zip(rx, perm)) - n * mx * my) >= obs
        out["spearman_p"] = hits / total
    # Kendall tau-b (x = index, untied): pairs counted one by one.
    s = 0
    tied_y = 0
    for i in range(n):
        for j in range(i + 1, n):
            s += sign(ys[j] - ys[i])
            tied_y += ys[j] == ys[i]
    t0 = n * (n - 1) // 2
    groups = [c for c in Counter(ys).values() if c > 1]
    assert tied_y == sum(c * (c - 1) // 2 for c in groups)
    out["kendall_tau"] = sqrt_signed(F(s * s, (t0 - tied_y) * t0), s)
    var_s = F(n * (n - 1) * (2 * n + 5) - sum(c * (c - 1) * (2 * c + 5) for c in groups), 18)
    z = math.sqrt(float(F(s * s) / var_s))
    out["kendall_p"] = math.erfc(z / math.sqrt(2))
    out["kendall_S"] = s
    return out


def change_point(values):
    ys = [F(v) for v in values]
    n = len(ys)
    best, best_t = -1, None
    us = []
    for t in range(1, n):  # the first t values are "before"
        u = sum(sign(ys[i] - ys[j]) for i in range(t) for j in range(t, n))
        us.append(u)
        if abs(u) > best:
            best, best_t = abs(u), t
    p = min(1.0, 2 * math.exp(-6 * best * best / (n ** 3 + n ** 2)))
    before, after = ys[:best_t], ys[best_t:]
    mb, ma = float(median(before)), float(median(after))
    return {
        "index": best_t,
        "statistic": best,
        "p": p,
        "mean_before": float(mean(before)),
        "mean_after": float(mean(after)),
        "median_before": mb,
        "median_after": ma,
        "relative_shift": float((F(ma) - F(mb)) / abs(F(mb))),
    }


def first_run(values, firsts):
    fs = sorted(set(firsts))
    f = [F(values[i]) for i in fs]
    o = [F(v) for i, v in enumerate(values) if i not in fs]
    k, m = len(f), len(o)
    diff = mean(f) - mean(o)
    out = {
        "firsts": k,
        "others": m,
        "mean_firsts": float(mean(f)),
        "mean_others": float(mean(o)),
        "difference": float(diff),
        "relative_difference": float(diff / abs(mean(o))),
    }
    if k == 1:
        t2 = diff * diff / (var(o) * (1 + F(1, m)))
        df = F(m - 1)
    else:
        a, b = var(f) / k, var(o) / m
        t2 = diff * diff / (a + b)
        df = (a + b) ** 2 / (a * a / (k - 1) + b * b / (m - 1))
    out["t"] = sqrt_signed(t2, diff)
    out["df"] = float(df)
    out["p"] = t_two_sided_sq(t2, df)
    return out


# ---------------------------------------------------------------- series
def read_nist(name):
    with open(os.path.join(HERE, "nist", name)) as fh:
        return [float(line) for line in fh if line.strip()]


def series():
    out = []

    def add(ident, description, values, firsts=(0,), confidence=0.95):
        out.append({"id": ident, "description": description, "values": list(values),
                    "firsts": list(firsts), "confidence": confidence})

    rng = random.Random(20260301)
    add("noise_n5", "N(10, 1), 4 decimals", [round(rng.gauss(10, 1), 4) for _ in range(5)])
    add("ties_n12", "integers 1..5 (heavy ties)", [float(rng.randint(1, 5)) for _ in range(12)],
        confidence=0.9)
    add("step_n30", "N(100, 1) for 17 runs, then N(103, 1)",
        [round(rng.gauss(100 if i < 17 else 103, 1), 4) for i in range(30)])
    add("trend_n200", "50 + 0.01 i + N(0, 0.5)",
        [round(50 + 0.01 * i + rng.gauss(0, 0.5), 5) for i in range(200)], confidence=0.99)
    add("decreasing_n30", "20 - 0.05 i + N(0, 0.2)",
        [round(20 - 0.05 * i + rng.gauss(0, 0.2), 4) for i in range(30)])
    add("huge_offset_n30", "1e9 + 1e-4 i + N(0, 1e-3)",
        [1e9 + 1e-4 * i + rng.gauss(0, 1e-3) for i in range(30)])
    add("pure_linear_n12", "5 + 0.25 i exactly", [5 + 0.25 * i for i in range(12)])
    add("first_high_n12", "first run 12.5, then N(10, 0.3)",
        [12.5] + [round(rng.gauss(10, 0.3), 4) for _ in range(11)])
    boots = []
    for b in range(4):
        boots += [round(rng.gauss(101.0, 0.4), 4)] + [round(rng.gauss(100, 0.4), 4) for _ in range(9)]
    add("boots_n40", "4 boots of 10 runs; the first of each about +1",
        boots, firsts=(0, 10, 20, 30, 10))  # 10 twice: duplicates count once
    hb = []
    for b in range(3):
        hb += [1e9 + 5e-3 + rng.gauss(0, 1e-3)] + [1e9 + rng.gauss(0, 1e-3) for _ in range(7)]
    add("huge_offset_boots_n24", "3 boots of 8 near 1e9, first of each +5e-3",
        hb, firsts=(0, 8, 16))
    add("nist_lew_n200", "NIST StRD Lew.txt (integers, ties)", read_nist("Lew.txt"))
    add("nist_mavro_n50", "NIST StRD Mavro.txt (5 significant digits, ties)",
        read_nist("Mavro.txt"))
    return out


def main():
    worst = self_check()
    cases = []
    for s in series():
        v = s["values"]
        case = dict(s)
        case["trend"] = trend(v, s["confidence"])
        case["change_point"] = change_point(v)
        case["first_run"] = first_run(v, s["firsts"])
        cases.append(case)
        print(f'{s["id"]}: slope {case["trend"]["slope"]:.6g} rho {case["trend"]["spearman_rho"]:.4f} '
              f'tau {case["trend"]["kendall_tau"]:.4f} K {case["change_point"]["statistic"]} '
              f'at {case["change_point"]["index"]} p1st {case["first_run"]["p"]:.4g}',
              file=sys.stderr)
    doc = {
        "meta": {
            "generator": "tests/data/make_drift_reference.py (Python standard library only)",
            "t_tail_self_check_worst_relative": worst,
            "conventions": {
                "trend": "OLS of value on 0..n-1; CI slope -+ t_{1-(1-conf)/2, n-2} se; "
                         "spearman p: t = rho sqrt((n-2)/(1-rho^2)), df n-2 (R cor.test exact=FALSE) "
                         "for n > 9; for n <= 9 exact over all n! orderings of the ranks; "
                         "kendall: tau-b, z = S / sqrt(var_S) tie-corrected, no continuity "
                         "(R cor.test exact=FALSE, continuity=FALSE)",
                "change_point": "Pettitt: U_t = sum_{i<t} sum_{j>=t} sign(x_i - x_j) over 0-based "
                                "indices, t = 1..n-1; index = first t maximising |U_t| = 0-based "
                                "index of the first value after the change; "
                                "p = min(1, 2 exp(-6 K^2 / (n^3 + n^2)))",
                "first_run": "one first: t = d / (s_o sqrt(1 + 1/m)), df m-1; several: Welch; "
                             "duplicate indices count once",
            },
        },
        "cases": cases,
    }
    with open(os.path.join(HERE, "drift_reference.json"), "w") as fh:
        json.dump(doc, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
