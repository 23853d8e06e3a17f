// SPDX-License-Identifier: MIT
// What `gfxstat campaign install-service --enable` says when systemctl
// failed (drivers/campaign_service.h's enable_unit): the command, why it
// did not start when it did not, then systemctl's own lines, each escaped.
#pragma once

#include <cstdio>
#include <string>

#include "drivers/campaign_service.h"

namespace gfxstat::report {

// "PROG: 'systemctl enable NAME' failed[: WHY]" and systemctl's lines.
void print_systemctl_failure(const std::string& prog, const drivers::SystemctlFailure& failed, FILE* out);

}  // namespace gfxstat::report
