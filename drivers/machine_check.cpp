// SPDX-License-Identifier: MIT
// The pre-measure check: small reads of sysfs and procfs, each item
// independent, none fatal. An item whose source is missing gives no
// finding (a VM without cpufreq has no governor to complain about), only
// a MissingSource for `tune show` to list.
#include "drivers/machine_check.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <system_error>

#include "data/input_error.h"
#include "drivers/rooted_open.h"
#include "drivers/sysfs_attribute.h"
#include "drivers/system_root.h"
#include "drivers/tunables.h"
#include "drivers/tune_owner.h"
#include "drivers/tune_state.h"

namespace gfxstat::drivers {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> read(const std::string& machine_path) {
    return read_machine_attribute_trimmed(machine_path);
}

std::optional<double> parse_double(const std::string& s) {
    double v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p == s.data()) return std::nullopt;
    return v;
}

// Counts the CPUs of a list such as "0-3,5".
std::optional<unsigned> count_cpu_list(const std::string& list) {
    unsigned count = 0;
    std::stringstream ss(list);
    std::string part;
    while (std::getline(ss, part, ',')) {
        unsigned a = 0, b = 0;
        const auto dash = part.find('-');
        const std::string lo = part.substr(0, dash), hi = dash == std::string::npos ? lo : part.substr(dash + 1);
        if (std::from_chars(lo.data(), lo.data() + lo.size(), a).ec != std::errc() ||
            std::from_chars(hi.data(), hi.data() + hi.size(), b).ec != std::errc() || b < a)
            return std::nullopt;
        count += b - a + 1;
    }
    return count ? std::optional<unsigned>(count) : std::nullopt;
}

using Missing = std::vector<MissingSource>;

void check_governor(const Tunables& t, std::vector<MachineFinding>& out, Missing& missing) {
    if (t.governors.empty()) {
        missing.push_back({"governor", "cpufreq control", "no /sys/devices/system/cpu/cpu0/cpufreq"});
        return;
    }
    std::map<std::string, std::vector<unsigned>> by;
    for (const auto& g : t.governors) by[read(g.path).value_or("?")].push_back(g.cpu);
    MachineFinding f{"governor", "CPU governor", "", "", false};
    if (by.size() == 1 && by.count("performance")) {
        f.state = "performance on every CPU (" + std::to_string(t.governors.size()) + ")";
    } else {
        f.problem = true;
        for (const auto& [gov, cpus] : by) f.state += (f.state.empty() ? "" : "; ") + gov + " on cpu" + cpu_ranges(cpus);
        f.advice = "set it to performance: gfxstat tune apply, or cpupower frequency-set -g performance";
    }
    out.push_back(f);
}

void check_turbo(const Tunables& t, std::vector<MachineFinding>& out, Missing& missing) {
    if (t.turbo.empty()) {
        missing.push_back({"turbo", "turbo/boost switch", "no intel_pstate/no_turbo or cpufreq boost file"});
        return;
    }
    MachineFinding f{"turbo", "CPU turbo/boost", "", "", false};
    std::string on, off;
    const TurboSwitch* first_on = nullptr;
    for (const auto& s : t.turbo) {
        const auto v = read(s.path);
        if (!v) continue;
        const bool is_off = *v == s.off;
        (is_off ? off : on) += std::string((is_off ? off : on).empty() ? "" : ", ") + s.name + " = " + *v;
        if (!is_off && !first_on) first_on = &s;
    }
    if (on.empty() && off.empty()) return;
    if (first_on) {
        f.problem = true;
        f.state = "on (" + on + ")";
        f.advice = "turn it off: gfxstat tune apply, or echo " + first_on->off + " > " + first_on->path;
    } else {
        f.state = "off (" + off + ")";
    }
    out.push_back(f);
}

void check_gpu_frequency(const Tunables& t, std::vector<MachineFinding>& out, Missing& missing) {
    if (t.gpus.empty() && t.amdgpu.empty()) {
        missing.push_back(
            {"gpu_frequency", "GPU frequency controls", "no i915, xe or amdgpu card under /sys/class/drm"});
        return;
    }
    MachineFinding f{"gpu_frequency", "GPU frequency", "", "", false};
    std::vector<std::string> free, pinned;
    for (const auto& g : t.gpus) {
        const auto lo = read(g.min_path), hi = read(g.max_path);
        if (!lo || !hi) continue;
        const std::string who = g.name + " (" + g.driver + ")";
        if (*lo == *hi) pinned.push_back(who + " " + *lo + " MHz");
        else free.push_back(who + " " + *lo + "-" + *hi + " MHz");
    }
    for (const auto& a : t.amdgpu) {
        const auto level = read(a.path);
        if (!level) continue;
        // Every level but auto holds the clocks where it puts them.
        (*level == "auto" ? free : pinned).push_back(a.card + " (amdgpu) " + *level);
    }
    if (free.empty() && pinned.empty()) return;
    const auto join = [](const std::vector<std::string>& v) {
        std::string s;
        for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
        return s;
    };
    if (!free.empty()) {
        f.problem = true;
        f.state = "not pinned: " + join(free);
        f.advice = "pin it: gfxstat tune apply (RP1 by default; --gpu-freq MHZ|rp0|rp1)";
    } else {
        f.state = "pinned: " + join(pinned);
    }
    out.push_back(f);
}

void check_battery(std::vector<MachineFinding>& out, Missing& missing) {
    std::vector<std::string> names = list_machine_directory("/sys/class/power_supply");
    std::sort(names.begin(), names.end());
    std::vector<std::string> batteries, mains;
    bool discharging = false, mains_online = false;
    for (const auto& n : names) {
        const std::string dir = "/sys/class/power_supply/" + n;
        const std::string type = read(dir + "/type").value_or("");
        // A mouse's or a headset's battery (scope Device) does not power the machine.
        if (read(dir + "/scope").value_or("") == "Device") continue;
        if (type == "Battery") {
            const std::string status = read(dir + "/status").value_or("?");
            std::string s = status;
            std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
            if (auto cap = read(dir + "/capacity")) s += " (" + *cap + "%)";
            batteries.push_back(n + " " + s);
            if (status == "Discharging") discharging = true;
        } else if (type == "Mains" || type == "USB") {
            const bool online = read(dir + "/online").value_or("") == "1";
            mains_online |= online;
            mains.push_back(n + (online ? " online" : " offline"));
        }
    }
    if (batteries.empty()) {  // a desktop or server: nothing to warn about
        missing.push_back({"battery", "battery", "none"});
        return;
    }
    MachineFinding f{"battery", "power", "", "", false};
    for (const auto& s : batteries) f.state += (f.state.empty() ? "" : ", ") + s;
    for (const auto& s : mains) f.state += ", " + s;
    f.problem = discharging || (!mains.empty() && !mains_online);
    if (f.problem) {
        f.state = "on battery: " + f.state;
        f.advice = "plug in the charger: on battery the firmware and the kernel lower power limits and clocks";
    }
    out.push_back(f);
}

void check_load(std::vector<MachineFinding>& out, Missing& missing) {
    const auto text = read("/proc/loadavg");
    if (!text) {
        missing.push_back({"load", "load average", "no /proc/loadavg"});
        return;
    }
    const auto load = parse_double(text->substr(0, text->find(' ')));
    if (!load) return;
    std::optional<unsigned> cpus;
    if (auto online = read("/sys/devices/system/cpu/online")) cpus = count_cpu_list(*online);
    if (!cpus && system_root().empty()) {
        const long n = ::sysconf(_SC_NPROCESSORS_ONLN);
        if (n > 0) cpus = static_cast<unsigned>(n);
    }
    const unsigned n = cpus.value_or(1);
    const double limit = high_load_threshold(n);
    char buf[160];
    std::snprintf(buf, sizeof buf, "%.2f over the last minute, %u CPU%s", *load, n, n == 1 ? "" : "s");
    MachineFinding f{"load", "load average", buf, "", *load > limit};
    if (f.problem) {
        std::snprintf(buf, sizeof buf, " (above %.2f)", limit);
        f.state += buf;
        f.advice = "wait for it to fall, or stop what runs (top, or ps -eo pid,pcpu,comm --sort=-pcpu | head)";
    }
    out.push_back(f);
}

void check_swap(std::vector<MachineFinding>& out, Missing& missing) {
    const auto text = read_machine_attribute("/proc/swaps");
    if (!text) {
        missing.push_back({"swap", "swap", "no /proc/swaps"});
        return;
    }
    std::istringstream in(*text);
    std::string line;
    std::getline(in, line);  // the header
    std::vector<std::string> used;
    while (std::getline(in, line)) {
        std::istringstream f(line);
        std::string name, type;
        unsigned long long size = 0, in_use = 0;
        if (!(f >> name >> type >> size >> in_use)) continue;
        char buf[96];
        std::snprintf(buf, sizeof buf, ": %.1f MiB of %.1f MiB used", in_use / 1024.0, size / 1024.0);
        used.push_back(name + buf);
    }
    MachineFinding f{"swap", "swap", "off", "", !used.empty()};
    if (f.problem) {
        f.state = "on: ";
        for (size_t i = 0; i < used.size(); ++i) f.state += (i ? ", " : "") + used[i];
        f.advice = "swapoff -a while measuring (a page read back from swap slows one run), swapon -a after";
    }
    out.push_back(f);
}

// The saved governors that are no longer "performance" now:
// "cpu0-1 are back to powersave" ("cpu2 is ..."), "" when none.
std::string governors_undone(const TuneState& s) {
    const std::string cpu = "/sys/devices/system/cpu/cpu", gov = "/cpufreq/scaling_governor";
    std::map<std::string, std::vector<unsigned>> by_value;
    for (const auto& f : s.files) {
        if (f.path.rfind(cpu, 0) != 0 || f.path.size() <= cpu.size() + gov.size() ||
            f.path.compare(f.path.size() - gov.size(), gov.size(), gov) != 0)
            continue;
        const std::string n = f.path.substr(cpu.size(), f.path.size() - cpu.size() - gov.size());
        if (n.empty() || n.size() > 6 || n.find_first_not_of("0123456789") != std::string::npos) continue;
        const auto now = read(f.path);
        if (now && *now != "performance") by_value[*now].push_back(static_cast<unsigned>(std::stoul(n)));
    }
    std::string text;
    for (auto& [value, cpus] : by_value) {
        std::sort(cpus.begin(), cpus.end());
        text += (text.empty() ? "" : "; ") + std::string("cpu") + cpu_ranges(cpus) + (cpus.size() == 1 ? " is" : " are") +
                " back to " + value;
    }
    return text;
}

void check_tune_state(std::vector<MachineFinding>& out) {
    std::optional<TuneState> s;
    try {
        s = load_tune_state();
    } catch (const data::InputError& e) {
        out.push_back({"tune_state", "gfxstat tune", std::string("unreadable state: ") + e.what(),
                       "remove it if gfxstat did not write it; gfxstat tune reset cannot use it", true});
        return;
    }
    if (!s) return;
    if (s->boot_id == tune_boot_id() && tune_owner(*s) == TuneOwner::dead_run) {
        // Killed before it could restore: nobody will put these values back.
        out.push_back({"tuned_left_over", "gfxstat tune",
                       "tuned by " + tune_owner_text(*s) + " at " + s->time +
                           ", which ended without restoring it (" + std::to_string(s->files.size()) + " files saved)",
                       "gfxstat tune reset restores the saved values", true});
    } else if (const std::string undone = governors_undone(*s); s->boot_id == tune_boot_id() && !undone.empty()) {
        // power-profiles-daemon, TLP or a user's cpupower set them back.
        out.push_back({"tuned_undone", "gfxstat tune",
                       "tuned by " + tune_owner_text(*s) + " at " + s->time + ", but " + undone,
                       "something changed them since (power-profiles-daemon, TLP?): stop it, then gfxstat tune apply",
                       true});
    } else if (s->boot_id == tune_boot_id()) {
        out.push_back({"tuned_now", "gfxstat tune",
                       "tuned by " + tune_owner_text(*s) + " at " + s->time + " (" + std::to_string(s->files.size()) +
                           " files saved)",
                       "gfxstat tune reset restores the saved values", false});
    } else {
        out.push_back({"tuned_earlier", "gfxstat tune",
                       "tuned by " + tune_owner_text(*s) + " at " + s->time +
                           " in an earlier boot; the kernel has reset those values at boot",
                       "gfxstat tune reset forgets that state (it writes nothing); gfxstat tune apply tunes again",
                       true});
    }
}

}  // namespace

double high_load_threshold(unsigned cpus) { return static_cast<double>(std::max(1u, cpus)) + 1; }

std::string other_drm_clients_text(const std::vector<DrmClient>& clients, int self_pid) {
    std::vector<std::string> cards;                                  // in the order first seen
    std::map<std::string, std::vector<std::pair<int, std::string>>> by_card;  // card: (pid, comm), unique
    for (const auto& c : clients) {
        if (c.pid == self_pid) continue;
        const std::string card = !c.card.empty() ? c.card : !c.node.empty() ? c.node : "a DRM device";
        auto& list = by_card[card];
        if (list.empty()) cards.push_back(card);
        if (std::none_of(list.begin(), list.end(), [&](const auto& p) { return p.first == c.pid; }))
            list.emplace_back(c.pid, c.comm.empty() ? "?" : c.comm);
    }
    std::sort(cards.begin(), cards.end());
    std::string text;
    for (const auto& card : cards) {
        const auto& list = by_card[card];
        std::string who;
        for (size_t i = 0; i < list.size(); ++i) {
            if (i) who += i + 1 == list.size() ? " and " : ", ";
            who += list[i].second + " (pid " + std::to_string(list[i].first) + ")";
        }
        text += (text.empty() ? "" : "; ") + who + " also use" + (list.size() == 1 ? "s " : " ") + card;
    }
    return text;
}

std::vector<MachineFinding> check_machine(const std::vector<DrmClient>& clients, int self_pid,
                                          std::vector<MissingSource>* missing) {
    std::vector<MachineFinding> out;
    Missing lacking;
    const Tunables t = find_tunables();
    check_governor(t, out, lacking);
    check_turbo(t, out, lacking);
    check_gpu_frequency(t, out, lacking);
    check_battery(out, lacking);
    check_load(out, lacking);
    const std::string others = other_drm_clients_text(clients, self_pid);
    // /proc/PID/fd of other users' processes is closed to a normal user.
    const std::string seen = system_root().empty() && ::geteuid() != 0 ? " (of your own processes: others need root)" : "";
    out.push_back({"drm_clients", "other GPU clients", (others.empty() ? "none" : others) + seen,
                   others.empty() ? "" : "close them, or measure without a desktop session: their GPU work shares the GPU "
                                         "with the workload's",
                   !others.empty()});
    check_swap(out, lacking);
    check_tune_state(out);
    if (missing) *missing = std::move(lacking);
    return out;
}

std::vector<MachineFinding> check_machine(std::vector<MissingSource>* missing) {
    return check_machine(list_drm_clients(system_root()), ::getpid(), missing);
}

}  // namespace gfxstat::drivers
