// SPDX-License-Identifier: MIT
// `gfxstat tune apply` and `reset`: sets the machine up for measuring (CPU
// governor performance, turbo off, GPU frequencies pinned) and restores
// exactly what it found. The original bytes of every file are saved
// (drivers/tune_state.h) before the first write; reset writes them back,
// byte for byte, and removes the state. Every path goes through
// system_root(), so a copy of /sys can stand in for the machine.
#pragma once

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "drivers/tune_lock.h"

namespace gfxstat::drivers {

// What apply pins the GPU frequency of i915 and xe GTs to.
struct GpuFrequencyTarget {
    enum class Kind { rp1, rp0, mhz };
    Kind kind = Kind::rp1;  // RP1 (xe: rpe), the efficient frequency: high, and sustainable without throttling
    unsigned mhz = 0;
};

// "rp0", "rp1" or a number of MHz (1..100000); nothing for anything else.
std::optional<GpuFrequencyTarget> parse_gpu_frequency(const std::string& text);

struct TuneRequest {
    GpuFrequencyTarget gpu;
    std::string amdgpu_level = "profile_standard";  // or "manual"
    // Who tunes, saved in the state (drivers/tune_state.h): "apply", or
    // "run --tune", which restores the machine when it ends. An apply
    // over an earlier tuning of this boot keeps its originals and becomes
    // the owner, so a run --tune that tuned first leaves it at its end.
    std::string by = "apply";
    // The user named --gpu-freq: apply says so when the machine has no i915
    // or xe GT whose frequency it could pin (a runner without such a GPU),
    // and tunes the rest.
    bool gpu_freq_given = false;
};

// A refusal or failure of apply/reset; `exit_code` is what the CLI exits with:
// 1 when the machine refused (not root, a write the kernel refused), 2 for
// bad input (a --gpu-freq outside the hardware's range, an unreadable state
// file).
class TuneError : public std::runtime_error {
public:
    TuneError(const std::string& what, int exit_code) : std::runtime_error(what), exit_code_(exit_code) {}
    int exit_code() const { return exit_code_; }

private:
    int exit_code_;
};

// How apply and reset touch files: the real one reads and writes under
// system_root(); unit tests put a fake kernel in between (one that refuses
// min > max, or a given file) and record the order of writes.
struct TuneIo {
    // The bytes of a machine path ("/sys/..."), nothing when unreadable.
    std::function<std::optional<std::string>(const std::string& path)> read;
    // Writes bytes; returns 0 or the errno.
    std::function<int(const std::string& path, const std::string& bytes)> write;
    // Whether writing needs root: true for the real machine only.
    bool needs_root = false;
    // Whether writes go under a --root tree, which needs openat2(2) to stay
    // inside it (drivers/rooted_open.h): refused before anything when missing.
    bool needs_rooted_opens = false;
    // How long to wait for another gfxstat's lock on the state (drivers/tune_lock.h).
    int lock_wait_ms = 60 * 1000;
    // The effective user to check that against; -1: geteuid() (tests set it).
    long euid = -1;
};
TuneIo system_tune_io();

// Refuses (TuneError, 1) what `io` may not write: the real machine without
// root, a --root tree without openat2(2) (drivers/rooted_open.h).
void require_tune_privileges(const TuneIo& io = system_tune_io());

// The state's lock (drivers/tune_lock.h), waiting io.lock_wait_ms; a
// TuneError (1) when it cannot be had. apply_tune and reset_tune take it
// themselves; run --tune's guard holds it around its look at the state.
TuneLock lock_tune(bool create, const TuneIo& io = system_tune_io());

// One line for people per thing done ("cpu0-1,3 governor: powersave ->
// performance"), and notes (what could not be tuned here, and why).
struct TuneReport {
    std::vector<std::string> changes;
    std::vector<std::string> notes;
    std::vector<std::string> warnings;  // reset: files that are gone (a CPU offline), so nothing was put back there
    bool saved_now = false;  // this call created the state file (false: an earlier apply's originals are kept)
};

// Applies `request`. The originals are saved first; a second apply in the
// same boot keeps the first originals (and adds files not saved yet); a
// state from an earlier boot is replaced, since the kernel has reset those
// values. When a write is refused, what this call changed is put back (and
// a state file it created removed) before TuneError (exit 1) is thrown.
TuneReport apply_tune(const TuneRequest& request, const TuneIo& io = system_tune_io());

// Restores the saved originals and removes the state file. A state from an
// earlier boot is forgotten (removed) without writing anything: the kernel
// set its own values at boot. Writes that fail are reported together
// (TuneError, exit 1) and the state file is kept, for another try.
TuneReport reset_tune(const TuneIo& io = system_tune_io());

// The writes that take files from their current values to `targets`
// (path, bytes) with min <= max at every step for the GPU frequency pairs;
// targets equal to the current bytes are left out. Exposed for tests.
struct FileWrite {
    std::string path;
    std::string bytes;
};
std::vector<FileWrite> ordered_writes(const std::vector<FileWrite>& targets, const TuneIo& io);

}  // namespace gfxstat::drivers
