#include "formats/saved_output.h"

#include <algorithm>
#include <utility>

#include "data/file_read.h"
#include "data/input_error.h"

namespace gfxstat::formats {

namespace {

size_t line_of(std::string_view text, const char* at) {
    return static_cast<size_t>(std::count(text.data(), at, '\n')) + 1;
}

}  // namespace

void import_saved_output(const Format& format, const std::string& path, const data::ImportOptions& options,
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

    // A run that cannot be read throws: `import` then writes nothing, so a
    // file of three runs whose third is broken never becomes two runs.
    data::ResultsFile& staged = out;
    const std::string label = options.label.empty() ? data::default_label(path) : options.label;
    for (const std::string_view section : sections) {
        const size_t first_line = line_of(all, section.data());
        RunOutput o;
        o.out = section;
        ParseResult parsed = parser->parse(o);
        if (parsed.metrics.empty())
            throw data::input_error(path, first_line,
                                    "the " + std::string(format.name) + " run starting here cannot be read: " +
                                        (parsed.error.empty() ? "no metric in it" : parsed.error) +
                                        (first_line > 1 ? " (lines counted from here)" : ""));
        data::RunRecord run;
        run.variant = label;
        run.run = staged.next_run_index(label);
        run.source = sections.size() > 1 ? path + ":" + std::to_string(first_line) : path;
        bool kept_any = false;
        for (ParsedMetric& m : parsed.metrics) {
            if (!options.metric.empty() && m.name != options.metric && parser_options.metric_name.empty()) continue;
            data::MetricInfo info;
            info.name = m.name;
            info.unit = m.unit;
            info.direction = m.direction;
            info.primary = m.primary;
            data::import_declare_metric(staged, path, info, options);
            data::MetricValues mv;
            mv.name = m.name;
            mv.array = m.values.size() != 1;
            mv.values = std::move(m.values);
            run.metrics.push_back(std::move(mv));
            kept_any = true;
        }
        if (!kept_any)
            throw data::input_error(path, first_line,
                                    "no metric '" + options.metric + "' in the " + std::string(format.name) +
                                        " run starting here");
        run.environment = data::import_environment(staged, std::move(parsed.environment), options);
        data::import_add_run(staged, path, first_line, std::move(run));
    }
}

}  // namespace gfxstat::formats
