// SPDX-License-Identifier: MIT
#include "report/metric_direction_words.h"

namespace gfxstat::report {

const char* direction_words(data::Direction d, const char* unknown) {
    switch (d) {
        case data::Direction::lower_is_better: return "lower is better";
        case data::Direction::higher_is_better: return "higher is better";
        case data::Direction::unknown: break;
    }
    return unknown;
}

}  // namespace gfxstat::report
