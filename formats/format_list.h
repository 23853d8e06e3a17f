// SPDX-License-Identifier: MIT
// One declaration per format file of formats/: what formats/registry.cpp
// puts in its table. Internal to formats/.
#pragma once

#include "formats/format.h"

namespace gfxstat::formats {

const Format& lines_format();
const Format& igt_syslatency_format();
const Format& igt_latency_format();
const Format& igt_wsim_format();
const Format& igt_exec_nop_format();
const Format& igt_fence_upload_format();
const Format& ezbench_format();
const Format& glmark2_format();
const Format& apitrace_format();
const Format& gfxrecon_format();
const Format& glxgears_format();
const Format& time_format();
const Format& csv_format();
const Format& hyperfine_format();
const Format& gbench_format();
const Format& gotest_format();
const Format& pts_format();
const Format& lava_format();
// Frame times and frame rates (docs/frame-times.md).
const Format& vkmark_format();
const Format& piglit_replay_format();
const Format& mangohud_format();
const Format& presentmon_format();

}  // namespace gfxstat::formats
