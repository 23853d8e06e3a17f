// SPDX-License-Identifier: MIT
#include "report/compare_distribution.h"

#include <algorithm>
#include <string>
#include <vector>

#include "analysis/ministat_plot.h"
#include "report/diagnostic_words.h"
#include "report/metric_direction_words.h"
#include "report/sample_keys.h"
#include "text/fit_table.h"
#include "text/readable_units.h"
#include "text/text_escape.h"
#include "text/text_width.h"

namespace gfxstat::cli {

using text::escape_text;

namespace {

// A sample's label after its key ("x label"), whole: over several lines
// when longer than the width.
void key_line(FILE* out, int width, const std::string& key, const std::string& raw_label) {
    const std::string label = escape_text(raw_label);
    const size_t room = static_cast<size_t>(std::max(width, text::kMinWidth)) - key.size() - 1;
    const std::vector<std::string> pieces = text::split_columns(label, room);
    for (size_t i = 0; i < pieces.size(); ++i)
        std::fprintf(out, "%s %s\n", i ? std::string(key.size(), ' ').c_str() : key.c_str(), pieces[i].c_str());
}


}  // namespace

void print_distribution(const CompareReport& r, const MetricReport& m, FILE* out, size_t max_rows) {
    // One unit for the metric's numbers, from the baseline's mean: a time
    // in s of 0.00187 reads 1.87 ms (text/readable_units.h).
    const text::DisplayUnit du =
        text::readable_unit(m.unit, m.comparisons.empty() ? 0.0 : m.comparisons[0].baseline.mean);
    std::string head = metric_title(m);
    if (!m.unit.empty()) {
        head += " (" + du.unit;
        if (du.scaled()) head += ", recorded in " + m.unit;
        head += std::string(", ") + report::direction_words(m.better) + ")";
    } else {
        head += std::string(" (") + report::direction_words(m.better) + ")";
    }
    for (const std::string& line : text::wrap_text(escape_text(head), static_cast<size_t>(r.width), 0, 2))
        std::fprintf(out, "%s\n", line.c_str());

    std::vector<const ReportSample*> samples = {&m.baseline};
    for (const auto& c : m.candidates) samples.push_back(&c);
    const SampleKeys keys(samples.size());
    for (size_t i = 0; i < samples.size(); ++i) key_line(out, r.width, keys.key(i), samples[i]->label);

    if (!analysis::plot_can_draw(samples.size()) && !m.comparisons.empty()) {
        for (const std::string& line :
             text::wrap_text(plot_overflow_words(samples.size()), static_cast<size_t>(r.width), 0, 2))
            std::fprintf(out, "%s\n", line.c_str());
    } else if (!m.comparisons.empty()) {
        std::vector<analysis::PlotSet> sets;
        for (size_t i = 0; i < samples.size(); ++i) {
            const analysis::SampleSummary& s = i == 0 ? m.comparisons[0].baseline : m.comparisons[i - 1].candidate;
            sets.push_back({samples[i]->sample.view(), s.mean, s.median, s.stddev, s.min, s.max});
        }
        analysis::PlotOptions po;
        po.width = r.width - 2;  // columns between the frame's corners
        po.max_rows = max_rows;
        // The frame is as wide as the report; a note under it (a scaled
        // histogram's) is wrapped to it.
        const size_t width = static_cast<size_t>(std::max(r.width, text::kMinWidth));
        for (const std::string& line : analysis::ministat_plot(sets, po)) {
            if (text::display_width(line) <= width) {
                std::fprintf(out, "%s\n", line.c_str());
                continue;
            }
            for (const std::string& piece : text::wrap_text(line, width, 0, 1))
                std::fprintf(out, "%s\n", piece.c_str());
        }
    }
    // ministat's table where it fits; narrower columns (fewer digits) in a
    // narrow report, so that no line is wider than --width.
    size_t nw = 3;
    for (size_t i = 0; i < samples.size(); ++i) {
        const analysis::SampleSummary& s = i == 0 ? m.comparisons[0].baseline : m.comparisons[i - 1].candidate;
        nw = std::max(nw, std::to_string(s.n).size());
    }
    const int col = std::clamp((r.width - 2 - static_cast<int>(nw)) / 5, 9, 14);
    const int digits = std::min(8, col - 6);
    if (static_cast<int>(keys.width() + 1 + nw) + 5 * col > r.width) {
        // Narrower than ministat's table at its fewest digits: the columns
        // over two tables (text/fit_table.h), none cut.
        text::TextTable t;
        t.head = {"", "N", "Min", "Max", "Median", "Avg", "Stddev"};
        for (size_t i = 0; i < samples.size(); ++i) {
            const analysis::SampleSummary& s = i == 0 ? m.comparisons[0].baseline : m.comparisons[i - 1].candidate;
            t.rows.push_back({keys.key(i), std::to_string(s.n)});
            for (double v : {s.min, s.max, s.median, s.mean, s.stddev})
                t.rows.back().push_back(text::scaled_number(v, du, 4));
        }
        for (const std::string& line : text::fit_columns(t, static_cast<size_t>(r.width)))
            std::fprintf(out, "%s\n", line.c_str());
    } else {
        std::fprintf(out, "%*s", static_cast<int>(keys.width() + 1 + nw), "N");
        for (const char* h : {"Min", "Max", "Median", "Avg", "Stddev"}) std::fprintf(out, "%*s", col, h);
        std::fprintf(out, "\n");
        for (size_t i = 0; i < samples.size(); ++i) {
            const analysis::SampleSummary& s = i == 0 ? m.comparisons[0].baseline : m.comparisons[i - 1].candidate;
            std::fprintf(out, "%s %*zu", keys.key(i).c_str(), static_cast<int>(nw), s.n);
            for (double v : {s.min, s.max, s.median, s.mean, s.stddev})
                std::fprintf(out, " %*s", col - 1, text::scaled_number(v, du, digits).c_str());
            std::fprintf(out, "\n");
        }
    }

}

}  // namespace gfxstat::cli
