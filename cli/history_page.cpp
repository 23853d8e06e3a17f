// SPDX-License-Identifier: MIT
// history --html (history_page.h).
#include "cli/history_page.h"

#include "data/safe_files.h"
#include "plot/charts.h"
#include "report/html_report.h"

namespace gfxstat::cli {

void write_history_page(const std::string& path, const std::vector<plot::HistoryPlot>& plots, const std::string& text,
                        const std::vector<std::string>& inputs) {
    report::HtmlPage page;
    page.title = "History";
    std::string from;
    for (const auto& f : inputs) from += (from.empty() ? "" : ", ") + f;
    page.subtitle.push_back("From " + from + ".");
    for (const plot::HistoryPlot& h : plots) {
        report::HtmlSection s;
        s.id = "metric-" + h.metric;
        s.title = h.unit.empty() ? h.metric : h.metric + " (" + h.unit + ")";
        s.paragraphs.push_back(std::to_string(h.builds.size()) + " builds, " + std::to_string(h.changes.size()) +
                               (h.changes.size() == 1 ? " change point" : " change points") + ".");
        s.figures.push_back({plot::history_svg(h), "Every run over its build; lines: the segments' means; dashed: "
                                                   "the change points with their size."});
        page.sections.push_back(std::move(s));
    }
    report::HtmlSection all;
    all.id = "report";
    all.title = "The report";
    all.blocks.push_back({"gfxstat history", text, true});
    page.sections.push_back(std::move(all));
    page.footer = "gfxstat history";
    data::write_file_atomically(path, report::render_html(page), 0644, true);
}

}  // namespace gfxstat::cli
