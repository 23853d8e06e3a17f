#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent reference values for the shape of a sample: the bias-corrected
skewness G1, excess kurtosis G2 (SAS/SPSS type 2) and the bimodality
coefficient BC = (G1^2 + 1) / (G2 + 3 (n-1)^2 / ((n-2)(n-3))), computed
exactly from the decimals as written (analysis/moments.cpp shape_moments,
analysis/diagnostics.cpp judge_bimodality). Writes
tests/data/shape_reference.json.

Standard library only, sharing nothing with the C++ code: every central
moment is an exact rational (fractions.Fraction of the decimal strings,
centred on the exact mean); G2 and BC are rational (G1 enters BC squared) and
are rounded once to a double; G1 needs one square root, taken with decimal
at 50 digits.

The samples are generated here with seeded random.Random and stored as
decimal strings, and as integer significands with one power of ten (the
exact form gfxstat reads them in). Values near 1e9 with noise of 1e-3 are
the case that needs it: as doubles they have lost about 5 digits of their
noise, which moves BC by about 2e-5 relative.

Run from anywhere: python3 tests/data/make_shape_reference.py
"""

import json
import os
import random
from decimal import Decimal, getcontext
from fractions import Fraction as F

HERE = os.path.dirname(os.path.abspath(__file__))
getcontext().prec = 50


def shape(strings):
    x = [F(s) for s in strings]
    n = len(x)
    mean = sum(x) / n
    m2 = sum((v - mean) ** 2 for v in x) / n
    m3 = sum((v - mean) ** 3 for v in x) / n
    m4 = sum((v - mean) ** 4 for v in x) / n
    g1_sq = m3 * m3 / (m2 ** 3)  # population skewness squared, exact
    G1_sq = F(n * (n - 1), (n - 2) ** 2) * g1_sq
    g2 = m4 / (m2 * m2) - 3
    G2 = F(n - 1, (n - 2) * (n - 3)) * ((n + 1) * g2 + 6)
    bc = (G1_sq + 1) / (G2 + F(3 * (n - 1) ** 2, (n - 2) * (n - 3)))
    g1 = Decimal(m3.numerator) / Decimal(m3.denominator) / (
        Decimal(m2.numerator) / Decimal(m2.denominator)) ** Decimal("1.5")
    G1 = (Decimal(n * (n - 1)).sqrt() / (n - 2)) * g1
    return float(G1), float(G2), float(bc)


def decimals(values, places):
    return [f"{v:.{places}f}" for v in values]


def case(case_id, description, strings):
    places = max(len(s.split(".")[1]) if "." in s else 0 for s in strings)
    sig = [int(s.replace(".", "")) if "." in s else int(s) * 10 ** places for s in
           (s if "." not in s or len(s.split(".")[1]) == places else s + "0" * (places - len(s.split(".")[1]))
            for s in strings)]
    G1, G2, bc = shape(strings)
    return {"id": case_id, "description": description, "values": strings, "significands": sig,
            "exponent": -places, "g1": G1, "g2": G2, "bimodality_coefficient": bc}


def main():
    rng = random.Random(20261201)
    cases = []
    # 1e9 + a skewed noise of about 1e-3 (exponential, 3 decimals).
    cases.append(case("offset_1e9_noise_1e-3", "1e9 + Exp(mean 0.003), 3 dp, n = 30",
                      decimals([1e9 + rng.expovariate(1 / 0.003) for _ in range(30)], 3)))
    cases.append(case("offset_1e9_bimodal", "1e9 + 0.001 * (N(0,1) or N(5,1)), 3 dp, n = 40",
                      decimals([1e9 + 0.001 * (rng.gauss(0, 1) + (5 if rng.random() < 0.4 else 0))
                                for _ in range(40)], 3)))
    cases.append(case("offset_1e6_noise_1e-5", "1e6 + 1e-5 * lognormal(0, 0.5), 6 dp, n = 25",
                      decimals([1e6 + 1e-5 * rng.lognormvariate(0, 0.5) for _ in range(25)], 6)))
    cases.append(case("frame_times_ms", "16.6 + Exp(0.4) ms, 3 dp, n = 20",
                      decimals([16.6 + rng.expovariate(2.5) for _ in range(20)], 3)))
    cases.append(case("integers", "whole numbers 1..9 in a bimodal pattern, n = 12",
                      ["1", "1", "2", "2", "2", "3", "7", "8", "8", "8", "9", "9"]))
    with open(os.path.join(HERE, "shape_reference.json"), "w") as f:
        json.dump({"generator": "tests/data/make_shape_reference.py", "cases": cases}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
