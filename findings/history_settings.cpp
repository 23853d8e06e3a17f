// SPDX-License-Identifier: MIT
#include "findings/history_settings.h"

#include <cmath>
#include <string>

#include "data/input_error.h"

namespace gfxstat::findings::history {

void check_settings(const Settings& s) {
    if (s.order == "git" && s.git_dir.empty())
        throw data::InputError("--order git needs --git DIR, the repository the builds were made from");
    if (!s.git_dir.empty() && s.order != "git")
        throw data::InputError("--git DIR orders the builds with --order git; give that too");
    if (s.cp.alpha * static_cast<double>(s.cp.permutations + 1) <= 1)
        throw data::InputError("--permutations: at least " +
                               std::to_string(static_cast<long>(std::ceil(1 / s.cp.alpha))) + " for --alpha " +
                               number(s.cp.alpha) + ", or no p could fall below it");
}

}  // namespace gfxstat::findings::history
