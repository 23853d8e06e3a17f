#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Independent reference values for `gfxstat compare --summaries`
(findings/summary_comparison.cpp) on the pasted tables in this directory. Writes
summary_reference.json beside it.

Needs scipy: run with Debian's /usr/bin/python3 (python3-scipy).

The inputs are transcribed here by hand from each fixture (label, N, mean
and sd as printed), so that nothing is shared with gfxstat's parser; the
CLI test (tests/cli/summary_compare_cli_test.py) checks that gfxstat read
the same numbers and computed the same statistics, to a relative 1e-9.

  * Welch's and Student's t and p: scipy.stats.ttest_ind_from_stats
    (candidate first, so t is of candidate - baseline);
  * Welch-Satterthwaite df written out; intervals from scipy's t quantile,
    refined by Newton steps on scipy's t cdf (ppf alone is off by about
    1e-10 at fractional df, which a bound near 0 turns into 1e-8);
  * TOST: the larger of the two one-sided Welch p-values at
    +-threshold * |baseline mean|;
  * Cohen's d on the pooled sd, Hedges' g = d * (1 - 3 / (4 (n1 + n2) - 9));
  * Holm's adjustment over the comparisons of one invocation, written out
    (R's p.adjust(p, "holm"));
  * "raw": Welch's t on the raw samples of examples/bdw-syslatency-mean-a.txt
    and -b.txt (scipy.stats.ttest_ind), which summaries of those samples
    must reproduce.

Run from anywhere: /usr/bin/python3 tests/data/summaries/make_summary_reference.py
"""

import json
import math
import os
import statistics

from scipy import special, stats

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIDENCE = 0.95
THRESHOLD = 0.01

# fixture -> [(bench or None, (label, n, mean, sd) baseline, (...) candidate)]
FIXTURES = {
    "ministat-bdw.txt": [
        (None, ("examples/bdw-syslatency-mean-a.txt", 9, "1614.5434", "361.81264"),
         ("examples/bdw-syslatency-mean-b.txt", 8, "1545.3191", "285.19544")),
    ],
    "ministat-three.txt": [
        (None, ("drm-tip.txt", 12, "61.656667", "0.61188729"), ("patched.txt", 10, "63.264", "0.95235614")),
        (None, ("drm-tip.txt", 12, "61.656667", "0.61188729"), ("revert.txt", 11, "61.209091", "0.66587468")),
    ],
    "mail-reply-quoted.txt": [
        (None, ("drm-tip.txt", 12, "61.656667", "0.61188729"), ("patched.txt", 10, "63.264", "0.95235614")),
        (None, ("drm-tip.txt", 12, "61.656667", "0.61188729"), ("revert.txt", 11, "61.209091", "0.66587468")),
    ],
    "ministat-headings.txt": [
        ("gl_4", ("before", 6, "577", "5.2383203"), ("after", 6, "583", "2.2449944")),
        ("gl_trex", ("before", 6, "2224", "364.43743"), ("after", 6, "2152", "423.55562")),
        ("gl_alu2", ("before", 6, "1213", "3.7416574"), ("after", 6, "1154", "43.403226")),
    ],
    "benches.csv": [
        ("gputest/furmark", ("mesa-24.0", 8, "38.61", "0.42"), ("mesa-24.1", 8, "39.27", "0.51")),
        ("glmark2/terrain", ("mesa-24.0", 8, "211.4", "3.9"), ("mesa-24.1", 8, "209.8", "4.4")),
        ("unigine/heaven, 1080p", ("mesa-24.0", 8, "54.93", "0.58"), ("mesa-24.1", 8, "55.12", "0.61")),
    ],
    "fps-table.md": [
        (None, ("drm-tip", 10, "1432.0", "21.3"), ("patch v2", 10, "1479.4", "24.1")),
        (None, ("drm-tip", 10, "1432.0", "21.3"), ("patch v3", 9, "1483.1", "12.6")),
    ],
    "summary-named.txt": [
        (None, ("before", 9, "1614.543", "361.8126"), ("after", 8, "1545.319", "285.1954")),
    ],
    "compare-text.txt": [
        (None, ("examples/bdw-syslatency-mean-a.txt", 9, "1614.543", "361.8126"),
         ("examples/bdw-syslatency-mean-b.txt", 8, "1545.319", "285.1954")),
    ],
    "plain.txt": [
        (None, ("before", 5, "12.51", "0.31"), ("after", 5, "12.02", "0.27")),
    ],
}


def t_quantile(p, df):
    """The t quantile, to the last bits: scipy's ppf (accurate to about 1e-10
    at fractional df) refined by Newton steps on scipy's cdf (stdtr)."""
    q = stats.t.ppf(p, df)
    for _ in range(3):
        q -= (special.stdtr(df, q) - p) / stats.t.pdf(q, df)
    return q


def holm(ps):
    """R's p.adjust(p, "holm"), in the order given."""
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * ps[i]))
        out[i] = running
    return out


def comparison(bench, base, cand):
    la, na, ma, sa = base[0], base[1], float(base[2]), float(base[3])
    lb, nb, mb, sb = cand[0], cand[1], float(cand[2]), float(cand[3])
    d = mb - ma
    q = 1 - (1 - CONFIDENCE) / 2
    # Welch
    va, vb = sa * sa / na, sb * sb / nb
    se_w = math.sqrt(va + vb)
    df_w = (va + vb) ** 2 / (va * va / (na - 1) + vb * vb / (nb - 1))
    tw, pw = stats.ttest_ind_from_stats(mb, sb, nb, ma, sa, na, equal_var=False)
    hw = t_quantile(q, df_w) * se_w
    # Student
    df_s = na + nb - 2
    sp2 = ((na - 1) * sa * sa + (nb - 1) * sb * sb) / df_s
    se_s = math.sqrt(sp2 * (1 / na + 1 / nb))
    ts, ps = stats.ttest_ind_from_stats(mb, sb, nb, ma, sa, na, equal_var=True)
    hs = t_quantile(q, df_s) * se_s
    # TOST within +-threshold of |baseline mean|
    margin = THRESHOLD * abs(ma)
    p_low = stats.t.sf((d + margin) / se_w, df_w)   # H0: d <= -margin
    p_high = stats.t.cdf((d - margin) / se_w, df_w)  # H0: d >= +margin
    tost_p = max(p_low, p_high)
    # The relative interval: Fieller's for the ratio of means mb / ma, with
    # Welch's df (every rho with (mb - rho ma)^2 <= q^2 (vb + rho^2 va)),
    # less 1; none when the baseline's mean is not told from 0.
    qw = t_quantile(q, df_w)
    fa, fb, fc = ma * ma - qw * qw * va, ma * mb, mb * mb - qw * qw * vb
    root = math.sqrt(max(0.0, fb * fb - fa * fc)) if fa > 0 else float("nan")
    relative_ci = [(fb - root) / fa - 1, (fb + root) / fa - 1] if fa > 0 and ma > 0 else \
        [(d - hw) / abs(ma), (d + hw) / abs(ma)]
    cohens_d = d / math.sqrt(sp2)
    hedges_g = cohens_d * (1 - 3 / (4 * (na + nb) - 9))
    return {
        "bench": bench,
        "baseline": la,
        "candidate": lb,
        "n": [na, nb],
        "mean": [ma, mb],
        "sd": [sa, sb],
        "welch": {"t": float(tw), "df": df_w, "p": float(pw), "ci": [d - hw, d + hw], "difference": d},
        "student": {"t": float(ts), "df": df_s, "p": float(ps), "ci": [d - hs, d + hs], "difference": d},
        "relative_change": d / abs(ma),
        "relative_ci": relative_ci,
        "equivalence": {"margin": margin, "p": float(tost_p), "equivalent": bool(tost_p < 1 - CONFIDENCE)},
        "cohens_d": cohens_d,
        "hedges_g": hedges_g,
    }


def raw_welch(base_path, cand_path):
    """Welch's t on the raw samples of two column files (scipy.stats.ttest_ind),
    the value that summaries of the same samples must reproduce."""
    def values(rel):
        with open(os.path.join(HERE, "..", "..", "..", rel)) as f:
            return [float(w) for line in f if not line.startswith("#") for w in line.split()]
    a, b = values(base_path), values(cand_path)
    t, p = stats.ttest_ind(b, a, equal_var=False)
    va, vb = statistics.variance(a) / len(a), statistics.variance(b) / len(b)
    df = (va + vb) ** 2 / (va * va / (len(a) - 1) + vb * vb / (len(b) - 1))
    d = statistics.fmean(b) - statistics.fmean(a)
    h = t_quantile(1 - (1 - CONFIDENCE) / 2, df) * math.sqrt(va + vb)
    return {"baseline": base_path, "candidate": cand_path,
            "welch": {"t": float(t), "df": df, "p": float(p), "ci": [d - h, d + h], "difference": d}}


def main():
    out = {"confidence": CONFIDENCE, "threshold": THRESHOLD, "fixtures": {}}
    out["raw"] = raw_welch("examples/bdw-syslatency-mean-a.txt", "examples/bdw-syslatency-mean-b.txt")
    for name, rows in FIXTURES.items():
        comps = [comparison(*r) for r in rows]
        adjusted = holm([c["welch"]["p"] for c in comps])
        for c, p in zip(comps, adjusted):
            c["p_adjusted"] = p
        out["fixtures"][name] = comps
    path = os.path.join(HERE, "summary_reference.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print("wrote", path)


if __name__ == "__main__":
    main()
