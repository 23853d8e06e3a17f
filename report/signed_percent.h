// SPDX-License-Identifier: MIT
// A relative change as ab's and bisect's lines write it: "+3.2%", "-0.51%",
// "n/a" for NaN, "+inf" / "-inf"; three significant digits, always signed.
#pragma once

#include <string>

namespace gfxstat::report {

// `ratio` is the change as a fraction: 0.032 is "+3.2%".
std::string signed_percent(double ratio);

}  // namespace gfxstat::report
