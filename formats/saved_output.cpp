// SPDX-License-Identifier: MIT
#include "formats/saved_output.h"

#include <algorithm>
#include <utility>

#include "data/file_read.h"
#include "data/input_error.h"
#include "formats/recorded_metric.h"

namespace gfxstat::formats {

namespace {

// The line `at` is on, counting on from the previous call's answer: the
// sections come in file order, so each byte is counted once, not once per
// section (a file of a million one-line runs would otherwise take hours).
class LineCounter {
public:
    explicit LineCounter(std::string_view text) : begin_(text.data()), pos_(text.data()) {}
    size_t line_of(const char* at) {
        if (at < pos_) {  // a section out of order: count from the top again
            pos_ = begin_;
            line_ = 1;
        }
        line_ += static_cast<size_t>(std::count(pos_, at, '\n'));
        pos_ = at;
        return line_;
    }

private:
    const char* begin_;
    const char* pos_;
    size_t line_ = 1;
};

}  // namespace

void import_saved_output(const Format& format, const std::string& path, const ImportOptions& options,
                         data::ResultsFile& out) {
    const std::string text = data::read_whole_file(path);
    const std::string_view all(text);
    std::vector<std::string_view> sections;
    if (format.sections)
        sections = format.sections(all);
    else
        sections.push_back(all);
    if (sections.empty())
        throw data::input_error(path, 0, "no " + std::string(format.name) + " run in the file");
    ParserOptions parser_options;
    if (std::string(format.name) == "lines" && !options.metric.empty()) parser_options.metric_name = options.metric;
    const std::unique_ptr<OutputParser> parser = format.parser(parser_options);

    // Every section is read before any run is added: a run that cannot be
    // read throws with `out` as it was, so a file of three runs whose third
    // is broken never becomes two runs.
    const bool keep_one = !options.metric.empty() && parser_options.metric_name.empty();
    std::vector<std::pair<size_t, ParseResult>> parsed_runs;  // first line, what the parser found
    LineCounter counter(all);
    for (const std::string_view section : sections) {
        const size_t first_line = counter.line_of(section.data());
        RunOutput o;
        o.out = section;
        ParseResult parsed = parser->parse(o);
        if (parsed.metrics.empty()) {
            // A parser counts lines from its run's first line; the user reads
            // the file, so an error that starts "line N: " names the file's
            // line (N lines into a run starting at line 15 is line 14 + N).
            size_t at = 0, digits = 0;
            const std::string& e = parsed.error;
            if (first_line > 1 && e.starts_with("line ")) {
                while (5 + digits < e.size() && digits < 18 && e[5 + digits] >= '0' && e[5 + digits] <= '9')
                    at = at * 10 + static_cast<size_t>(e[5 + digits++] - '0');
            }
            if (digits > 0 && at > 0 && e.compare(5 + digits, 2, ": ") == 0)
                throw data::input_error(path, first_line + at - 1,
                                        "the " + std::string(format.name) + " run starting at line " +
                                            std::to_string(first_line) + " cannot be read: " + e.substr(7 + digits));
            throw data::input_error(path, first_line,
                                    "the " + std::string(format.name) + " run starting here cannot be read: " +
                                        (e.empty() ? "no metric in it" : e) +
                                        (first_line > 1 ? " (lines counted from here)" : ""));
        }
        if (keep_one && std::none_of(parsed.metrics.begin(), parsed.metrics.end(),
                                     [&](const ParsedMetric& m) { return m.name == options.metric; }))
            throw data::input_error(path, first_line,
                                    "no metric '" + options.metric + "' in the " + std::string(format.name) +
                                        " run starting here");
        parsed_runs.emplace_back(first_line, std::move(parsed));
    }

    const std::string label = options.label.empty() ? default_label(path) : options.label;
    for (auto& [first_line, parsed] : parsed_runs) {
        data::RunRecord run;
        run.variant = label;
        run.run = out.next_run_index(label);
        run.source = parsed_runs.size() > 1 ? path + ":" + std::to_string(first_line) : path;
        for (ParsedMetric& m : parsed.metrics) {
            if (keep_one && m.name != options.metric) continue;
            import_declare_metric(out, path, metric_declaration(m), options);
            run.metrics.push_back(metric_values(std::move(m)));
        }
        run.environment = import_environment(out, std::move(parsed.environment), options);
        import_add_run(out, path, first_line, std::move(run));
    }
}

}  // namespace gfxstat::formats
