// SPDX-License-Identifier: MIT
// metric_chart_svg: the kinds `compare --plot-kind` names, dispatched. The
// charts themselves live one per file (chart_*.cpp).
#include "plot/charts.h"

#include <stdexcept>

namespace gfxstat::plot {

const std::vector<std::string>& metric_chart_kinds() {
    static const std::vector<std::string> kinds = {"distributions", "run-order", "boot-means"};
    return kinds;
}

std::string metric_chart_svg(const std::string& kind, const MetricPlot& m, const ChartOptions& o) {
    if (kind == "distributions") return distributions_svg(m, o);
    if (kind == "run-order") return run_order_svg(m, o);
    if (kind == "boot-means") return boot_means_svg(m, o);
    std::string names;
    for (const auto& k : metric_chart_kinds()) names += (names.empty() ? "" : ", ") + k;
    if (kind == "forest")
        throw std::invalid_argument("plot kind \"forest\" draws a suite, not one metric (forest_svg); "
                                    "the kinds for one metric are " + names);
    throw std::invalid_argument("unknown plot kind \"" + kind + "\"; the kinds are " + names + " (and forest for suites)");
}

}  // namespace gfxstat::plot
