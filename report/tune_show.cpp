// SPDX-License-Identifier: MIT
#include "report/tune_show.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "report/json_version.h"
#include "text/text_escape.h"

namespace gfxstat::report {

using text::escape_message;

std::string tune_show_json(const std::vector<drivers::MachineFinding>& findings) {
    nlohmann::ordered_json j;
    cli::add_gfxstat_version(j);
    j["findings"] = nlohmann::ordered_json::array();
    for (const auto& f : findings)
        j["findings"].push_back({{"id", f.id}, {"what", f.what}, {"state", f.state}, {"advice", f.advice},
                                 {"problem", f.problem}});
    // Process names and file contents may hold anything: replace, never throw.
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string tune_show_text(const std::vector<drivers::MachineFinding>& findings) {
    size_t w_what = 4, w_state = 5;
    std::vector<std::array<std::string, 3>> rows;
    for (const auto& f : findings) {
        rows.push_back({escape_message(f.what), escape_message(f.state), f.advice.empty() ? "-" : escape_message(f.advice)});
        w_what = std::max(w_what, rows.back()[0].size());
        w_state = std::max(w_state, rows.back()[1].size());
    }
    w_state = std::min<size_t>(w_state, 60);  // a longer state pushes its advice, not every row's
    std::string out;
    const auto row = [&](const std::string& what, const std::string& state, const std::string& advice) {
        // Padded as printf's %-*s pads: by bytes, never cutting.
        out += what + std::string(w_what > what.size() ? w_what - what.size() : 0, ' ') + "  " + state +
               std::string(w_state > state.size() ? w_state - state.size() : 0, ' ') + "  " + advice + "\n";
    };
    row("what", "state", "advice");
    for (const auto& r : rows) row(r[0], r[1], r[2]);
    const auto problems = std::count_if(findings.begin(), findings.end(), [](const auto& f) { return f.problem; });
    out += problems ? std::to_string(problems) + " thing" + (problems == 1 ? "" : "s") + " may add noise to measurements"
                    : "nothing found that would add noise";
    return out + "\n";
}

}  // namespace gfxstat::report
