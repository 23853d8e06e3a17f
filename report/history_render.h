// SPDX-License-Identifier: MIT
// gfxstat history's reports of the change points found (findings/
// history.h; docs/history.md, "Output"): text, markdown and JSON.
#pragma once

#include <cstdio>
#include <string>

#include "findings/history.h"

namespace gfxstat::report {

void print_history_text(FILE* out, const findings::history::Settings& s, const findings::history::History& h);
void print_history_markdown(FILE* out, const findings::history::Settings& s, const findings::history::History& h);
// The text report as print_history_text prints it.
std::string history_text(const findings::history::Settings& s, const findings::history::History& h);
// The JSON report (docs/history.md), indented, with a final newline.
std::string history_json(const findings::history::Settings& s, const findings::history::History& h);

}  // namespace gfxstat::report
