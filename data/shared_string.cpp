// SPDX-License-Identifier: MIT
#include "data/shared_string.h"

#include <ostream>

namespace gfxstat::data {

const std::string& SharedString::empty_string() noexcept {
    static const std::string empty;
    return empty;
}

std::ostream& operator<<(std::ostream& os, const SharedString& s) { return os << s.str(); }

}  // namespace gfxstat::data
