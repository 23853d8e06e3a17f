// SPDX-License-Identifier: MIT
#include "report/summary_json.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "report/diagnostic_words.h"
#include "report/json_version.h"

namespace gfxstat::report {
namespace {

nlohmann::json number(double v) {  // NaN (stddev of one value) becomes null
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

nlohmann::json row_json(const findings::SampleSummary& r) {
    nlohmann::json j;
    j["name"] = r.name;
    j["n"] = r.n;
    j["min"] = number(r.min);
    j["q1"] = number(r.q1);
    j["median"] = number(r.median);
    j["q3"] = number(r.q3);
    j["max"] = number(r.max);
    j["mean"] = number(r.mean);
    j["stddev"] = number(r.stddev);
    // exact: every value was held as an exact decimal, so mean and
    // stddev carry no error from parsing. When false, binary_tokens
    // counts the tokens only a double could hold (hex floats, more
    // than 18 significant digits); if it is 0, the values spanned
    // too many powers of ten for 64-bit significands.
    j["exact"] = r.exact;
    j["binary_tokens"] = r.binary_tokens;
    if (!r.metric.empty()) {
        j["metric"] = r.metric;
        j["unit"] = r.unit;
        j["runs_excluded"] = r.excluded;
    }
    if (r.diagnostics) j["diagnostics"] = cli::diagnostics_json(*r.diagnostics);
    return j;
}

}  // namespace

std::string summary_json(const std::vector<findings::SampleSummary>& rows, bool every_metric) {
    nlohmann::json out;
    cli::add_gfxstat_version(out);
    out["inputs"] = nlohmann::json::array();
    for (const findings::SampleSummary& r : rows) out["inputs"].push_back(row_json(r));
    // Several metrics: the same rows again, an array per metric.
    if (every_metric) {
        out["metrics"] = nlohmann::json::array();
        for (const std::vector<findings::SampleSummary>& g : findings::by_metric(rows)) {
            nlohmann::json m = {{"metric", g[0].metric}, {"unit", g[0].unit},
                                {"direction", data::direction_name(g[0].direction)}};
            m["inputs"] = nlohmann::json::array();
            for (const findings::SampleSummary& r : g) m["inputs"].push_back(row_json(r));
            out["metrics"].push_back(std::move(m));
        }
    }
    // A file name need not be UTF-8: its bad bytes become U+FFFD, as
    // in show's and compare's JSON, rather than an abort.
    return out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace gfxstat::report
