// `ezbench`: the output of one EzBench "unified" test run, as a run's
// output (this file) or a saved file (data/import_ezbench.cpp reads it).
// ezbench: "SubTest: float(value) unit", "SubTest: int(N) unit",
//   ": str(status)" -- as data/import_ezbench.cpp reads it (that file
//   keeps its line splitter private, so the few lines are repeated here).
//   Lines of another shape are ignored (a test's own chatter), and so is
//   everything after the status line; a status other than "completed" is
//   an error.
#include <algorithm>
#include <optional>
#include <unordered_map>
#include <utility>

#include "data/ezbench_line.h"
#include "formats/format_list.h"
#include "formats/parser_support.h"

namespace gfxstat::formats {

using namespace parsing;

namespace {

// ----------------------------------------------------------------- ezbench


ParseResult parse_ezbench(const RunOutput& o) {
    Collector c;
    std::unordered_map<std::string, std::pair<std::string, size_t>> units;  // name -> unit, first line
    LineReader lines(o.out);
    std::string_view line;
    while (lines.next(line)) {
        const std::optional<data::EzbenchLine> l = data::split_ezbench_line(line);
        if (!l) continue;
        const std::string where = "line " + std::to_string(lines.number()) + ": ";
        if (l->type == "str" || l->type == "img") {
            if (!l->name.empty()) continue;  // a named non-numeric result
            const std::string_view status = trim(l->value);
            if (status != "completed")
                return failure(where + "the test reports status " + data::quote_token(status));
            break;  // the status line closes the run
        }
        if (l->type != "float" && l->type != "int") continue;
        std::string_view v = l->value;
        if (l->type == "int") {
            std::string_view d = v;
            if (!d.empty() && (d[0] == '-' || d[0] == '+')) d.remove_prefix(1);
            if (d.empty() || !std::all_of(d.begin(), d.end(), is_digit))
                return failure(where + "expected an integer in int(), found " + data::quote_token(v));
        }
        const NumberToken t = data::parse_number_token(v);
        if (t.status == TokenStatus::malformed)
            return failure(where + "expected a number in " + std::string(l->type) + "(), found " +
                           data::quote_token(v));
        if (!usable(t)) return failure(where + data::quote_token(v) + " is " + data::describe(t.status));
        const std::string name = l->name.empty() ? "value" : std::string(l->name);
        auto [it, fresh] = units.try_emplace(name, std::string(l->unit), lines.number());
        if (!fresh && it->second.first != l->unit)
            return failure(where + "subtest '" + name + "' has unit " + data::quote_token(l->unit) + " here but " +
                           data::quote_token(it->second.first) + " on line " + std::to_string(it->second.second));
        c.add(name, l->unit, data::ezbench_unit_direction(l->unit), kPrimary, t);
    }
    if (c.empty()) return nothing_found(o, "'SubTest: float(value) unit'");
    return success(c);
}

std::unique_ptr<OutputParser> make_ezbench(const ParserOptions& o) {
    refuse_options(o, "ezbench");
    return std::make_unique<FunctionParser>(std::vector<MetricInfo>{}, parse_ezbench);
}

}  // namespace

const Format& ezbench_format() {
    static const Format f{"ezbench", "EzBench unified test output: SubTest: float(value) unit", make_ezbench,
                          data::import_ezbench};
    return f;
}

}  // namespace gfxstat::formats
