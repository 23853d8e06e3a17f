// SPDX-License-Identifier: MIT
// history --plot and --html (history_page.h).
#include "report/history_page.h"

#include "data/safe_files.h"
#include "plot/charts.h"
#include "report/html_report.h"

namespace gfxstat::report {

namespace {

// What the chart's caption says when it draws the runs as bins
// (plot::kMaxRunMarks), said beneath it too: " Past 2000 runs a chart the
// runs are drawn as bins, not one mark each: fps (30000 runs over 10
// builds)."; "" when every run is drawn.
std::string bins_sentence(const plot::HistoryPlot& h) {
    size_t runs = 0;
    if (!plot::history_drawn_as_bins(h, &runs)) return {};
    return plot::bins_sentence("a chart", h.metric + " (" + std::to_string(runs) + " runs over " +
                                              std::to_string(h.builds.size()) + " builds)");
}

}  // namespace

std::vector<plot::HistoryPlot> history_plots(const findings::history::History& history) {
    std::vector<plot::HistoryPlot> plots;
    for (const findings::history::MetricHistory& h : history.metrics) {
        plot::HistoryPlot p;
        p.metric = h.series->info.name;
        p.unit = h.series->info.unit;
        for (size_t b : h.builds) {
            const std::string& key = history.loaded.builds[b].key;  // the plot layer escapes it
            p.builds.push_back({key.size() > 12 && findings::history::hex_word(key) ? key.substr(0, 12) : key,
                                h.series->values[b]});
        }
        for (const auto& seg : h.result.segments) p.segments.push_back({seg.first, seg.last, seg.mean});
        for (const auto& c : h.result.changes) p.changes.push_back(c.after);
        plots.push_back(std::move(p));
    }
    return plots;
}


void write_history_page(const std::string& path, const std::vector<plot::HistoryPlot>& plots, const std::string& text,
                        const std::vector<std::string>& inputs) {
    HtmlPage page;
    page.title = "History";
    std::string from;
    for (const auto& f : inputs) from += (from.empty() ? "" : ", ") + f;
    page.subtitle.push_back("From " + from + ".");
    for (const plot::HistoryPlot& h : plots) {
        HtmlSection s;
        s.id = "metric-" + h.metric;
        s.title = h.unit.empty() ? h.metric : h.metric + " (" + h.unit + ")";
        s.paragraphs.push_back(std::to_string(h.builds.size()) + " builds, " + std::to_string(h.changes.size()) +
                               (h.changes.size() == 1 ? " change point" : " change points") + ".");
        s.figures.push_back({plot::history_svg(h), "Every run over its build; lines: the segments' means; dashed: "
                                                   "the change points with their size." + bins_sentence(h)});
        page.sections.push_back(std::move(s));
    }
    HtmlSection all;
    all.id = "report";
    all.title = "The report";
    all.blocks.push_back({"gfxstat history", text, true});
    page.sections.push_back(std::move(all));
    page.footer = "gfxstat history";
    data::write_file_atomically(path, render_html(page), 0644, true);
}

}  // namespace gfxstat::report
