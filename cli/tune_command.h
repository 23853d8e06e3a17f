// SPDX-License-Identifier: MIT
// gfxstat tune apply|reset|show.
#pragma once

#include "drivers/run_startup.h"

namespace gfxstat::cli {

int tune_main(int argc, char** argv);

// The check's warning and --tune's guard, as campaign resume calls them
// (drivers/run_startup.h).
using drivers::print_machine_check;
using drivers::TuneGuard;

}  // namespace gfxstat::cli
