#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Independent reference values for analysis/signed_rank.cpp and
analysis/paired_suite.cpp. Writes tests/data/paired_reference.json.

Run with Debian's python3 (it has python3-scipy):
    /usr/bin/python3 tests/data/make_paired_reference.py

What each number is, and where it comes from (sharing nothing with the C++):
  * The Wilcoxon signed-rank test follows R's wilcox.test(d, exact = NULL,
    correct = TRUE) as R 4.5 and earlier do it (Debian 12 ships R 4.2.2;
    R 4.6 added an exact conditional distribution for ties and zeros):
    zeros dropped first, V = sum of the midranks of |d| of the positive d.
      - exact case (n < 50 nonzero, no ties, no zeros): the null distribution
        of V enumerated here as exact integer counts (the subset-sum
        recursion), p = min(1, 2 min(P(V <= v), P(V >= v))) as an exact
        fraction. Cross-checked against scipy.stats.wilcoxon(method="exact")
        where that applies.
      - normal case: scipy.stats.wilcoxon(d, zero_method="wilcox",
        correction=True, method="approx") (scipy's defaults differ from R:
        zero_method="wilcox" drops zeros as R does, correction=True is R's
        correct = TRUE); the same statistic is also computed here from
        R's formula with math.erfc, which keeps digits for tiny p.
  * The Hodges-Lehmann pseudomedian is the median of the Walsh averages
    (d_i + d_j) / 2, i <= j, of the nonzero differences, listed and sorted
    by brute force (each average computed in double as R's outer() does).
      - exact case: R's qsignrank(alpha / 2, n) convention (smallest q with
        P(V <= q) >= alpha / 2 - 10 eps, 1 when 0), interval
        (walsh[qu], walsh[N - qu + 1]), achieved confidence
        1 - 2 P(V <= qu - 1), all from the exact counts.
      - normal case: R's W(d) evaluated literally (rank |d - mu| after
        dropping zeros, tie-corrected sigma, continuity correction), R's
        alpha widening while W(min) or W(max) do not reach the quantiles,
        and then (a) the exact Walsh average at which W steps across the
        quantile, found by evaluating W between every two consecutive
        distinct Walsh averages, and (b) what R's uniroot(tol = 1e-4)
        returns, imitated with scipy.optimize.brentq(xtol = 1e-4).
        R's own estimate in this case is a root of the uncorrected W
        (stored as r_estimate, for the record).
  * Paired suites: log ratios computed with decimal.Decimal at 60 digits
    and rounded once to double; one-sample t: scipy.stats.ttest_1samp
    (and ttest_rel on plain differences, the same test), its interval from
    t quantiles by bisection on the closed-form tail for integer df
    (Abramowitz & Stegun 26.7.3/4; scipy's t.ppf is only good to ~1e-9
    there); TOST from scipy.stats.t.sf; the unpaired p from
    scipy.stats.ttest_ind(equal_var=False).
"""

import json
import math
import os
import random
import sys
from decimal import Decimal, getcontext
from fractions import Fraction as F

import numpy as np
import scipy
from scipy import optimize, stats

HERE = os.path.dirname(os.path.abspath(__file__))
EPS = F(2) ** -52
getcontext().prec = 60


# ------------------------------------------------------------ exact null of V
_counts_cache = {}


def signrank_counts(n):
    """counts[v] = number of subsets of {1..n} with sum v (2^n in all)."""
    if n not in _counts_cache:
        c = [1]
        for k in range(1, n + 1):
            new = c + [0] * k
            for v in range(len(c)):
                new[v + k] += c[v]
            c = new
        _counts_cache[n] = c
    return _counts_cache[n]


def psignrank(q, n):
    """P(V <= q), exact, R's rounding of q."""
    c = signrank_counts(n)
    q = math.floor(q + 0.5 + 1e-7)
    if q < 0:
        return F(0)
    if q >= len(c) - 1:
        return F(1)
    return F(sum(c[: q + 1]), 2 ** n)


def qsignrank(x, n):
    """R's qsignrank for x <= 0.5: smallest q with P(V <= q) >= x - 10 eps."""
    assert x <= 0.5
    c = signrank_counts(n)
    target = F(x) - 10 * EPS
    acc = 0
    for q in range(len(c)):
        acc += c[q]
        if F(acc, 2 ** n) >= target:
            return q
    return len(c) - 1


# ------------------------------------------------------------- ranks, Walsh
def midranks(values):
    """Midranks of a list (1-based), by the definition: O(n^2)."""
    out = []
    for v in values:
        below = sum(1 for w in values if w < v)
        equal = sum(1 for w in values if w == v)
        out.append(F(2 * below + equal + 1, 2))
    return out


def tie_groups(values):
    groups = {}
    for v in values:
        groups[v] = groups.get(v, 0) + 1
    return list(groups.values())


def walsh(x):
    return sorted((x[i] + x[j]) / 2 for i in range(len(x)) for j in range(i, len(x)))


def r_median(v):
    v = sorted(v)
    m = len(v)
    return v[m // 2] if m % 2 else (v[m // 2 - 1] + v[m // 2]) / 2


def r_w(x, d, correct=True):
    """R's W(d) of the asymptotic interval, literally (numpy ranks)."""
    xd = np.array([v - d for v in x])
    xd = xd[xd != 0]
    nx = len(xd)
    dr = stats.rankdata(np.abs(xd))
    zd = dr[xd > 0].sum() - nx * (nx + 1) / 4
    _, t = np.unique(dr, return_counts=True)
    sigma = math.sqrt(nx * (nx + 1) * (2 * nx + 1) / 24 - float((t ** 3 - t).sum()) / 48)
    if sigma == 0:
        return float("nan")
    corr = (0.5 if zd > 0 else -0.5 if zd < 0 else 0.0) if correct else 0.0
    return (zd - corr) / sigma


# --------------------------------------------------------- the signed rank
def signed_rank(d, confidence):
    for v in d:
        assert math.isfinite(v)
    x = [v for v in d if v != 0]
    zeros = len(d) - len(x)
    n = len(x)
    out = {"n": n, "zeros": zeros}
    if n == 0:
        out.update(v=0.0, p=1.0, exact=False, ties=False, defined=False,
                   method="normal approximation, tie and continuity corrected")
        out["hodges_lehmann"] = {"estimate": 0.0, "ci": [0.0, 0.0], "achieved_confidence": 0.0,
                                 "exact": False, "degenerate": True}
        return out
    absx = [abs(v) for v in x]
    r = midranks(absx)
    v_stat = sum(ri for ri, v in zip(r, x) if v > 0)
    ties = len(set(absx)) != n
    out["v"] = float(v_stat)
    out["ties"] = ties
    out["defined"] = True
    exact = n < 50 and not ties and zeros == 0
    out["exact"] = exact
    total = n * (n + 1) // 2
    alpha = 1 - confidence  # in double, as the C++ and R compute it
    if exact:
        out["method"] = "exact"
        if v_stat > F(n * (n + 1), 4):
            p = 1 - psignrank(v_stat - 1, n)
        else:
            p = psignrank(v_stat, n)
        out["p"] = float(min(F(1), 2 * p))
        if n >= 2:  # scipy's exact path as a second opinion
            sp = stats.wilcoxon(x, method="exact").pvalue
            assert abs(sp - out["p"]) <= 1e-12 * out["p"], (sp, out["p"])
    else:
        out["method"] = "normal approximation, tie and continuity corrected"
        t = tie_groups(absx)
        sigma = math.sqrt(n * (n + 1) * (2 * n + 1) / 24 - sum(k ** 3 - k for k in t) / 48)
        dz = float(v_stat - F(n * (n + 1), 4))
        corr = 0.5 if dz > 0 else -0.5 if dz < 0 else 0.0
        z = (dz - corr) / sigma
        out["p"] = min(1.0, math.erfc(abs(z) / math.sqrt(2)))
        if n >= 1:
            sp = stats.wilcoxon(x, zero_method="wilcox", correction=True, method="approx").pvalue
            out["p_scipy"] = float(sp)
            assert abs(sp - out["p"]) <= 1e-9 * out["p"] + 1e-300, (sp, out["p"])

    # Hodges-Lehmann on the nonzero differences.
    w = walsh(x)
    assert len(w) == total
    hl = {"estimate": r_median(w), "exact": exact}
    if exact:
        qu = qsignrank(alpha / 2, n)
        if qu == 0:
            qu = 1
        hl["ci"] = [w[qu - 1], w[total - qu]]
        hl["achieved_confidence"] = float(1 - 2 * psignrank(qu - 1, n))
        hl["qu"] = qu
    else:
        mumin, mumax = min(x), max(x)
        wmin = r_w(x, mumin)
        wmax = r_w(x, mumax) if math.isfinite(wmin) else float("nan")
        if not (math.isfinite(wmin) and math.isfinite(wmax)):
            # Every nonzero difference equal: R gives NaN; gfxstat gives
            # [estimate, estimate] at confidence 0.
            hl["ci"] = [hl["estimate"], hl["estimate"]]
            hl["achieved_confidence"] = 0.0
            hl["degenerate"] = True
        else:
            a = alpha
            while True:
                zq = stats.norm.isf(a / 2)
                if wmin - zq < 0 or wmax + zq > 0:
                    a *= 2
                else:
                    break
            widened = a != alpha
            hl["alpha_used"] = a
            if a >= 1:
                hl["ci"] = [r_median(x), r_median(x)]
                hl["achieved_confidence"] = 0.0
            else:
                hl["achieved_confidence"] = 1 - a if widened else confidence
                zq = stats.norm.isf(a / 2)
                distinct = sorted(set(w))

                def step(target):
                    # First distinct Walsh average after which W < target.
                    for k, u in enumerate(distinct):
                        after = (u + distinct[k + 1]) / 2 if k + 1 < len(distinct) else u + 1
                        if r_w(x, after) < target:
                            return u
                    raise AssertionError("W never crosses")

                hl["ci"] = [step(zq), step(-zq)]
                roots = []
                for q in (zq, -zq):
                    f = lambda dd, q=q: r_w(x, dd) - q
                    fl, fu = wmin - q, wmax - q
                    if fl == 0:
                        roots.append(mumin)
                    elif fu == 0:
                        roots.append(mumax)
                    else:
                        roots.append(optimize.brentq(f, mumin, mumax, xtol=1e-4))
                hl["r_uniroot_ci"] = roots
            hl["r_estimate"] = optimize.brentq(lambda dd: r_w(x, dd, correct=False), mumin, mumax, xtol=1e-4) \
                if r_w(x, mumin, False) * r_w(x, mumax, False) < 0 else hl["estimate"]
            mid_lo = w[(total - 1) // 2]
            mid_hi = w[total // 2]
            hl["median_bracket"] = [mid_lo, mid_hi]
    out["hodges_lehmann"] = hl
    return out


# ------------------------------------------------------- t quantiles
def t_upper_tail(t, df):
    """P(T > t) for t >= 0, integer df: Abramowitz & Stegun 26.7.3 / 26.7.4."""
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
    return (1 - a) / 2


def t_quantile(q, df):
    """The q-quantile (q > 0.5) of Student's t by bisection on the series.
    scipy 1.10's t.ppf is off by up to 1e-9 relative at small df (it gives
    2.570581836615 for the 0.975 quantile at df 5, the series 2.570581835636);
    the series reproduces the textbook t_{0.975,10} = 2.228138851986274."""
    p = 1 - q
    lo, hi = 0.0, 1.0
    while t_upper_tail(hi, df) > p:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if t_upper_tail(mid, df) > p:
            lo = mid
        else:
            hi = mid
    r = (lo + hi) / 2
    assert abs(r - stats.t.ppf(q, df)) <= 2e-9 * r, (q, df)
    return r


assert abs(t_quantile(0.975, 10) - 2.228138851986274) <= 1e-15 * 2.3


# ------------------------------------------------------------- paired suite
def log_ratio(b, c):
    return float((Decimal(c) / Decimal(b)).ln())


def paired_suite(baseline, candidate, better, confidence, threshold):
    assert len(baseline) == len(candidate) == len(better)
    positive = all(v > 0 for v in baseline + candidate)
    oriented = all(b != "unknown" for b in better)
    d = []
    for b, c, how in zip(baseline, candidate, better):
        raw = log_ratio(b, c) if positive else c - b
        d.append(-raw if oriented and how == "lower" else raw)
    n = len(d)
    out = {"pairs": n, "log_ratio": positive, "oriented": oriented, "differences": d}
    t = stats.ttest_1samp(d, 0.0)
    mean = float(np.mean(np.array(d, dtype=np.longdouble)))
    sd = math.sqrt(float(np.var(np.array(d, dtype=np.longdouble), ddof=1)))
    se = sd / math.sqrt(n)
    df = n - 1
    h = t_quantile(1 - (1 - confidence) / 2, df) * se
    out["t"] = {"t": float(t.statistic), "df": df, "p": float(t.pvalue), "difference": mean,
                "ci": [mean - h, mean + h], "stderr": se}
    # The paired t on the plain differences c - b: scipy's ttest_rel.
    out["plain_ttest_rel_p"] = float(stats.ttest_rel(candidate, baseline).pvalue)
    if not positive and not oriented:
        assert abs(out["plain_ttest_rel_p"] - t.pvalue) <= 1e-12 * t.pvalue
    sr = signed_rank(d, confidence)
    out["wilcoxon"] = {k: v for k, v in sr.items() if k != "hodges_lehmann"}
    out["hodges_lehmann"] = sr["hodges_lehmann"]
    alpha = 1 - confidence
    margin = math.log1p(threshold) if positive else threshold * float(np.mean(np.abs(baseline)))
    pl = stats.t.sf((mean + margin) / se, df)
    pu = stats.t.sf((margin - mean) / se, df)
    h2 = t_quantile(1 - alpha, df) * se
    out["equivalence"] = {"margin": margin, "p": float(max(pl, pu)), "ci": [mean - h2, mean + h2],
                          "equivalent": bool(max(pl, pu) < alpha)}
    if positive:
        out["geomean_ratio"] = math.exp(mean)
        out["geomean_ci"] = [math.exp(mean - h), math.exp(mean + h)]
        hl = sr["hodges_lehmann"]
        out["hl_ratio"] = math.exp(hl["estimate"])
        out["hl_ratio_ci"] = [math.exp(hl["ci"][0]), math.exp(hl["ci"][1])]
    out["unpaired_welch_p"] = float(stats.ttest_ind(baseline, candidate, equal_var=False).pvalue)
    return out


# ------------------------------------------------------------------ cases
def distinct_sample(rng, n, mean, sd, digits):
    while True:
        x = [round(rng.gauss(mean, sd), digits) for _ in range(n)]
        if 0 not in x and len({abs(v) for v in x}) == n:
            return x


def signed_rank_cases():
    cases = []
    rng = random.Random(20260312)
    for n in range(1, 13):
        x = distinct_sample(rng, n, 0.4, 1.0, 3)
        cases.append({"id": f"exact_n{n}", "differences": x, "confidence": 0.95})
    cases.append({"id": "exact_n12_conf90", "differences": cases[-1]["differences"], "confidence": 0.90})
    cases.append({"id": "exact_n10_conf99", "differences": cases[9]["differences"], "confidence": 0.99})
    cases.append({"id": "exact_all_positive_n8", "differences": [0.5, 1.25, 2.0, 3.5, 4.25, 5.0, 6.5, 7.75],
                  "confidence": 0.95})
    cases.append({"id": "exact_all_negative_n7", "differences": [-0.1, -0.25, -0.3, -0.45, -0.5, -0.65, -0.7],
                  "confidence": 0.95})
    cases.append({"id": "exact_n49", "differences": distinct_sample(rng, 49, 0.2, 1.0, 4), "confidence": 0.95})
    cases.append({"id": "normal_n50_no_ties", "differences": distinct_sample(rng, 50, 0.2, 1.0, 4),
                  "confidence": 0.95})
    cases.append({"id": "ties_equal_values", "differences": [1, 2, 2, -3, 4, 4, 4, 5, -6, 7, 8, 9],
                  "confidence": 0.95})
    cases.append({"id": "ties_opposite_signs", "differences": [1.5, -1.5, 2.5, 3.0, -3.0, 4.0, 5.5, 6.0, -0.5, 7.0],
                  "confidence": 0.95})
    cases.append({"id": "zeros", "differences": [0, 1.5, -0.5, 2, 3, 0, 4.5, -1, 2.5, 6], "confidence": 0.95})
    cases.append({"id": "zeros_and_ties", "differences": [0, 0, 0, 1, 1, -1, 2, 2, 3, -4, 5, 5, 6],
                  "confidence": 0.90})
    cases.append({"id": "small_ties_widened", "differences": [0.5, 0.5, 1.0], "confidence": 0.95})
    cases.append({"id": "small_zero_widened", "differences": [0.0, 0.2, -0.1, 0.4, 0.3], "confidence": 0.95})
    cases.append({"id": "one_nonzero", "differences": [0.0, 0.0, 3.0], "confidence": 0.95})
    cases.append({"id": "all_equal_nonzero", "differences": [2.0, 2.0, 2.0, 2.0], "confidence": 0.95})
    cases.append({"id": "all_zero", "differences": [0.0, 0.0, 0.0], "confidence": 0.95})
    big = [round(rng.gauss(0.15, 1.0), 2) for _ in range(200)]
    cases.append({"id": "normal_n200_rounded", "differences": big, "confidence": 0.95})
    big2 = [rng.gauss(-0.05, 0.3) for _ in range(200)]
    cases.append({"id": "normal_n200", "differences": big2, "confidence": 0.95})
    tiny = [rng.gauss(0.0, 1.0) * 1e-9 + 3e-9 for _ in range(120)]
    cases.append({"id": "normal_n120_tiny_p", "differences": tiny, "confidence": 0.95})
    for c in cases:
        c["expect"] = signed_rank(c["differences"], c["confidence"])
    return cases


def suite_cases():
    cases = []

    def add(case_id, baseline, candidate, better, confidence=0.95, threshold=0.01, note=""):
        if isinstance(better, str):
            better = [better] * len(baseline)
        cases.append({"id": case_id, "note": note, "baseline": baseline, "candidate": candidate,
                      "better": better, "confidence": confidence, "threshold": threshold,
                      "expect": paired_suite(baseline, candidate, better, confidence, threshold)})

    add("gem_fence_upload", [8127, 8607, 8127, 8611, 8114, 8601, 8110, 8595, 8104, 8589, 8107],
        [8134, 8625, 8127, 8602, 8124, 8603, 8123, 8606, 8121, 8605, 8121], "higher",
        note="intel-gfx 2014, gem_fence_upload MiB/s, the 11 rows before the 64-tiled cliff")
    add("gfxbench4_mesa_dev", [577, 1144, 2224, 1213, 104, 727, 1709, 2969, 2607, 208],
        [583, 1202, 2152, 1154, 103, 726, 1728, 3047, 2625, 205], "higher",
        note="mesa-dev 2018, GfxBench 4.0 per-test averages, fps")
    add("frame_ms_lower_better", [16.7, 33.4, 8.1, 12.5, 20.2, 41.0, 9.9],
        [16.1, 31.9, 8.3, 11.8, 19.0, 39.5, 9.4], "lower")
    add("mixed_directions", [120.0, 8.5, 240.0, 15.2, 60.0, 3.3],
        [126.0, 8.1, 251.0, 14.6, 61.5, 3.2], ["higher", "lower", "higher", "lower", "higher", "lower"])
    add("one_direction_unknown", [120.0, 8.5, 240.0, 15.2, 60.0, 3.3],
        [126.0, 8.1, 251.0, 14.6, 61.5, 3.2], ["higher", "lower", "higher", "unknown", "higher", "lower"])
    add("non_positive_plain", [0.0, 1.5, -2.0, 3.25, 4.0, 10.0],
        [0.5, 1.75, -1.5, 3.0, 4.5, 10.75], "higher", confidence=0.90, threshold=0.05)
    add("non_positive_lower_better", [0.0, 1.5, -2.0, 3.25, 4.0, 10.0],
        [0.5, 1.75, -1.5, 3.0, 4.5, 10.75], "lower")
    add("two_pairs", [100.0, 200.0], [101.0, 203.0], "higher")
    add("equivalent_suite", [1000.0, 2000.0, 1500.0, 800.0, 1200.0, 950.0, 1700.0, 2100.0],
        [1001.0, 1998.0, 1502.0, 799.0, 1201.0, 951.0, 1699.0, 2102.0], "higher", threshold=0.02)
    rng = random.Random(7)
    base = [round(math.exp(rng.uniform(2, 8)), 1) for _ in range(200)]
    cand = [round(b * math.exp(rng.gauss(0.01, 0.03)), 1) for b in base]
    add("large_suite_n200", base, cand, "higher")
    return cases


def main():
    doc = {
        "meta": {
            "generator": "tests/data/make_paired_reference.py",
            "python": sys.version.split()[0],
            "scipy": scipy.__version__,
            "conventions": "R wilcox.test(d, exact = NULL, correct = TRUE, conf.int = TRUE) as in R <= 4.5; "
                           "see the generator's docstring",
        },
        "signed_rank": signed_rank_cases(),
        "paired_suite": suite_cases(),
    }
    path = os.path.join(HERE, "paired_reference.json")
    with open(path, "w") as fh:
        json.dump(doc, fh, indent=1)
        fh.write("\n")
    g = doc["paired_suite"][0]["expect"]
    print("gem_fence_upload: welch p %.4g, paired t p %.4g, wilcoxon p %.4g (%s)"
          % (g["unpaired_welch_p"], g["t"]["p"], g["wilcoxon"]["p"], g["wilcoxon"]["method"]))
    print("wrote", path)


if __name__ == "__main__":
    main()
