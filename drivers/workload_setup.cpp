// SPDX-License-Identifier: MIT
#include "drivers/workload_setup.h"

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <unistd.h>

#include "text/nearest_word.h"
#include "data/input_error.h"
#include "drivers/drm_devices.h"
#include "drivers/drm_workloads.h"
#include "formats/registry.h"

namespace gfxstat::cli {

const std::vector<BuiltinWorkload>& builtin_workloads() {
    static const std::vector<BuiltinWorkload> table{
        {"wakeup-latency", "timer wake-up latency, as cyclictest measures it (us; docs/run.md)"},
        {"drm-ioctl", "the cost of a system call into DRM: GET_VERSION, median ns (docs/workloads.md)"},
        {"drm-gem", "dumb-buffer allocation and upload rates, bucket rounding (docs/workloads.md)"},
        {"i915-exec-nop", "gem_exec_nop natively: us per nop batch, per engine (docs/workloads.md)"},
    };
    return table;
}

const std::vector<std::string> kWorkloads = [] {
    std::vector<std::string> names;
    for (const BuiltinWorkload& w : builtin_workloads()) names.emplace_back(w.name);
    return names;
}();

bool parse_tag(const std::string& s, std::map<std::string, std::string>& tags) {
    const size_t eq = s.find('=');
    if (eq == 0 || eq == std::string::npos) return false;
    tags[s.substr(0, eq)] = s.substr(eq + 1);
    return true;
}

std::string self_executable() {
    char buf[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return "gfxstat";
    buf[n] = '\0';
    return buf;
}

namespace {

// Metrics of a parser with the user's unit and direction for regex metrics.
class OverriddenParser : public drivers::OutputParser {
public:
    OverriddenParser(std::unique_ptr<drivers::OutputParser> inner, std::string unit, data::Direction direction)
        : inner_(std::move(inner)), unit_(std::move(unit)), direction_(direction) {}
    std::vector<data::MetricInfo> metrics() const override {
        auto ms = inner_->metrics();
        for (auto& m : ms) {
            if (!unit_.empty()) m.unit = unit_;
            if (direction_ != data::Direction::unknown) m.direction = direction_;
        }
        return ms;
    }
    drivers::ParseResult parse(const drivers::RunOutput& o) const override {
        drivers::ParseResult r = inner_->parse(o);
        for (auto& m : r.metrics) {
            if (!unit_.empty()) m.unit = unit_;
            if (direction_ != data::Direction::unknown) m.direction = direction_;
        }
        return r;
    }

private:
    std::unique_ptr<drivers::OutputParser> inner_;
    std::string unit_;
    data::Direction direction_;
};

bool is_drm_workload(const std::string& w) { return w == "drm-ioctl" || w == "drm-gem" || w == "i915-exec-nop"; }

// The device a DRM workload will run on, as environment tags: device (the
// node), device_driver, device_pci_id. Nothing when it cannot be told
// here: the workload then says why itself, and the run records that.
void add_device_tags(const std::string& workload, const std::string& requested,
                     std::map<std::string, std::string>& tags) {
    std::string node;
    try {
        node = drivers::choose_drm_node(workload, requested);
    } catch (const std::exception&) {
        return;
    }
    tags["device"] = node;
    const auto devices = drivers::list_drm_devices();
    if (const drivers::DrmDeviceInfo* d = drivers::find_drm_device(devices, node)) {
        if (d->driver) tags["device_driver"] = d->driver->name;
        if (d->bus.type == "pci" && !d->bus.vendor.empty())
            tags["device_pci_id"] = d->bus.vendor + ":" + d->bus.device;
    }
}

// A built-in runs as `gfxstat workload NAME --opt value ...`: its options
// are what follows the name (defaults included, as they ran), without the
// path of this gfxstat, which differs between builds that run the same thing.
data::WorkloadRecord workload_record(const WorkloadOptions& o, const std::vector<std::string>& command) {
    data::WorkloadRecord r;
    if (!o.builtin.empty()) {
        r.builtin = o.builtin;
        for (size_t i = 3; i + 1 < command.size(); i += 2)
            r.options[command[i].rfind("--", 0) == 0 ? command[i].substr(2) : command[i]] = command[i + 1];
        r.parser = o.builtin;  // each built-in has its parser of the same name
        return r;
    }
    r.argv = o.command;
    if (!o.regexes.empty()) {
        r.parser = "metric";  // --metric NAME=REGEX
        r.metrics = o.regexes;
    } else {
        r.parser = o.parser_name.empty() ? "lines" : o.parser_name;
        if (r.parser == "lines") r.parser_options["metric_name"] = o.metric_name.empty() ? "value" : o.metric_name;
    }
    if (!o.unit.empty()) r.parser_options["unit"] = o.unit;
    if (o.direction != data::Direction::unknown) r.parser_options["direction"] = data::direction_name(o.direction);
    return r;
}

}  // namespace

Workload make_workload(const WorkloadOptions& o) {
    const std::string& workload = o.builtin;
    const std::string& device = o.device;
    const std::string& load = o.load;
    const std::vector<std::string>& command = o.command;
    const std::vector<std::string>& regexes = o.regexes;
    const std::string& parser_name = o.parser_name;
    const std::string& metric_name = o.metric_name;
    const std::string& unit = o.unit;
    const data::Direction direction = o.direction;
    const double duration = o.duration;
    const uint64_t iterations = o.iterations, size = o.size;
    const unsigned burst = o.burst;
    if (workload.empty() == command.empty()) throw std::invalid_argument("give a command or a built-in workload, not both");
    if (!load.empty() && workload != "wakeup-latency") throw std::invalid_argument("--load goes with --workload wakeup-latency");
    Workload w;
    if (is_drm_workload(workload)) {
        if (!device.empty()) {
            // A --device that is not a DRM node is a usage error, found
            // before anything is written; no permission is the run's skip.
            try {
                drivers::choose_drm_node(workload, device);
            } catch (const drivers::DrmWorkloadError& e) {
                if (e.exit_code() == 2) throw std::invalid_argument(std::string("--device: ") + e.what());
            }
        }
        w.command = {self_executable(), "workload", workload};
        if (!device.empty()) w.command.insert(w.command.end(), {"--device", device});
        if (iterations) w.command.insert(w.command.end(), {"--iterations", std::to_string(iterations)});
        if (size) w.command.insert(w.command.end(), {"--size", std::to_string(size)});
        if (workload == "i915-exec-nop") {
            char dur[32];
            std::snprintf(dur, sizeof dur, "%g", duration);
            w.command.insert(w.command.end(), {"--duration", dur});
            if (burst) w.command.insert(w.command.end(), {"--burst", std::to_string(burst)});
        }
        w.default_label = workload;
        w.tags["workload"] = workload;
        if (size) w.tags["size"] = std::to_string(size);
        add_device_tags(workload, device, w.tags);
        w.parser = drivers::make_parser(workload);
    } else if (!workload.empty()) {
        int threads = 0;
        if (!load.empty()) {
            char* end = nullptr;
            const bool digits = load.size() > 4 && load.find_first_not_of("0123456789", 4) == std::string::npos;
            const long n = load.rfind("cpu:", 0) == 0 && digits ? std::strtol(load.c_str() + 4, &end, 10) : -1;
            if (n < 0 || n > 1024 || !end || *end != '\0')
                throw std::invalid_argument("--load wants cpu:N (0 to 1024 busy threads), not '" + load + "'");
            threads = static_cast<int>(n);
        }
        char dur[32];
        std::snprintf(dur, sizeof dur, "%g", duration);
        w.command = {self_executable(), "workload", workload, "--duration", dur, "--load-threads",
                        std::to_string(threads)};
        w.default_label = threads ? workload + "+cpu:" + std::to_string(threads) : workload;
        w.tags["workload"] = workload;
        if (threads) w.tags["load"] = load;
        w.parser = drivers::make_parser("wakeup-latency");
    } else {
        w.command = command;
        {
            const size_t slash = command[0].rfind('/');
            w.default_label = slash == std::string::npos ? command[0] : command[0].substr(slash + 1);
        }
        if (!regexes.empty()) {
            if (!parser_name.empty()) throw std::invalid_argument("--parser and --metric exclude each other");
            w.parser = drivers::make_regex_parser(regexes);
        } else {
            try {
                w.parser = drivers::make_parser(parser_name.empty() ? "lines" : parser_name, metric_name);
            } catch (const std::invalid_argument& e) {
                // A mistyped parser: the nearest name, before the list of all.
                const std::string near = text::did_you_mean(parser_name, drivers::parser_names());
                if (near.empty() || formats::find_format(parser_name)) throw;  // a file format says so itself
                throw std::invalid_argument("unknown parser " + data::quote_token(parser_name) + near);
            }
        }
        if (!unit.empty() || direction != data::Direction::unknown) {
            if (!regexes.empty() || parser_name.empty() || parser_name == "lines")
                w.parser = std::make_unique<OverriddenParser>(std::move(w.parser), unit, direction);
            else
                throw std::invalid_argument("the " + parser_name + " parser knows its units and directions");
        }
    }
    w.record = workload_record(o, w.command);
    return w;
}

}  // namespace gfxstat::cli
