#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Independent reference values for analysis/nested_variance.cpp and the
fleet part of `gfxstat compare` (machine > boot > run). Writes
tests/data/fleet_reference.json, read by tests/unit/analysis/nested_variance_test.cpp
and tests/cli/fleet_cli_test.py.

Run with Debian's /usr/bin/python3 (python3-numpy, python3-scipy):
    /usr/bin/python3 tests/data/make_fleet_reference.py

Three routes that share nothing with the C++ code or with each other:
  * the balanced closed form on the values shaped (machines, boots, runs):
    sigma2_within = MSW, sigma2_boots = (MSB - MSW) / n,
    sigma2_machines = (MSM - MSB) / (b n);
  * the expected mean squares from first principles: with projection
    matrices P_1 (grand mean), P_M (machine means), P_B (boot means), each
    mean square is y'Qy/df with Q = P_M - P_1, P_B - P_M, I - P_B, and under
    y = mu + Z_m u_m + Z_b u_b + e its expectation is
    s2_m tr(Q Z_m Z_m')/df + s2_b tr(Q Z_b Z_b')/df + s2_w tr(Q)/df; the
    3x3 system of those expectations is solved with numpy.linalg.solve
    (Searle, Casella & McCulloch, Variance Components, 4.4);
  * for unbalanced data, Sokal & Rohlf's coefficients n0, n0', n0'' as exact
    fractions, which must equal the trace coefficients.
F tests: machines against boots within machines (Satterthwaite's synthetic
denominator when unbalanced), boots against within, p from scipy.stats.f;
the one-level split (no boots) against scipy.stats.f_oneway.

The fleet simulated for the CLI: 3 machines x 4 boots x 5 runs a variant, a
frame time in ms (lower is better); the machines differ by a few percent,
and the candidate is 8% slower on dut-03 only (+0.2% elsewhere). Per
machine, Welch's t on boot means (scipy.stats.ttest_ind, equal_var=False);
the machine-level test is the paired t over the machines' differences
(scipy.stats.ttest_1samp).
"""

import json
import math
import os
from fractions import Fraction

import numpy as np
from scipy import stats

HERE = os.path.dirname(os.path.abspath(__file__))


def shortest(x):
    return float(repr(float(x)))


# ------------------------------------------------------------ first principles
def trace_route(y, machine, boot):
    """Mean squares as quadratic forms and their EMS coefficients by traces;
    the components by solving the EMS system. boot=None: one level."""
    y = np.asarray(y, dtype=float)
    N = len(y)
    mach_ids = sorted(set(machine))
    Zm = np.array([[1.0 if m == k else 0.0 for k in mach_ids] for m in machine])
    one = np.ones((N, 1))

    def proj(Z):
        return Z @ np.linalg.pinv(Z.T @ Z) @ Z.T

    P1 = proj(one)
    PM = proj(Zm)
    if boot is None:
        Qm, Qw = PM - P1, np.eye(N) - PM
        dfm, dfw = np.trace(Qm), np.trace(Qw)
        msm, msw = y @ Qm @ y / dfm, y @ Qw @ y / dfw
        Vm = Zm @ Zm.T
        A = np.array([[np.trace(Qm @ Vm) / dfm, np.trace(Qm) / dfm],
                      [np.trace(Qw @ Vm) / dfw, np.trace(Qw) / dfw]])
        s2m, s2w = np.linalg.solve(A, np.array([msm, msw]))
        return {"ms": [msm, msw], "df": [dfm, dfw], "sigma2_raw": [s2m, 0.0, s2w],
                "n0_machines": A[0, 0]}
    pairs = sorted(set(zip(machine, boot)))
    Zb = np.array([[1.0 if (m, b) == p else 0.0 for p in pairs] for m, b in zip(machine, boot)])
    PB = proj(Zb)
    Qs = [PM - P1, PB - PM, np.eye(N) - PB]
    dfs = [np.trace(Q) for Q in Qs]
    ms = [y @ Q @ y / d for Q, d in zip(Qs, dfs)]
    Vm, Vb = Zm @ Zm.T, Zb @ Zb.T
    A = np.array([[np.trace(Q @ Vm) / d, np.trace(Q @ Vb) / d, np.trace(Q) / d] for Q, d in zip(Qs, dfs)])
    s2 = np.linalg.solve(A, np.array(ms))
    return {"ms": ms, "df": dfs, "sigma2_raw": list(s2), "A": A}


# ------------------------------------------------------------ exact coefficients
def sokal_rohlf_coefficients(machine, boot):
    """n0 (boots), n0' (machines' boot coefficient), n0'' (machines) as
    exact fractions from the counts."""
    counts = {}
    for m, b in zip(machine, boot):
        counts[(m, b)] = counts.get((m, b), 0) + 1
    ni = {}
    for (m, _), c in counts.items():
        ni[m] = ni.get(m, 0) + c
    N = Fraction(sum(ni.values()))
    a = len(ni)
    B = len(counts)
    s_nij2_ni = sum(Fraction(c * c, ni[m]) for (m, _), c in counts.items())
    s_nij2 = sum(Fraction(c * c) for c in counts.values())
    s_ni2 = sum(Fraction(c * c) for c in ni.values())
    n0 = (N - s_nij2_ni) / (B - a)
    n0p = (s_nij2_ni - s_nij2 / N) / (a - 1)
    n0pp = (N - s_ni2 / N) / (a - 1)
    return n0, n0p, n0pp


def f_machines_test(msm, msb, msw, dfm, dfb, dfw, n0, n0p):
    """Machines against boots within machines; Satterthwaite's synthetic
    denominator when the coefficients differ (unbalanced)."""
    ratio = n0p / n0
    if ratio == 1:
        den, df2 = msb, dfb
    else:
        r = float(ratio)
        den = r * msb + (1 - r) * msw
        df2 = den * den / ((r * msb) ** 2 / dfb + ((1 - r) * msw) ** 2 / dfw)
    f = msm / den
    return f, df2, stats.f.sf(f, dfm, df2)


def decompose(values, machine, boot):
    """The full expected record of one sample, checked across the routes."""
    t = trace_route(values, machine, boot)
    if boot is None:
        msm, msw = t["ms"]
        dfm, dfw = t["df"]
        groups = [np.array([v for v, m in zip(values, machine) if m == k]) for k in sorted(set(machine))]
        fo = stats.f_oneway(*groups)
        f = msm / msw
        assert math.isclose(f, fo.statistic, rel_tol=1e-9), (f, fo.statistic)
        p = stats.f.sf(f, dfm, dfw)
        assert math.isclose(p, fo.pvalue, rel_tol=1e-6, abs_tol=1e-300), (p, fo.pvalue)
        sizes = [len(g) for g in groups]
        N = Fraction(sum(sizes))
        n0 = (N - sum(Fraction(s * s) for s in sizes) / N) / (len(sizes) - 1)
        assert math.isclose(float(n0), t["n0_machines"], rel_tol=1e-9)
        s2m_raw = (msm - msw) / float(n0)
        assert math.isclose(s2m_raw, t["sigma2_raw"][0], rel_tol=1e-7, abs_tol=1e-12)
        comps = [max(0.0, s2m_raw), 0.0, msw]
        total = sum(comps)
        return {"levels": 1, "machines": len(sizes), "n": len(values),
                "ms_machines": msm, "ms_boots": 0.0, "ms_within": msw,
                "df_machines": dfm, "df_boots": 0.0, "df_within": dfw,
                "n0_machines": float(n0),
                "sigma2_machines_raw": s2m_raw, "sigma2_boots_raw": 0.0,
                "sigma2_machines": comps[0], "sigma2_boots": 0.0, "sigma2_within": msw,
                "share_machines": comps[0] / total, "share_boots": 0.0, "share_within": msw / total,
                "f_machines": f, "f_machines_df2": dfw, "p_machines": p}
    msm, msb, msw = t["ms"]
    dfm, dfb, dfw = t["df"]
    n0, n0p, n0pp = sokal_rohlf_coefficients(machine, boot)
    A = t["A"]
    # The exact coefficients are the trace ones.
    for got, want in ((A[1, 1], n0), (A[0, 1], n0p), (A[0, 0], n0pp)):
        assert math.isclose(got, float(want), rel_tol=1e-9), (got, want)
    s2b_raw = (msb - msw) / float(n0)
    s2m_raw = (msm - msw - float(n0p) * s2b_raw) / float(n0pp)
    for got, want in ((s2m_raw, t["sigma2_raw"][0]), (s2b_raw, t["sigma2_raw"][1]), (msw, t["sigma2_raw"][2])):
        assert math.isclose(got, want, rel_tol=1e-7, abs_tol=1e-12), (got, want)
    comps = [max(0.0, s2m_raw), max(0.0, s2b_raw), msw]
    total = sum(comps)
    f, df2, p = f_machines_test(msm, msb, msw, dfm, dfb, dfw, n0, n0p)
    fb = msb / msw
    return {"levels": 2, "machines": len(set(machine)), "boots": len(set(zip(machine, boot))), "n": len(values),
            "ms_machines": msm, "ms_boots": msb, "ms_within": msw,
            "df_machines": dfm, "df_boots": dfb, "df_within": dfw,
            "n0_boots": float(n0), "n0_machines_boots": float(n0p), "n0_machines": float(n0pp),
            "n0_exact": [str(n0), str(n0p), str(n0pp)],
            "sigma2_machines_raw": s2m_raw, "sigma2_boots_raw": s2b_raw,
            "sigma2_machines": comps[0], "sigma2_boots": comps[1], "sigma2_within": comps[2],
            "share_machines": comps[0] / total, "share_boots": comps[1] / total, "share_within": comps[2] / total,
            "f_machines": f, "f_machines_df2": df2, "p_machines": p,
            "f_boots": fb, "p_boots": stats.f.sf(fb, dfb, dfw)}


def balanced_closed_form(values, a, b, n):
    y = np.asarray(values, dtype=float).reshape(a, b, n)
    boot_means = y.mean(axis=2)
    machine_means = y.mean(axis=(1, 2))
    grand = y.mean()
    msw = ((y - boot_means[:, :, None]) ** 2).sum() / (a * b * (n - 1))
    msb = n * ((boot_means - machine_means[:, None]) ** 2).sum() / (a * (b - 1))
    msm = b * n * ((machine_means - grand) ** 2).sum() / (a - 1)
    return {"ms": [msm, msb, msw], "sigma2_raw": [(msm - msb) / (b * n), (msb - msw) / n, msw]}


def jsonable(d):
    return {k: (shortest(v) if isinstance(v, (float, np.floating)) else v) for k, v in d.items()}


# ------------------------------------------------------------ the fleet
def simulate_fleet(rng):
    machines = ["dut-01", "dut-02", "dut-03"]
    level = 20.0                      # ms
    machine_shift = [0.0, 0.03, -0.02]  # relative, for the life of the machine
    boot_sd, run_sd = 0.006, 0.008      # relative
    change = {"dut-01": 0.002, "dut-02": 0.002, "dut-03": 0.08}
    out = {}
    for variant in ("baseline", "candidate"):
        vals, mach, boot = [], [], []
        for mi, name in enumerate(machines):
            for bi in range(4):
                boot_level = rng.normal(0, boot_sd)
                for _ in range(5):
                    rel = machine_shift[mi] + boot_level + rng.normal(0, run_sd)
                    if variant == "candidate":
                        rel += change[name]
                    vals.append(shortest(round(level * (1 + rel), 6)))
                    mach.append(mi)
                    boot.append(bi)
        out[variant] = {"values": vals, "machine": mach, "boot": boot}
    return machines, out


def welch(a, b, confidence):
    a, b = np.asarray(a), np.asarray(b)
    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    se = math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    d = b.mean() - a.mean()
    r = stats.ttest_ind(b, a, equal_var=False)
    assert math.isclose(r.statistic, d / se, rel_tol=1e-9)
    q = stats.t.ppf(1 - (1 - confidence) / 2, df)
    return {"difference": d, "stderr": se, "df": df, "p": r.pvalue, "ci": [d - q * se, d + q * se]}


def fieller_relative(a, b, confidence):
    """Fieller's interval for mean(b) / mean(a) - 1 at Welch's degrees of
    freedom: the ratios r with (mb - r ma)^2 <= q^2 (vb + r^2 va), the roots
    of a quadratic; the lower bound no lower than -100% where every value is
    positive (no ratio of positive means is negative)."""
    a, b = np.asarray(a), np.asarray(b)
    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    q = stats.t.ppf(1 - (1 - confidence) / 2, df)
    ma, mb = a.mean(), b.mean()
    A, B, C = ma * ma - q * q * va, -2 * ma * mb, mb * mb - q * q * vb
    assert A > 0
    root = math.sqrt(B * B - 4 * A * C)
    low, high = (-B - root) / (2 * A), (-B + root) / (2 * A)
    if (a > 0).all() and (b > 0).all():
        low = max(low, 0.0)
    return [low - 1, high - 1]


def fleet_expectations(machines, fleet, confidence=0.95):
    exp = {}
    for side in ("baseline", "candidate"):
        s = fleet[side]
        exp[side] = jsonable(decompose(s["values"], s["machine"], s["boot"]))
        # The balanced closed form agrees with the general route.
        cf = balanced_closed_form(s["values"], 3, 4, 5)
        for got, want in zip(cf["sigma2_raw"], [exp[side]["sigma2_machines_raw"], exp[side]["sigma2_boots_raw"],
                                                exp[side]["sigma2_within"]]):
            assert math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12), (got, want)
        exp[side]["closed_form_sigma2_raw"] = [shortest(x) for x in cf["sigma2_raw"]]

    def boot_means(side, mi):
        s = fleet[side]
        return [float(np.mean([v for v, m, b in zip(s["values"], s["machine"], s["boot"]) if m == mi and b == bi]))
                for bi in range(4)]

    rows, diffs = [], []
    for mi, name in enumerate(machines):
        a, b = boot_means("baseline", mi), boot_means("candidate", mi)
        w = welch(a, b, confidence)
        base = float(np.mean(a))
        rows.append({"machine": name, "baseline_mean": shortest(base), "candidate_mean": shortest(np.mean(b)),
                     "change": shortest(w["difference"]), "relative_change": shortest(w["difference"] / abs(base)),
                     "welch_p": shortest(w["p"]), "welch_df": shortest(w["df"]),
                     "ci": [shortest(x) for x in w["ci"]],
                     "relative_ci": [shortest(x) for x in fieller_relative(a, b, confidence)], "stderr": w["stderr"]})
        diffs.append(w["difference"])
    t = stats.ttest_1samp(diffs, 0.0)
    q = stats.t.ppf(1 - (1 - confidence) / 2, len(diffs) - 1)
    se = np.std(diffs, ddof=1) / math.sqrt(len(diffs))
    base = float(np.mean([r["baseline_mean"] for r in rows]))
    paired = {"t": shortest(t.statistic), "df": len(diffs) - 1, "p": shortest(t.pvalue),
              "change": shortest(np.mean(diffs)), "relative_change": shortest(np.mean(diffs) / base),
              "ci": [shortest(np.mean(diffs) - q * se), shortest(np.mean(diffs) + q * se)]}
    # Leave-one-out (analysis/machine_changes.h): machine i's difference
    # against the mean of the others', its own standard error and the
    # others' mean's (the larger of the measured and the observed spread),
    # Satterthwaite's df, Bonferroni over the machines.
    k = len(diffs)
    for i, r in enumerate(rows):
        others = [j for j in range(k) if j != i]
        mean_o = float(np.mean([diffs[j] for j in others]))
        se_i = r["stderr"]
        dfi = r["welch_df"]
        v_meas = sum(rows[j]["stderr"] ** 2 for j in others) / (k - 1) ** 2
        df_meas = v_meas ** 2 / sum((rows[j]["stderr"] ** 2 / (k - 1) ** 2) ** 2 / rows[j]["welch_df"] for j in others)
        v_obs = np.var([diffs[j] for j in others], ddof=1) / (k - 1) if k - 1 >= 2 else 0.0
        if v_obs > v_meas:
            v_o, df_o = v_obs, k - 2
        else:
            v_o, df_o = v_meas, df_meas
        v = se_i ** 2 + v_o
        df = v ** 2 / (se_i ** 4 / dfi + v_o ** 2 / df_o)
        tt = (diffs[i] - mean_o) / math.sqrt(v)
        p = 2 * stats.t.sf(abs(tt), df)
        r["loo_t"] = shortest(tt)
        r["loo_df"] = shortest(df)
        r["loo_p"] = shortest(p)
        r["loo_p_adjusted"] = shortest(min(1.0, p * k))
    for r in rows:
        r["stderr"] = shortest(r["stderr"])
    return exp, rows, paired


def main():
    rng = np.random.default_rng(20261203)
    cases = []

    # An unbalanced fleet: 3 machines with 2, 3 and 4 boots of 2 to 6 runs.
    shape = {0: [3, 5], 1: [2, 6, 4], 2: [5, 3, 2, 4]}
    vals, mach, boot = [], [], []
    for m, boots in shape.items():
        mlevel = rng.normal(0, 3)
        for b, n in enumerate(boots):
            blevel = rng.normal(0, 1)
            for _ in range(n):
                vals.append(shortest(100 + mlevel + blevel + rng.normal(0, 0.8)))
                mach.append(m)
                boot.append(b)
    cases.append({"id": "unbalanced", "values": vals, "machine": mach, "boot": boot,
                  "expected": jsonable(decompose(vals, mach, boot))})

    # Unbalanced, no machine effect: a negative raw machine component.
    rng2 = np.random.default_rng(7)
    vals, mach, boot = [], [], []
    for m, boots in {0: [4, 4, 3], 1: [5, 2], 2: [3, 3, 3, 3]}.items():
        for b, n in enumerate(boots):
            blevel = rng2.normal(0, 1.5)
            for _ in range(n):
                vals.append(shortest(50 + blevel + rng2.normal(0, 0.5)))
                mach.append(m)
                boot.append(b)
    e = jsonable(decompose(vals, mach, boot))
    cases.append({"id": "unbalanced_no_machine_effect", "values": vals, "machine": mach, "boot": boot,
                  "expected": e})

    # Machines without boot ids (imported data): one level, unequal sizes.
    vals, mach = [], []
    for m, n in enumerate([6, 9, 4, 7]):
        mlevel = rng.normal(0, 2)
        for _ in range(n):
            vals.append(shortest(1000 + mlevel + rng.normal(0, 1.5)))
            mach.append(m)
    cases.append({"id": "one_level", "values": vals, "machine": mach, "boot": None,
                  "expected": jsonable(decompose(vals, mach, None))})

    machines, fleet = simulate_fleet(rng)
    exp, rows, paired = fleet_expectations(machines, fleet)
    for side in ("baseline", "candidate"):
        cases.append({"id": "fleet_" + side, "values": fleet[side]["values"], "machine": fleet[side]["machine"],
                      "boot": fleet[side]["boot"], "balanced": [3, 4, 5], "expected": exp[side]})
    doc = {
        "generator": "tests/data/make_fleet_reference.py",
        "cases": cases,
        "fleet": {"machines": machines, "metric": "frame_time", "unit": "ms", "direction": "lower",
                  "confidence": 0.95, "threshold": 0.01,
                  "baseline": fleet["baseline"], "candidate": fleet["candidate"],
                  "rows": rows, "paired": paired, "odd_machine": "dut-03"},
    }
    with open(os.path.join(HERE, "fleet_reference.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
