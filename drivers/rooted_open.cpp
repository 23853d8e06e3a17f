// SPDX-License-Identifier: MIT
#include "drivers/rooted_open.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "drivers/system_root.h"

namespace gfxstat::drivers {
namespace {

int openat2_call(int dirfd, const std::string& path, int flags, mode_t mode, unsigned long long resolve) {
#ifdef SYS_openat2
    struct open_how how {};
    how.flags = static_cast<unsigned long long>(flags);
    // openat2 refuses a mode without O_CREAT/O_TMPFILE (EINVAL).
    how.mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0;
    how.resolve = resolve;
    for (;;) {
        const long fd = ::syscall(SYS_openat2, dirfd, path.c_str(), &how, sizeof how);
        // EAGAIN: a rename elsewhere raced the lookup (RESOLVE_IN_ROOT); retry.
        if (fd < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        return static_cast<int>(fd);
    }
#else
    (void)dirfd, (void)path, (void)flags, (void)mode, (void)resolve;
    errno = ENOSYS;
    return -1;
#endif
}

// "/sys/a/b" -> "sys/a/b", "/" -> ".": relative to ROOT's descriptor.
std::string relative_to_root(const std::string& machine_path) {
    const auto b = machine_path.find_first_not_of('/');
    return b == std::string::npos ? std::string(".") : machine_path.substr(b);
}

}  // namespace

bool rooted_opens_available() {
    const int fd = openat2_call(AT_FDCWD, "/", O_PATH | O_DIRECTORY | O_CLOEXEC, 0, RESOLVE_NO_MAGICLINKS);
    if (fd < 0) return errno != ENOSYS;
    ::close(fd);
    return true;
}

int open_machine_path(const std::string& machine_path, int flags, mode_t mode, bool no_links) {
    flags |= O_CLOEXEC;
    const std::string root = system_root();
    if (root.empty()) {
        if (!no_links) return ::open(machine_path.c_str(), flags, mode);
        const int fd = openat2_call(AT_FDCWD, machine_path, flags, mode, RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
        if (fd >= 0 || errno != ENOSYS) return fd;
        return ::open(machine_path.c_str(), flags | O_NOFOLLOW, mode);  // an old kernel: the last component at least
    }
    // ROOT itself is what the user named; a link there is theirs to choose.
    const data::UniqueFd root_fd(::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!root_fd) return -1;
    return openat2_call(root_fd.get(), relative_to_root(machine_path), flags, mode,
                        RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS);
}

int make_machine_directories(const std::string& machine_path, mode_t mode, bool no_links, std::string& failed) {
    std::string done;  // the machine path made so far, "" for "/"
    size_t pos = 0;
    while (pos < machine_path.size()) {
        const size_t b = machine_path.find_first_not_of('/', pos);
        if (b == std::string::npos) break;
        const size_t e = std::min(machine_path.find('/', b), machine_path.size());
        const std::string name = machine_path.substr(b, e - b);
        const bool last = machine_path.find_first_not_of('/', e) == std::string::npos;
        const data::UniqueFd parent(
            open_machine_path(done.empty() ? "/" : done, O_RDONLY | O_DIRECTORY, 0, no_links));
        failed = system_path(done + "/" + name);
        if (!parent) return errno == ENOENT ? ENOENT : errno;
        if (::mkdirat(parent.get(), name.c_str(), last ? mode : 0755) != 0 && errno != EEXIST) return errno;
        done += "/" + name;
        pos = e;
    }
    failed.clear();
    return 0;
}

std::vector<std::string> list_machine_directory(const std::string& machine_path) {
    std::vector<std::string> names;
    const int fd = open_machine_path(machine_path, O_RDONLY | O_DIRECTORY);
    if (fd < 0) return names;
    DIR* d = ::fdopendir(fd);
    if (!d) {
        ::close(fd);
        return names;
    }
    while (const dirent* e = ::readdir(d)) {
        const std::string n = e->d_name;
        if (n != "." && n != "..") names.push_back(n);
    }
    ::closedir(d);
    return names;
}

}  // namespace gfxstat::drivers
