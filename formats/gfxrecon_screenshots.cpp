// SPDX-License-Identifier: MIT
#include "formats/gfxrecon_screenshots.h"

#include <charconv>
#include <filesystem>
#include <system_error>

#include "data/digest.h"
#include "data/file_read.h"
#include "data/input_error.h"

namespace gfxstat::formats {

std::optional<uint64_t> gfxrecon_screenshot_frame(std::string_view name, std::string_view prefix) {
    if (!name.starts_with(prefix)) return std::nullopt;
    name.remove_prefix(prefix.size());
    constexpr std::string_view kFrame = "_frame_";
    if (!name.starts_with(kFrame)) return std::nullopt;
    name.remove_prefix(kFrame.size());
    const size_t dot = name.find('.');
    if (dot == std::string_view::npos || dot == 0 || dot + 1 == name.size()) return std::nullopt;
    const std::string_view digits = name.substr(0, dot);
    const std::string_view ext = name.substr(dot + 1);
    for (char c : ext)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return std::nullopt;  // "bmp", not "bmp.tmp"
    if (digits.size() > 1 && digits[0] == '0') return std::nullopt;
    uint64_t frame = 0;
    const auto res = std::from_chars(digits.data(), digits.data() + digits.size(), frame);
    if (res.ec != std::errc() || res.ptr != digits.data() + digits.size()) return std::nullopt;
    return frame;
}

FrameChecksums gfxrecon_screenshot_checksums(const std::string& dir, std::string_view prefix) {
    FrameChecksums out;
    std::error_code ec;
    std::filesystem::directory_iterator it(dir, ec);
    if (ec) {
        out.error = dir + ": cannot read the screenshot directory: " + ec.message();
        return out;
    }
    for (const auto& entry : it) {
        const std::string name = entry.path().filename().string();
        const auto frame = gfxrecon_screenshot_frame(name, prefix);
        if (!frame) continue;
        try {
            out.frames.emplace(*frame, data::sha256_hex(data::read_whole_file(entry.path().string())));
        } catch (const std::exception& e) {
            out.frames.clear();
            out.error = e.what();
            return out;
        }
    }
    if (out.frames.empty())
        out.error = dir + ": no screenshots named " + std::string(prefix) +
                    "_frame_N.bmp (was gfxrecon-replay run with --screenshot-all --screenshot-dir?)";
    return out;
}

}  // namespace gfxstat::formats
