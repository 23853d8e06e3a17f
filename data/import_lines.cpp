// --from lines: a column of numbers, read exactly as `gfxstat ministat`
// reads it (-C column, -d delimiters, '#' comments). A column file does not
// say which values came from which run, so the values are kept as the
// repetitions of one run; every value is a sample all the same.
#include "data/importers.h"
#include "data/input_error.h"

namespace gfxstat::data {

void import_lines(const std::string& path, const ImportOptions& options, ResultsFile& out) {
    const std::string label = options.label.empty() ? default_label(path) : options.label;
    ColumnFile col = read_column_path(path, path, options.column);
    if (col.sample.size() == 0) throw input_error(path, 0, "no numbers in column " + std::to_string(options.column.column));

    MetricInfo metric;
    metric.name = options.metric.empty() ? "value" : options.metric;
    import_declare_metric(out, path, metric, options);

    RunRecord run;
    run.variant = label;
    run.run = out.next_run_index(label);
    run.environment = import_environment(out, {}, options);
    run.source = path;
    MetricValues values;
    values.name = metric.name;
    values.array = true;
    values.values.reserve(col.sample.size());
    const Sample& s = col.sample;
    std::visit(
        [&](const auto& vec) {
            using T = typename std::decay_t<decltype(vec)>::value_type;
            for (T v : vec) {
                NumberToken t;
                if constexpr (std::is_same_v<T, double>) {
                    t.status = TokenStatus::binary;
                    t.value = v;
                } else {
                    t.status = TokenStatus::decimal;
                    t.negative = v < 0;
                    // |INT64_MIN| does not fit int64; it does fit uint64.
                    t.significand = v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
                    t.exponent = s.exponent;
                }
                values.values.push_back(t);
            }
        },
        s.values);
    run.metrics.push_back(std::move(values));
    import_add_run(out, path, 0, std::move(run));
}

}  // namespace gfxstat::data
