// SPDX-License-Identifier: MIT
#include "drivers/tunables.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <optional>
#include <system_error>

#include "drivers/rooted_open.h"
#include "drivers/sysfs_attribute.h"
#include "drivers/system_root.h"

namespace gfxstat::drivers {
namespace {

namespace fs = std::filesystem;

// N when `name` is PREFIX followed by digits only.
std::optional<unsigned> numbered(const std::string& name, const std::string& prefix) {
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
    unsigned n = 0;
    const char* b = name.data() + prefix.size();
    const char* e = name.data() + name.size();
    auto [p, ec] = std::from_chars(b, e, n);
    if (ec != std::errc() || p != e) return std::nullopt;
    return n;
}

// The numbered entries PREFIX<N> of a machine directory, sorted by N.
std::vector<std::pair<unsigned, std::string>> numbered_entries(const std::string& dir, const std::string& prefix) {
    std::vector<std::pair<unsigned, std::string>> out;
    for (const auto& name : list_machine_directory(dir))
        if (auto n = numbered(name, prefix)) out.emplace_back(*n, name);
    std::sort(out.begin(), out.end());
    return out;
}

bool readable(const std::string& machine_path) { return read_machine_attribute(machine_path).has_value(); }

// The bound driver's name: the last component of device/driver (a symlink).
std::string driver_of(const std::string& card_dir) {
    std::error_code ec;
    const fs::path target = fs::read_symlink(system_path(card_dir + "/device/driver"), ec);
    return ec ? std::string() : target.filename().string();
}

}  // namespace

Tunables find_tunables() {
    Tunables t;
    const std::string cpu = "/sys/devices/system/cpu";
    for (const auto& [n, name] : numbered_entries(cpu, "cpu")) {
        CpuGovernor g;
        g.cpu = n;
        g.path = cpu + "/" + name + "/cpufreq/scaling_governor";
        g.available_path = cpu + "/" + name + "/cpufreq/scaling_available_governors";
        if (readable(g.path)) t.governors.push_back(g);
    }
    // intel_pstate's switch; acpi-cpufreq's global boost; amd-pstate's (and
    // newer kernels') per-policy boost.
    if (readable(cpu + "/intel_pstate/no_turbo"))
        t.turbo.push_back({"intel_pstate no_turbo", cpu + "/intel_pstate/no_turbo", "1"});
    if (readable(cpu + "/cpufreq/boost")) t.turbo.push_back({"cpufreq boost", cpu + "/cpufreq/boost", "0"});
    for (const auto& [n, name] : numbered_entries(cpu + "/cpufreq", "policy")) {
        const std::string p = cpu + "/cpufreq/" + name + "/boost";
        if (readable(p)) t.turbo.push_back({"cpufreq " + name + " boost", p, "0"});
    }

    const std::string drm = "/sys/class/drm";
    for (const auto& [n, card] : numbered_entries(drm, "card")) {
        const std::string dir = drm + "/" + card;
        const std::string driver = driver_of(dir);
        if (readable(dir + "/gt_min_freq_mhz") && readable(dir + "/gt_max_freq_mhz")) {
            GpuFrequency g;
            g.card = card;
            g.driver = driver.empty() ? "i915" : driver;
            g.name = card;
            g.min_path = dir + "/gt_min_freq_mhz";
            g.max_path = dir + "/gt_max_freq_mhz";
            if (readable(dir + "/gt_boost_freq_mhz")) g.boost_path = dir + "/gt_boost_freq_mhz";
            g.rp0_path = dir + "/gt_RP0_freq_mhz";
            g.rp1_path = dir + "/gt_RP1_freq_mhz";
            g.rpn_path = dir + "/gt_RPn_freq_mhz";
            t.gpus.push_back(g);
        } else {
            for (const auto& [tn, tile] : numbered_entries(dir + "/device", "tile"))
                for (const auto& [gn, gt] : numbered_entries(dir + "/device/" + tile, "gt")) {
                    const std::string f = dir + "/device/" + tile + "/" + gt + "/freq0";
                    if (!readable(f + "/min_freq") || !readable(f + "/max_freq")) continue;
                    GpuFrequency g;
                    g.card = card;
                    g.driver = driver.empty() ? "xe" : driver;
                    g.name = card + " " + tile + "/" + gt;
                    g.min_path = f + "/min_freq";
                    g.max_path = f + "/max_freq";
                    g.rp0_path = f + "/rp0_freq";
                    g.rp1_path = f + "/rpe_freq";
                    g.rpn_path = f + "/rpn_freq";
                    t.gpus.push_back(g);
                }
        }
        const std::string level = dir + "/device/power_dpm_force_performance_level";
        if (readable(level)) t.amdgpu.push_back({card, level});
    }
    return t;
}

namespace {
bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
}  // namespace

bool is_tunable_path(const std::string& path) {
    // Every file find_tunables can name, one component at a time: "cpu#" is
    // cpu and a number, "a|b" either name. Exact components leave no room
    // for ".", "..", "//" or any other attribute (driver/unbind, power/state).
    static const std::vector<std::vector<std::string>> kPatterns = {
        {"sys", "devices", "system", "cpu", "cpu#", "cpufreq", "scaling_governor"},
        {"sys", "devices", "system", "cpu", "intel_pstate", "no_turbo"},
        {"sys", "devices", "system", "cpu", "cpufreq", "boost"},
        {"sys", "devices", "system", "cpu", "cpufreq", "policy#", "boost"},
        {"sys", "class", "drm", "card#", "gt_min_freq_mhz|gt_max_freq_mhz|gt_boost_freq_mhz"},
        {"sys", "class", "drm", "card#", "device", "tile#", "gt#", "freq0", "min_freq|max_freq"},
        {"sys", "class", "drm", "card#", "device", "power_dpm_force_performance_level"},
    };
    if (path.empty() || path[0] != '/') return false;
    std::vector<std::string> parts;
    for (size_t b = 1;;) {
        const size_t e = path.find('/', b);
        parts.push_back(path.substr(b, e == std::string::npos ? std::string::npos : e - b));
        if (e == std::string::npos) break;
        b = e + 1;
    }
    const auto matches = [](const std::string& part, const std::string& pattern) {
        if (pattern.size() > 1 && pattern.back() == '#') return numbered(part, pattern.substr(0, pattern.size() - 1)).has_value();
        for (size_t b = 0;;) {
            const size_t e = pattern.find('|', b);
            if (pattern.compare(b, e == std::string::npos ? std::string::npos : e - b, part) == 0 &&
                part.size() == (e == std::string::npos ? pattern.size() : e) - b)
                return true;
            if (e == std::string::npos) return false;
            b = e + 1;
        }
    };
    for (const auto& pattern : kPatterns) {
        if (pattern.size() != parts.size()) continue;
        bool all = true;
        for (size_t i = 0; i < parts.size() && all; ++i) all = matches(parts[i], pattern[i]);
        if (all) return true;
    }
    return false;
}

bool is_min_frequency_file(const std::string& path) {
    return ends_with(path, "/gt_min_freq_mhz") || ends_with(path, "/freq0/min_freq");
}

std::string max_sibling_of(const std::string& min_path) {
    if (ends_with(min_path, "/gt_min_freq_mhz"))
        return min_path.substr(0, min_path.size() - std::string("gt_min_freq_mhz").size()) + "gt_max_freq_mhz";
    if (ends_with(min_path, "/freq0/min_freq"))
        return min_path.substr(0, min_path.size() - std::string("min_freq").size()) + "max_freq";
    return {};
}

std::string cpu_ranges(const std::vector<unsigned>& cpus) {
    std::vector<unsigned> c = cpus;
    std::sort(c.begin(), c.end());
    c.erase(std::unique(c.begin(), c.end()), c.end());
    std::string out;
    for (size_t i = 0; i < c.size();) {
        size_t j = i;
        while (j + 1 < c.size() && c[j + 1] == c[j] + 1) ++j;
        if (!out.empty()) out += ",";
        out += std::to_string(c[i]);
        if (j > i) out += "-" + std::to_string(c[j]);
        i = j + 1;
    }
    return out;
}

}  // namespace gfxstat::drivers
