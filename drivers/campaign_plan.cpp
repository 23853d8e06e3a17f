// SPDX-License-Identifier: MIT
#include "drivers/campaign_plan.h"

#include "drivers/image_check_pass.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

#include "analysis/xoshiro.h"
#include "data/input_error.h"

namespace gfxstat::drivers {

namespace {

using nlohmann::ordered_json;

// A problem with one member of the plan: thrown as an InputError naming
// the file and the member ("variants[1].before_reboot: ...").
struct PlanError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

[[noreturn]] void fail(const std::string& where, const std::string& what) {
    throw PlanError(where + ": " + what);
}

void only_keys(const ordered_json& obj, const std::string& where, std::initializer_list<const char*> keys) {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        bool known = false;
        for (const char* k : keys) known |= it.key() == k;
        if (!known) {
            std::string list;
            for (const char* k : keys) list += std::string(list.empty() ? "" : ", ") + k;
            fail(where.empty() ? it.key() : where + "." + it.key(), "unknown member (known: " + list + ")");
        }
    }
}

std::string get_string(const ordered_json& v, const std::string& where, bool non_empty = true) {
    if (!v.is_string()) fail(where, "expected a string");
    std::string s = v.get<std::string>();
    if (non_empty && s.empty()) fail(where, "must not be empty");
    return s;
}

// Names and labels go into messages, file names and a systemd unit: one
// line of printable text.
std::string get_name(const ordered_json& v, const std::string& where) {
    std::string s = get_string(v, where);
    for (unsigned char c : s)
        if (c < 0x20 || c == 0x7f) fail(where, "must not hold control characters (newlines, tabs)");
    // A unit file joins a line that ends in a backslash with the next.
    if (s.back() == '\\') fail(where, "must not end with a backslash");
    return s;
}

bool get_bool(const ordered_json& v, const std::string& where) {
    if (!v.is_boolean()) fail(where, "expected true or false");
    return v.get<bool>();
}

uint64_t get_count(const ordered_json& v, const std::string& where, uint64_t lo, uint64_t hi) {
    if (!v.is_number_integer() || (v.is_number_integer() && !v.is_number_unsigned() && v.get<int64_t>() < 0))
        fail(where, "expected a whole number from " + std::to_string(lo) + " to " + std::to_string(hi));
    const uint64_t n = v.get<uint64_t>();
    if (n < lo || n > hi) fail(where, "expected a whole number from " + std::to_string(lo) + " to " + std::to_string(hi));
    return n;
}

double get_seconds(const ordered_json& v, const std::string& where, double lo, double hi) {
    if (!v.is_number()) fail(where, "expected a number of seconds");
    const double x = v.get<double>();
    if (!(x >= lo && x <= hi)) fail(where, "expected a number from " + std::to_string(lo).substr(0, 6) + " to " +
                                               std::to_string(hi).substr(0, 10));
    return x;
}

PlanCommand get_command(const ordered_json& v, const std::string& where) {
    PlanCommand c;
    if (v.is_string()) {
        const std::string line = v.get<std::string>();
        if (line.empty()) fail(where, "must not be empty");
        c.shell = true;
        c.argv = {"/bin/sh", "-c", line};
        return c;
    }
    if (!v.is_array() || v.empty())
        fail(where, "expected a command: an array of strings (argv, no shell) or a string (a shell line)");
    for (size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_string()) fail(where + "[" + std::to_string(i) + "]", "expected a string");
        c.argv.push_back(v[i].get<std::string>());
    }
    if (c.argv[0].empty()) fail(where + "[0]", "the program must not be empty");
    return c;
}

ordered_json command_json(const PlanCommand& c) {
    if (c.shell) return c.argv[2];
    return c.argv;
}

std::map<std::string, std::string> get_string_map(const ordered_json& v, const std::string& where) {
    if (!v.is_object()) fail(where, "expected an object of strings");
    std::map<std::string, std::string> m;
    for (auto it = v.begin(); it != v.end(); ++it) {
        if (it.key().empty()) fail(where, "an empty name");
        m[it.key()] = get_string(it.value(), where + "." + it.key(), false);
    }
    return m;
}

bool valid_env_name(const std::string& n) {
    if (n.empty() || (n[0] >= '0' && n[0] <= '9')) return false;
    for (char c : n)
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

CampaignVariant parse_variant(const ordered_json& v, const std::string& where) {
    if (!v.is_object()) fail(where, "expected an object {\"label\": ..., \"reboot\": true|false, ...}");
    only_keys(v, where, {"label", "reboot", "before_reboot", "expect", "env", "setup", "tags"});
    CampaignVariant var;
    if (!v.contains("label")) fail(where, "a variant needs a \"label\"");
    var.label = get_name(v["label"], where + ".label");
    if (!v.contains("reboot")) fail(where, "say whether the variant needs a reboot: \"reboot\": true or false");
    var.reboot = get_bool(v["reboot"], where + ".reboot");
    if (v.contains("before_reboot")) {
        if (!var.reboot)
            fail(where + ".before_reboot", "only a variant with \"reboot\": true is deployed by a reboot");
        var.before_reboot = get_command(v["before_reboot"], where + ".before_reboot");
    }
    if (v.contains("expect")) {
        const auto& e = v["expect"];
        const std::string w = where + ".expect";
        if (!e.is_object()) fail(w, "expected an object with kernel_release, kernel_cmdline_contains or command");
        only_keys(e, w, {"kernel_release", "kernel_cmdline_contains", "command"});
        if (e.contains("kernel_release")) var.expect.kernel_release = get_string(e["kernel_release"], w + ".kernel_release");
        if (e.contains("kernel_cmdline_contains"))
            var.expect.kernel_cmdline_contains = get_string(e["kernel_cmdline_contains"], w + ".kernel_cmdline_contains");
        if (e.contains("command")) var.expect.command = get_command(e["command"], w + ".command");
        if (var.expect.empty()) fail(w, "empty: give kernel_release, kernel_cmdline_contains or command");
    }
    if (var.reboot && var.expect.empty())
        fail(where, "a variant that needs a reboot needs an \"expect\" check (kernel_release, kernel_cmdline_contains "
                    "or command): a kernel that did not boot must not be measured as this variant");
    if (v.contains("env")) {
        var.env = get_string_map(v["env"], where + ".env");
        for (const auto& [k, val] : var.env)
            if (!valid_env_name(k)) fail(where + ".env." + k, "not a valid environment variable name");
    }
    if (v.contains("setup")) var.setup = get_command(v["setup"], where + ".setup");
    if (v.contains("tags")) var.tags = get_string_map(v["tags"], where + ".tags");
    return var;
}

CampaignWorkload parse_workload(const ordered_json& w) {
    const std::string where = "workload";
    if (!w.is_object())
        fail(where, "expected {\"command\": [...], \"parser\": ...} or {\"builtin\": \"wakeup-latency\", ...}");
    only_keys(w, where, {"command", "parser", "metrics", "metric_name", "unit", "direction", "builtin", "device",
                         "load", "duration", "iterations", "size", "burst"});
    CampaignWorkload wl;
    const bool has_command = w.contains("command"), has_builtin = w.contains("builtin");
    if (has_command == has_builtin) fail(where, "give either \"command\" or \"builtin\"");
    if (has_command) {
        const PlanCommand c = get_command(w["command"], where + ".command");
        wl.command = c.argv;
        for (const char* k : {"builtin", "device", "load", "duration", "iterations", "size", "burst"})
            if (w.contains(k)) fail(where + "." + k, "goes with \"builtin\", not with a command");
        if (w.contains("parser")) wl.parser = get_string(w["parser"], where + ".parser");
        if (w.contains("metrics")) {
            if (w.contains("parser")) fail(where + ".metrics", "\"parser\" and \"metrics\" exclude each other");
            wl.metrics = get_string_map(w["metrics"], where + ".metrics");
            if (wl.metrics.empty()) fail(where + ".metrics", "empty");
        }
        if (w.contains("metric_name")) wl.metric_name = get_string(w["metric_name"], where + ".metric_name");
        if (w.contains("unit")) wl.unit = get_string(w["unit"], where + ".unit");
        if (w.contains("direction")) {
            const std::string d = get_string(w["direction"], where + ".direction");
            if (d == "lower") wl.direction = data::Direction::lower_is_better;
            else if (d == "higher") wl.direction = data::Direction::higher_is_better;
            else fail(where + ".direction", "expected \"lower\" or \"higher\"");
        }
    } else {
        wl.builtin = get_string(w["builtin"], where + ".builtin");
        const std::vector<std::string> known{"wakeup-latency", "drm-ioctl", "drm-gem", "i915-exec-nop"};
        if (std::find(known.begin(), known.end(), wl.builtin) == known.end())
            fail(where + ".builtin", "expected one of wakeup-latency, drm-ioctl, drm-gem, i915-exec-nop");
        for (const char* k : {"parser", "metrics", "metric_name", "unit", "direction"})
            if (w.contains(k)) fail(where + "." + k, "goes with a command; a built-in workload has its own parser");
        const auto own = [&](const char* key, std::initializer_list<const char*> workloads) {
            if (!w.contains(key)) return false;
            for (const char* name : workloads)
                if (wl.builtin == name) return true;
            fail(where + "." + key, "does not go with " + wl.builtin);
        };
        if (own("device", {"drm-ioctl", "drm-gem", "i915-exec-nop"})) wl.device = get_string(w["device"], where + ".device");
        if (own("load", {"wakeup-latency"})) wl.load = get_string(w["load"], where + ".load");
        if (own("duration", {"wakeup-latency", "i915-exec-nop"}))
            wl.duration = get_seconds(w["duration"], where + ".duration", 0.01, 3600);
        if (own("iterations", {"drm-ioctl", "drm-gem"}))
            wl.iterations = get_count(w["iterations"], where + ".iterations", 1, 10000000);
        if (own("size", {"drm-gem"})) wl.size = get_count(w["size"], where + ".size", 4, 0xFFFFF000);
        if (own("burst", {"i915-exec-nop"})) wl.burst = static_cast<unsigned>(get_count(w["burst"], where + ".burst", 1, 1000000));
    }
    return wl;
}

ordered_json workload_json(const CampaignWorkload& wl) {
    ordered_json w = ordered_json::object();
    if (!wl.builtin.empty()) {
        w["builtin"] = wl.builtin;
        if (!wl.device.empty()) w["device"] = wl.device;
        if (!wl.load.empty()) w["load"] = wl.load;
        if (wl.duration > 0) w["duration"] = wl.duration;
        if (wl.iterations) w["iterations"] = wl.iterations;
        if (wl.size) w["size"] = wl.size;
        if (wl.burst) w["burst"] = wl.burst;
        return w;
    }
    w["command"] = wl.command;
    if (!wl.parser.empty()) w["parser"] = wl.parser;
    if (!wl.metrics.empty()) w["metrics"] = wl.metrics;
    if (!wl.metric_name.empty()) w["metric_name"] = wl.metric_name;
    if (!wl.unit.empty()) w["unit"] = wl.unit;
    if (wl.direction != data::Direction::unknown)
        w["direction"] = wl.direction == data::Direction::lower_is_better ? "lower" : "higher";
    return w;
}

// A Williams design: orders of 0..n-1 in which every item comes first
// equally often and directly follows every other item equally often
// (carry-over balance). For two items it is AB, BA: ABBA. n rows for an
// even n; for an odd n the rows and their mirrors, 2n.
std::vector<std::vector<size_t>> williams_orders(size_t n) {
    std::vector<size_t> first;
    for (size_t j = 0, lo = 1, hi = n - 1; j < n; ++j) {
        if (j == 0) first.push_back(0);
        else if (j % 2 == 1) first.push_back(lo++);
        else first.push_back(hi--);
    }
    std::vector<std::vector<size_t>> rows;
    for (size_t i = 0; i < n; ++i) {
        std::vector<size_t> row;
        for (size_t x : first) row.push_back((x + i) % n);
        rows.push_back(row);
    }
    if (n % 2 == 1 && n > 1)
        for (size_t i = 0; i < n; ++i) rows.push_back(std::vector<size_t>(rows[i].rbegin(), rows[i].rend()));
    return rows;
}

// A seeded shuffle (Fisher-Yates), the same on every machine.
template <typename T>
void shuffle(std::vector<T>& v, analysis::Xoshiro256ss& rng) {
    for (size_t i = v.size(); i > 1; --i) {
        const size_t j = static_cast<size_t>(rng.next() % i);
        std::swap(v[i - 1], v[j]);
    }
}

// The schedule. Boot slots: each reboot variant's boots_per_variant boots,
// and, when there are switchable variants, boots_per_variant boots that
// run them all interleaved. Rounds hold one slot of each kind, in the
// orders of a Williams design taken in turn ("abba": with two kinds A B,
// then B A, so that neither always comes first or after the other), or
// shuffled per round ("random"). Inside a boot: each variant's warm-ups,
// then the measured runs in rounds of one per variant, ordered the same
// way, the design's row advancing from boot to boot too.
void build_schedule(CampaignPlan& plan) {
    plan.slots.clear();
    plan.steps.clear();
    std::vector<std::vector<size_t>> kinds;
    std::vector<size_t> switchable;
    for (size_t i = 0; i < plan.variants.size(); ++i) {
        if (plan.variants[i].reboot) kinds.push_back({i});
        else switchable.push_back(i);
    }
    if (!switchable.empty()) kinds.push_back(switchable);
    uint64_t sm = plan.seed;
    analysis::Xoshiro256ss rng({analysis::splitmix64(sm), analysis::splitmix64(sm), analysis::splitmix64(sm),
                                analysis::splitmix64(sm)});
    size_t shared_boots = 0;  // slots of the switchable kind so far
    const auto kind_orders = williams_orders(kinds.size());
    const auto run_orders = williams_orders(switchable.empty() ? 1 : switchable.size());
    for (size_t round = 0; round < plan.boots_per_variant; ++round) {
        std::vector<size_t> order(kinds.size());
        for (size_t k = 0; k < order.size(); ++k) order[k] = k;
        if (plan.order == "random") shuffle(order, rng);
        else order = kind_orders[round % kind_orders.size()];
        for (size_t k : order) {
            CampaignSlot slot;
            slot.index = plan.slots.size();
            slot.variants = kinds[k];
            slot.deploy = kinds[k].size() == 1 && plan.variants[kinds[k][0]].reboot;
            const auto add = [&](size_t variant, bool warmup) {
                CampaignStep s;
                s.step = plan.steps.size();
                s.slot = slot.index;
                s.variant = variant;
                s.warmup = warmup;
                slot.steps.push_back(s.step);
                plan.steps.push_back(s);
            };
            const size_t flip = slot.deploy ? 0 : shared_boots++;
            for (size_t w = 0; w < plan.warmup_runs; ++w)
                for (size_t v : slot.variants) add(v, true);
            for (size_t r = 0; r < plan.runs_per_boot; ++r) {
                std::vector<size_t> vs = slot.variants;
                if (plan.order == "random") {
                    shuffle(vs, rng);
                } else if (vs.size() > 1) {
                    const auto& row = run_orders[(r + flip) % run_orders.size()];
                    for (size_t i = 0; i < row.size(); ++i) vs[i] = slot.variants[row[i]];
                }
                for (size_t v : vs) add(v, false);
            }
            plan.slots.push_back(std::move(slot));
        }
    }
}

ordered_json schedule_json(const CampaignPlan& plan) {
    ordered_json slots = ordered_json::array();
    for (const auto& slot : plan.slots) {
        ordered_json s;
        s["slot"] = slot.index;
        ordered_json vs = ordered_json::array();
        for (size_t v : slot.variants) vs.push_back(plan.variants[v].label);
        s["variants"] = vs;
        s["deploy"] = slot.deploy;
        ordered_json steps = ordered_json::array();
        for (uint64_t k : slot.steps) {
            const CampaignStep& st = plan.steps[k];
            ordered_json j;
            j["step"] = st.step;
            j["variant"] = plan.variants[st.variant].label;
            j["warmup"] = st.warmup;
            steps.push_back(j);
        }
        s["steps"] = steps;
        slots.push_back(s);
    }
    return slots;
}

size_t line_of(std::string_view text, size_t byte) {
    size_t line = 1;
    for (size_t i = 0; i < byte && i < text.size(); ++i) line += text[i] == '\n';
    return line;
}

}  // namespace

std::string PlanCommand::text() const {
    if (shell) return argv[2];
    std::string s;
    for (const auto& a : argv) {
        if (!s.empty()) s += ' ';
        const bool plain = !a.empty() && a.find_first_of(" \t\n'\"\\$`;&|<>*?()[]{}") == std::string::npos;
        s += plain ? a : "'" + a + "'";
    }
    return s;
}

size_t CampaignPlan::measured_steps() const {
    size_t n = 0;
    for (const auto& s : steps) n += !s.warmup;
    return n;
}

CampaignPlan parse_campaign_plan(std::string_view text, const std::string& path) {
    ordered_json j;
    try {
        j = ordered_json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::parse_error& e) {
        const size_t at = e.byte > 0 ? e.byte - 1 : 0;
        std::string what = e.what();
        const size_t colon = what.rfind(": ");
        if (colon != std::string::npos) what = what.substr(colon + 2);
        throw data::input_error(path, line_of(text, at), "not valid JSON: " + what);
    } catch (const nlohmann::json::exception& e) {
        // A number too large for any type (1e400): no position is given.
        std::string what = e.what();
        const size_t bracket = what.find("] ");
        throw data::input_error(path, 0, "not valid JSON: " + (bracket == std::string::npos ? what : what.substr(bracket + 2)));
    }
    CampaignPlan plan;
    try {
        if (!j.is_object()) fail("the plan", "expected a JSON object {\"variants\": [...], \"workload\": {...}, ...}");
        only_keys(j, "", {"name", "variants", "workload", "timeout_s", "cooldown_s", "runs_per_boot",
                          "boots_per_variant", "warmup_runs", "order", "seed", "reboot_command", "reboot_first",
                          "max_reboots", "max_consecutive_failures", "max_run_attempts", "max_deploy_attempts",
                          "max_resumes_without_progress", "schedule", "check_images", "check_frames"});
        if (j.contains("name")) plan.name = get_name(j["name"], "name");
        if (!j.contains("variants") || !j["variants"].is_array() || j["variants"].size() < 2)
            fail("variants", "expected an array of at least two variants (a baseline and a candidate)");
        std::set<std::string> labels;
        for (size_t i = 0; i < j["variants"].size(); ++i) {
            CampaignVariant v = parse_variant(j["variants"][i], "variants[" + std::to_string(i) + "]");
            if (!labels.insert(v.label).second)
                fail("variants[" + std::to_string(i) + "].label", "'" + v.label + "' is used twice");
            plan.variants.push_back(std::move(v));
        }
        if (!j.contains("workload")) fail("workload", "missing: what each run runs");
        plan.workload = parse_workload(j["workload"]);
        if (j.contains("timeout_s")) plan.timeout_s = get_seconds(j["timeout_s"], "timeout_s", 0.001, 1e7);
        if (j.contains("cooldown_s")) plan.cooldown_s = get_seconds(j["cooldown_s"], "cooldown_s", 0, 1e7);
        if (j.contains("runs_per_boot")) plan.runs_per_boot = get_count(j["runs_per_boot"], "runs_per_boot", 1, 100000);
        if (j.contains("boots_per_variant"))
            plan.boots_per_variant = get_count(j["boots_per_variant"], "boots_per_variant", 1, 10000);
        if (j.contains("warmup_runs")) plan.warmup_runs = get_count(j["warmup_runs"], "warmup_runs", 0, 100000);
        if (j.contains("order")) {
            plan.order = get_string(j["order"], "order");
            if (plan.order != "abba" && plan.order != "random") fail("order", "expected \"abba\" or \"random\"");
        }
        if (j.contains("seed")) plan.seed = get_count(j["seed"], "seed", 0, UINT64_MAX);
        plan.reboot_command = j.contains("reboot_command") ? get_command(j["reboot_command"], "reboot_command")
                                                           : PlanCommand{{"systemctl", "reboot"}, false};
        if (j.contains("reboot_first")) plan.reboot_first = get_bool(j["reboot_first"], "reboot_first");
        if (j.contains("check_images")) plan.check_images = get_bool(j["check_images"], "check_images");
        if (j.contains("check_frames")) plan.check_frames = get_string(j["check_frames"], "check_frames");
        {
            ImageCheckSettings checks;
            checks.enabled = plan.check_images;
            checks.parser = plan.workload.builtin.empty() ? (plan.workload.parser.empty() ? "lines" : plan.workload.parser)
                                                          : plan.workload.builtin;
            checks.callset = plan.check_frames;
            try {
                check_image_settings(checks, {plan.workload.command});
            } catch (const std::invalid_argument& e) {
                std::string why = e.what();
                for (const auto& [option, member] : {std::pair<std::string, std::string>{"--check-images", "\"check_images\""},
                                                     {"--check-frames", "\"check_frames\""}, {"--parser", "workload \"parser\""}})
                    for (size_t at = why.find(option); at != std::string::npos; at = why.find(option, at + member.size()))
                        why.replace(at, option.size(), member);
                fail(plan.check_frames.empty() || plan.check_images ? "check_images" : "check_frames", why);
            }
        }
        if (j.contains("max_consecutive_failures"))
            plan.max_consecutive_failures = get_count(j["max_consecutive_failures"], "max_consecutive_failures", 1, 1000000);
        if (j.contains("max_run_attempts"))
            plan.max_run_attempts = get_count(j["max_run_attempts"], "max_run_attempts", 1, 1000000);
        if (j.contains("max_deploy_attempts"))
            plan.max_deploy_attempts = get_count(j["max_deploy_attempts"], "max_deploy_attempts", 1, 1000000);
        if (j.contains("max_resumes_without_progress"))
            plan.max_resumes_without_progress =
                get_count(j["max_resumes_without_progress"], "max_resumes_without_progress", 2, 1000000);
        const size_t steps = plan.variants.size() * plan.boots_per_variant * (plan.runs_per_boot + plan.warmup_runs);
        if (steps > 1000000) fail("runs_per_boot", "the plan has more than a million runs");
        build_schedule(plan);
        const size_t planned = plan.planned_reboots();
        if (j.contains("max_reboots")) {
            plan.max_reboots = get_count(j["max_reboots"], "max_reboots", 0, 1000000);
            if (plan.max_reboots < planned)
                fail("max_reboots", std::to_string(plan.max_reboots) + " is fewer than the " + std::to_string(planned) +
                                        " reboots the schedule needs");
        } else {
            plan.max_reboots = 2 * planned + 2;
        }
        if (j.contains("schedule") && schedule_json(plan) != j["schedule"])
            fail("schedule", "does not match the one the plan's settings give (was plan.json edited?)");
    } catch (const PlanError& e) {
        throw data::input_error(path, 0, e.what());
    } catch (const nlohmann::json::exception& e) {
        throw data::input_error(path, 0, e.what());
    }
    return plan;
}

std::string campaign_plan_json(const CampaignPlan& plan) {
    ordered_json j;
    if (!plan.name.empty()) j["name"] = plan.name;
    ordered_json vs = ordered_json::array();
    for (const auto& v : plan.variants) {
        ordered_json o;
        o["label"] = v.label;
        o["reboot"] = v.reboot;
        if (!v.before_reboot.empty()) o["before_reboot"] = command_json(v.before_reboot);
        if (!v.expect.empty()) {
            ordered_json e = ordered_json::object();
            if (!v.expect.kernel_release.empty()) e["kernel_release"] = v.expect.kernel_release;
            if (!v.expect.kernel_cmdline_contains.empty()) e["kernel_cmdline_contains"] = v.expect.kernel_cmdline_contains;
            if (!v.expect.command.empty()) e["command"] = command_json(v.expect.command);
            o["expect"] = e;
        }
        if (!v.env.empty()) o["env"] = v.env;
        if (!v.setup.empty()) o["setup"] = command_json(v.setup);
        if (!v.tags.empty()) o["tags"] = v.tags;
        vs.push_back(o);
    }
    j["variants"] = vs;
    j["workload"] = workload_json(plan.workload);
    if (plan.timeout_s > 0) j["timeout_s"] = plan.timeout_s;
    if (plan.cooldown_s > 0) j["cooldown_s"] = plan.cooldown_s;
    j["runs_per_boot"] = plan.runs_per_boot;
    j["boots_per_variant"] = plan.boots_per_variant;
    j["warmup_runs"] = plan.warmup_runs;
    j["order"] = plan.order;
    j["seed"] = plan.seed;
    j["reboot_command"] = command_json(plan.reboot_command);
    j["reboot_first"] = plan.reboot_first;
    if (plan.check_images) j["check_images"] = true;
    if (!plan.check_frames.empty()) j["check_frames"] = plan.check_frames;
    j["max_reboots"] = plan.max_reboots;
    j["max_consecutive_failures"] = plan.max_consecutive_failures;
    j["max_run_attempts"] = plan.max_run_attempts;
    j["max_deploy_attempts"] = plan.max_deploy_attempts;
    j["max_resumes_without_progress"] = plan.max_resumes_without_progress;
    j["schedule"] = schedule_json(plan);
    return j.dump(1) + "\n";
}

}  // namespace gfxstat::drivers
