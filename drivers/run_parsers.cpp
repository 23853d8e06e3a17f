// SPDX-License-Identifier: MIT
#include "drivers/run_parsers.h"

#include <stdexcept>

#include "data/input_error.h"
#include "drivers/builtin_parsers.h"
#include "formats/registry.h"

namespace gfxstat::drivers {

std::vector<std::string> parser_names() {
    std::vector<std::string> names = formats::parser_names();
    for (std::string& n : builtin_parser_names()) names.push_back(std::move(n));
    return names;
}

std::unique_ptr<OutputParser> make_parser(const std::string& name, const std::string& metric_name) {
    if (auto builtin = make_builtin_parser(name)) {
        if (!metric_name.empty())
            throw std::invalid_argument("a metric name (" + metric_name +
                                        ") applies only to the lines parser, not " + name);
        return builtin;
    }
    const formats::Format* f = formats::find_format(name);
    if (f && f->parser) {
        formats::ParserOptions options;
        options.metric_name = metric_name;
        return f->parser(options);
    }
    std::string known;
    for (const std::string& n : parser_names()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown parser " + data::quote_token(name) +
                                (f ? " (" + name + " is a file format: use gfxstat import --from " + name + ")" : "") +
                                "; known parsers: " + known);
}

}  // namespace gfxstat::drivers
