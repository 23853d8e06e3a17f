// SPDX-License-Identifier: MIT
#include "formats/import_files.h"

#include <algorithm>

#include "data/input_error.h"
#include "formats/registry.h"
#include "text/nearest_word.h"
#include "text/text_escape.h"

namespace gfxstat::formats {

namespace {

// Values of within-run metrics (a run's frames) are not samples: counted
// apart, as "600 frames within runs".
size_t count_samples(const data::ResultsFile& f, size_t first_run, std::map<std::string, size_t>& within) {
    size_t n = 0;
    for (size_t i = first_run; i < f.runs().size(); ++i)
        for (const auto& m : f.runs()[i].metrics) {
            const data::MetricInfo* info = f.find_metric(m.name);
            if (info && info->within_run())
                within[info->per] += m.values.size();
            else
                n += m.values.size();
        }
    return n;
}

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
    return s;
}

}  // namespace

std::string import_format_problem(const std::string& format) {
    const std::vector<std::string> names = import_names();
    if (std::find(names.begin(), names.end(), format) != names.end()) return "";
    const std::string name = text::escape_text(format);
    if (const Format* f = find_format(format); f && f->parser)
        return "format '" + name + "' reads a live run only (" + std::string(f->summary) +
               "): use gfxstat run --parser " + name;
    const std::string near = text::did_you_mean(format, names), known = joined(names);
    return "unknown format '" + name + "'" + (near.empty() ? "; known: " + known : near + " (known: " + known + ")");
}

ImportedRuns import_files(const std::string& format, const std::vector<std::string>& files,
                          const std::vector<std::string>& labels, ImportOptions options,
                          const CsvColumnRoles& roles, data::ResultsFile& results) {
    const size_t first_new = results.runs().size();
    for (size_t i = 0; i < files.size(); ++i) {
        options.label = labels.empty() ? "" : labels.size() == 1 ? labels[0] : labels[i];
        if (roles.any())
            import_csv_suite(files[i], options, roles, results);
        else
            import_file(format, files[i], options, results);
    }
    if (results.runs().size() == first_new) throw data::input_error(joined(files), 0, "no runs found to import");
    ImportedRuns added;
    for (size_t i = first_new; i < results.runs().size(); ++i) added.variants.insert(results.runs()[i].variant);
    added.runs = results.runs().size() - first_new;
    added.samples = count_samples(results, first_new, added.within);
    return added;
}

}  // namespace gfxstat::formats
