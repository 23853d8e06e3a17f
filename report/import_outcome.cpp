// SPDX-License-Identifier: MIT
#include "report/import_outcome.h"

#include "text/text_escape.h"

namespace gfxstat::report {

void print_import_outcome(const std::string& prog, const formats::ImportedRuns& added, size_t files,
                          bool append, const std::string& output, FILE* out) {
    std::string within_text;
    for (const auto& [per, n] : added.within)
        within_text +=
            ", " + std::to_string(n) + " " + text::escape_text(per) + (n == 1 ? "" : "s") + " within runs";
    std::fprintf(out, "%s: %zu run%s (%zu samples%s) of %zu variant%s from %zu file%s %s %s\n", prog.c_str(),
                 added.runs, added.runs == 1 ? "" : "s", added.samples, within_text.c_str(), added.variants.size(),
                 added.variants.size() == 1 ? "" : "s", files, files == 1 ? "" : "s",
                 append ? "appended to" : "written to", output == "-" ? "stdout" : text::escape_text(output).c_str());
}

}  // namespace gfxstat::report
