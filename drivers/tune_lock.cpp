// SPDX-License-Identifier: MIT
#include "drivers/tune_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>

#include "data/input_error.h"
#include "drivers/tune_state.h"

namespace gfxstat::drivers {
namespace {

// Locks this process holds: only the outermost opens and flocks the file
// (a second flock on another descriptor of the same file would wait for
// the first, in the same process, for ever).
int g_depth = 0;

constexpr const char* kName = "lock";

long long now_ms() {
    timespec ts {};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<long long>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

}  // namespace

std::string tune_lock_path() {
    const std::string state = tune_state_path();
    return state.substr(0, state.rfind('/') + 1) + kName;
}

TuneLock::TuneLock(TuneLock&& o) noexcept : fd_(std::move(o.fd_)), counted_(o.counted_) { o.counted_ = false; }

TuneLock::~TuneLock() {
    if (counted_) --g_depth;
    // Closing the descriptor releases the flock.
}

TuneLock lock_tune_state(bool create, int wait_ms) {
    TuneLock lock;
    if (g_depth > 0) {
        ++g_depth;
        lock.counted_ = true;
        return lock;
    }
    data::UniqueFd dir = open_tune_state_dir(create);
    if (!dir) return lock;
    data::UniqueFd fd(::openat(dir.get(), kName, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0644));
    if (!fd)
        throw data::InputError(tune_lock_path() + ": cannot open the tune lock: " +
                               (errno == ELOOP ? std::string("a symbolic link; gfxstat did not make it")
                                               : std::string(std::strerror(errno))));
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode))
        throw data::InputError(tune_lock_path() + ": not a regular file; gfxstat did not make it");
    const long long deadline = now_ms() + wait_ms;
    while (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
        if (errno != EWOULDBLOCK && errno != EINTR)
            throw data::InputError(tune_lock_path() + ": cannot lock: " + std::strerror(errno));
        if (now_ms() >= deadline)
            throw data::InputError("another gfxstat tune apply, tune reset or run --tune is changing the machine (it "
                                   "holds " + tune_lock_path() + ", waited " + std::to_string(wait_ms / 1000) +
                                   " s); try again when it is done");
        ::usleep(50 * 1000);
    }
    lock.fd_ = std::move(fd);
    lock.counted_ = true;
    ++g_depth;
    return lock;
}

}  // namespace gfxstat::drivers
