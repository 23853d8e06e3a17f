// The parsers of gfxstat's own workloads (wakeup-latency, drm-ioctl,
// drm-gem, i915-exec-nop) and of the run's own usage (`time`), apart from
// the parsers of other programs' output (drivers/output_parsers.cpp, whose
// make_parser hands these names on here).
#pragma once

#include <memory>
#include <string>

#include "drivers/output_parsers.h"

namespace gfxstat::drivers {

// The parser called `name`, or nullptr when it is not one of these.
std::unique_ptr<OutputParser> make_builtin_parser(const std::string& name);

}  // namespace gfxstat::drivers
