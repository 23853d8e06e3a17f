#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Reference values for tests/unit/analysis/confidence_sequence_test.cpp.

The Bayes factor of analysis/confidence_sequence.h, computed WITHOUT its closed
form: the two marginal likelihoods of the block differences x_i = d_i - mu
are integrated numerically with scipy,

  H0: m0 = int_0^inf (1/sigma) prod_i N(x_i; 0, sigma^2) dsigma
  H1: m1 = int_0^inf int_R (1/sigma) N(delta; 0, g) prod_i N(x_i; sigma delta, sigma^2) ddelta dsigma

(the right-Haar prior 1/sigma on the scale, N(0, g) on the standardised
effect), and B = m1 / m0. Both are integrated over u = log sigma with the
log-likelihood's maximum taken out, so that nothing under- or overflows.
Needs python3-scipy (Debian); the C++ test only holds the printed numbers.

    /usr/bin/python3 tests/reference/sequential_reference.py
"""
import math

from scipy import integrate, optimize


def loglik(xs, sigma, mean):
    return sum(-0.5 * math.log(2 * math.pi) - math.log(sigma) - (x - mean) ** 2 / (2 * sigma * sigma) for x in xs)


def bayes_factor(ds, mu, g):
    xs = [d - mu for d in ds]
    s2 = sum(x * x for x in xs) / len(xs)
    u0 = 0.5 * math.log(s2)  # the scale's rough centre
    # log m0 integrand over u = log sigma: (1/sigma) dsigma = du
    f0 = lambda u: loglik(xs, math.exp(u), 0.0)
    ref = f0(u0)
    lo, hi = u0 - 40, u0 + 40
    m0, _ = integrate.quad(lambda u: math.exp(f0(u) - ref), lo, hi, limit=400, epsabs=0, epsrel=1e-12,
                           points=[u0])

    def inner(u):
        sigma = math.exp(u)
        # delta ~ N(0, g); the likelihood's delta is centred near mean(x)/sigma
        c = sum(xs) / len(xs) / sigma
        w = 12 * math.sqrt(g) + 12 / math.sqrt(len(xs)) + abs(c)
        h = lambda dl: math.exp(loglik(xs, sigma, sigma * dl) - ref - dl * dl / (2 * g)) / math.sqrt(
            2 * math.pi * g)
        v, _ = integrate.quad(h, -w, w, limit=400, epsabs=0, epsrel=1e-12, points=[0.0, c])
        return v

    m1, _ = integrate.quad(inner, lo, hi, limit=400, epsabs=0, epsrel=1e-11, points=[u0])
    return m1 / m0


CASES = [
    # (name, differences, mu, g)
    ("three", [0.012, -0.004, 0.021], 0.0, 0.5),
    ("three_mu", [0.012, -0.004, 0.021], 0.01, 0.5),
    ("five", [1.0, 2.5, 0.5, 3.0, 1.5], 0.0, 0.5),
    ("five_g2", [1.0, 2.5, 0.5, 3.0, 1.5], 0.0, 2.0),
    ("five_gsmall", [1.0, 2.5, 0.5, 3.0, 1.5], 0.7, 0.05),
    ("eight", [0.03, 0.025, 0.041, 0.018, 0.022, 0.035, 0.029, 0.027], 0.0, 0.5),
    ("eight_mu", [0.03, 0.025, 0.041, 0.018, 0.022, 0.035, 0.029, 0.027], 0.03, 0.5),
    ("two", [-1.0, 3.0], 0.0, 1.0),
]

if __name__ == "__main__":
    for name, ds, mu, g in CASES:
        b = bayes_factor(ds, mu, g)
        print(f"{name:12s} n={len(ds)} mu={mu} g={g}: B = {b:.15g}")
