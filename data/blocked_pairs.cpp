// SPDX-License-Identifier: MIT
#include "data/blocked_pairs.h"

#include <charconv>
#include <cstdio>
#include <map>
#include <string>

namespace gfxstat::data {

namespace {

double token_value(const NumberToken& t) {
    if (t.status != TokenStatus::decimal) return t.value;
    // The correctly rounded double of the exact decimal.
    char buf[48];
    const int len = std::snprintf(buf, sizeof buf, "%s%llue%d", t.negative ? "-" : "",
                                  static_cast<unsigned long long>(t.significand), static_cast<int>(t.exponent));
    const char* p = buf + (len > 0 && len < static_cast<int>(sizeof buf) ? len : 0);
    double v = 0;
    std::from_chars(buf, p, v);
    return t.negative && v == 0 ? -0.0 : v;
}

}  // namespace

std::optional<double> run_value(const RunRecord& run, std::string_view metric) {
    const MetricValues* m = run.metric(metric);
    if (!m || m->values.empty()) return std::nullopt;
    long double sum = 0;
    for (const NumberToken& t : m->values) sum += token_value(t);
    return static_cast<double>(sum / static_cast<long double>(m->values.size()));
}

BlockedPairs blocked_pairs(const ResultsFile& file, std::string_view design, std::string_view metric,
                           std::string_view baseline, std::string_view candidate) {
    BlockedPairs out;
    const MetricInfo* info = file.find_metric(metric);
    if (!info || info->within_run() || design.empty()) return out;
    struct Sides {
        std::optional<double> base, cand;
    };
    std::map<uint64_t, Sides> by_block;
    for (const RunRecord& run : file.runs()) {
        if (run.design != design || !run.block) continue;
        const bool is_base = run.variant == baseline, is_cand = run.variant == candidate;
        if (!is_base && !is_cand) continue;
        Sides& s = by_block[*run.block];  // seen: complete or not
        // The same rules as results_select: warm-ups and runs that did not
        // end ok are no samples.
        if (run.warmup || run.exit_class != ExitClass::ok) continue;
        const std::optional<double> v = run_value(run, metric);
        if (!v) continue;
        std::optional<double>& side = is_base ? s.base : s.cand;
        if (!side) side = v;  // the first run of a variant in its block counts
    }
    for (const auto& [block, s] : by_block) {
        if (!s.base || !s.cand) {
            ++out.incomplete;
            continue;
        }
        out.blocks.push_back(block);
        out.baseline.push_back(*s.base);
        out.candidate.push_back(*s.cand);
    }
    return out;
}

}  // namespace gfxstat::data
