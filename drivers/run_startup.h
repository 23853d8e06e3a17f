// SPDX-License-Identifier: MIT
// What gfxstat run, ab and campaign resume do on the machine before their
// first run, said on stderr: --tune's apply (and the restore when the runs
// end), the pre-measure check's warning, and what the kernel log watch
// cannot see. One place, so that every command that measures starts alike.
#pragma once

#include <csignal>
#include <optional>
#include <string>

namespace gfxstat::drivers {

// The check before measuring, on stderr: one block, one line per problem
// with what to do; nothing when there is none. `prog` prefixes it
// ("gfxstat run"). A machine tuned by gfxstat in this boot is said in a
// note, unless `tuned_by_caller` (run --tune did it, and says so).
void print_machine_check(const char* prog, bool tuned_by_caller = false);

// run --tune (and ab --tune): tunes the machine before the first run and
// restores it when the guard goes (the command's every return path, an
// exception included; a stop signal ends the loop, so it returns too). A
// machine already tuned by `gfxstat tune apply` in this boot (or by a run
// --tune that was killed) is left as it is, then and at the end; one tuned
// by another run --tune still running is refused (exit 1): that one puts
// the machine back when it ends, under these runs. The look at the state
// and the apply, and the restore, hold the state's lock (drivers/tune_lock.h). SIGKILL leaves the state file, which `tune show`
// and the next run's check report.
class TuneGuard {
public:
    explicit TuneGuard(const char* prog) : prog_(prog) {}
    ~TuneGuard() { restore(); }
    TuneGuard(const TuneGuard&) = delete;
    TuneGuard& operator=(const TuneGuard&) = delete;
    // Tunes; the exit status to end with when it could not (nothing is left changed).
    std::optional<int> apply();
    // Puts back what apply changed, once; false (said on stderr) when it could not.
    bool restore();
    // Whether apply changed the machine (and restore has yet to put it back).
    bool applied() const { return applied_; }

private:
    const char* prog_;
    bool applied_ = false;
};

// run's and ab's start-up, in order: tune when `tune` (through `tuning`,
// which restores when it goes), then the check's warning unless `no_check`,
// then the kernel log watch's blind spots, once. nullopt: go on to the runs;
// else the exit status to end with: --tune's failure, or 128 + the signal
// when `stop_signal` was set meanwhile (nothing is run then).
std::optional<int> start_measuring(const char* prog, TuneGuard& tuning, bool tune, bool no_check,
                                   const volatile sig_atomic_t& stop_signal);

}  // namespace gfxstat::drivers
