// SPDX-License-Identifier: MIT
// The advice on a threshold that the noise makes unreachable within ab's
// --max-runs (analysis::SettlingAdvice), in the one wording that ab's
// progress and compare's inconclusive verdicts share.
#pragma once

#include <string>
#include <vector>

#include "analysis/confidence_sequence.h"
#include "analysis/verdict.h"

namespace gfxstat::report {

// "at this noise +-1% cannot likely be settled within --max-runs 100 (it
// would need about 3187 runs a variant); +-5% would likely settle in
// about 22 runs a variant", not escaped.
std::string settling_advice_words(const analysis::SettlingAdvice& a);

// A verdict's reason, followed by its settling advice when it has one
// ("...; about 3100 more blocks would likely settle it; at this noise
// +-1% cannot likely..."), not escaped.
std::string verdict_reason(const analysis::Verdict& v);

// ab's advice on one comparison as stderr lines of at most 72 columns
// (a longer label may widen them): "gfxstat ab: advice: b vs a: <settling_advice_words>;
// ab goes on at +-1% ...", the lines after the first indented by 2;
// escaped.
std::vector<std::string> ab_advice_lines(const analysis::SettlingAdvice& a, const std::string& candidate,
                                         const std::string& baseline, const std::string& program);

}  // namespace gfxstat::report
