// SPDX-License-Identifier: MIT
#include "drivers/run_startup.h"

#include <unistd.h>

#include <cstdio>
#include <vector>

#include "drivers/kernel_log_watch.h"
#include "drivers/machine_check.h"
#include "drivers/machine_tune.h"
#include "drivers/tune_lock.h"
#include "drivers/tune_owner.h"
#include "drivers/tune_state.h"
#include "text/text_escape.h"

namespace gfxstat::drivers {

using text::escape_message;
using text::escape_text;

void print_machine_check(const char* prog, bool tuned_by_caller) {
    std::vector<MachineFinding> problems;
    for (auto& f : check_machine()) {
        if (f.problem) problems.push_back(std::move(f));
        else if (f.id == "tuned_now" && !tuned_by_caller)  // not noise, but the runs should say what they ran on
            std::fprintf(stderr, "%s: note: the machine is %s; %s\n", prog, escape_message(f.state).c_str(),
                         escape_message(f.advice).c_str());
    }
    if (problems.empty()) return;
    std::fprintf(stderr, "%s: before measuring: %zu thing%s may add noise (gfxstat tune show; --no-check leaves this out)\n",
                 prog, problems.size(), problems.size() == 1 ? "" : "s");
    for (const auto& f : problems)
        std::fprintf(stderr, "  %s: %s -- %s\n", escape_message(f.what).c_str(), escape_message(f.state).c_str(),
                     escape_message(f.advice).c_str());
    std::fflush(stderr);
}

std::optional<int> TuneGuard::apply() {
    try {
        // One lock from looking at the state to the last write: two run --tune
        // starting together cannot both find the machine untuned.
        require_tune_privileges();
        const auto lock = lock_tune(true);
        if (auto s = load_tune_state(); s && s->boot_id == tune_boot_id()) {
            switch (tune_owner(*s)) {
                case TuneOwner::live_run:
                    // It restores the machine when it ends, under this command's runs.
                    std::fprintf(stderr,
                                 "%s: --tune: another gfxstat run --tune (pid %ld) tuned this machine and restores it "
                                 "when it ends; wait for it, or tune once with gfxstat tune apply\n",
                                 prog_, s->pid);
                    return 1;
                case TuneOwner::apply:
                    std::fprintf(stderr, "%s: tune: already tuned by gfxstat tune apply at %s; left as it is\n", prog_,
                                 escape_text(s->time).c_str());
                    return std::nullopt;
                case TuneOwner::dead_run:
                    std::fprintf(stderr,
                                 "%s: tune: still tuned by gfxstat run --tune (pid %ld) at %s, which ended without "
                                 "restoring it; left as it is (gfxstat tune reset restores it)\n",
                                 prog_, s->pid, escape_text(s->time).c_str());
                    return std::nullopt;
            }
        }
        TuneRequest request;
        request.by = kTunedByRun;
        const auto r = apply_tune(request);
        for (const auto& n : r.notes) std::fprintf(stderr, "%s: tune: note: %s\n", prog_, escape_message(n).c_str());
        applied_ = !r.changes.empty();
        if (applied_)
            std::fprintf(stderr, "%s: tune: governor, turbo and GPU frequency set for the runs (restored at the end)\n",
                         prog_);
    } catch (const TuneError& e) {
        std::fprintf(stderr, "%s: --tune: %s\n", prog_, escape_message(e.what()).c_str());
        return e.exit_code();
    } catch (const std::exception& e) {  // an unreadable state file
        std::fprintf(stderr, "%s: --tune: %s\n", prog_, escape_message(e.what()).c_str());
        return 2;
    }
    return std::nullopt;
}

bool TuneGuard::restore() {
    if (!applied_) return true;
    applied_ = false;
    try {
        const auto lock = lock_tune(false);
        // A gfxstat tune apply while the runs went took the tuning over: it is
        // the user's now, until gfxstat tune reset.
        const auto s = load_tune_state();
        if (!s || s->by != kTunedByRun || s->pid != static_cast<long>(::getpid())) {
            std::fprintf(stderr, "%s: tune: %s; left as it is\n", prog_,
                         s ? ("gfxstat tune apply took the tuning over at " + escape_text(s->time)).c_str()
                           : "the tune state is gone (gfxstat tune reset?); nothing to restore");
            return true;
        }
        reset_tune();
        std::fprintf(stderr, "%s: tune: the machine's settings are restored\n", prog_);
        return true;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: --tune: %s\n", prog_, escape_message(e.what()).c_str());
        return false;
    }
}

std::optional<int> start_measuring(const char* prog, TuneGuard& tuning, bool tune, bool no_check,
                                   const volatile sig_atomic_t& stop_signal) {
    // A stop signal ends the command as a shell reports it (cli's stopped_status).
    const auto stopped = [&] { return std::optional<int>(128 + stop_signal); };
    if (tune)
        if (const auto rc = tuning.apply()) return *rc;
    if (stop_signal) return stopped();  // stopped while tuning (the run loop would not see it)
    if (!no_check) print_machine_check(prog, tuning.applied());
    if (stop_signal) return stopped();  // stopped during the check: nothing run
    // Said once, before the first run: what the kernel log watch cannot see.
    if (const std::string w = process_kernel_log_watch()->why_not(); !w.empty())
        std::fprintf(stderr, "%s: warning: %s\n", prog, escape_message(w).c_str());
    return std::nullopt;
}

}  // namespace gfxstat::drivers
