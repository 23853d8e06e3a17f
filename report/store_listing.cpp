// SPDX-License-Identifier: MIT
#include "report/store_listing.h"

#include <algorithm>

#include "text/plural.h"
#include "text/text_escape.h"
#include "text/text_width.h"

namespace gfxstat::report {

namespace {

void section(std::string& out, const char* title, const std::vector<data::StoreCount>& rows, size_t width) {
    out += "\n";
    out += title;
    out += " (" + std::to_string(rows.size()) + ")\n";
    if (rows.empty()) {
        out += "  none\n";
        return;
    }
    std::vector<std::string> runs, samples;
    size_t runs_w = 4, samples_w = 7;
    for (const data::StoreCount& r : rows) {
        runs.push_back(std::to_string(r.runs));
        samples.push_back(std::to_string(r.samples));
        runs_w = std::max(runs_w, runs.back().size());
        samples_w = std::max(samples_w, samples.back().size());
    }
    // "  NAME  RUNS  SAMPLES": the name gets what the counts leave.
    const size_t fixed = 2 + 2 + runs_w + 2 + samples_w;
    const size_t name_w = width > fixed + 8 ? width - fixed : 8;
    std::vector<std::string> names;
    size_t widest_name = 4;
    for (const data::StoreCount& r : rows) {
        std::string n = r.name.empty() ? std::string("(none)") : text::escape_text(r.name);
        n = text::clip_columns(n, name_w);  // "~" ends a name cut short
        widest_name = std::max(widest_name, text::display_width(n));
        names.push_back(std::move(n));
    }
    out += "  " + text::pad_right("name", widest_name) + "  " + text::pad_left("runs", runs_w) + "  " +
           text::pad_left("samples", samples_w) + "\n";
    for (size_t i = 0; i < rows.size(); ++i)
        out += "  " + text::pad_right(names[i], widest_name) + "  " + text::pad_left(runs[i], runs_w) + "  " +
               text::pad_left(samples[i], samples_w) + "\n";
}

}  // namespace

std::string store_listing_text(const std::string& store, const data::StoreListing& l, size_t width) {
    std::string out = text::escape_text(store) + ": " + text::plural(l.files, "file") + ", " +
                      text::plural(l.runs, "run") + ", " + text::plural(l.samples, "sample");
    if (l.image_checks > 0) out += ", " + text::plural(l.image_checks, "image check");
    out += "\n";
    section(out, "builds", l.builds, width);
    section(out, "machines", l.machines, width);
    section(out, "metrics", l.metrics, width);
    section(out, "variants", l.variants, width);
    return out;
}

std::string store_check_text(const std::string& store, const data::StoreCheck& c) {
    std::string out;
    for (const std::string& p : c.problems) out += text::escape_message(store + ": " + p) + "\n";
    out += text::escape_text(store) + ": " + text::plural(c.files, "file") + ", " + text::plural(c.records, "record") +
           ", " + text::plural(c.runs, "run") + ", " + text::plural(c.samples, "sample") + "; ";
    out += c.problems.empty() ? "sound\n" : text::plural(c.problems.size(), "problem") + "\n";
    return out;
}

}  // namespace gfxstat::report
