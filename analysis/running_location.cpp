// SPDX-License-Identifier: MIT
#include "analysis/running_location.h"

#include <iterator>
#include <stdexcept>

namespace gfxstat::analysis {

RunningLocationInterval::RunningLocationInterval(double confidence, bool mean)
    : confidence_(confidence), mean_(mean), tree_(CountingLess{operations_.get()}) {
    if (!(confidence > 0 && confidence < 1)) throw std::invalid_argument("confidence must be in (0, 1)");
}

// Moves the cursor to `rank`, a step at a time: the ranks it follows move
// by one or two per value added. A cursor not yet set starts from the
// nearer end.
void RunningLocationInterval::seek(Cursor& c, size_t rank) {
    if (!c.set) {
        if (rank < n_ - rank) {
            c.at = tree_.begin();
            c.rank = 0;
        } else {
            c.at = std::prev(tree_.end());
            c.rank = n_ - 1;
        }
        c.set = true;
    }
    for (; c.rank < rank; ++c.rank, ++*operations_) ++c.at;
    for (; c.rank > rank; --c.rank, ++*operations_) --c.at;
}

void RunningLocationInterval::add(double value) {
    ++n_;
    if (mean_) {
        values_.push_back(value);
        return;
    }
    // A multiset puts an equal value after the equal ones already there:
    // the new element is before a cursor exactly when it is smaller than
    // the cursor's value, and then the cursor's rank grows by one.
    tree_.insert(value);
    for (Cursor* c : {&lower_middle_, &upper_middle_, &low_, &high_})
        if (c->set && value < *c->at) ++c->rank;
    *operations_ += 4;
    seek(lower_middle_, (n_ - 1) / 2);
    seek(upper_middle_, n_ / 2);
    rank_ = median_rank(n_, confidence_, n_ > 1 ? std::optional<size_t>(rank_.l) : std::nullopt);
    if (rank_.l > 0) {
        seek(low_, rank_.l - 1);
        seek(high_, n_ - rank_.l);
    }
}

LocationInterval RunningLocationInterval::interval() const {
    if (mean_) return mean_interval(values_, confidence_);
    if (n_ == 0) return {};
    const bool l = rank_.l > 0;
    return median_interval_of_order(n_, rank_, *lower_middle_.at, *upper_middle_.at, l ? *low_.at : 0,
                                    l ? *high_.at : 0);
}

}  // namespace gfxstat::analysis
