// SPDX-License-Identifier: MIT
// The stored-boots design (one new CI boot against stored history,
// analysis/stored_boots.h) in compare's words: the design line of every
// format, and its fields in compare's JSON (docs/compare-format.md).
#pragma once

#include <string>

#include "analysis/comparison.h"

namespace gfxstat::report {

// "1 new boot against 12 stored boots, none shared (prediction t on boot
// means, 11 df; boots spread 1.2%, runs within a boot 0.8%)", or with
// "(not judged: too few baseline boots)" / "(not judged: another
// machine's boots)". Spreads are relative to the baseline's mean.
std::string stored_boots_design_words(const analysis::StoredBootsDesign& d);

}  // namespace gfxstat::report
