// SPDX-License-Identifier: MIT
#include "drivers/lava_signals.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>

#include "analysis/scaled_values.h"
#include "data/file_read.h"
#include "data/input_error.h"
#include "data/safe_files.h"
#include "data/utf8.h"
#include "drivers/process_runner.h"
#include "drivers/run_output.h"
#include "formats/lava_block.h"

namespace gfxstat::drivers {

namespace {

bool on_path(const std::string& program) {
    const char* path = std::getenv("PATH");
    if (!path) return false;
    std::string_view rest(path);
    while (true) {
        const size_t colon = rest.find(':');
        std::string dir(rest.substr(0, colon));
        if (dir.empty()) dir = ".";
        if (::access((dir + "/" + program).c_str(), X_OK) == 0) return true;
        if (colon == std::string_view::npos) return false;
        rest.remove_prefix(colon + 1);
    }
}

double token_double(const data::NumberToken& t) {
    if (t.status != data::TokenStatus::decimal) return t.value;
    // The decimal's correctly rounded double, as a JSON reader gets it.
    const double v = analysis::decimal_to_double(static_cast<int64_t>(t.significand), t.exponent);
    return t.negative ? -v : v;
}

// The code points Python's str.split() splits at besides ASCII white space:
// LAVA splits a signal's parameters with it (lava_dispatcher's
// check_patterns), so a unit holding one becomes two parameters, and the
// one without '=' makes LAVA drop the whole case ("Ignoring malformed
// parameter"). U+0085, U+00A0, U+1680, U+2000..U+200A, U+2028, U+2029,
// U+202F, U+205F, U+3000 (str.isspace() in Python 3.11).
bool python_space(uint32_t cp) {
    return cp == 0x85 || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 ||
           cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

// The length of the valid UTF-8 sequence at s[i] (a byte >= 0x80) and its
// code point; 0 when the bytes there are not valid UTF-8.
size_t utf8_at(std::string_view s, size_t i, uint32_t& cp) {
    const auto lead = static_cast<unsigned char>(s[i]);
    const size_t len = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    if (len == 1 || i + len > s.size() || !data::valid_utf8(s.substr(i, len))) return 0;
    cp = lead & (0x7F >> len);
    for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    return len;
}

bool failed(data::ExitClass c) {
    return c == data::ExitClass::fail || c == data::ExitClass::timeout || c == data::ExitClass::crash ||
           c == data::ExitClass::invalid;
}

}  // namespace

std::optional<LavaMode> parse_lava_mode(std::string_view s) {
    if (s == "auto") return LavaMode::automatic;
    if (s == "on") return LavaMode::on;
    if (s == "off") return LavaMode::off;
    return std::nullopt;
}

bool lava_active(LavaMode mode) {
    if (mode != LavaMode::automatic) return mode == LavaMode::on;
    const char* dir = std::getenv("LAVA_RESULT_DIR");
    return (dir && *dir) || on_path("lava-test-case");
}

std::string lava_name(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
              c == '.'))
            c = '_';
    // "." and ".." would name the results directory or its parent when
    // lava-test-case makes $LAVA_RESULT_DIR/results/NAME.
    if (out.find_first_not_of('.') == std::string::npos) return std::string(std::max<size_t>(out.size(), 1), '_');
    return out;
}

std::string lava_units(std::string_view s) {
    // lava-test-case writes the units with `echo $UNITS` (unquoted: globs
    // and word splitting) and signals with dash's echo, which reads
    // backslash escapes ("\c" ends the line, "\n" splits it); whitespace,
    // '=' and '>' would split or end the signal. Letters, digits, a few
    // marks and UTF-8 (µs) pass; anything else becomes '_'. Of UTF-8, what
    // LAVA's parser splits at (python_space) goes too, and so do the C1
    // controls (a terminal may act on them) and bytes that are not UTF-8
    // (LAVA decodes the console with U+FFFD for them): one '_' per code
    // point, one per bad byte.
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        const char c = s[i];
        if (static_cast<unsigned char>(c) < 0x80) {
            const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '%' ||
                            c == '/' || c == '.' || c == '-' || c == '_' || c == '+';
            out += ok ? c : '_';
            ++i;
            continue;
        }
        uint32_t cp = 0;
        const size_t len = utf8_at(s, i, cp);
        if (len == 0) {
            out += '_';
            ++i;
            continue;
        }
        if (python_space(cp) || cp <= 0x9F) out += '_';
        else out.append(s.substr(i, len));
        i += len;
    }
    return out;
}

std::optional<std::string> lava_measurement(double x) {
    if (!std::isfinite(x)) return std::nullopt;
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", x);
    return std::string(buf);
}

std::string LavaNames::unique(std::string_view raw) {
    const std::string base = lava_name(raw);
    std::string name = base;
    for (size_t k = 2; used_.count(name); ++k) name = base + "-" + std::to_string(k);
    used_.insert(name);
    return name;
}

std::vector<LavaSet> lava_summary_sets(const data::ResultsFile& file, const std::vector<std::string>& variants,
                                       LavaNames& names) {
    std::vector<LavaSet> sets;
    for (const std::string& variant : variants) {
        LavaSet set;
        set.name = names.unique(variant);
        bool any_failed = false;
        // Metrics in the order the variant's runs first name them.
        std::vector<std::string> order;
        std::map<std::string, std::pair<double, size_t>> sums;  // name -> (sum, count) over ok runs
        for (const data::RunRecord& r : file.runs()) {
            if (r.variant != variant || r.warmup) continue;
            any_failed |= failed(r.exit_class);
            for (const data::MetricValues& m : r.metrics) {
                const data::MetricInfo* info = file.find_metric(m.name);
                if (info && info->within_run()) continue;
                auto [it, added] = sums.try_emplace(m.name, 0.0, 0);
                if (added) order.push_back(m.name);
                if (r.exit_class != data::ExitClass::ok) continue;
                for (const data::NumberToken& t : m.values) {
                    it->second.first += token_double(t);
                    ++it->second.second;
                }
            }
        }
        LavaNames case_names;
        for (const std::string& metric : order) {
            const auto& [sum, n] = sums[metric];
            LavaCase c;
            c.name = case_names.unique(metric);
            if (const data::MetricInfo* info = file.find_metric(metric)) c.units = lava_units(info->unit);
            if (n) c.measurement = lava_measurement(sum / static_cast<double>(n));
            c.result = any_failed ? "fail" : !c.measurement ? "skip" : "pass";
            if (!c.measurement) c.units.clear();
            set.cases.push_back(std::move(c));
        }
        sets.push_back(std::move(set));
    }
    return sets;
}

bool LavaSignals::script(const std::vector<std::string>& argv, bool expect_failure, std::string* captured) {
    std::fflush(out_);
    OutputCapture capture;
    ProcessSpec spec;
    spec.argv = argv;
    spec.stdout_path = capture.path(0);
    spec.stderr_path = capture.path(1);
    spec.timeout_s = 60;  // a shell script that prints one line
    ProcessResult r;
    try {
        r = run_process(spec);
    } catch (const std::exception& e) {
        warn_(argv[0] + ": " + e.what());
        return false;
    }
    const std::string_view out = capture.text(0), err = capture.text(1);
    if (captured) *captured = std::string(out) + std::string(err);
    else if (!out.empty()) std::fwrite(out.data(), 1, out.size(), out_);
    std::fflush(out_);
    if (!captured && !err.empty()) warn_(argv[0] + " wrote on stderr: " + std::string(err.substr(0, 2000)));
    if (r.ended == ProcessResult::Ended::not_started) {
        warn_("cannot run " + argv[0] + ": " + r.error);
        return false;
    }
    const bool ok = r.ended == ProcessResult::Ended::exited && r.exit_code == 0;
    if (!ok && !expect_failure && !captured)
        warn_(argv[0] + " failed (" +
              (r.ended == ProcessResult::Ended::exited ? "exit " + std::to_string(r.exit_code)
                                                       : std::string("killed or timed out")) +
              ")");
    return ok;
}

void LavaSignals::set_start(const std::string& name) { script({"lava-test-set", "start", name}); }

void LavaSignals::set_stop() { script({"lava-test-set", "stop"}); }

void LavaSignals::test_case(const LavaCase& c) {
    std::vector<std::string> argv{"lava-test-case", c.name, "--result", c.result};
    if (c.measurement) {
        argv.insert(argv.end(), {"--measurement", *c.measurement});
        if (!c.units.empty()) argv.insert(argv.end(), {"--units", c.units});
    }
    script(argv);
}

void LavaSignals::sets(const std::vector<LavaSet>& sets) {
    for (const LavaSet& s : sets) {
        set_start(s.name);
        for (const LavaCase& c : s.cases) test_case(c);
        set_stop();
    }
}

std::string lava_message(std::string_view message) {
    std::string out;
    out.reserve(message.size());
    for (const char c : message) {
        if (c == '\\') out += kLavaBackslash;
        else if (c == '\n' || c == '\r' || c == '>' || c == '<' || static_cast<unsigned char>(c) < 0x20) out += ' ';
        else out += c;
    }
    return out;
}

bool lava_plain_word(std::string_view word) {
    if (word.empty()) return false;
    for (const char c : word) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' ||
                        c == '.' || c == '_' || c == '-' || c == '+' || c == ',' || c == ':' || c == '@' ||
                        c == '%' || c == '~';
        if (!ok) return false;
    }
    return true;
}

void LavaSignals::raise(const std::string& message) {
    script({"lava-test-raise", lava_message(message.empty() ? "gfxstat: setup failed" : message)},
           true);  // it always exits 1
}

bool LavaSignals::has_output_option() {
    if (!output_option_) {
        std::string usage;
        script({"lava-test-case"}, true, &usage);
        output_option_ = usage.find("--output") != std::string::npos;
    }
    return *output_option_;
}

bool LavaSignals::attach(const std::string& results_path) {
    // A path that lava-test-case might print changed (a backslash through
    // dash's echo, white space or '=' in a signal's parameters) goes in the
    // block, which carries any name.
    if (lava_plain_word(results_path) && has_output_option())
        return script({"lava-test-case", "gfxstat-results", "--result", "pass", "--output", results_path});
    std::string bytes;
    try {
        bytes = data::read_whole_file(results_path);
    } catch (const std::exception& e) {
        warn_(std::string("the results file is not in LAVA's log: ") + e.what());
        return false;
    }
    std::fflush(out_);
    if (!formats::write_results_block(data::base_name_of(results_path), bytes, out_)) {
        warn_("the results file is not in LAVA's log: cannot write it on standard output");
        return false;
    }
    return true;
}

}  // namespace gfxstat::drivers
