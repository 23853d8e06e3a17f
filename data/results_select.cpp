#include "data/results_select.h"

#include <unordered_map>

#include "data/input_error.h"

namespace gfxstat::data {

size_t SelectionCounts::excluded() const {
    size_t n = warmup + without_metric;
    for (size_t c : excluded_by_class) n += c;
    return n;
}

namespace {

std::string quoted_list(const std::vector<std::string>& items) {
    std::string s;
    for (size_t i = 0; i < items.size(); ++i) s += (i ? ", '" : "'") + items[i] + "'";
    return s.empty() ? "none" : s;
}

}  // namespace

MetricSelection select_metric(const ResultsFile& file, const std::string& name,
                              std::string_view metric, const std::vector<std::string>& variants) {
    std::vector<std::string> metric_names;
    for (const MetricInfo& m : file.metrics()) metric_names.push_back(m.name);
    MetricSelection sel;
    if (metric.empty()) {
        if (metric_names.size() != 1)
            throw input_error(name, 0,
                              metric_names.empty()
                                  ? std::string("holds no metrics")
                                  : "holds several metrics (" + quoted_list(metric_names) +
                                        "); choose one with --metric");
        sel.metric = file.metrics()[0];
    } else {
        const MetricInfo* m = file.find_metric(metric);
        if (!m)
            throw input_error(name, 0, "has no metric '" + std::string(metric) + "'; it holds " +
                                           quoted_list(metric_names));
        sel.metric = *m;
    }

    const std::vector<std::string> all = file.variants();
    const std::vector<std::string>& wanted = variants.empty() ? all : variants;
    std::unordered_map<std::string, size_t> slot;
    for (const std::string& v : wanted) {
        bool present = false;
        for (const std::string& a : all) present |= (a == v);
        if (!present)
            throw input_error(name, 0, "has no variant '" + v + "'; it holds " + quoted_list(all));
        if (slot.emplace(v, slot.size()).second == false)
            throw input_error(name, 0, "variant '" + v + "' selected twice");
    }
    if (wanted.empty()) throw input_error(name, 0, "holds no runs");

    std::vector<SampleBuilder> builders(wanted.size());
    std::vector<SelectionCounts> counts(wanted.size());
    for (const RunRecord& run : file.runs()) {
        auto it = slot.find(run.variant);
        if (it == slot.end()) continue;
        SelectionCounts& c = counts[it->second];
        if (run.warmup) {
            ++c.warmup;
            continue;
        }
        if (run.exit_class != ExitClass::ok) {
            ++c.excluded_by_class[static_cast<size_t>(run.exit_class)];
            continue;
        }
        const MetricValues* values = run.metric(sel.metric.name);
        if (!values) {
            ++c.without_metric;
            continue;
        }
        ++c.runs_used;
        c.values += values->values.size();
        SampleBuilder& b = builders[it->second];
        for (const NumberToken& t : values->values) {
            if (t.status == TokenStatus::decimal)
                b.add_decimal(t.negative, t.significand, t.exponent);
            else
                b.add(t);
        }
    }
    for (size_t i = 0; i < wanted.size(); ++i)
        sel.variants.push_back({wanted[i], std::move(builders[i]).finish(wanted[i]), counts[i]});
    return sel;
}

std::string describe_exclusions(const SelectionCounts& c) {
    std::string s;
    const auto add = [&](size_t n, const char* one, const char* many) {
        if (n == 0) return;
        if (!s.empty()) s += ", ";
        s += std::to_string(n) + " " + (n == 1 ? one : many);
    };
    add(c.excluded_by_class[static_cast<size_t>(ExitClass::fail)], "failed", "failed");
    add(c.excluded_by_class[static_cast<size_t>(ExitClass::crash)], "crashed", "crashed");
    add(c.excluded_by_class[static_cast<size_t>(ExitClass::timeout)], "timed out", "timed out");
    add(c.excluded_by_class[static_cast<size_t>(ExitClass::skip)], "skipped", "skipped");
    add(c.warmup, "warm-up", "warm-ups");
    add(c.without_metric, "run without the metric", "runs without the metric");
    return s;
}

}  // namespace gfxstat::data
