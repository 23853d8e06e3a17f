// SPDX-License-Identifier: MIT
#include "formats/lava_testdef.h"

#include <cstdint>
#include <cstdio>
#include <stdexcept>

#include "data/utf8.h"

namespace gfxstat::formats {

namespace {

// One UTF-8 sequence at s[i] (already known valid): its code point and length.
uint32_t decode(std::string_view s, size_t i, size_t& len) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) return len = 1, b;
    if (b < 0xE0) return len = 2, (b & 0x1Fu) << 6 | (s[i + 1] & 0x3Fu);
    if (b < 0xF0) return len = 3, (b & 0x0Fu) << 12 | (s[i + 1] & 0x3Fu) << 6 | (s[i + 2] & 0x3Fu);
    return len = 4, (b & 0x07u) << 18 | (s[i + 1] & 0x3Fu) << 12 | (s[i + 2] & 0x3Fu) << 6 | (s[i + 3] & 0x3Fu);
}

// YAML 1.1's printable set, as PyYAML's reader checks every character of
// a document (quoted or not): tab, newline, CR, printable ASCII, U+0085,
// U+00A0..U+D7FF, U+E000..U+FFFD, U+10000 and above.
bool printable(uint32_t c) {
    return c == 0x09 || (c >= 0x20 && c <= 0x7E) || c == 0x85 || (c >= 0xA0 && c <= 0xD7FF) ||
           (c >= 0xE000 && c <= 0xFFFD) || c >= 0x10000;
}

std::string indent_block(const std::string& text, size_t spaces) {
    std::string out, pad(spaces, ' ');
    size_t at = 0;
    while (at < text.size()) {
        const size_t nl = text.find('\n', at);
        const std::string line = text.substr(at, nl - at);
        out += line.empty() ? "" : pad + line;
        out += '\n';
        at = nl == std::string::npos ? text.size() : nl + 1;
    }
    return out;
}

// metadata: and run: of the definition, at indentation 0.
std::string definition_body(const LavaTestdef& t) {
    std::string out;
    out += "metadata:\n";
    out += "  format: " + yaml_quoted("Lava-Test Test Definition 1.0") + "\n";
    out += "  name: " + yaml_quoted(t.name) + "\n";
    out += "  description: " + yaml_quoted(t.description) + "\n";
    out += "run:\n";
    out += "  steps:\n";
    for (const std::string& s : t.steps) out += "  - " + yaml_quoted(s) + "\n";
    return out;
}

}  // namespace

std::string yaml_quoted(std::string_view s) {
    if (const size_t bad = data::first_invalid_utf8(s); bad < s.size())
        throw std::invalid_argument("text that is not UTF-8 (byte " + std::to_string(bad + 1) +
                                    ") cannot be written in YAML");
    std::string out = "\"";
    for (size_t i = 0; i < s.size();) {
        size_t len = 1;
        const uint32_t c = decode(s, i, len);
        if (c == '"') out += "\\\"";
        else if (c == '\\') out += "\\\\";
        else if (c == '\n') out += "\\n";
        else if (c == '\t') out += "\\t";
        else if (c == '\r') out += "\\r";
        else if (c == 0x85 || c == 0x2028 || c == 0x2029 || c == 0xFEFF || !printable(c)) {
            // Line breaks YAML would fold, the byte order mark, and what is
            // not printable: escaped, so the line stays one line.
            char buf[16];
            if (c <= 0xFF) std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned>(c));
            else if (c <= 0xFFFF) std::snprintf(buf, sizeof buf, "\\u%04X", static_cast<unsigned>(c));
            else std::snprintf(buf, sizeof buf, "\\U%08X", static_cast<unsigned>(c));
            out += buf;
        } else {
            out.append(s.substr(i, len));
        }
        i += len;
    }
    return out + "\"";
}

std::string shell_quoted(std::string_view word) {
    bool plain = !word.empty();
    for (const char c : word)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '@' ||
              c == '%' || c == '+' || c == '=' || c == ':' || c == ',' || c == '.' || c == '/' || c == '-'))
            plain = false;
    if (plain) return std::string(word);
    std::string out = "'";
    for (size_t i = 0; i < word.size(); ++i) {
        const char c = word[i];
        if (c == '\'') {
            out += "'\\''";
        } else if (c == '$' && i + 1 < word.size() && word[i + 1] >= '0' && word[i + 1] <= '9') {
            // LAVA rewrites every "$<digit>" of a step that mentions --cmd
            // or --shell into "\$<digit>" (its run.sh writer), quotes or
            // not; a '$' closed out of the single quotes and given as "$"
            // is never followed by the digit, and the shell reads it as
            // the same '$'.
            out += "'\"$\"'";
        } else {
            out += c;
        }
    }
    return out + "'";
}

bool lava_definition_name(std::string_view name) {
    if (name.empty()) return false;
    for (const char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
              c == '.'))
            return false;
    return true;
}

std::string render_lava_testdef(const LavaTestdef& t) {
    return "# A LAVA test definition written by gfxstat lava testdef (docs/ci-reports.md, \"LAVA\").\n" +
           definition_body(t);
}

std::string render_lava_job(const LavaTestdef& t, const LavaJob& j) {
    // The job's timeout leaves room for what comes before the test.
    const int job_minutes = j.test_minutes + 30;
    std::string out;
    out += "# A LAVA job around gfxstat's test definition, written by gfxstat lava testdef.\n";
    out += "# Paste the test action into a job that deploys and boots your device (after\n";
    out += "# its boot action), or add those actions here.\n";
    out += "job_name: " + yaml_quoted(j.job_name) + "\n";
    out += "device_type: " + yaml_quoted(j.device_type) + "\n";
    out += "visibility: \"public\"\n";
    out += "priority: \"medium\"\n";
    out += "timeouts:\n";
    out += "  job:\n    minutes: " + std::to_string(job_minutes) + "\n";
    out += "  action:\n    minutes: " + std::to_string(j.test_minutes) + "\n";
    out += "actions:\n";
    out += "- test:\n";
    out += "    timeout:\n      minutes: " + std::to_string(j.test_minutes) + "\n";
    out += "    definitions:\n";
    if (j.repository.empty()) {
        out += "    - repository:\n";
        out += indent_block(definition_body(t), 8);
        out += "      from: \"inline\"\n";
        out += "      name: " + yaml_quoted(t.name) + "\n";
        out += "      path: " + yaml_quoted("inline/" + t.name + ".yaml") + "\n";
    } else {
        out += "    - repository: " + yaml_quoted(j.repository) + "\n";
        out += "      from: \"git\"\n";
        out += "      name: " + yaml_quoted(t.name) + "\n";
        out += "      path: " + yaml_quoted(j.path) + "\n";
    }
    return out;
}

}  // namespace gfxstat::formats
