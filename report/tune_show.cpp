// SPDX-License-Identifier: MIT
#include "report/tune_show.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "report/json_version.h"
#include "text/text_escape.h"
#include "text/text_width.h"

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

namespace {

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& l : lines) out += l + "\n";
    return out;
}

}  // namespace

std::string tune_show_text(const std::vector<drivers::MachineFinding>& findings,
                           const std::vector<drivers::MissingSource>& missing, size_t width) {
    using text::display_width;
    std::vector<std::array<std::string, 3>> rows;
    size_t w_what = display_width("what"), w_state = display_width("state");
    for (const auto& f : findings) {
        rows.push_back({escape_message(f.what), escape_message(f.state), f.advice.empty() ? "-" : escape_message(f.advice)});
        w_what = std::max(w_what, display_width(rows.back()[0]));
        w_state = std::max(w_state, display_width(rows.back()[1]));
    }
    const auto table_line = [&](const std::array<std::string, 3>& r) {
        return text::pad_right(r[0], w_what) + "  " + text::pad_right(r[1], w_state) + "  " + r[2];
    };
    std::vector<std::string> lines{table_line({"what", "state", "advice"})};
    for (const auto& r : rows) lines.push_back(table_line(r));
    if (text::widest(lines) > width) {
        // Too wide for a table: what and state on a line (the state wrapped
        // under itself), the advice below, two columns further in. A
        // width that leaves the advice fewer than 48 columns there (less
        // than a sysfs path in it) puts the state and the advice on lines
        // of their own under the name, 2 and 4 columns in.
        const size_t at = w_what + 2 + 2 + 48 <= width ? w_what + 2 : 2;
        const auto entry = [&](const std::array<std::string, 3>& r, bool head) {
            std::vector<std::string> out;
            auto state = text::wrap_text(r[1], width, at, at);
            if (at > 2) {
                state.front() = text::pad_right(r[0], at) + state.front().substr(at);
            } else {
                out = text::wrap_text(r[0], width, 0, 0);
            }
            for (auto& l : state) out.push_back(std::move(l));
            if (head || r[2] != "-")
                for (auto& l : text::wrap_text(r[2], width, at + 2, at + 2)) out.push_back(std::move(l));
            return out;
        };
        lines.clear();
        const std::array<std::string, 3> head{"what", "state", "advice"};
        for (auto& l : entry(head, true)) lines.push_back(std::move(l));
        for (const auto& r : rows)
            for (auto& l : entry(r, false)) lines.push_back(std::move(l));
    }
    // Trailing spaces of the table's padding are not text.
    for (auto& l : lines) l.erase(l.find_last_not_of(' ') + 1);
    std::string out = joined(lines);
    if (!missing.empty()) {
        std::string said = "not found here:";
        for (size_t i = 0; i < missing.size(); ++i)
            said += " " + escape_message(missing[i].what) + " (" + escape_message(missing[i].why) + ")" +
                    (i + 1 < missing.size() ? "," : "");
        out += joined(text::wrap_text(said, width, 0, 2));
    }
    const auto problems = std::count_if(findings.begin(), findings.end(), [](const auto& f) { return f.problem; });
    out += problems ? std::to_string(problems) + " thing" + (problems == 1 ? "" : "s") + " may add noise to measurements"
                    : "nothing found that would add noise";
    return out + "\n";
}

}  // namespace gfxstat::report
