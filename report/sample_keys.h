// SPDX-License-Identifier: MIT
// How a report's rows name their samples: ministat's symbols ('x', '+',
// '*', ...) while a plot can draw them all, numbers ("1".."12") beyond,
// where a symbol would repeat or read '?' and there is no plot to match.
#pragma once

#include <cstddef>
#include <string>

namespace gfxstat::cli {

class SampleKeys {
public:
    explicit SampleKeys(size_t samples);
    // The key of sample i (0-based), padded to width().
    std::string key(size_t i) const;
    size_t width() const { return width_; }
    bool symbols() const { return symbols_; }

private:
    bool symbols_;
    size_t width_;
};

// "the plot draws at most 7 data sets; 9 given: see the table"
std::string plot_overflow_words(size_t sets);

}  // namespace gfxstat::cli
