// SPDX-License-Identifier: MIT
#include "formats/registry.h"

#include <array>
#include <stdexcept>

#include "data/input_error.h"
#include "formats/format_list.h"
#include "formats/saved_output.h"

namespace gfxstat::formats {

namespace {

// The order of help texts: `lines`, programs' outputs (IGT, EzBench, then
// the Mesa world's), `time`, then other tools' files.
const std::vector<const Format*>& table() {
    static const std::vector<const Format*> formats = {
        &lines_format(), &igt_syslatency_format(), &igt_latency_format(), &igt_wsim_format(),
        &igt_exec_nop_format(), &igt_fence_upload_format(), &ezbench_format(), &glmark2_format(), &apitrace_format(),
        &gfxrecon_format(), &glxgears_format(), &time_format(),
        &csv_format(), &hyperfine_format(), &gbench_format(), &gotest_format(), &pts_format(), &lava_format(),
        // Frame rates and frame times (docs/frame-times.md).
        &vkmark_format(), &piglit_replay_format(), &mangohud_format(), &presentmon_format(),
    };
    return formats;
}

std::string join(const std::vector<std::string>& names) {
    std::string s;
    for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
    return s;
}

}  // namespace

std::span<const Format* const> all_formats() { return table(); }

const Format* find_format(std::string_view name) {
    for (const Format* f : table())
        if (f->name == name) return f;
    return nullptr;
}

std::vector<std::string> parser_names() {
    std::vector<std::string> names;
    for (const Format* f : table())
        if (f->parser) names.emplace_back(f->name);
    return names;
}

// `time` parses a live run's usage only: nothing in a saved file to import.
std::vector<std::string> import_names() {
    std::vector<std::string> names;
    for (const Format* f : table())
        if (f->importer || (f->parser && f->name != "time")) names.emplace_back(f->name);
    return names;
}

std::unique_ptr<OutputParser> make_parser(std::string_view name, const ParserOptions& options) {
    const Format* f = find_format(name);
    if (!f || !f->parser)
        throw std::invalid_argument("unknown parser " + data::quote_token(name) +
                                    "; known parsers: " + join(parser_names()));
    return f->parser(options);
}

void import_file(std::string_view name, const std::string& path, const ImportOptions& options,
                 data::ResultsFile& out) {
    const Format* f = find_format(name);
    if (f && f->importer) return f->importer(path, options, out);
    if (f && f->parser && f->name != "time") return import_saved_output(*f, path, options, out);
    throw std::invalid_argument("unknown format " + data::quote_token(name) + "; known: " + join(import_names()));
}

}  // namespace gfxstat::formats
