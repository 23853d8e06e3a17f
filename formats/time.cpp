// SPDX-License-Identifier: MIT
// `time`: no output at all; the run's own cost as wait4 reported it (wall,
// user and system time, peak RSS), like hyperfine's or /usr/bin/time's
// figures. Only a run has one: a saved output cannot be imported as `time`.
#include <charconv>
#include <cstdint>

#include "formats/format_list.h"
#include "formats/parser_support.h"

namespace gfxstat::formats {

using namespace parsing;

namespace {

ParseResult parse_time(const RunOutput& o) {
    if (!o.usage) return failure("the time parser needs the run's resource usage; a saved output has none");
    const RunUsage& u = *o.usage;
    if (!u.started) return failure("the command did not start" + (u.error.empty() ? std::string() : ": " + u.error));
    Collector c;
    const auto add = [&](const char* name, const char* unit, double v) {
        char buf[64];
        const auto res = std::to_chars(buf, buf + sizeof buf, v);  // shortest round trip
        const NumberToken t = data::parse_number_token(std::string_view(buf, static_cast<size_t>(res.ptr - buf)));
        if (!usable(t)) return false;
        c.add(name, unit, kLower, name == std::string_view("wall"), t);  // as hyperfine: the wall time
        return true;
    };
    if (!(add("wall", "s", u.wall_s) && add("user", "s", u.user_s) && add("sys", "s", u.sys_s)))
        return failure("the process result holds a time that is not a finite number");
    NumberToken rss;
    rss.status = TokenStatus::decimal;
    rss.negative = u.max_rss_kib < 0;
    rss.significand = u.max_rss_kib < 0 ? uint64_t{0} - static_cast<uint64_t>(u.max_rss_kib)
                                        : static_cast<uint64_t>(u.max_rss_kib);
    if (rss.significand > 999999999999999999ULL) {  // more than 18 digits: keep the double
        rss.status = TokenStatus::binary;
        rss.value = static_cast<double>(u.max_rss_kib);
    }
    c.add("max_rss", "KiB", kLower, kSecondary, rss);
    return success(c);
}

std::unique_ptr<OutputParser> make_time(const ParserOptions& o) {
    return parser_without_options(o, "time",
                                  {info("wall", "s", kLower, kPrimary), info("user", "s", kLower, kSecondary),
                                   info("sys", "s", kLower, kSecondary), info("max_rss", "KiB", kLower, kSecondary)},
                                  parse_time);
}

}  // namespace

const Format& time_format() {
    static const Format f{"time", "the run's own wall, user and system time and peak RSS (no output needed)",
                          make_time};
    return f;
}

}  // namespace gfxstat::formats
