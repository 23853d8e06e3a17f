// SPDX-License-Identifier: MIT
#include "report/volatile_words.h"

#include <cctype>

#include "report/diagnostic_words.h"

namespace gfxstat::report {

namespace {

using cli::fmt;

// The member after a GPU prefix and the device's number: ("act_freq_mhz",
// "") for gpu_act_freq_mhz, ("sclk_mhz", "1") for gpu1_sclk_mhz.
bool gpu_field(const std::string& field, std::string& member, std::string& device) {
    if (field.rfind("gpu", 0) != 0) return false;
    size_t i = 3;
    while (i < field.size() && std::isdigit(static_cast<unsigned char>(field[i]))) ++i;
    if (i >= field.size() || field[i] != '_') return false;
    device = field.substr(3, i - 3);
    member = field.substr(i + 1);
    return true;
}

bool throttle_field(const std::string& field) {
    std::string member, device;
    return gpu_field(field, member, device) && member == "throttle";
}

// A reading as people read it: load to 0.01, degrees to 0.1, MHz whole.
std::string value(const std::string& field, double v) {
    if (field == "load_average") return fmt("%.2f", v);
    if (field.rfind("temp_", 0) == 0) return fmt("%.1f", v);
    return fmt("%.0f", v);
}

std::string span(const std::string& field, const findings::VolatileRange& r) {
    if (value(field, r.low) == value(field, r.high)) return value(field, r.low);
    return value(field, r.low) + " to " + value(field, r.high);
}

std::string throttled_runs(const findings::VolatileRange& r) {
    return fmt("%zu of %zu %s", r.nonzero, r.runs, r.runs == 1 ? "run" : "runs");
}

}  // namespace

std::string volatile_label(const std::string& field) {
    if (field == "load_average") return "load average (1 min)";
    if (field.rfind("temp_", 0) == 0) return field.substr(5) + " temperature (°C)";
    std::string member, device;
    if (gpu_field(field, member, device)) {
        const std::string gpu = device.empty() ? "GPU" : "GPU " + device;
        if (member == "act_freq_mhz") return gpu + " actual clock (MHz)";
        if (member == "cur_freq_mhz") return gpu + " requested clock (MHz)";
        if (member == "sclk_mhz") return gpu + " shader clock (MHz)";
        if (member == "throttle") return gpu + " throttling";
    }
    return field;
}

std::string volatile_context_line(const findings::VolatileFact& f) {
    const std::string label = volatile_label(f.field);
    if (throttle_field(f.field)) return label + " in " + throttled_runs(f.all);
    const char* runs = f.all.runs == 1 ? "run" : "runs";
    if (value(f.field, f.all.low) == value(f.field, f.all.high))
        return label + " " + value(f.field, f.all.low) + fmt(" in %s %zu %s", f.all.runs == 1 ? "its" : "all",
                                                               f.all.runs, runs);
    return label + " " + span(f.field, f.all) + fmt(" over %zu %s", f.all.runs, runs);
}

std::string volatile_shift_line(const findings::VolatileShift& s) {
    std::string member, device;
    const bool gpu = gpu_field(s.field, member, device);
    std::string how;
    if (s.field == "load_average") how = s.higher ? "under higher load" : "under lower load";
    else if (s.field.rfind("temp_", 0) == 0) how = s.higher ? "hotter" : "cooler";
    else if (gpu && member == "throttle") how = s.higher ? "throttled more often" : "throttled less often";
    else how = s.higher ? "at higher GPU clocks" : "at lower GPU clocks";
    const std::string label = volatile_label(s.field);
    if (gpu && member == "throttle")
        return s.variant + " ran " + how + ": " + label + " in " + throttled_runs(s.range) + " against " +
               throttled_runs(s.reference_range) + " for " + s.reference;
    return s.variant + " ran " + how + ": " + label + " " + span(s.field, s.range) + " against " +
           span(s.field, s.reference_range) + " for " + s.reference;
}

}  // namespace gfxstat::report
