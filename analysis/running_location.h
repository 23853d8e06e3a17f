// SPDX-License-Identifier: MIT
// The location interval of a sample that grows one value at a time, for
// `gfxstat run`, which asks after every run (progress line, --target-ci's
// stop rule). median_interval copies and sorts every value each time: a
// run loop of N runs then costs N^2 log N. This keeps the values in order
// instead (a balanced tree) with cursors on the four order statistics the
// median's interval reads; each cursor moves a step or two per value, and
// the interval's rank comes from the previous one, so a value costs
// O(log n), whatever the run. The numbers are median_interval's, bit for bit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <set>
#include <vector>

#include "analysis/location_interval.h"

namespace gfxstat::analysis {

class RunningLocationInterval {
public:
    // mean: mean_interval's t interval instead of the median's. confidence
    // in (0, 1), else std::invalid_argument.
    RunningLocationInterval(double confidence, bool mean);
    // The cursors point into the tree: moved, never copied.
    RunningLocationInterval(const RunningLocationInterval&) = delete;
    RunningLocationInterval& operator=(const RunningLocationInterval&) = delete;
    RunningLocationInterval(RunningLocationInterval&&) = default;

    void add(double value);
    size_t size() const { return n_; }
    bool empty() const { return n_ == 0; }
    // What median_interval (or mean_interval) gives for the values added
    // so far. Not for an empty sample.
    LocationInterval interval() const;

    // Comparisons and cursor steps since construction: the shape test's
    // count (a value must cost O(log n) of them, not O(n)).
    uint64_t operations() const { return *operations_; }

private:
    // Counts its comparisons into the owner's counter (the tree holds a
    // copy of the comparator).
    struct CountingLess {
        uint64_t* count;
        bool operator()(double a, double b) const {
            ++*count;
            return a < b;
        }
    };
    using Tree = std::multiset<double, CountingLess>;
    // An element of the tree and its 0-based rank in the order.
    struct Cursor {
        Tree::const_iterator at;
        size_t rank = 0;
        bool set = false;
    };
    void seek(Cursor& c, size_t rank);

    double confidence_;
    bool mean_;
    size_t n_ = 0;
    // Behind a pointer so that the tree's comparator keeps pointing at it
    // when the object moves.
    std::unique_ptr<uint64_t> operations_ = std::make_unique<uint64_t>(0);
    Tree tree_;
    // ranks (n-1)/2 and n/2 (the median), l-1 and n-l (the interval).
    Cursor lower_middle_, upper_middle_, low_, high_;
    MedianRank rank_;
    // The mean's interval: the values in the order they came, summed again
    // each time (mean_interval's two passes in long double, whose rounding
    // a running sum would not repeat); only with --target-ci, at most
    // --max-runs of them.
    std::vector<double> values_;
};

}  // namespace gfxstat::analysis
