// SPDX-License-Identifier: MIT
#include "formats/lava_block.h"

#include <charconv>

namespace gfxstat::formats {

namespace {

bool name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
           c == '.';
}

bool hex_digest(std::string_view s) {
    if (s.size() != 64) return false;
    for (char c : s)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    return true;
}

}  // namespace

std::string results_block_begin_line(const ResultsBlockHeader& h) {
    std::string name = h.name.empty() ? "results" : h.name;
    for (char& c : name)
        if (!name_char(c)) c = '_';
    return std::string(kResultsBlockBegin) + "v1 name=" + name + " bytes=" + std::to_string(h.bytes) +
           " sha256=" + h.sha256 + ">";
}

bool write_results_block(const std::string& name, std::string_view bytes, FILE* out) {
    ResultsBlockHeader h{name, bytes.size(), data::sha256_hex(bytes)};
    bool ok = std::fprintf(out, "%s\n", results_block_begin_line(h).c_str()) > 0;
    // 57 bytes make 76 base64 characters: each line is encoded on its own,
    // so a file of any size streams in constant extra memory.
    constexpr size_t chunk = kResultsBlockColumns / 4 * 3;
    std::string line;
    for (size_t at = 0; at < bytes.size() && ok; at += chunk) {
        line = data::base64_encode(bytes.substr(at, chunk));
        line += '\n';
        ok = std::fwrite(line.data(), 1, line.size(), out) == line.size();
    }
    ok = ok && std::fprintf(out, "%s\n", std::string(kResultsBlockEnd).c_str()) > 0;
    return std::fflush(out) == 0 && ok;
}

std::optional<ResultsBlockHeader> parse_results_block_begin(std::string_view line, std::string& why) {
    why.clear();
    if (line.substr(0, kResultsBlockBegin.size()) != kResultsBlockBegin) return std::nullopt;
    const auto fail = [&](const std::string& w) -> std::optional<ResultsBlockHeader> {
        why = "a results block's begin line '<GFXSTAT_RESULTS_BEGIN v1 name=NAME bytes=N sha256=HEX>': " + w;
        return std::nullopt;
    };
    if (line.empty() || line.back() != '>') return fail("no closing '>'");
    std::string_view rest = line.substr(kResultsBlockBegin.size());
    rest.remove_suffix(1);
    ResultsBlockHeader h;
    bool version = false, have_name = false, have_bytes = false, have_sha = false;
    while (!rest.empty()) {
        const size_t space = rest.find(' ');
        const std::string_view word = rest.substr(0, space);
        rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
        if (!version) {
            if (word != "v1") return fail("version v1, not a later one (a newer gfxstat wrote it)");
            version = true;
        } else if (word.substr(0, 5) == "name=") {
            h.name = std::string(word.substr(5));
            have_name = !h.name.empty();
        } else if (word.substr(0, 6) == "bytes=") {
            const std::string_view n = word.substr(6);
            const auto r = std::from_chars(n.data(), n.data() + n.size(), h.bytes);
            if (n.empty() || r.ec != std::errc() || r.ptr != n.data() + n.size()) return fail("bytes=N, a count");
            have_bytes = true;
        } else if (word.substr(0, 7) == "sha256=") {
            h.sha256 = std::string(word.substr(7));
            if (!hex_digest(h.sha256)) return fail("sha256= and 64 lower-case hex digits");
            have_sha = true;
        } else {
            return fail("no field '" + std::string(word.substr(0, 40)) + "'");
        }
    }
    if (!version || !have_name || !have_bytes || !have_sha) return fail("a field is missing");
    return h;
}

bool ResultsBlockDecoder::add_line(std::string_view line, std::string& why) {
    if (ended_) {
        why = "the end line '" + std::string(kResultsBlockEnd) + "' (the line before ended the base64 text)";
        return false;
    }
    if (line.size() > kResultsBlockColumns || line.size() % 4 != 0) {
        why = "a base64 line of at most " + std::to_string(kResultsBlockColumns) +
              " characters, a multiple of 4 (a serial console may have dropped or added characters)";
        return false;
    }
    const std::optional<std::string> bytes = data::base64_decode(line);
    if (!bytes) {
        why = "a base64 line (only A-Z a-z 0-9 + / and '=' padding at the end)";
        return false;
    }
    if (bytes_.size() + bytes->size() > header_.bytes) {
        why = "no more than the begin line's " + std::to_string(header_.bytes) + " bytes";
        return false;
    }
    sha_.update(*bytes);
    bytes_ += *bytes;
    ended_ = line.size() < kResultsBlockColumns;
    return true;
}

std::optional<std::string> ResultsBlockDecoder::finish(std::string& why) {
    if (bytes_.size() != header_.bytes) {
        why = "the begin line's " + std::to_string(header_.bytes) + " bytes, but the block holds " +
              std::to_string(bytes_.size());
        return std::nullopt;
    }
    const std::string digest = sha_.hex();
    if (digest != header_.sha256) {
        why = "the begin line's sha256 " + header_.sha256 + ", but the block's bytes have " + digest;
        return std::nullopt;
    }
    return std::move(bytes_);
}

}  // namespace gfxstat::formats
