// SPDX-License-Identifier: MIT
// What `gfxstat lava testdef` asks for, made into a test definition
// (formats/lava_testdef.h) whose run step is a gfxstat command with
// --lava on: the command checked (run, ab, campaign resume or analyze;
// no --lava of its own), every text checked for UTF-8 (the definition is
// YAML), and a step before it that raises gfxstat-not-installed when the
// test shell has no gfxstat.
#pragma once

#include <string>
#include <vector>

#include "formats/lava_testdef.h"

namespace gfxstat::formats {

// The command line of `gfxstat lava testdef`: its options and the words
// after --.
struct LavaTestdefRequest {
    std::vector<std::string> command;  // gfxstat run|ab|campaign resume|campaign analyze ARGS...
    std::string name;                  // "": gfxstat-run, gfxstat-ab, gfxstat-campaign
    std::string description;           // "": "gfxstat: " and the run step
    std::string job, device_type, job_name, repository, path;  // the job's, with --job
    int minutes = 60;
};

// The definition, or std::invalid_argument with the sentence that says
// what is wrong with the request (the first thing, in the order a user
// fixes them: the command, the job's options, the texts, the name).
LavaTestdef gfxstat_testdef(const LavaTestdefRequest& r);

// The job around the definition `t`, from the request's job options.
LavaJob gfxstat_testdef_job(const LavaTestdef& t, const LavaTestdefRequest& r);

}  // namespace gfxstat::formats
