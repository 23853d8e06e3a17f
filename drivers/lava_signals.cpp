// SPDX-License-Identifier: MIT
#include "drivers/lava_signals.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

#include "analysis/scaled_values.h"
#include "data/file_read.h"
#include "data/input_error.h"
#include "data/safe_files.h"
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
    // marks and UTF-8 (µs) pass; anything else becomes '_'.
    std::string out(s);
    for (char& c : out) {
        const auto u = static_cast<unsigned char>(c);
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '%' ||
                        c == '/' || c == '.' || c == '-' || c == '_' || c == '+' || u >= 0x80;
        if (!ok) c = '_';
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

void LavaSignals::raise(const std::string& message) {
    // LAVA's signal line ends at '>' and is one line.
    std::string m = message.empty() ? "gfxstat: setup failed" : message;
    for (char& c : m)
        if (c == '\n' || c == '\r' || c == '>' || c == '<' || static_cast<unsigned char>(c) < 0x20) c = ' ';
    script({"lava-test-raise", m}, true);  // it always exits 1
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
    if (has_output_option())
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
