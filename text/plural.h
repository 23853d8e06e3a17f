// SPDX-License-Identifier: MIT
// A count and its noun for the lines people read: "1 boot", "2 boots",
// "0 reboots". Printing "%zu boots" reads "1 boots" as soon as the count
// is one, and a campaign of one boot per variant is common when a plan is
// first tried.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace gfxstat::text {

// `n` and `singular`, with `plural_form` (default: singular + "s") when
// `n` is not 1: plural(1, "boot") is "1 boot", plural(3, "warm-up") is
// "3 warm-ups", plural(2, "boot slot") is "2 boot slots".
inline std::string plural(size_t n, std::string_view singular, std::string_view plural_form = {}) {
    std::string out = std::to_string(n) + " ";
    if (n == 1) out += singular;
    else if (!plural_form.empty()) out += plural_form;
    else (out += singular) += 's';
    return out;
}

}  // namespace gfxstat::text
