// SPDX-License-Identifier: MIT
// gfxstat bisect's steps file on arbitrary bytes: read or refused with an
// InputError (file, line or member, what was expected), nothing else. What
// is read must survive being written again, and what the report computes
// from it (the references, each step's look, the first bad commit) must
// not crash whatever the values: the references' values may not be
// positive, may be too few, may be all equal.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "analysis/bisect_classify.h"
#include "data/bisect_log.h"
#include "data/input_error.h"
#include "drivers/bisect_step.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace gfxstat;
    const std::string text(reinterpret_cast<const char*>(data), size);
    data::BisectLog log;
    try {
        log = data::parse_bisect_log(text, "steps.json");
    } catch (const data::InputError&) {
        return 0;
    }
    const std::string json = data::bisect_log_json(log);
    try {
        if (data::bisect_log_json(data::parse_bisect_log(json, "steps.json")) != json) std::abort();
    } catch (const data::InputError&) {
        std::abort();  // what gfxstat writes, it must read
    }
    (void)drivers::first_bad_commit(log);
    analysis::BisectReferences refs;
    try {
        refs = analysis::bisect_references(log.plan.good.values, log.plan.bad.values, drivers::bisect_options(log.plan));
    } catch (const std::invalid_argument&) {
        return 0;  // options out of range: the report refuses the file
    }
    for (const auto& s : log.steps) {
        try {
            (void)analysis::bisect_look(refs, s.values);
        } catch (const std::invalid_argument&) {
            // a value <= 0 against positive references: the report names the step
        }
    }
    return 0;
}
