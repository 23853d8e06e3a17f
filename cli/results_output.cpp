// SPDX-License-Identifier: MIT
#include "cli/results_output.h"

#include "cli/command_line.h"

namespace gfxstat::cli {

int write_results_output(const std::string& prog, const std::string& output, data::ExistingFile existing,
                         const std::function<data::ResultsFile(const data::ResultsFile* current,
                                                               const data::ReadReport& report)>& build) {
    if (output == "-") return write_stdout_now(prog, data::serialize_results(build(nullptr, {})));
    data::rewrite_results_file(output, existing, build);
    return 0;
}

}  // namespace gfxstat::cli
