// SPDX-License-Identifier: MIT
#include "report/throttle_note.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "findings/compare_findings.h"
#include "report/diagnostic_words.h"
#include "text/text_escape.h"

namespace gfxstat::cli {

using text::escape_text;

namespace {

// Keeps labels from breaking the markdown (and escapes them).
std::string cell(const std::string& s) { return text::escape_markdown(s); }

std::string change_words(const VerdictWithout& v) {
    return std::isfinite(v.relative_change) ? fmt("%+.3g%%", v.relative_change * 100) : fmt("%+.6g", v.change);
}

// Labels come from data: escaped for a terminal, and kept off a markdown
// table's syntax by the caller.
std::string sides_words(const ThrottleReport& t) {
    std::string s;
    for (size_t i = 0; i < t.sides.size(); ++i) {
        const ThrottleSide& side = t.sides[i];
        s += (i ? ", " : "") + fmt("%zu of %zu", side.throttled, side.runs) + (i ? " of " : " runs of ") +
             side.label;
    }
    return s;
}

}  // namespace

std::string throttle_counts_line(const ThrottleReport& t) {
    return (t.dropped ? "throttled runs left out (--drop-throttled): " : "throttled: ") + sides_words(t);
}

std::string verdict_without_words(const VerdictWithout& v) {
    if (!v.compared) return "no comparison (" + v.why_not + ")";
    if (v.same()) return std::string("the same verdict (") + analysis::outcome_name(v.without) + ", " + change_words(v) + ")";
    return std::string("a different verdict (") + analysis::outcome_name(v.without) + " instead of " +
           analysis::outcome_name(v.with) + ", " + change_words(v) + ")";
}

void render_throttle_text(const CompareReport& r, FILE* out) {
    if (!r.throttle) return;
    const ThrottleReport& t = *r.throttle;
    std::fprintf(out, "\n");
    for (const auto& line : wrap_words(escape_text(throttle_counts_line(t)), static_cast<size_t>(r.width), 0, 2))
        std::fprintf(out, "%s\n", line.c_str());
    if (t.dropped) return;
    if (!t.without_error.empty()) {
        for (const auto& line :
             wrap_words(escape_text("  without them: no comparison (" + t.without_error + ")"),
                        static_cast<size_t>(r.width), 0, 4))
            std::fprintf(out, "%s\n", line.c_str());
        return;
    }
    for (const VerdictWithout& v : t.without) {
        const std::string who = (v.metric.empty() ? "" : v.metric + ", ") + v.candidate;
        for (const auto& line : wrap_words(escape_text("  without them (" + who + "): " + verdict_without_words(v)),
                                           static_cast<size_t>(r.width), 0, 4))
            std::fprintf(out, "%s\n", line.c_str());
    }
}

void render_throttle_markdown(const CompareReport& r, FILE* out) {
    if (!r.throttle) return;
    const ThrottleReport& t = *r.throttle;
    std::fprintf(out, "\n**%s**\n", cell(throttle_counts_line(t)).c_str());
    if (t.dropped) return;
    if (!t.without_error.empty()) {
        std::fprintf(out, "\n- without them: no comparison (%s)\n", cell(t.without_error).c_str());
        return;
    }
    if (!t.without.empty()) std::fprintf(out, "\n");
    for (const VerdictWithout& v : t.without)
        std::fprintf(out, "- without them (%s%s%s): %s\n", cell(v.metric).c_str(), v.metric.empty() ? "" : ", ",
                     cell(v.candidate).c_str(), cell(verdict_without_words(v)).c_str());
}

void add_throttle_json(const CompareReport& r, nlohmann::json& doc) {
    if (!r.throttle) return;
    using nlohmann::json;
    const ThrottleReport& t = *r.throttle;
    json j;
    j["dropped"] = t.dropped;
    j["left_out"] = t.left_out;
    j["sides"] = json::array();
    for (const ThrottleSide& s : t.sides)
        j["sides"].push_back({{"label", s.label}, {"throttled", s.throttled}, {"runs", s.runs}});
    if (!t.dropped) {
        j["without"] = json::array();
        for (const VerdictWithout& v : t.without) {
            json w = {{"metric", v.metric}, {"candidate", v.candidate}, {"compared", v.compared}};
            if (v.compared) {
                w["outcome"] = analysis::outcome_name(v.without);
                w["outcome_with"] = analysis::outcome_name(v.with);
                w["same_verdict"] = v.same();
                w["relative_change"] = std::isfinite(v.relative_change) ? json(v.relative_change) : json(nullptr);
                w["change"] = std::isfinite(v.change) ? json(v.change) : json(nullptr);
            } else {
                w["why_not"] = v.why_not;
            }
            j["without"].push_back(std::move(w));
        }
        j["without_error"] = t.without_error.empty() ? json(nullptr) : json(t.without_error);
    }
    doc["throttled"] = std::move(j);
}

}  // namespace gfxstat::cli
