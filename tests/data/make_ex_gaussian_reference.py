#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent reference values for the ex-Gaussian fit of
analysis/diagnostics.cpp (ex_gaussian_bic): the BIC, -2 log L + 3 log n, of
the maximum-likelihood ex-Gaussian N(mu, sigma^2) + Exp(mean tau), the better
of the values and of their mirror image. Writes
tests/data/ex_gaussian_reference.json.

Standard library only, sharing nothing with the C++ code: the density is
written from its definition, f(x) = (1/tau) exp((mu - x)/tau + sigma^2 /
(2 tau^2)) Phi((x - mu)/sigma - sigma/tau), with Phi from math.erfc (and
its asymptotic series far in the lower tail); the maximum is found by a
Hooke-Jeeves pattern search on (mu, log sigma, log tau) from a grid of
starts, down to steps of 1e-8 (the C++ uses Nelder-Mead from the method of
moments).

Run from anywhere: python3 tests/data/make_ex_gaussian_reference.py
"""

import json
import math
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))


def log_phi(z):
    if z > -30:
        return math.log(0.5 * math.erfc(-z / math.sqrt(2)))
    return -0.5 * z * z - math.log(-z) - 0.5 * math.log(2 * math.pi) + math.log1p(-1 / (z * z))


def deviance(x, mu, sigma, tau):
    ll = 0.0
    for v in x:
        ll += -math.log(tau) + (mu - v) / tau + sigma * sigma / (2 * tau * tau) + log_phi((v - mu) / sigma - sigma / tau)
    return -2 * ll


def pattern_search(f, p, step):
    # Compass search with expansion: a success doubles the step (so a long
    # valley is crossed in few moves), a round without one halves it.
    fp = f(p)
    top = step
    while step > 1e-8:
        improved = False
        for i in range(len(p)):
            for d in (step, -step):
                q = list(p)
                q[i] += d
                fq = f(q)
                if fq < fp:
                    p, fp, improved = q, fq, True
                    break
        step = min(2 * step, top) if improved else step / 2
    return p, fp


def best_deviance(x):
    n = len(x)
    m = sum(x) / n
    sd = math.sqrt(sum((v - m) ** 2 for v in x) / n)
    best = math.inf
    for frac in (0.1, 0.3, 0.5, 0.7, 0.9):
        tau = frac * sd
        sigma = math.sqrt(max(sd * sd - tau * tau, 0.01 * sd * sd))
        f = lambda p: deviance(x, p[0], math.exp(p[1]), math.exp(p[2]))
        _, fv = pattern_search(f, [m - tau, math.log(sigma), math.log(tau)], 0.25 * sd)
        best = min(best, fv)
    return best


def bic(x):
    n = len(x)
    return min(best_deviance(x), best_deviance([-v for v in x])) + 3 * math.log(n)


def main():
    rng = random.Random(20261201)
    ref = json.load(open(os.path.join(HERE, "reference_cases.json")))
    cases = []
    by_id = {c["id"]: c for c in ref["cases"]}
    cases.append({"id": "bimodal_vs_unimodal_n40.a", "values": by_id["bimodal_vs_unimodal_n40"]["a"]})
    cases.append({"id": "ex_gaussian_n30", "description": "N(20, 0.5) + Exp(mean 1.5), n = 30",
                  "values": [round(20 + rng.gauss(0, 0.5) + rng.expovariate(1 / 1.5), 4) for _ in range(30)]})
    cases.append({"id": "left_tail_n25", "description": "60 - Exp(mean 2) + N(0, 0.3): a tail to the left, n = 25",
                  "values": [round(60 - rng.expovariate(0.5) + rng.gauss(0, 0.3), 3) for _ in range(25)]})
    cases.append({"id": "normal_n20", "description": "N(100, 1), n = 20 (tau runs to its lower end)",
                  "values": [round(100 + rng.gauss(0, 1), 3) for _ in range(20)]})
    for c in cases:
        c["bic_ex_gaussian"] = bic(c["values"])
    with open(os.path.join(HERE, "ex_gaussian_reference.json"), "w") as f:
        json.dump({"generator": "tests/data/make_ex_gaussian_reference.py", "cases": cases}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
