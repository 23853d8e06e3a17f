// SPDX-License-Identifier: MIT
#include "drivers/tune_owner.h"

#include <charconv>
#include <sstream>

#include "drivers/sysfs_attribute.h"

namespace gfxstat::drivers {

std::optional<unsigned long long> process_start_time(long pid, const std::string& proc) {
    if (pid <= 0) return std::nullopt;
    const auto text = read_attribute(proc + "/" + std::to_string(pid) + "/stat");
    if (!text) return std::nullopt;
    // "PID (COMM) STATE PPID ...": COMM may hold spaces and ')', so the
    // fields are counted from the last ')'; the start time is field 22.
    const auto close = text->rfind(')');
    if (close == std::string::npos) return std::nullopt;
    std::istringstream in(text->substr(close + 1));
    std::string field;
    for (int i = 3; i <= 22; ++i)
        if (!(in >> field)) return std::nullopt;
    unsigned long long v = 0;
    const auto [p, ec] = std::from_chars(field.data(), field.data() + field.size(), v);
    if (ec != std::errc() || p != field.data() + field.size()) return std::nullopt;
    return v;
}

TuneOwner tune_owner(const TuneState& state, const std::string& proc) {
    if (state.by != kTunedByRun) return TuneOwner::apply;
    const auto start = process_start_time(state.pid, proc);
    return start && *start == state.start_time ? TuneOwner::live_run : TuneOwner::dead_run;
}

std::string tune_owner_text(const TuneState& state) {
    if (state.by != kTunedByRun) return "gfxstat tune apply";
    return "gfxstat run --tune (pid " + std::to_string(state.pid) + ")";
}

}  // namespace gfxstat::drivers
