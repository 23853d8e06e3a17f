// SPDX-License-Identifier: MIT
#include "formats/import_support.h"

#include "data/input_error.h"
#include "data/utf8.h"

namespace gfxstat::formats {

// The results model and the input errors these helpers fill.
using namespace gfxstat::data;

std::string default_label(const std::string& path) {
    if (path == "-") return "stdin";
    const size_t slash = path.rfind('/');
    std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
    const size_t dot = base.rfind('.');
    if (dot != std::string::npos && dot > 0) base.resize(dot);
    return base.empty() ? path : base;
}

std::string import_environment(ResultsFile& out, std::map<std::string, std::string> fields,
                               const ImportOptions& options) {
    if (fields.empty() && options.tags.empty()) return {};
    Environment env;
    env.fields = std::move(fields);
    env.tags = options.tags;
    const std::string conflict = out.add_environment(env);
    if (!conflict.empty()) throw InputError(conflict);
    return env.id;
}

void import_declare_metric(ResultsFile& out, const std::string& path, MetricInfo metric,
                           const ImportOptions& options) {
    if (const size_t bad = first_invalid_utf8(metric.name); bad < metric.name.size())
        throw input_error(path, 0,
                          "the name " + quote_token(metric.name) + " is not UTF-8 (byte " + std::to_string(bad + 1) +
                              "); results files keep names as Unicode, and its bad bytes would become U+FFFD, "
                              "which can make two names one: convert the input to UTF-8 (iconv -f latin1 -t utf-8)");
    if (metric.unit.empty()) metric.unit = options.unit;
    if (metric.direction == Direction::unknown && options.direction)
        metric.direction = *options.direction;
    const std::string conflict = out.declare_metric(metric);
    if (!conflict.empty()) throw input_error(path, 0, conflict);
}

bool all_digits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

void import_add_run(ResultsFile& out, const std::string& path, size_t line, RunRecord run) {
    if (const size_t bad = first_invalid_utf8(run.variant); bad < run.variant.size())
        throw input_error(path, line,
                          "the variant " + quote_token(run.variant) + " is not UTF-8 (byte " + std::to_string(bad + 1) +
                              "); results files keep labels as Unicode: convert the input to UTF-8 "
                              "(iconv -f latin1 -t utf-8)");
    const std::string conflict = out.add_run(std::move(run));
    if (!conflict.empty()) throw input_error(path, line, conflict);
}

}  // namespace gfxstat::formats
