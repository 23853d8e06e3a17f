// SPDX-License-Identifier: MIT
#include "drivers/gpu_sysfs.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <filesystem>
#include <system_error>

#include "drivers/sysfs_attribute.h"

namespace gfxstat::drivers {

namespace fs = std::filesystem;

namespace {
constexpr std::string_view kSpace = " \t\r\n\f\v";
}

std::string_view trim_space(std::string_view s) {
    const auto b = s.find_first_not_of(kSpace);
    if (b == std::string_view::npos) return {};
    const auto e = s.find_last_not_of(kSpace);
    return s.substr(b, e - b + 1);
}

std::optional<std::string> read_sysfs_text(const std::string& path, size_t limit) {
    return read_and_close(::open(path.c_str(), O_RDONLY | O_CLOEXEC), limit);
}

std::optional<std::string> read_sysfs_trimmed(const std::string& path) {
    auto text = read_sysfs_text(path);
    if (!text) return std::nullopt;
    const auto t = trim_space(*text);
    if (t.empty()) return std::nullopt;
    return std::string(t);
}

std::optional<uint64_t> parse_sysfs_unsigned(std::string_view text) {
    const std::string_view s = trim_space(text);
    uint64_t v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
    return v;
}

std::optional<uint64_t> read_sysfs_unsigned(const std::string& path) {
    auto t = read_sysfs_trimmed(path);
    if (!t) return std::nullopt;
    return parse_sysfs_unsigned(*t);
}

std::vector<std::pair<unsigned, std::string>> numbered_entries(const std::string& dir, std::string_view prefix) {
    std::vector<std::pair<unsigned, std::string>> out;
    std::error_code ec;
    fs::directory_iterator it(dir, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
        const std::string_view digits = std::string_view(name).substr(prefix.size());
        unsigned n = 0;
        const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), n);
        if (r.ec == std::errc() && r.ptr == digits.data() + digits.size()) out.emplace_back(n, name);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::string i915_freq_file(const std::string& card_dir, std::string_view which) {
    return card_dir + "/gt_" + std::string(which) + "_freq_mhz";
}

std::string xe_freq_file(const std::string& card_dir, std::string_view which) {
    return card_dir + "/device/tile0/gt0/freq0/" + std::string(which) + "_freq";
}

ThrottleFiles i915_throttle_files(const std::string& card_dir) {
    return {card_dir + "/gt/gt0", "throttle_reason_", "throttle_reason_status"};
}

ThrottleFiles xe_throttle_files(const std::string& card_dir) {
    return {card_dir + "/device/tile0/gt0/freq0/throttle", "reason_", "status"};
}

std::vector<std::pair<std::string, std::string>> throttle_reason_files(const ThrottleFiles& t) {
    std::vector<std::pair<std::string, std::string>> out;
    std::error_code ec;
    fs::directory_iterator it(t.dir, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.compare(0, t.prefix.size(), t.prefix) != 0 || name == t.status_file) continue;
        const std::string reason = name.substr(t.prefix.size());
        if (reason.empty() || reason == "status") continue;
        out.emplace_back(reason, t.dir + "/" + name);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::string amdgpu_sclk_file(const std::string& card_dir) { return card_dir + "/device/pp_dpm_sclk"; }

std::string amdgpu_gpu_metrics_file(const std::string& card_dir) { return card_dir + "/device/gpu_metrics"; }

std::optional<uint64_t> current_sclk_mhz(std::string_view s) {
    while (!s.empty()) {
        const auto nl = std::min(s.find('\n'), s.size());
        std::string_view line = trim_space(s.substr(0, nl));
        s = nl < s.size() ? s.substr(nl + 1) : std::string_view{};
        if (line.empty() || line.back() != '*') continue;
        line = trim_space(line.substr(0, line.size() - 1));  // "1: 1800Mhz"
        const auto colon = line.find(':');
        if (colon == std::string_view::npos) return std::nullopt;
        std::string_view mhz = trim_space(line.substr(colon + 1));
        for (std::string_view unit : {"Mhz", "MHz", "mhz"})
            if (mhz.size() > unit.size() && mhz.substr(mhz.size() - unit.size()) == unit)
                mhz = trim_space(mhz.substr(0, mhz.size() - unit.size()));
        return parse_sysfs_unsigned(mhz);
    }
    return std::nullopt;
}

}  // namespace gfxstat::drivers
