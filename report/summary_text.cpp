// SPDX-License-Identifier: MIT
// gfxstat summary's text: per metric a ministat-like table of quantiles,
// mean and standard deviation, then the diagnostics in words.
#include "report/summary_text.h"

#include <algorithm>

#include "report/diagnostic_words.h"
#include "report/metric_direction_words.h"
#include "report/sample_keys.h"
#include "text/fit_table.h"
#include "text/readable_units.h"
#include "text/text_escape.h"
#include "text/text_width.h"

namespace gfxstat::report {

using text::escape_text;

namespace {

// The table of one metric's rows, no wider than `width`: numbers with as
// many digits as fit (8, as ministat prints, down to 4), in one readable
// unit for the table (from the first row's mean: text/readable_units.h),
// each row's name after it when every name fits there, else named by its
// key ("x", "+", ... or numbers past 7 rows) in lines above the table.
// Names and units come from data: escaped as they are printed.
void print_table(const std::vector<findings::SampleSummary>& rows, const text::DisplayUnit& du, size_t width, FILE* out) {
    const cli::SampleKeys keys(rows.size());
    static const char* kHead[] = {"N", "Min", "Q1", "Median", "Q3", "Max", "Avg", "Stddev"};
    std::vector<std::vector<std::string>> cells;
    std::vector<size_t> w;
    size_t total = 0;
    for (int digits = 8;; --digits) {
        cells.clear();
        w.assign(std::size(kHead), 0);
        for (size_t c = 0; c < std::size(kHead); ++c) w[c] = std::string(kHead[c]).size();
        for (const findings::SampleSummary& r : rows) {
            std::vector<std::string> line = {std::to_string(r.n)};
            for (double v : {r.min, r.q1, r.median, r.q3, r.max, r.mean, r.stddev})
                line.push_back(text::scaled_number(v, du, digits));
            for (size_t c = 0; c < line.size(); ++c) w[c] = std::max(w[c], line[c].size());
            cells.push_back(std::move(line));
        }
        total = keys.width();
        for (size_t c = 0; c < w.size(); ++c) total += (c ? 2 : 1) + w[c];
        if (total <= width || digits == 4) break;
    }
    std::vector<std::string> names;
    size_t widest_name = 0;
    for (const findings::SampleSummary& r : rows) {
        names.push_back(escape_text(r.name));
        widest_name = std::max(widest_name, text::display_width(names.back()));
    }
    const bool names_after = total + 2 + widest_name <= width;
    if (!names_after)
        for (size_t i = 0; i < rows.size(); ++i) {
            const std::vector<std::string> pieces =
                text::split_columns(names[i], width > keys.width() + 1 ? width - keys.width() - 1 : 1);
            for (size_t j = 0; j < pieces.size(); ++j)
                std::fprintf(out, "%s %s\n", j ? std::string(keys.width(), ' ').c_str() : keys.key(i).c_str(),
                             pieces[j].c_str());
        }
    if (total > width) {
        // Too narrow even at 4 digits: the columns over several tables.
        text::TextTable t;
        t.head = {""};
        t.head.insert(t.head.end(), std::begin(kHead), std::end(kHead));
        for (size_t i = 0; i < rows.size(); ++i) {
            t.rows.push_back({keys.key(i)});
            t.rows.back().insert(t.rows.back().end(), cells[i].begin(), cells[i].end());
        }
        for (const std::string& line : text::fit_columns(t, width)) std::fprintf(out, "%s\n", line.c_str());
        return;
    }
    std::string head(keys.width(), ' ');
    for (size_t c = 0; c < w.size(); ++c) head += std::string(c ? 2 : 1, ' ') + text::pad_left(kHead[c], w[c]);
    std::fprintf(out, "%s\n", head.c_str());
    for (size_t i = 0; i < rows.size(); ++i) {
        std::string line = keys.key(i);
        for (size_t c = 0; c < w.size(); ++c) line += std::string(c ? 2 : 1, ' ') + text::pad_left(cells[i][c], w[c]);
        if (names_after) line += "  " + names[i];
        std::fprintf(out, "%s\n", line.c_str());
    }
}

}  // namespace

// One metric (or column files): its heading when there are
// several metrics or its unit was scaled, the table, then diagnostics in
// words under it for the samples they concern.
void print_summary_table(const std::vector<findings::SampleSummary>& rows, FILE* out, int width, bool heading) {
    const size_t limit = static_cast<size_t>(std::max(width, text::kMinWidth));
    const text::DisplayUnit du =
        text::readable_unit(rows.empty() ? "" : rows[0].unit, rows.empty() ? 0 : rows[0].mean);
    if (!rows.empty() && (heading || du.scaled())) {
        std::string head = rows[0].metric.empty() ? std::string("value") : rows[0].metric;
        head += " (";
        if (!du.unit.empty()) head += du.unit + (du.scaled() ? ", recorded in " + rows[0].unit : "") + ", ";
        head += std::string(direction_words(rows[0].direction)) + ")";
        for (const std::string& line : text::wrap_text(escape_text(head), limit, 0, 2))
            std::fprintf(out, "%s\n", line.c_str());
    }
    print_table(rows, du, limit, out);
    bool first = true;
    for (const findings::SampleSummary& r : rows) {
        if (!r.diagnostics) continue;
        for (const std::string& s : cli::sample_findings("'" + r.name + "'", *r.diagnostics, r.unit, 0.95)) {
            if (first) std::fprintf(out, "\n");
            for (const std::string& line : text::wrap_text(escape_text(s), limit, 0, 2))
                std::fprintf(out, "%s\n", line.c_str());
            first = false;
        }
    }
}

void print_summary_tables(const std::vector<findings::SampleSummary>& rows, FILE* out, int width) {
    const auto groups = findings::by_metric(rows);
    for (size_t i = 0; i < groups.size(); ++i) {
        if (i) std::fprintf(out, "\n");
        print_summary_table(groups[i], out, width, groups.size() > 1);
    }
}

}  // namespace gfxstat::report
