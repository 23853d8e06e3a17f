// SPDX-License-Identifier: MIT
#include "report/systemctl_failure.h"

#include <algorithm>
#include <string_view>

#include "text/text_escape.h"

namespace gfxstat::report {

void print_systemctl_failure(const std::string& prog, const drivers::SystemctlFailure& failed, FILE* out) {
    const std::string& output = failed.output;
    std::string said;
    for (size_t at = 0; at < output.size();) {
        const size_t nl = std::min(output.find('\n', at), output.size());
        said += text::escape_message(std::string_view(output).substr(at, nl - at)) + "\n";
        at = nl + 1;
    }
    std::fprintf(out, "%s: '%s %s' failed%s\n%s", prog.c_str(), failed.argv[0].c_str(),
                 text::escape_text(failed.argv[1]).c_str(),
                 failed.not_started.empty() ? "" : (": " + text::escape_message(failed.not_started)).c_str(),
                 said.c_str());
}

}  // namespace gfxstat::report
