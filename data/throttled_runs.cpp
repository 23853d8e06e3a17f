// SPDX-License-Identifier: MIT
#include "data/throttled_runs.h"

#include <stdexcept>

namespace gfxstat::data {

namespace {
bool measured(const RunRecord& r) { return r.exit_class == ExitClass::ok && !r.warmup; }
}  // namespace

ThrottledCount count_throttled(const ResultsFile& file, std::string_view variant) {
    ThrottledCount c;
    for (const RunRecord& r : file.runs()) {
        if (!measured(r) || (!variant.empty() && r.variant != variant)) continue;
        ++c.measured;
        c.throttled += run_throttled(r);
    }
    return c;
}

std::unordered_map<std::string, ThrottledCount> count_throttled_by_variant(const ResultsFile& file) {
    std::unordered_map<std::string, ThrottledCount> out;
    for (const RunRecord& r : file.runs()) {
        if (!measured(r)) continue;
        ThrottledCount& c = out[r.variant];
        ++c.measured;
        c.throttled += run_throttled(r);
    }
    return out;
}

ResultsFile without_throttled(const ResultsFile& file, size_t* left_out) {
    ResultsFile out;
    out.header = file.header;
    // The declarations of a file that was read are consistent, so adding
    // them again cannot conflict; a conflict would be a bug here.
    const auto check = [](const std::string& conflict) {
        if (!conflict.empty()) throw std::logic_error("without_throttled: " + conflict);
    };
    for (const MetricInfo& m : file.metrics()) check(out.declare_metric(m));
    for (Environment e : file.environments()) check(out.add_environment(e));
    for (const DesignRecord& d : file.designs()) check(out.add_design(d));
    size_t removed = 0;
    for (const RunRecord& r : file.runs()) {
        if (run_throttled(r)) {
            removed += measured(r);
            continue;
        }
        check(out.add_run(r));
    }
    if (left_out) *left_out = removed;
    return out;
}

}  // namespace gfxstat::data
