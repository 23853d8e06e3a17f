// SPDX-License-Identifier: MIT
// The lock that makes `gfxstat tune apply`, `tune reset` and run --tune's
// apply and restore take turns: an exclusive flock(2) on
// ROOT/var/lib/gfxstat/lock, held from loading the state to the last write.
// Without it an apply racing a reset could save the state the reset is
// about to remove, or write values whose originals nobody keeps any more.
// flock is released by the kernel when the process dies, so a killed
// gfxstat never leaves the machine locked. The lock file is created by
// gfxstat (O_NOFOLLOW) in the state directory, under the same rules as the
// state file (drivers/rooted_open.h); it stays, empty, between uses.
#pragma once

#include <string>

#include "data/safe_files.h"

namespace gfxstat::drivers {

// How long a second gfxstat waits for the first before giving up.
inline constexpr int kTuneLockWaitMs = 60 * 1000;

class TuneLock {
public:
    TuneLock() = default;
    TuneLock(TuneLock&& o) noexcept;
    TuneLock& operator=(TuneLock&&) = delete;
    ~TuneLock();
    // Whether this lock holds the file (false: nested in a lock this
    // process already holds, or no state directory to lock).
    bool holds() const { return static_cast<bool>(fd_); }

private:
    friend TuneLock lock_tune_state(bool create, int wait_ms);
    data::UniqueFd fd_;
    bool counted_ = false;
};

// Takes the lock, waiting up to `wait_ms` for another process's; throws
// InputError naming the lock file when it cannot be made or the wait runs
// out. Nested calls in one process (run --tune's guard around apply_tune)
// share the outer lock. With `create` false and no state directory there
// is nothing to lock (and no state): an empty lock.
TuneLock lock_tune_state(bool create, int wait_ms = kTuneLockWaitMs);

// ROOT/var/lib/gfxstat/lock, for messages.
std::string tune_lock_path();

}  // namespace gfxstat::drivers
