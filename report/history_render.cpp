// SPDX-License-Identifier: MIT
#include "report/history_render.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "data/input_error.h"
#include "report/json_version.h"
#include "report/metric_direction_words.h"
#include "text/plural.h"
#include "text/shell_quote.h"
#include "text/text_escape.h"
#include "text/text_width.h"

namespace gfxstat::report {

using namespace findings::history;

using text::escape_markdown;
using text::escape_text;
using text::plural;

namespace {

std::string pct(double v) {
    if (!std::isfinite(v)) return "n/a";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%+.2f%%", v);
    return buf;
}
std::string p_text(double p) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2g", p);
    return buf;
}
std::string with_unit(double v, const std::string& unit) { return number(v) + (unit.empty() ? "" : " " + unit); }

// A build's name for people: a commit id cut to 12 hex digits, as git's
// short ids are (the bisect command and the JSON keep it whole).
std::string shown_key(const std::string& key, std::string (*esc)(std::string_view)) {
    return esc(key.size() > 12 && hex_word(key) ? key.substr(0, 12) : key);
}

std::string build_range(const Loaded& L, const MetricHistory& h, const analysis::ChangeSegment& seg,
                        std::string (*esc)(std::string_view)) {
    const std::string a = shown_key(L.builds[h.builds[seg.first]].key, esc),
                      b = shown_key(L.builds[h.builds[seg.last]].key, esc);
    return seg.first == seg.last ? a : a + " .. " + b;
}

// One line of the report: as it is with `full`, else wrapped at the width,
// its continuation lines two columns further in.
void put(FILE* out, const HistoryTextLayout& lay, const std::string& line, size_t indent) {
    if (lay.full || text::display_width(line) + indent <= lay.width) {
        std::fprintf(out, "%s%s\n", std::string(indent, ' ').c_str(), line.c_str());
        return;
    }
    for (const std::string& l : text::wrap_text(line, lay.width, indent, indent + 2)) std::fprintf(out, "%s\n", l.c_str());
}

// `head` and `tail` as one line when it fits (or with `full`); else each
// on lines of its own, the tail two columns further in: a segment's
// builds above its mean and median, a change's size above its builds.
void put_split(FILE* out, const HistoryTextLayout& lay, const std::string& head, const std::string& tail,
               size_t indent) {
    const std::string line = head + " " + tail;
    if (lay.full || text::display_width(line) + indent <= lay.width) {
        put(out, lay, line, indent);
        return;
    }
    put(out, lay, head, indent);
    put(out, lay, tail, indent + 2);
}

// "    bisect: COMMAND" on one line when it fits (or with `full`); else
// "    bisect:" and the command below it, broken between its words with
// shell continuations, so that the lines pasted into a shell are the one
// command.
void put_bisect(FILE* out, const HistoryTextLayout& lay, const findings::history::BisectCommand& b) {
    const std::string run = escape_text(b.run);
    if (lay.full || text::display_width(run) + 12 <= lay.width) {
        std::fprintf(out, "    bisect: %s\n", run.c_str());
        return;
    }
    std::vector<std::string> words;
    for (const std::string& w : b.run_words) words.push_back(escape_text(w));
    std::fprintf(out, "    bisect:\n");
    for (const std::string& l : text::shell_lines(words, lay.width, 6, 8)) std::fprintf(out, "%s\n", l.c_str());
}

void render_text(FILE* out, const Settings& s, const Loaded& L, const std::vector<MetricHistory>& hs,
                 const HistoryTextLayout& lay) {
    char buf[512];
    for (size_t mi = 0; mi < hs.size(); ++mi) {
        const MetricHistory& h = hs[mi];
        const data::MetricInfo& info = h.series->info;
        const auto& r = h.result;
        if (mi) std::fputs("\n", out);
        put(out, lay,
            escape_text(info.name) + " (" + (info.unit.empty() ? "" : escape_text(info.unit) + ", ") +
                direction_words(info.direction, "no direction") + "): " + plural(h.builds.size(), "build") + ", " +
                plural(r.changes.size(), "change point"),
            0);
        for (size_t i = 0; i < r.segments.size(); ++i) {
            const auto& seg = r.segments[i];
            put_split(out, lay,
                      "builds " + build_range(L, h, seg, escape_text) + " (" + plural(seg.builds, "build") + ", " +
                          plural(seg.values, "run") + "):",
                      "mean " + with_unit(seg.mean, escape_text(info.unit)) + ", median " +
                          with_unit(seg.median, escape_text(info.unit)),
                      2);
            if (i >= r.changes.size()) continue;
            const auto& c = r.changes[i];
            std::snprintf(buf, sizeof buf, "change %s [%s, %s] (%g%% interval), p = %s:", pct(c.change_pct).c_str(),
                          pct(c.low_pct).c_str(), pct(c.high_pct).c_str(), s.cp.confidence * 100, p_text(c.p).c_str());
            put_split(out, lay, buf,
                      "after " + shown_key(L.builds[h.builds[c.before]].key, escape_text) + ", from " +
                          shown_key(L.builds[h.builds[c.after]].key, escape_text) + " on",
                      2);
            put_bisect(out, lay, h.bisect[i]);
            for (const auto& n : h.bisect[i].notes) put(out, lay, "(" + escape_text(n) + ")", 4);
        }
        for (const auto& d : r.drifts)
            put(out, lay,
                "gradual? " + plural(d.changes, "change") + " in a row " + (d.upwards ? "upwards" : "downwards") + ", " +
                    pct(d.total_pct) + " in all: a drift over these builds may be found as steps",
                2);
        for (const auto& n : h.notes) put(out, lay, "note: " + escape_text(n), 2);
    }
}

void render_markdown(FILE* out, const Settings& s, const Loaded& L, const std::vector<MetricHistory>& hs) {
    for (size_t mi = 0; mi < hs.size(); ++mi) {
        const MetricHistory& h = hs[mi];
        const data::MetricInfo& info = h.series->info;
        const auto& r = h.result;
        std::fprintf(out, "%s### %s\n\n%s%s; %s, %s.\n\n", mi ? "\n" : "", escape_markdown(info.name).c_str(),
                     info.unit.empty() ? "" : (escape_markdown(info.unit) + ", ").c_str(),
                     direction_words(info.direction, "no direction"), plural(h.builds.size(), "build").c_str(),
                     plural(r.changes.size(), "change point").c_str());
        std::fprintf(out, "| builds | n | runs | mean | median |\n| --- | ---: | ---: | ---: | ---: |\n");
        for (const auto& seg : r.segments)
            std::fprintf(out, "| %s | %zu | %zu | %s | %s |\n", build_range(L, h, seg, escape_markdown).c_str(),
                         seg.builds, seg.values, with_unit(seg.mean, escape_markdown(info.unit)).c_str(),
                         with_unit(seg.median, escape_markdown(info.unit)).c_str());
        if (!r.changes.empty()) {
            std::fprintf(out, "\n| last before | first after | change | %g%% interval | p |\n"
                              "| --- | --- | ---: | --- | ---: |\n",
                         s.cp.confidence * 100);
            for (const auto& c : r.changes)
                std::fprintf(out, "| %s | %s | %s | %s to %s | %s |\n",
                             shown_key(L.builds[h.builds[c.before]].key, escape_markdown).c_str(),
                             shown_key(L.builds[h.builds[c.after]].key, escape_markdown).c_str(), pct(c.change_pct).c_str(),
                             pct(c.low_pct).c_str(), pct(c.high_pct).c_str(), p_text(c.p).c_str());
            std::fprintf(out, "\nTo bisect:\n\n```sh\n");
            for (const auto& b : h.bisect) std::fprintf(out, "%s\n", escape_text(b.run).c_str());
            std::fprintf(out, "```\n");
        }
        for (const auto& d : r.drifts)
            std::fprintf(out, "\nGradual? %s in a row %s, %s in all.\n", plural(d.changes, "change").c_str(),
                         d.upwards ? "upwards" : "downwards", pct(d.total_pct).c_str());
        for (const auto& h2 : h.bisect)
            for (const auto& n : h2.notes) std::fprintf(out, "\n- %s\n", escape_markdown(n).c_str());
        for (const auto& n : h.notes) std::fprintf(out, "\nNote: %s\n", escape_markdown(n).c_str());
    }
}

nlohmann::ordered_json to_json(const Settings& s, const Loaded& L, const std::vector<size_t>& order,
                               const std::vector<MetricHistory>& hs) {
    using J = nlohmann::ordered_json;
    J j;
    cli::add_gfxstat_version(j);
    j["method"] = "binary segmentation; split statistic: weighted t of build means; permutation test over builds";
    j["order"] = s.order;
    j["key"] = s.key.empty() ? J("commit, build") : J(s.key);
    j["alpha"] = s.cp.alpha;
    j["confidence"] = s.cp.confidence;
    j["permutations"] = s.cp.permutations;
    j["min_segment"] = s.cp.min_segment;
    j["max_changes"] = s.cp.max_changes;
    j["seed"] = s.cp.seed;
    J builds = J::array();
    for (size_t b : order) {
        const Build& x = L.builds[b];
        J files = J::array();
        for (const auto& src : x.sources) files.push_back({{"file", L.inputs[src.first].name}, {"variant", src.second}});
        builds.push_back({{"key", x.key}, {"commit", x.commit.empty() ? J() : J(x.commit)}, {"runs", x.runs},
                          {"left_out", x.left_out}, {"sources", files}});
    }
    j["builds"] = builds;
    size_t total = 0;
    J metrics = J::array();
    for (const MetricHistory& h : hs) {
        const auto& r = h.result;
        const auto key = [&](size_t i) { return L.builds[h.builds[i]].key; };
        J m;
        m["metric"] = h.series->info.name;
        m["unit"] = h.series->info.unit;
        m["direction"] = data::direction_name(h.series->info.direction);
        m["builds"] = h.builds.size();
        m["log_scale"] = r.log_scale;
        m["tests"] = r.tests;
        m["permutations_run"] = r.permutations;
        J segs = J::array();
        for (const auto& seg : r.segments)
            segs.push_back({{"first", key(seg.first)}, {"last", key(seg.last)}, {"first_index", seg.first},
                            {"last_index", seg.last}, {"builds", seg.builds}, {"runs", seg.values},
                            {"mean", seg.mean}, {"median", seg.median}});
        m["segments"] = segs;
        J changes = J::array();
        for (size_t i = 0; i < r.changes.size(); ++i) {
            const auto& c = r.changes[i];
            changes.push_back({{"before", key(c.before)}, {"after", key(c.after)}, {"before_index", c.before},
                               {"after_index", c.after}, {"change_pct", c.change_pct}, {"low_pct", c.low_pct},
                               {"high_pct", c.high_pct}, {"p", c.p}, {"permutations", c.permutations},
                               {"statistic", c.statistic}, {"depth", c.depth},
                               {"bisect", {{"check", h.bisect[i].check}, {"run", h.bisect[i].run},
                                           {"notes", h.bisect[i].notes}}}});
        }
        total += r.changes.size();
        m["changes"] = changes;
        J drifts = J::array();
        for (const auto& d : r.drifts)
            drifts.push_back({{"first_change", d.first_change}, {"changes", d.changes},
                              {"direction", d.upwards ? "up" : "down"}, {"total_pct", d.total_pct}});
        m["drifts"] = drifts;
        m["notes"] = h.notes;
        metrics.push_back(m);
    }
    j["metrics"] = metrics;
    j["change_points"] = total;
    return j;
}

}  // namespace

void print_history_text(FILE* out, const Settings& s, const History& h, const HistoryTextLayout& layout) {
    render_text(out, s, h.loaded, h.metrics, layout);
}

void print_history_markdown(FILE* out, const Settings& s, const History& h) {
    render_markdown(out, s, h.loaded, h.metrics);
}

std::string history_text(const Settings& s, const History& h) {
    char* buf = nullptr;
    size_t len = 0;
    FILE* mem = open_memstream(&buf, &len);
    if (!mem) throw data::InputError("--html: out of memory");
    print_history_text(mem, s, h, HistoryTextLayout{static_cast<size_t>(text::kMaxWidth), true});
    std::fclose(mem);
    const std::string text(buf, len);
    std::free(buf);
    return text;
}

std::string history_json(const Settings& s, const History& h) {
    return to_json(s, h.loaded, h.order, h.metrics).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace gfxstat::report
