#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Differential test: `gfxstat ministat` against Debian's /usr/bin/ministat.

Random but seeded cases (data files plus flags) are run through both programs
with stdout on a pipe, and their stdout and exit status are compared.

Inside the domain where gfxstat promises a drop-in (well-conditioned data,
odd-sized sets, levels 80/90/95/98/99, at most 100 degrees of freedom per
compared pair, and plots where ministat's stack-height bug does not show)
the output must be byte-identical.  Outside it gfxstat deviates on purpose,
and each deviation is asserted exactly:

  (a) even      even-sized sets: gfxstat's median is the mean of the two
                middle values (ministat prints the upper one); the 'M' in
                the plot's bar line may move accordingly.
  (b) bigdf     a pair with df > 100: ministat uses its table's infinity row,
                gfxstat the exact Student t quantile.
  (c) stack     ministat keeps only as many plot rows as the LAST set's
                tallest stack (and can zero rows of earlier sets); gfxstat
                draws every stack in full.
  (d) c995      -c 99.5: ministat uses a 99.8% column; gfxstat the exact
                quantile qt(0.9975, df).
  (e) negbase   negative baseline mean: ministat prints the relative
                half-width with a minus sign; gfxstat without.
  (f) negzero   an input value "-0" (or "-0.00"): ministat keeps the sign and
                may print "-0" as Min, Max or Median; gfxstat holds the
                exact decimal 0 and prints "0".
  rounding      where ministat's one-pass sums change a printed digit (a
                mean on a rounding boundary, say), gfxstat prints the value
                rounded from the exact moments.

Every case is classified from its inputs alone, by replaying ministat's
double arithmetic (plot geometry, sums) in Python floats and computing the
exact moments with fractions; all deviations that apply are relaxed together.

Exit status: 0 all checks pass, 1 failure, 77 ministat not installed (skip).
Python 3 standard library only.
"""

import argparse
import concurrent.futures
import difflib
import decimal
import math
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from fractions import Fraction

MINISTAT = "/usr/bin/ministat"
SKIP = 77
HEADER = "    N           Min           Max        Median           Avg        Stddev"
SYMBOLS = " x+*%#@O"          # ministat's symbol for set k (1-based) and ORs
TABULATED_LEVELS = (80.0, 90.0, 95.0, 98.0, 99.0)
DEFAULT_WIDTH = 74

# Minimum counts per category for 400 cases (scaled for other --cases).
REQUIRED = {"identical": 240, "even": 20, "bigdf": 20, "stack": 20,
            "c995": 5, "negbase": 5}

# How the cases are split among generator plans.  Each case is regenerated
# until it is classified as its plan asks (a "domain" case until it is in the
# byte-identical domain, an "even" case until it has an even-sized set, ...),
# so the required counts do not depend on luck.
PLAN_WEIGHTS = [("domain", 262), ("even", 30), ("bigdf", 30), ("stack", 30),
                ("c995", 12), ("negbase", 12), ("random", 24)]


# ---------------------------------------------------------------------------
# Student t quantile, written from the textbook definitions: the upper tail
# P(T > t) = I_x(df/2, 1/2) / 2 with x = df / (df + t^2), the regularized
# incomplete beta I_x evaluated by its continued fraction (modified Lentz),
# and the quantile found by bisection.
# ---------------------------------------------------------------------------

def _beta_continued_fraction(a, b, x):
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 100000):
        # Even step, then odd step, of the continued fraction.
        for coef in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                     -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + coef * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + coef / c
            c = c if abs(c) > tiny else tiny
            h *= c * d
        if abs(c * d - 1.0) < 1e-16:
            return h
    raise ArithmeticError("incomplete beta did not converge")


def regularized_beta(a, b, x):
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (a * math.log(x) + b * math.log1p(-x)
                 - (math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)))
    # The fraction converges fast only below the mean; use symmetry above it.
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_continued_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_continued_fraction(b, a, 1.0 - x) / b


def t_upper_tail(t, df):
    return 0.5 * regularized_beta(df / 2.0, 0.5, df / (df + t * t))


def t_quantile(p, df):
    """Student t quantile for p > 0.5."""
    tail = 1.0 - p
    lo, hi = 0.0, 1.0
    while t_upper_tail(hi, df) > tail:
        lo, hi = hi, hi * 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if t_upper_tail(mid, df) > tail:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-15 * hi:
            break
    return 0.5 * (lo + hi)


def two_sided_t(level_percent, df):
    return t_quantile(1.0 - (1.0 - level_percent / 100.0) / 2.0, df)


def self_check_t_quantile():
    # Reference values agree with Boost.Math's quantile to 1e-13; the third
    # also with the Cornish-Fisher expansion (2.6090026 to 8 digits).
    known = [(0.975, 10, 2.228138851986274),
             (0.975, 101, 1.98373100295561),
             (0.995, 150, 2.60900256586554)]
    for p, df, want in known:
        got = t_quantile(p, df)
        if abs(got - want) > 1e-9 * want:
            sys.exit(f"internal error: t_quantile({p}, {df}) = {got!r}, expected {want!r}")


# ---------------------------------------------------------------------------
# Cases and input generation.
# ---------------------------------------------------------------------------

class Case:
    """One invocation: data files plus flags.  `sets` holds, per file, the
    decimal strings of the wanted column, in file order."""

    def __init__(self, index, plan):
        self.index = index
        self.plan = plan
        self.sets = []            # list of lists of decimal strings
        self.names = []
        self.texts = []           # file contents
        self.level = 95.0
        self.level_arg = None     # -c argument as written, or None
        self.width = None         # -w value, or None
        self.plot_mode = "plot"   # "plot", "A" (-A) or "n" (-n)
        self.separate = False     # -s
        self.column = None        # -C value, or None
        self.delim = None         # -d value, or None
        self.args = []

    @property
    def plotted(self):
        return self.plot_mode == "plot"

    @property
    def shows_test(self):
        return self.plot_mode != "n" and len(self.sets) > 1

    @property
    def plot_width(self):
        return DEFAULT_WIDTH if self.width is None else self.width


FAMILIES = ["zero", "kilo", "neg500", "big", "small", "ties"]


def family_params(rng, family):
    """Location, spread and printed decimals of one kind of data."""
    if family == "zero":
        return {"kind": "gauss", "mu": rng.uniform(-3, 3), "sd": rng.uniform(0.3, 4),
                "k": rng.randint(0, 6)}
    if family == "kilo":
        return {"kind": "gauss", "mu": 1000 + rng.uniform(-30, 30),
                "sd": 10 * rng.uniform(0.5, 2), "k": rng.randint(0, 4)}
    if family == "neg500":
        return {"kind": "gauss", "mu": -500 + rng.uniform(-30, 30), "sd": rng.uniform(5, 40),
                "k": rng.randint(0, 3)}
    if family == "big":
        mu = rng.uniform(1e5, 5e6) * rng.choice([1, -1])
        return {"kind": "gauss", "mu": mu, "sd": abs(mu) * rng.uniform(1e-4, 1e-2),
                "k": rng.randint(0, 2)}
    if family == "small":
        mu = rng.uniform(0.01, 0.2) * rng.choice([1, -1])
        return {"kind": "gauss", "mu": mu, "sd": abs(mu) * rng.uniform(0.05, 0.5), "k": 6}
    # Integer-valued data with many ties.
    return {"kind": "ties", "lo": rng.randint(-40, 40), "spread": rng.randint(2, 10),
            "k": rng.choice([0, 0, 0, 1, 2])}


def related_params(rng, p):
    """A set comparable with p: same scale, possibly shifted and wider."""
    q = dict(p)
    if p["kind"] == "gauss":
        q["mu"] = p["mu"] + p["sd"] * rng.choice([0, 0, 0.3, 1, 3, 10]) * rng.choice([1, -1])
        q["sd"] = p["sd"] * rng.uniform(0.5, 2)
    else:
        q["lo"] = p["lo"] + rng.randint(-3, 3)
        q["spread"] = max(2, p["spread"] + rng.randint(-2, 2))
    return q


def draw_values(rng, p, n):
    """n decimal strings, printed with '%.{k}f'; never all equal."""
    while True:
        if p["kind"] == "gauss":
            vals = ["%.*f" % (p["k"], rng.gauss(p["mu"], p["sd"])) for _ in range(n)]
        else:
            vals = ["%.*f" % (p["k"], rng.randint(p["lo"], p["lo"] + p["spread"]))
                    for _ in range(n)]
        if len({Fraction(v) for v in vals}) > 1:
            return vals


def format_decimal(value, k):
    """Exact decimal string of a Fraction with k decimals (value * 10^k is an integer)."""
    scaled = value * 10 ** k
    assert scaled.denominator == 1
    digits = str(abs(scaled.numerator)).rjust(k + 1, "0")
    text = digits if k == 0 else digits[:-k] + "." + digits[-k:]
    return ("-" if scaled.numerator < 0 else "") + text


def decimals_of(s):
    return len(s.split(".")[1]) if "." in s else 0


def shifted_copy(rng, vals, p):
    """The same data moved by a constant (exactly, in decimal)."""
    k = max(decimals_of(v) for v in vals)
    step = p["sd"] if p["kind"] == "gauss" else 1
    delta = Fraction(round(rng.uniform(-3, 3) * step * 10 ** k), 10 ** k)
    return [format_decimal(Fraction(v) + delta, k) for v in vals]


def odd(n):
    return n if n % 2 else n + 1


def gen_sizes(rng, plan, nsets, show_test):
    """Set sizes; in-domain plans keep them odd and df <= 100 per pair."""
    if plan == "bigdf":
        return [rng.randint(60, 150) for _ in range(nsets)]
    if plan in ("domain", "negbase"):
        if not show_test:
            return [odd(rng.randint(3, 198)) for _ in range(nsets)]
        # Every pair (set 1, set i) must have n1 + ni - 2 <= 100.
        first = odd(rng.randint(3, 61))
        return [first] + [odd(rng.randint(3, 101 - first)) for _ in range(nsets - 1)]
    sizes = [rng.choice([rng.randint(3, 25), rng.randint(3, 80), rng.randint(3, 200)])
             for _ in range(nsets)]
    if plan == "even" and all(s % 2 for s in sizes):
        j = rng.randrange(nsets)
        sizes[j] += 1
    return sizes


def gen_flags(rng, case, plan):
    if plan in ("bigdf", "c995", "negbase", "stack"):
        case.plot_mode = "plot" if plan == "stack" else rng.choice(["plot", "plot", "A"])
    else:
        case.plot_mode = rng.choices(["plot", "A", "n"], [7, 2, 1])[0]
    case.separate = rng.random() < 0.25
    if rng.random() < 0.3:
        case.width = rng.randint(20, 120)
    if plan == "c995":
        case.level = 99.5
    elif rng.random() < 0.5:
        case.level = float(rng.choice([80, 90, 95, 98, 99]))
    if case.level != 95.0 or rng.random() < 0.1:
        case.level_arg = rng.choice(["%g", "%.1f"]) % case.level
    if rng.random() < 0.2:
        case.column = rng.randint(1, 4)
    if rng.random() < 0.15:
        case.delim = rng.choice([",", ":", ";"])


def build_args(rng, case):
    """Flags in random order, sometimes with attached option values."""
    groups = []

    def opt(letter, value):
        groups.append([f"-{letter}{value}"] if rng.random() < 0.3 else [f"-{letter}", value])

    if case.plot_mode == "A":
        groups.append(["-A"])
    elif case.plot_mode == "n":
        groups.append(["-n"])
    if case.separate:
        groups.append(["-s"])
    if case.width is not None:
        opt("w", str(case.width))
    if case.level_arg is not None:
        opt("c", case.level_arg)
    if case.column is not None:
        opt("C", str(case.column))
    if case.delim is not None:
        opt("d", case.delim)
    rng.shuffle(groups)
    case.args = [a for g in groups for a in g]


def render_file(rng, values, case):
    """File text: the wanted value in column -C (other columns random), with
    occasional comment lines, blank lines and trailing white space."""
    col = case.column or 1
    ncols = rng.randint(col, col + 2) if case.column else 1
    sep = case.delim if case.delim else rng.choice([" ", "\t", "  ", " \t"])
    decorate = rng.random() < 0.35
    lines = []
    if decorate and rng.random() < 0.5:
        lines.append("# generated by differential.py, column %d" % col)
    for v in values:
        fields = ["%.2f" % rng.gauss(0, 100) for _ in range(ncols)]
        fields[col - 1] = v
        line = sep.join(fields)
        if decorate and rng.random() < 0.1:
            line += rng.choice([" ", "  ", "\t"])
        lines.append(line)
        if decorate and rng.random() < 0.05:
            lines.append(rng.choice(["", "   ", "# a comment", "#"]))
    return "\n".join(lines) + "\n"


def gen_data(rng, case, plan, sizes):
    base_family = "neg500" if plan == "negbase" else rng.choice(FAMILIES)
    if plan == "stack" and rng.random() < 0.6:
        base_family = "ties"          # tall stacks come from ties
    base = family_params(rng, base_family)
    sets = []
    for i, n in enumerate(sizes):
        if i == 0:
            sets.append(draw_values(rng, base, n))
            continue
        if plan == "negbase":
            p = dict(base)
            p["mu"] = base["mu"] + rng.uniform(100, 400)   # a clear difference
            sets.append(draw_values(rng, p, n))
            continue
        r = rng.random()
        if r < 0.08:                  # identical data, reordered
            vals = list(sets[0])
            rng.shuffle(vals)
            sets.append(vals)
        elif r < 0.16:                # the baseline shifted by a constant
            sets.append(shifted_copy(rng, sets[0], base))
        elif r < 0.80:
            sets.append(draw_values(rng, related_params(rng, base), n))
        else:
            sets.append(draw_values(rng, family_params(rng, rng.choice(FAMILIES)), n))
    case.sets = sets


def generate_candidate(rng, index, plan):
    case = Case(index, plan)
    if plan == "stack":
        nsets = rng.randint(2, 5)
    elif plan in ("bigdf", "c995", "negbase"):
        nsets = rng.randint(2, 4)
    else:
        nsets = rng.choice([1, 2, 2, 2, 3, 3, 4, 5, 6, 7])
    gen_flags(rng, case, plan)
    sizes = gen_sizes(rng, plan, nsets, case.plot_mode != "n" and nsets > 1)
    gen_data(rng, case, plan, sizes)
    if case.plotted and plan in ("domain", "stack"):
        order_for_plan(case, plan)
    ext = {",": ".csv", ":": ".txt", ";": ".txt"}.get(case.delim, ".dat")
    case.names = [f"set{i + 1}{ext}" for i in range(len(case.sets))]
    case.texts = [render_file(rng, v, case) for v in case.sets]
    build_args(rng, case)
    return case


def order_for_plan(case, plan):
    """Stack heights do not depend on set order (the plot's extent is a min
    and max over all sets), so sorting sets by tallest stack ascending avoids
    ministat's stack-height bug, and sorting descending provokes it."""
    model = plot_model(case.sets, case.plot_width)
    if model.span == 0:
        return
    order = sorted(range(len(case.sets)), key=lambda i: model.tallest[i],
                   reverse=(plan == "stack"))
    case.sets = [case.sets[i] for i in order]


def plan_accepts(plan, cats):
    if cats & {"scaled", "illcond"}:
        return False                  # outside what this test models
    if plan in ("domain", "negbase"):
        return not cats
    if plan == "random":
        return True
    return plan in cats


def baseline_fits(plan, case):
    """negbase cases need a negative baseline mean; domain cases that print a
    test need a non-negative one, as ministat's relative half-width is
    printed negative otherwise (deviation (e)), which is not byte-identical."""
    negative = exact_stats(case.sets[0])[1] < 0
    if plan == "negbase":
        return negative
    if plan == "domain" and case.shows_test:
        return not negative
    return True


def generate_cases(rng, count):
    plans = []
    total = sum(w for _, w in PLAN_WEIGHTS)
    for plan, weight in PLAN_WEIGHTS:
        plans += [plan] * max(1, round(weight * count / total))
    plans = plans[:count] + ["random"] * max(0, count - len(plans))
    rng.shuffle(plans)
    cases = []
    for index, plan in enumerate(plans):
        for _ in range(2000):
            case = generate_candidate(rng, index, plan)
            cats = classify(case).cats
            if plan_accepts(plan, cats) and baseline_fits(plan, case):
                break
        else:
            sys.exit(f"internal error: could not generate a '{plan}' case")
        cases.append(case)
    return cases


# ---------------------------------------------------------------------------
# Models of what ministat computes.
# ---------------------------------------------------------------------------

def ministat_moments(values):
    """Avg, Var and Stddev as ministat computes them: running sums in file
    order, then the one-pass variance formula, in IEEE doubles."""
    sy = syy = 0.0
    for s in values:
        a = float(s)                  # float() of a decimal rounds like strtod
        sy += a
        syy += a * a
    n = len(values)
    avg = sy / n
    var = (syy - sy * sy / n) / (n - 1.0)
    return avg, var, (math.sqrt(var) if var >= 0 else math.nan)


class PlotModel:
    pass


def plot_model(sets, width):
    """ministat's plot geometry and data rows, replayed in doubles in the
    order ministat evaluates them; also the full-height rows gfxstat draws."""
    m = PlotModel()
    lo, hi = 999e99, -999e99
    points = [sorted(float(s) for s in vals) for vals in sets]
    for pts, vals in zip(points, sets):
        avg, _, sd = ministat_moments(vals)
        for a in (pts[0], pts[-1], avg - sd, avg + sd):
            if a < lo:
                lo = a
            if a > hi:
                hi = a
    m.span = hi - lo
    if m.span == 0:
        return m
    dx = m.span / (width - 1.0)
    x0 = lo - 0.5 * dx
    bins = [[int((v - x0) / dx) for v in pts] for pts in points]
    counts = []
    for b in bins:
        c = [0] * width
        for x in b:
            c[x] += 1
        counts.append(c)
    m.tallest = [max(c) for c in counts]
    m.ministat_rows = _ministat_rows(bins, width)
    m.full_rows = _full_rows(counts, width)
    return m


def _ministat_rows(bins, width):
    """Replay of ministat's row buffer: its height is set to each set's
    tallest stack + 1 in turn, and only rows added by growing it are zeroed."""
    height, data = 0, {}
    for k, b in enumerate(bins, start=1):
        tallest = max(_stack_positions(b))
        if tallest + 1 > height:
            for key in [key for key in data if height <= key[0] < tallest + 1]:
                del data[key]
        height = tallest + 1
        for j, x in zip(_stack_positions(b), b):
            data[(j, x)] = data.get((j, x), 0) | k
    return ["|" + "".join(SYMBOLS[data.get((row, x), 0)] for x in range(width)) + "|"
            for row in range(height - 1, 0, -1)]


def _stack_positions(b):
    """1-based position of each sorted value in its column's stack."""
    out, prev, j = [], None, 0
    for x in b:
        j = j + 1 if x == prev else 1
        prev = x
        out.append(j)
    return out


def _full_rows(counts, width):
    rows = []
    for r in range(max(max(c) for c in counts), 0, -1):
        cells = []
        for x in range(width):
            cell = 0
            for k, c in enumerate(counts, start=1):
                if c[x] >= r:
                    cell |= k
            cells.append(SYMBOLS[cell])
        rows.append("|" + "".join(cells) + "|")
    return rows


def exact_stats(values):
    """(n, mean, variance) as exact Fractions."""
    xs = [Fraction(s) for s in values]
    n = len(xs)
    mean = sum(xs) / n
    return n, mean, sum((x - mean) ** 2 for x in xs) / (n - 1)


def correctly_rounded_sqrt(q):
    """sqrt of a non-negative Fraction, rounded once to the nearest double."""
    with decimal.localcontext() as ctx:
        ctx.prec = 50
        return float((decimal.Decimal(q.numerator) / decimal.Decimal(q.denominator)).sqrt())


def fmt8(x):
    return "%13.8g" % x


def tabulated_t(level, df):
    """ministat's table entry: the exact quantile to three decimals."""
    return round(two_sided_t(level, df) * 1000) / 1000


def pair_numbers(n_b, n_o, avg_b, avg_o, var_b, var_o, t):
    """What a test block shows, in ministat's order of operations: the
    decision, and if significant D, E, relative D, |relative E|, pooled s."""
    spool = math.sqrt(((n_o - 1) * var_o + (n_b - 1) * var_b) / (n_o + n_b - 2))
    d = avg_o - avg_b
    e = t * spool * math.sqrt(1.0 / n_o + 1.0 / n_b)
    return block_numbers(d, e, d * 100 / avg_b, e * 100 / avg_b, spool)


def block_numbers(d, e, rel_d, rel_e, spool):
    if not abs(d) > e:
        return (False,)
    return (True, "%g" % d, "%g" % e, "%g" % rel_d, "%g" % abs(rel_e), "%g" % spool)


def rounding_effects(case):
    """Where ministat's one-pass sums print a different digit than the exact
    value would (a value on a rounding boundary, e.g. a mean ending in a 5
    just past the 8th digit): gfxstat, which computes the moments exactly,
    prints the correctly rounded value there.  Returns the indices of such
    sets (Avg or Stddev field) and of such compared pairs (test block)."""
    naive = [ministat_moments(v) for v in case.sets]
    exact = [exact_stats(v) for v in case.sets]
    sets = {i for i, ((avg, _, sd), (_, mean, var)) in enumerate(zip(naive, exact))
            if fmt8(avg) != fmt8(float(mean)) or fmt8(sd) != fmt8(correctly_rounded_sqrt(var))}
    pairs = set()
    if case.shows_test and case.level in TABULATED_LEVELS:
        (avg_b, mvar_b, _), (n_b, mean_b, var_b) = naive[0], exact[0]
        for i in range(1, len(case.sets)):
            (avg_o, mvar_o, _), (n_o, mean_o, var_o) = naive[i], exact[i]
            if n_b + n_o - 2 > 100 or mean_b == 0:
                continue
            t = tabulated_t(case.level, n_b + n_o - 2)
            ministat = pair_numbers(n_b, n_o, avg_b, avg_o, mvar_b, mvar_o, t)
            # Exact version: exact pooled variance, exact difference.
            spool = correctly_rounded_sqrt(((n_o - 1) * var_o + (n_b - 1) * var_b)
                                           / (n_o + n_b - 2))
            d = float(mean_o - mean_b)
            e = t * spool * math.sqrt(1.0 / n_o + 1.0 / n_b)
            exact_numbers = block_numbers(d, e, float((mean_o - mean_b) * 100 / mean_b),
                                          e * 100 / float(mean_b), spool)
            if ministat != exact_numbers:
                pairs.add(i)
    return sets, pairs


class Analysis:
    """What a case's inputs imply: categories, plot model, rounding effects."""

    def __init__(self, cats, model, round_sets, round_pairs):
        self.cats, self.model = cats, model
        self.round_sets, self.round_pairs = round_sets, round_pairs


def classify(case):
    """Categories of a case from its inputs alone (not from the outputs):
    even, bigdf, c995, stack, rounding, plus 'scaled' (a stack over 100 rows,
    which gfxstat scales) and 'illcond' (data the domain excludes)."""
    cats = set()
    n1 = len(case.sets[0])
    if any(len(v) % 2 == 0 for v in case.sets):
        cats.add("even")
    if case.shows_test:
        if case.level not in TABULATED_LEVELS:
            cats.add("c995")
        elif any(n1 + len(v) - 2 > 100 for v in case.sets[1:]):
            cats.add("bigdf")
    if any(is_negative_zero(v) for vals in case.sets for v in vals):
        cats.add("negzero")
    for vals in case.sets:
        _, mean, var = exact_stats(vals)
        if var == 0 or abs(float(mean)) >= 1e6 * math.sqrt(float(var)):
            cats.add("illcond")
    model = None
    if case.plotted:
        model = plot_model(case.sets, case.plot_width)
        if model.span != 0:
            if any(a > b for a, b in zip(model.tallest, model.tallest[1:])):
                cats.add("stack")
            if max(model.tallest) > 100:
                cats.add("scaled")
    round_sets, round_pairs = set(), set()
    if "illcond" not in cats:
        round_sets, round_pairs = rounding_effects(case)
        if round_sets or round_pairs:
            cats.add("rounding")
    return Analysis(cats, model, round_sets, round_pairs)


# ---------------------------------------------------------------------------
# Running and parsing.
# ---------------------------------------------------------------------------

def run(argv, cwd):
    p = subprocess.run(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60)
    return p.returncode, p.stdout, p.stderr


class ParseError(Exception):
    pass


def parse_output(text, case):
    """Split ministat-style stdout into legend, plot, stats lines and test
    blocks; every line must be accounted for."""
    if not text.endswith("\n"):
        raise ParseError("output does not end with a newline")
    lines = text[:-1].split("\n")
    nsets = len(case.sets)
    try:
        hdr = lines.index(HEADER, nsets)
    except ValueError:
        raise ParseError("no statistics header line") from None
    out = {"legend": lines[:nsets], "plot": lines[nsets:hdr], "stats": [], "blocks": []}
    rest, pos = lines[hdr + 1:], 0
    for i in range(nsets):
        if pos >= len(rest):
            raise ParseError("missing statistics line")
        out["stats"].append(rest[pos])
        pos += 1
        block = []
        if i > 0 and case.shows_test and pos < len(rest):
            if rest[pos].startswith("Difference at "):
                block = rest[pos:pos + 4]
            elif rest[pos].startswith("No difference proven at "):
                block = rest[pos:pos + 1]
            else:
                raise ParseError(f"expected a test result, got {rest[pos]!r}")
            pos += len(block)
        out["blocks"].append(block)
    if pos != len(rest):
        raise ParseError(f"unexpected trailing lines {rest[pos:]!r}")
    return out


# Value columns of a statistics line: "%c %3d" then five " %13.8g" fields.
FIELDS = {"min": slice(6, 19), "max": slice(20, 33), "median": slice(34, 47),
          "avg": slice(48, 61), "stddev": slice(62, 75)}


def with_field(line, name, text):
    f = FIELDS[name]
    return line[:f.start] + text + line[f.stop:]


# ---------------------------------------------------------------------------
# Checks.  Each appends human-readable problems to a list.
# ---------------------------------------------------------------------------

def close(got, want, rel):
    return abs(got - want) <= rel * abs(want)


def check_plot(case, info, pm, pg, problems):
    cats, model = info.cats, info.model
    if not case.plotted:
        if pm or pg:
            problems.append("a plot was printed although -A or -n was given")
        return
    if model.span == 0 or (pm == pg and not cats & {"stack", "even"}):
        if pm != pg:
            problems.append("plot lines differ")
        return
    nbar = len(case.sets) if case.separate else 1
    border = "+" + "-" * case.plot_width + "+"
    for name, p in (("ministat", pm), ("gfxstat", pg)):
        if len(p) < 2 + nbar or p[0] != border or p[-1] != border:
            problems.append(f"{name}: plot is not framed by borders as expected")
            return
    rows_m, rows_g = pm[1:-1 - nbar], pg[1:-1 - nbar]
    if rows_m != model.ministat_rows:
        problems.append("TEST MODEL ERROR: ministat's plot rows differ from the replayed "
                        "geometry; the classification of this case cannot be trusted")
    if "stack" in cats:
        if len(rows_m) != model.tallest[-1]:
            problems.append(f"ministat shows {len(rows_m)} plot rows, expected the last "
                            f"set's tallest stack {model.tallest[-1]}")
        if len(rows_g) != max(model.tallest) or rows_g != model.full_rows:
            problems.append(f"gfxstat's plot rows are not the full histogram of "
                            f"{max(model.tallest)} rows (got {len(rows_g)})")
    elif rows_g != rows_m:
        problems.append("plot data rows differ")
    for b, (bar_m, bar_g) in enumerate(zip(pm[-1 - nbar:-1], pg[-1 - nbar:-1])):
        owners = [b] if case.separate else range(len(case.sets))
        if "even" in cats and any(len(case.sets[k]) % 2 == 0 for k in owners):
            # The median marker of an even set may move: ignore the columns
            # where either program shows an 'M'.
            same = len(bar_m) == len(bar_g) and all(
                a == c for a, c in zip(bar_m, bar_g) if a != "M" and c != "M")
        else:
            same = bar_m == bar_g
        if not same:
            problems.append(f"plot bar line {b + 1} differs")


def is_negative_zero(text):
    return Fraction(text) == 0 and text.strip().startswith("-")


def check_stats_line(vals, rounded, line_m, line_g, problems):
    """gfxstat's line is ministat's, except the median of an even set (a) and
    Avg/Stddev where ministat's own rounding error shows (rounding)."""
    want = line_m
    n = len(vals)
    if any(is_negative_zero(v) for v in vals):  # (f): "-0" is printed as "0"
        for field in ("min", "max", "median"):
            if want[FIELDS[field]].strip() == "-0":
                want = with_field(want, field, fmt8(0.0))
    if n % 2 == 0:
        s = sorted(Fraction(v) for v in vals)
        # Compared as numbers: ministat may print a "-0" read from the input.
        if float(line_m[FIELDS["median"]]) != float(fmt8(float(s[n // 2]))):
            problems.append(f"ministat's median {line_m[FIELDS['median']]!r} is not "
                            f"sorted[n/2] = {s[n // 2]} (test assumption broken)")
        middle = (s[n // 2 - 1] + s[n // 2]) / 2
        printed = line_g[FIELDS["median"]]
        # The mean of two zeros may keep their sign: allow "-0" there.
        median = printed if middle == 0 and printed == fmt8(-0.0) else fmt8(float(middle))
        want = with_field(want, "median", median)
    if rounded:
        _, mean, var = exact_stats(vals)
        want = with_field(want, "avg", fmt8(float(mean)))
        want = with_field(want, "stddev", fmt8(correctly_rounded_sqrt(var)))
    if line_g != want:
        problems.append(f"statistics line: expected {want!r}, gfxstat printed {line_g!r}")


BLOCK_PATTERNS = [re.compile(r"^\t(\S+) \+/- (\S+)$"),
                  re.compile(r"^\t(\S+)% \+/- (\S+)%$"),
                  re.compile(r"^\t\(Student's t, pooled s = (\S+)\)$")]


def check_t_block(case, i, block, t, problems):
    """gfxstat's test result for pair (set 1, set i) recomputed from the
    exact means and variances of the inputs with critical value t."""
    n_b, mean_b, var_b = exact_stats(case.sets[0])
    n_o, mean_o, var_o = exact_stats(case.sets[i])
    df = n_b + n_o - 2
    d = float(mean_o - mean_b)
    spool = correctly_rounded_sqrt(((n_o - 1) * var_o + (n_b - 1) * var_b) / df)
    root = math.sqrt(1.0 / n_o + 1.0 / n_b)
    half = t * spool * root
    level = "%.1f" % case.level
    significant = block[0] == f"Difference at {level}% confidence"
    if not significant and block != [f"No difference proven at {level}% confidence"]:
        problems.append(f"set {i + 1}: unexpected test header {block[0]!r}")
        return
    borderline = abs(abs(d) - half) <= 1e-9 * half
    if significant != (abs(d) > half) and not borderline:
        problems.append(f"set {i + 1}: gfxstat's decision is inconsistent with "
                        f"t({df}) = {t:.9g}: |D| = {abs(d):.9g}, half-width {half:.9g}")
        return
    if not significant:
        return
    m = [p.match(line) for p, line in zip(BLOCK_PATTERNS, block[1:])]
    if len(block) != 4 or not all(m):
        problems.append(f"set {i + 1}: malformed result block {block!r}")
        return
    D, E = float(m[0].group(1)), float(m[0].group(2))
    RD, RE = float(m[1].group(1)), float(m[1].group(2))
    S = float(m[2].group(1))
    # %g keeps 6 digits: printed values are within 5e-6 relative.
    checks = [("difference", close(D, d, 1e-5)),
              ("pooled s", close(S, spool, 1e-5)),
              (f"half-width / (s * sqrt(1/n1+1/n2)) = t({df}) = {t:.7g}",
               close(E / (S * root), t, 1e-4))]
    if mean_b != 0:
        checks += [("relative difference", close(RD, d * 100 / float(mean_b), 1e-5)),
                   ("relative half-width (positive)",
                    RE > 0 and close(RE, half * 100 / abs(float(mean_b)), 1e-4))]
    for what, ok in checks:
        if not ok:
            problems.append(f"set {i + 1}: {what} check failed in {block!r}")


NEG_REL = re.compile(r"^(\t\S+% \+/- )-(\S+%)$")


def check_blocks(case, info, pm, pg, problems, seen):
    if not case.shows_test:
        return
    n1 = len(case.sets[0])
    negative_base = exact_stats(case.sets[0])[1] < 0
    for i in range(1, len(case.sets)):
        bm, bg = pm["blocks"][i], pg["blocks"][i]
        df = n1 + len(case.sets[i]) - 2
        if "c995" in info.cats or df > 100:
            # (b), (d): gfxstat uses the exact quantile.
            check_t_block(case, i, bg, two_sided_t(case.level, df), problems)
        elif i in info.round_pairs:
            # Same table value as ministat, but exact moments.
            check_t_block(case, i, bg, tabulated_t(case.level, df), problems)
        else:
            want = list(bm)
            if negative_base and len(bm) == 4:
                # (e) ministat divides the half-width by the signed baseline mean.
                match = NEG_REL.match(bm[2])
                if not match:
                    problems.append(f"set {i + 1}: ministat's relative line {bm[2]!r} lacks "
                                    f"the expected negative half-width (test assumption broken)")
                else:
                    want[2] = match.group(1) + match.group(2)
            if bg != want:
                problems.append(f"set {i + 1}: test result block differs")
        if negative_base and bg[0].startswith("Difference"):
            seen.add("negbase")


def ill_conditioned_output(text):
    """ministat printed nan, or a zero Stddev (generated sets are never
    constant): it lost all digits, so there is no reference to compare."""
    if "nan" in text:
        return True
    return any(line[FIELDS["stddev"]].strip() == "0" for line in text.splitlines()
               if len(line) == 75 and line[:1] in SYMBOLS[1:] and line[1] == " ")


def check_case(case, info, out_m, out_g):
    """Returns (problems, categories seen, byte-identical?)."""
    rc_m, so_m, se_m = out_m
    rc_g, so_g, _ = out_g
    problems, seen = [], set(info.cats)
    identical = so_m == so_g
    if rc_m != 0:
        problems.append(f"ministat exited {rc_m}: {se_m.decode(errors='replace').strip()}")
    if rc_g != rc_m:
        problems.append(f"exit status: ministat {rc_m}, gfxstat {rc_g}")
    text_m = so_m.decode(errors="replace")
    text_g = so_g.decode(errors="replace")
    if ill_conditioned_output(text_m):
        seen.add("illcond")
        return problems, seen, identical
    if problems:
        return problems, seen, identical
    try:
        pm = parse_output(text_m, case)
        pg = parse_output(text_g, case)
    except ParseError as e:
        return [f"cannot parse output: {e}"], seen, identical
    if pm["legend"] != pg["legend"]:
        problems.append("legend lines differ")
    check_plot(case, info, pm["plot"], pg["plot"], problems)
    for i, (vals, lm, lg) in enumerate(zip(case.sets, pm["stats"], pg["stats"])):
        check_stats_line(vals, i in info.round_sets, lm, lg, problems)
    check_blocks(case, info, pm, pg, problems, seen)
    # The structured checks compare every line; this catches anything else
    # (and is the whole assertion for in-domain cases).
    if not seen and not identical and not problems:
        problems.append("in-domain case is not byte-identical")
    return problems, seen, identical


def execute(case, root, gfxstat):
    cwd = os.path.join(root, f"case{case.index:04d}")
    os.mkdir(cwd)
    for name, text in zip(case.names, case.texts):
        with open(os.path.join(cwd, name), "w") as f:
            f.write(text)
    info = classify(case)
    out_m = run([MINISTAT] + case.args + case.names, cwd)
    out_g = run([gfxstat, "ministat"] + case.args + case.names, cwd)
    problems, seen, identical = check_case(case, info, out_m, out_g)
    if not problems:
        shutil.rmtree(cwd)
    return case, cwd, seen, identical, problems, out_m, out_g


def report_failure(case, cwd, seen, problems, out_m, out_g, gfxstat):
    print("=" * 78)
    print(f"FAIL case {case.index} (plan {case.plan}, categories "
          f"{', '.join(sorted(seen)) or 'in-domain'})")
    argv = shlex.join(case.args + case.names)
    print(f"  flags: {shlex.join(case.args) or '(none)'}")
    print(f"  cd {shlex.quote(cwd)} && {shlex.quote(MINISTAT)} {argv}")
    print(f"  cd {shlex.quote(cwd)} && {shlex.quote(gfxstat)} ministat {argv}")
    for p in problems:
        print(f"  - {p}")
    if sum(len(t) for t in case.texts) <= 3000:
        for name, text in zip(case.names, case.texts):
            print(f"--- {name}:")
            sys.stdout.write(text)
    else:
        print(f"  (inputs kept in {cwd})")
    diff = difflib.unified_diff(out_m[1].decode(errors="replace").splitlines(keepends=True),
                                out_g[1].decode(errors="replace").splitlines(keepends=True),
                                "ministat", "gfxstat ministat")
    sys.stdout.writelines(diff)
    for name, out in (("ministat", out_m), ("gfxstat", out_g)):
        if out[2]:
            print(f"--- {name} stderr:\n{out[2].decode(errors='replace')}", end="")


def main():
    global MINISTAT   # --ministat exists only to exercise the skip path
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gfxstat", required=True, help="path to the gfxstat binary")
    ap.add_argument("--cases", type=int, default=400)
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--show", type=int, default=5, help="failures to print in full")
    ap.add_argument("--ministat", default=MINISTAT, help=argparse.SUPPRESS)
    args = ap.parse_args()

    MINISTAT = args.ministat
    if not os.access(MINISTAT, os.X_OK):
        print(f"SKIP: {MINISTAT} is not installed (Debian package 'ministat'); "
              f"nothing to compare against")
        return SKIP
    gfxstat = os.path.abspath(args.gfxstat)
    if not os.access(gfxstat, os.X_OK):
        print(f"error: {gfxstat} is not an executable")
        return 1
    self_check_t_quantile()

    start = time.monotonic()
    cases = generate_cases(random.Random(args.seed), args.cases)
    root = tempfile.mkdtemp(prefix="ministat_diff.")
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda c: execute(c, root, gfxstat), cases))

    counts = {k: 0 for k in ("identical", "even", "bigdf", "stack", "c995", "negbase",
                             "negzero", "rounding", "illcond")}
    failures, identical_total = [], 0
    for case, cwd, seen, identical, problems, out_m, out_g in results:
        identical_total += identical
        for cat in seen & counts.keys():
            counts[cat] += 1
        if not seen and identical and not problems:
            counts["identical"] += 1
        if problems:
            failures.append((case, cwd, seen, problems, out_m, out_g))
    for f in failures[:args.show]:
        report_failure(*f, gfxstat)
    if len(failures) > args.show:
        print(f"... and {len(failures) - args.show} more failing cases:")
        for case, cwd, seen, problems, _, _ in failures[args.show:]:
            print(f"  case {case.index} [{shlex.join(case.args)}] in {cwd}: {problems[0]}")

    elapsed = time.monotonic() - start
    print(f"ministat differential: {len(cases)} cases, seed {args.seed}, {elapsed:.1f} s")
    print(f"  in domain, byte-identical         {counts['identical']}")
    print(f"  (a) even-sized sets, median       {counts['even']}")
    print(f"  (b) df > 100, exact t             {counts['bigdf']}")
    print(f"  (c) stack-height plot fix         {counts['stack']}")
    print(f"  (d) -c 99.5, exact t              {counts['c995']}")
    print(f"  (e) negative baseline rel. width  {counts['negbase']}")
    print(f"  (f) negative zero printed as 0    {counts['negzero']}")
    print(f"  ministat's rounding error shows   {counts['rounding']}")
    print(f"  ill-conditioned, skipped          {counts['illcond']}")
    print(f"  byte-identical overall            {identical_total}")
    print(f"  failing cases                     {len(failures)}")

    short = [f"{k}: {counts[k]} < {math.ceil(v * args.cases / 400)}"
             for k, v in REQUIRED.items() if counts[k] < math.ceil(v * args.cases / 400)]
    if short:
        print("FAIL: too few cases in some categories: " + "; ".join(short))
    if failures or short:
        print(f"inputs of failing cases kept under {root}")
        return 1
    shutil.rmtree(root)
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
