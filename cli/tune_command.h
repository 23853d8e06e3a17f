// SPDX-License-Identifier: MIT
// gfxstat tune apply|reset|show, and what run, ab and campaign resume share
// with it: the pre-measure warning and --tune's apply-then-restore.
#pragma once

#include <optional>
#include <string>

namespace gfxstat::cli {

int tune_main(int argc, char** argv);

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

}  // namespace gfxstat::cli
