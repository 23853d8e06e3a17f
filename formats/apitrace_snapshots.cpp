// SPDX-License-Identifier: MIT
#include "formats/apitrace_snapshots.h"

#include <vector>

#include "data/input_error.h"

namespace gfxstat::formats {

namespace {

bool hex_digit(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

std::string_view strip(std::string_view s) {
    while (!s.empty() && (s.back() == '\r' || s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    return s;
}

}  // namespace

FrameChecksums parse_apitrace_md5_snapshots(std::string_view text, std::span<const uint64_t> numbers) {
    FrameChecksums out;
    std::vector<std::string> sums;
    size_t line_no = 0;
    for (size_t pos = 0; pos < text.size();) {
        const size_t nl = text.find('\n', pos);
        const size_t end = nl == std::string_view::npos ? text.size() : nl;
        const std::string_view line = strip(text.substr(pos, end - pos));
        pos = end + 1;
        ++line_no;
        if (line.empty() || line.starts_with("Rendered ")) continue;
        bool md5 = line.size() == 32;
        for (char c : line) md5 &= hex_digit(c);
        if (!md5) {
            out.error = "line " + std::to_string(line_no) +
                        ": expected a snapshot's MD5 (32 hex digits, from --snapshot-format=MD5 -s -), found " +
                        data::quote_token(line);
            return out;
        }
        std::string sum(line);
        for (char& c : sum)
            if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
        sums.push_back(std::move(sum));
    }
    if (sums.empty()) {
        out.error = "no snapshot checksums on stdout (was the retracer run with --snapshot-format=MD5 -s -?)";
        return out;
    }
    if (!numbers.empty() && numbers.size() != sums.size()) {
        out.error = std::to_string(sums.size()) + " snapshot checksums for " + std::to_string(numbers.size()) +
                    " chosen calls; each chosen call gives one";
        return out;
    }
    for (size_t i = 0; i < sums.size(); ++i) {
        const uint64_t frame = numbers.empty() ? i : numbers[i];
        if (i > 0 && !numbers.empty() && numbers[i] <= numbers[i - 1]) {
            out.error = "the chosen call numbers must increase, as the retracer takes them";
            out.frames.clear();
            return out;
        }
        out.frames.emplace(frame, std::move(sums[i]));
    }
    return out;
}

std::optional<uint64_t> apitrace_snapshot_file_number(std::string_view name, std::string_view prefix) {
    if (!name.starts_with(prefix) || !name.ends_with(".png")) return std::nullopt;
    const std::string_view digits = name.substr(prefix.size(), name.size() - prefix.size() - 4);
    if (digits.size() < 10 || digits.size() > 19 || digits.find_first_not_of("0123456789") != std::string_view::npos)
        return std::nullopt;
    uint64_t n = 0;
    for (char c : digits) n = n * 10 + static_cast<uint64_t>(c - '0');
    return n;
}

}  // namespace gfxstat::formats
