// SPDX-License-Identifier: MIT
#include "report/sample_keys.h"

#include "analysis/ministat_plot.h"

namespace gfxstat::cli {

SampleKeys::SampleKeys(size_t samples)
    : symbols_(analysis::plot_can_draw(samples) || samples == 0),
      width_(symbols_ ? 1 : std::to_string(samples).size()) {}

std::string SampleKeys::key(size_t i) const {
    if (symbols_) return std::string(1, analysis::ministat_symbol(static_cast<int>(i + 1)));
    const std::string n = std::to_string(i + 1);
    return std::string(width_ - n.size(), ' ') + n;
}

std::string plot_overflow_words(size_t sets) {
    return "the plot draws at most " + std::to_string(analysis::kPlotMaxSets) + " data sets; " +
           std::to_string(sets) + " given: see the table";
}

}  // namespace gfxstat::cli
