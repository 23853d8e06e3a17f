// SPDX-License-Identifier: MIT
// gfxstat tune apply / reset. The order of things is what makes it safe:
// read every file to be written, save the originals durably, then write;
// on a refusal, put back what this call changed before saying so.
#include "drivers/machine_tune.h"

#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <map>
#include <set>

#include "data/input_error.h"
#include "drivers/rooted_open.h"
#include "drivers/sysfs_attribute.h"
#include "drivers/system_root.h"
#include "drivers/tune_lock.h"
#include "drivers/tune_owner.h"
#include "drivers/tune_state.h"
#include "drivers/tunables.h"

namespace gfxstat::drivers {
namespace {

std::string trimmed(const std::string& s) {
    static constexpr const char* kSpace = " \t\r\n\f\v";
    const auto b = s.find_first_not_of(kSpace);
    if (b == std::string::npos) return {};
    return s.substr(b, s.find_last_not_of(kSpace) - b + 1);
}

std::optional<unsigned long> number(const std::optional<std::string>& text) {
    if (!text) return std::nullopt;
    const std::string t = trimmed(*text);
    unsigned long v = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || p != t.data() + t.size() || t.empty()) return std::nullopt;
    return v;
}

// For a file of a min/max pair, the pair's min file; "" for any other file.
std::string pair_min_of(const std::string& path) {
    if (is_min_frequency_file(path)) return path;
    static const std::pair<const char*, const char*> kPairs[] = {{"/gt_max_freq_mhz", "/gt_min_freq_mhz"},
                                                                 {"/freq0/max_freq", "/freq0/min_freq"}};
    for (const auto& [max_suffix, min_suffix] : kPairs) {
        const std::string m = max_suffix;
        if (path.size() >= m.size() && path.compare(path.size() - m.size(), m.size(), m) == 0)
            return path.substr(0, path.size() - m.size()) + min_suffix;
    }
    return {};
}

}  // namespace

void require_tune_privileges(const TuneIo& io) {
    if (io.needs_rooted_opens && !rooted_opens_available())
        throw TuneError("writing under " + system_root() + " needs openat2(2) (Linux 5.6 or later) to keep every "
                        "write inside that tree, and this kernel lacks it; nothing was changed",
                        1);
    if (io.needs_root && (io.euid >= 0 ? io.euid : static_cast<long>(::geteuid())) != 0)
        throw TuneError("writing the machine's /sys files needs root: run it with sudo (or point --root DIR or "
                        "GFXSTAT_SYSFS_ROOT at a copy of the tree); nothing was changed",
                        1);
}

namespace {

std::optional<TuneState> load_state() {
    try {
        return load_tune_state();
    } catch (const data::InputError& e) {
        throw TuneError(e.what(), 2);
    }
}

// Writes `writes` in order; the errors as "PATH: ERRNO" (all are tried).
std::vector<std::string> write_all(const std::vector<FileWrite>& writes, const TuneIo& io) {
    std::vector<std::string> errors;
    for (const auto& w : writes)
        if (const int err = io.write(w.path, w.bytes)) errors.push_back(w.path + ": " + errno_text(err));
    return errors;
}

// "cpu3's governor is gone", or "PATH is gone" for any other file.
std::string gone_text(const std::string& path) {
    const std::string cpu = "/sys/devices/system/cpu/cpu", gov = "/cpufreq/scaling_governor";
    if (path.rfind(cpu, 0) == 0 && path.size() > cpu.size() + gov.size() &&
        path.compare(path.size() - gov.size(), gov.size(), gov) == 0) {
        const std::string n = path.substr(cpu.size(), path.size() - cpu.size() - gov.size());
        if (!n.empty() && n.find_first_not_of("0123456789") == std::string::npos) return "cpu" + n + "'s governor is gone";
    }
    return path + " is gone";
}

std::string shown(const std::optional<std::string>& bytes) { return bytes ? trimmed(*bytes) : std::string("?"); }

}  // namespace

std::optional<GpuFrequencyTarget> parse_gpu_frequency(const std::string& text) {
    GpuFrequencyTarget t;
    if (text == "rp0" || text == "RP0") {
        t.kind = GpuFrequencyTarget::Kind::rp0;
        return t;
    }
    if (text == "rp1" || text == "RP1") return t;
    auto v = number(text);
    if (!v || *v < 1 || *v > 100000 || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    t.kind = GpuFrequencyTarget::Kind::mhz;
    t.mhz = static_cast<unsigned>(*v);
    return t;
}

TuneIo system_tune_io() {
    TuneIo io;
    io.read = [](const std::string& p) { return read_machine_attribute(p); };
    io.write = [](const std::string& p, const std::string& bytes) { return write_machine_attribute(p, bytes); };
    io.needs_root = system_root().empty();
    io.needs_rooted_opens = !system_root().empty();
    return io;
}

std::vector<FileWrite> ordered_writes(const std::vector<FileWrite>& targets, const TuneIo& io) {
    std::map<std::string, const FileWrite*> by_path;
    for (const auto& t : targets) by_path[t.path] = &t;
    std::vector<FileWrite> out;
    std::set<std::string> done;
    const auto emit = [&](const FileWrite& w) {
        if (!done.insert(w.path).second) return;
        if (io.read(w.path) != std::optional<std::string>(w.bytes)) out.push_back(w);
    };
    for (const auto& t : targets) {
        if (done.count(t.path)) continue;
        const std::string min_path = pair_min_of(t.path);
        const std::string max_path = min_path.empty() ? "" : max_sibling_of(min_path);
        if (!min_path.empty() && by_path.count(min_path) && by_path.count(max_path)) {
            // The kernel keeps min <= max: a new max at or above the current
            // min goes first (then the new min, <= the new max); otherwise the
            // new min first (it is below the new max, so below the current one).
            const FileWrite& new_min = *by_path[min_path];
            const FileWrite& new_max = *by_path[max_path];
            const auto cur_min = number(io.read(min_path));
            const auto target_max = number(new_max.bytes);
            const bool max_first = !cur_min || !target_max || *target_max >= *cur_min;
            emit(max_first ? new_max : new_min);
            emit(max_first ? new_min : new_max);
            continue;
        }
        emit(t);
    }
    return out;
}

TuneLock lock_tune(bool create, const TuneIo& io) {
    try {
        return lock_tune_state(create, io.lock_wait_ms);
    } catch (const data::InputError& e) {
        throw TuneError(std::string(e.what()) + "; nothing was changed", 1);
    }
}

TuneReport apply_tune(const TuneRequest& request, const TuneIo& io) {
    require_tune_privileges(io);
    TuneReport report;
    const Tunables t = find_tunables();
    std::vector<FileWrite> targets;
    std::vector<std::pair<std::string, std::vector<std::string>>> groups;  // what, its files

    std::map<std::string, std::vector<unsigned>> cpus_by_governor;
    std::vector<std::string> governor_files;
    for (const auto& g : t.governors) {
        if (auto avail = io.read(g.available_path)) {
            const std::string list = " " + trimmed(*avail) + " ";
            if (list.find(" performance ") == std::string::npos) {
                report.notes.push_back("cpu" + std::to_string(g.cpu) + " has no performance governor (it offers " +
                                       trimmed(*avail) + "); left as it is");
                continue;
            }
        }
        cpus_by_governor[shown(io.read(g.path))].push_back(g.cpu);
        targets.push_back({g.path, "performance\n"});
    }
    for (const auto& [before, cpus] : cpus_by_governor)
        report.changes.push_back("governor of cpu" + cpu_ranges(cpus) + ": " +
                                 (before == "performance" ? "performance (unchanged)" : before + " -> performance"));
    for (const auto& s : t.turbo) {
        report.changes.push_back(s.name + ": " + shown(io.read(s.path)) + " -> " + s.off + " (turbo off)");
        targets.push_back({s.path, s.off + "\n"});
    }
    for (const auto& g : t.gpus) {
        unsigned long mhz = request.gpu.mhz;
        const auto rp0 = number(io.read(g.rp0_path)), rpn = number(io.read(g.rpn_path));
        const char* rp1_name = g.driver == "xe" ? "rpe_freq" : "RP1";
        if (request.gpu.kind != GpuFrequencyTarget::Kind::mhz) {
            const bool want_rp0 = request.gpu.kind == GpuFrequencyTarget::Kind::rp0;
            const auto v = want_rp0 ? rp0 : number(io.read(g.rp1_path));
            if (!v) {
                report.notes.push_back(g.name + " (" + g.driver + "): its " + (want_rp0 ? "RP0" : rp1_name) +
                                       " cannot be read, so its frequency is left as it is; give --gpu-freq MHZ");
                continue;
            }
            mhz = *v;
        } else if ((rp0 && mhz > *rp0) || (rpn && mhz < *rpn)) {
            throw TuneError("--gpu-freq " + std::to_string(mhz) + ": " + g.name + " (" + g.driver + ") runs at " +
                                (rpn ? std::to_string(*rpn) : std::string("?")) + " to " +
                                (rp0 ? std::to_string(*rp0) : std::string("?")) + " MHz; nothing was changed",
                            2);
        }
        const std::string v = std::to_string(mhz) + "\n";
        std::string before = shown(io.read(g.min_path)) + "-" + shown(io.read(g.max_path)) + " MHz";
        targets.push_back({g.min_path, v});
        targets.push_back({g.max_path, v});
        if (!g.boost_path.empty()) {
            before += " (boost " + shown(io.read(g.boost_path)) + ")";
            targets.push_back({g.boost_path, v});
        }
        report.changes.push_back(g.name + " (" + g.driver + ") frequency: " + before + " -> " + std::to_string(mhz) +
                                 " MHz");
    }
    for (const auto& a : t.amdgpu) {
        report.changes.push_back(a.card + " (amdgpu) power_dpm_force_performance_level: " + shown(io.read(a.path)) +
                                 " -> " + request.amdgpu_level);
        targets.push_back({a.path, request.amdgpu_level + "\n"});
    }
    if (request.gpu_freq_given && t.gpus.empty() && !targets.empty())
        report.notes.push_back("--gpu-freq left unused: no i915 or xe GPU frequency control in " +
                               (system_root().empty() ? std::string("/sys/class/drm") : system_path("/sys/class/drm")) +
                               "; the rest is tuned");
    if (targets.empty()) {
        report.changes.clear();
        report.notes.push_back("nothing to tune here: no CPU governor, turbo switch or GPU frequency control in " +
                               (system_root().empty() ? std::string("/sys") : system_path("/sys")));
        return report;
    }

    // Held from reading the originals to the last write: another apply or a
    // reset waits (drivers/tune_lock.h).
    const TuneLock lock = lock_tune(true, io);
    // The values before this call, to put back on a refusal; the state keeps
    // the first apply's originals.
    std::map<std::string, std::string> before;
    for (const auto& w : targets)
        if (auto b = io.read(w.path)) before[w.path] = *b;
        else throw TuneError(w.path + ": cannot be read, so it could not be restored; nothing was changed", 1);

    const std::optional<TuneState> existing = load_state();
    const std::string boot = tune_boot_id();
    const bool same_boot = existing && existing->boot_id == boot;
    if (existing && !same_boot)
        report.notes.push_back("a state saved in an earlier boot (tuned at " + existing->time +
                               ") was replaced: the kernel has reset those values since");
    TuneState state;
    if (same_boot) state = *existing;
    else {
        state.boot_id = boot;
        state.time = utc_now_text();
    }
    const bool new_owner = !same_boot || request.by == kTunedByApply;
    if (new_owner) {
        state.by = request.by;
        state.pid = ::getpid();
        state.start_time = process_start_time(state.pid).value_or(0);
    }
    state.settings = std::string("governor performance, turbo off, GPU ") +
                     (request.gpu.kind == GpuFrequencyTarget::Kind::mhz ? std::to_string(request.gpu.mhz) + " MHz"
                      : request.gpu.kind == GpuFrequencyTarget::Kind::rp0 ? "rp0" : "rp1") +
                     ", amdgpu " + request.amdgpu_level;
    bool added = false;
    for (const auto& w : targets)
        if (!state.find(w.path)) {
            state.files.push_back({w.path, before[w.path]});
            added = true;
        }
    report.saved_now = !same_boot;
    try {
        if (!same_boot || added || (new_owner && (existing->by != state.by || existing->pid != state.pid)))
            save_tune_state(state);
    } catch (const data::InputError& e) {
        throw TuneError(std::string(e.what()) + "; nothing was changed", 1);
    }

    std::vector<FileWrite> written;
    for (const auto& w : ordered_writes(targets, io)) {
        const int err = io.write(w.path, w.bytes);
        if (!err) {
            written.push_back(w);
            continue;
        }
        std::vector<FileWrite> back;
        for (const auto& x : written) back.push_back({x.path, before[x.path]});
        const auto errors = write_all(ordered_writes(back, io), io);
        std::string msg = "cannot write '" + trimmed(w.bytes) + "' to " + w.path + ": " + errno_text(err);
        if (errors.empty()) {
            msg += "; what this apply changed has been put back";
            try {
                if (!same_boot) remove_tune_state();
                else save_tune_state(*existing);
            } catch (const data::InputError& e) {
                msg += std::string(" (") + e.what() + ")";
            }
        } else {
            msg += "; could not put back";
            for (const auto& e : errors) msg += " " + e;
            msg += ": the originals are in " + tune_state_path() + " (gfxstat tune reset)";
        }
        throw TuneError(msg, 1);
    }
    return report;
}

TuneReport reset_tune(const TuneIo& io) {
    TuneReport report;
    require_tune_privileges(io);  // before the state: a user who cannot write it is told so, not that it is unreadable
    const TuneLock lock = lock_tune(false, io);
    const std::optional<TuneState> state = load_state();
    if (!state) {
        report.notes.push_back("nothing to reset: gfxstat has not tuned this machine (no " + tune_state_path() + ")");
        return report;
    }
    if (state->boot_id != tune_boot_id()) {
        try {
            remove_tune_state();
        } catch (const data::InputError& e) {
            throw TuneError(e.what(), 1);
        }
        report.notes.push_back("the machine was tuned in an earlier boot (at " + state->time +
                               "); the kernel has reset those values at boot, so nothing was written; the saved "
                               "state is forgotten");
        return report;
    }
    std::vector<FileWrite> targets;
    for (const auto& f : state->files) targets.push_back({f.path, f.original});
    const auto writes = ordered_writes(targets, io);
    std::vector<std::string> errors;
    for (const auto& w : writes) {
        const std::string change = w.path + ": " + shown(io.read(w.path)) + " -> " + trimmed(w.bytes);
        const int err = io.write(w.path, w.bytes);
        if (!err) report.changes.push_back(change);
        // A CPU taken offline, a GPU unbound: its value went with it, and the
        // kernel sets a fresh one when it comes back; the rest is restored.
        else if (err == ENOENT) report.warnings.push_back(gone_text(w.path) + "; nothing to restore");
        else errors.push_back(w.path + ": " + errno_text(err));
    }
    if (!errors.empty()) {
        std::string msg = "could not restore";
        for (const auto& e : errors) msg += " " + e;
        throw TuneError(msg + "; the originals stay in " + tune_state_path() + " for another gfxstat tune reset", 1);
    }
    try {
        remove_tune_state();
    } catch (const data::InputError& e) {
        throw TuneError(std::string("restored, but ") + e.what(), 1);
    }
    return report;
}

}  // namespace gfxstat::drivers
