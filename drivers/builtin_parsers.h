// SPDX-License-Identifier: MIT
// The parsers of gfxstat's own workloads (wakeup-latency, drm-ioctl,
// drm-gem, i915-exec-nop): their output format is gfxstat's, so it lives
// beside the workloads rather than in formats/. drivers/run_parsers.h
// offers them with the formats'.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "formats/output_parser.h"

namespace gfxstat::drivers {

// The parser called `name`, or nullptr when it is not one of these.
std::unique_ptr<formats::OutputParser> make_builtin_parser(const std::string& name);
std::vector<std::string> builtin_parser_names();

}  // namespace gfxstat::drivers
