// SPDX-License-Identifier: MIT
#include "report/left_out_notes.h"

#include <algorithm>

#include "data/results_select.h"
#include "report/diagnostic_words.h"
#include "text/plural.h"
#include "text/text_escape.h"

namespace gfxstat::report {

using cli::MetricReport;
using cli::ReportSample;
using text::escape_text;

std::vector<std::string> left_out_notes(const cli::CompareReport& report) {
    std::vector<std::string> notes;
    struct Exclusion {
        std::string label, left;
        std::vector<std::string> metrics;
    };
    std::vector<Exclusion> exclusions;
    for (const auto& m : report.metrics) {
        std::vector<const ReportSample*> all = {&m.baseline};
        for (const auto& c : m.candidates) all.push_back(&c);
        for (const ReportSample* s : all) {
            if (s->drop_refused)
                notes.push_back(escape_text(s->label) +
                                ": nothing dropped: more than half its values are equal (MAD 0), so no value "
                                "is called an outlier: the next quantum up is not one");
            if (s->dropped.empty()) continue;
            std::string list;
            for (size_t i = 0; i < s->dropped.size() && i < 10; ++i)
                list += (i ? ", " : "") + cli::with_unit(s->dropped[i].second, m.unit) + " (value " +
                        std::to_string(s->dropped[i].first + 1) + ")";
            if (s->dropped.size() > 10) list += ", ...";
            notes.push_back(escape_text(s->label) + ": dropped " + text::plural(s->dropped.size(), "outlier") +
                            (m.metric.empty() ? "" : " of ") + escape_text(m.metric) + ": " + escape_text(list));
        }
        for (const ReportSample* s : all) {
            const std::string left = data::describe_exclusions(s->counts);
            if (left.empty()) continue;
            auto it = std::find_if(exclusions.begin(), exclusions.end(), [&](const auto& e) {
                return e.label == s->label && e.left == left;
            });
            if (it == exclusions.end()) it = exclusions.insert(exclusions.end(), {s->label, left, {}});
            it->metrics.push_back(m.metric);
        }
    }
    // The same runs left out of several metrics (gfxstat ab's warm-ups
    // of every metric) are one note.
    for (const auto& e : exclusions) {
        std::string of;
        if (e.metrics.size() > 1 && e.metrics.size() == report.metrics.size())
            of = "every metric";
        else
            for (const auto& name : e.metrics) of += (of.empty() ? "" : ", ") + escape_text(name);
        notes.push_back(escape_text(e.label) + ": " + e.left + " left out of " + of);
    }
    return notes;
}

}  // namespace gfxstat::report
