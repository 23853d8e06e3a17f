// SPDX-License-Identifier: MIT
// Every output parser of gfxstat run on arbitrary bytes: every format of
// formats::all_formats() that has a parser (so that a format added to the
// registry is fuzzed without editing this file) and gfxstat's own
// workloads' parsers (drivers/builtin_parsers.h). The first byte picks the
// parser, the rest is stdout (and, split at the first NUL, stderr).
// Parsers must never crash, and either find metrics with values or say
// why not. For formats that cut a saved file into runs (Format::sections),
// every section must be a piece of the input, in order, and importing the
// input as a saved file (`gfxstat import --from NAME`) must either give
// runs or throw an InputError, never anything else.
// First bytes from 0xF8 up pick instead the suite inputs of `gfxstat
// compare` (summary tables, --filter with --row/--col, a suite's CSV with
// its column roles: suite_inputs.h), which share this target's time.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "data/input_error.h"
#include "data/results_model.h"
#include "drivers/builtin_parsers.h"
#include "formats/recognise.h"
#include "formats/registry.h"
#include "suite_inputs.h"

namespace {

using namespace gfxstat;

struct Entry {
    std::string name;
    const formats::Format* format;  // nullptr: a builtin parser of drivers/
};

std::vector<Entry> entries() {
    std::vector<Entry> list;
    for (const formats::Format* f : formats::all_formats())
        if (f->parser) list.push_back({std::string(f->name), f});
    for (const std::string& n : drivers::builtin_parser_names()) list.push_back({n, nullptr});
    return list;
}

// A file for the input, made once: import reads a path. libFuzzer ends
// with exit(), so the file goes with the process.
char scratch_name[] = "/tmp/gfxstat_fuzz_output_XXXXXX";

const std::string& scratch_path() {
    static const std::string path = [] {
        const int fd = mkstemp(scratch_name);
        if (fd < 0) std::abort();
        close(fd);
        std::atexit([] { unlink(scratch_name); });
        return std::string(scratch_name);
    }();
    return path;
}

void check_metrics(const std::vector<formats::ParsedMetric>& metrics) {
    for (const auto& m : metrics) {
        if (m.name.empty() || m.values.empty()) std::abort();
        for (const auto& t : m.values)
            if (t.status != data::TokenStatus::decimal && t.status != data::TokenStatus::binary) std::abort();
    }
}

void check_sections(const formats::Format& f, std::string_view text) {
    const char* at = text.data();
    for (const std::string_view s : f.sections(text)) {
        // A view into `text`, after the previous one.
        if (s.data() < at || s.data() + s.size() > text.data() + text.size()) std::abort();
        at = s.data() + s.size();
    }
    FILE* out = std::fopen(scratch_path().c_str(), "wb");
    if (!out) std::abort();
    if (!text.empty() && std::fwrite(text.data(), 1, text.size(), out) != text.size()) std::abort();
    std::fclose(out);
    data::ResultsFile results;
    try {
        formats::import_file(f.name, scratch_path(), {}, results);
    } catch (const data::InputError&) {
        return;  // bad input, said so with file and line
    }
    if (results.runs().empty()) std::abort();  // nothing imported, and no error saying why
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    static const std::vector<Entry> list = entries();
    const Entry& e = list[data[0] % list.size()];
    const std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
    if (data[0] >= fuzz::kSuiteSelector) {
        fuzz::fuzz_suite_input(data[0], rest);
        return 0;
    }
    // The guess behind an error's import hint reads any bytes, bounded.
    if (const auto f = formats::recognise_import(rest)) (void)formats::find_format(f->format);
    const size_t nul = rest.find('\0');
    formats::RunOutput o;
    o.out = rest.substr(0, nul);
    o.err = nul == std::string_view::npos ? std::string_view() : rest.substr(nul + 1);
    formats::RunUsage usage;
    usage.wall_s = static_cast<double>(size) / 7;
    usage.user_s = static_cast<double>(size) / 11;
    usage.max_rss_kib = static_cast<long>(size) * 3;
    o.usage = &usage;
    const std::unique_ptr<formats::OutputParser> parser =
        e.format ? e.format->parser({}) : drivers::make_builtin_parser(e.name);
    if (!parser) std::abort();
    const formats::ParseResult r = parser->parse(o);
    if (r.metrics.empty() && r.error.empty()) std::abort();  // a failure must say why
    (void)parser->failure_reason(o);  // asked of runs that exited non-zero: must not crash either
    check_metrics(r.metrics);
    if (e.format && e.format->sections) check_sections(*e.format, rest);
    return 0;
}
