// SPDX-License-Identifier: MIT
#include "data/safe_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "data/input_error.h"

namespace gfxstat::data {

namespace {

std::string errno_text(int err) { return std::strerror(err); }

// The signals a user sends to stop gfxstat are held back while a finished
// temporary file is being given its name, so that an interruption cannot
// fall between the link and the rename and leave the name behind.
class HoldStopSignals {
public:
    HoldStopSignals() {
        sigset_t set;
        sigemptyset(&set);
        for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&set, s);
        held_ = pthread_sigmask(SIG_BLOCK, &set, &old_) == 0;
    }
    ~HoldStopSignals() {
        if (held_) pthread_sigmask(SIG_SETMASK, &old_, nullptr);
    }
    HoldStopSignals(const HoldStopSignals&) = delete;
    HoldStopSignals& operator=(const HoldStopSignals&) = delete;

private:
    sigset_t old_{};
    bool held_ = false;
};

// Gives the unnamed (O_TMPFILE) file `fd` the name `name` under `dirfd`;
// fails with EEXIST when the name is taken. Root can link the descriptor
// itself; others go through /proc/self/fd.
int link_unnamed(int fd, int dirfd, const std::string& name) {
    if (::linkat(fd, "", dirfd, name.c_str(), AT_EMPTY_PATH) == 0) return 0;
    if (errno == EEXIST) return -1;
    const std::string proc = "/proc/self/fd/" + std::to_string(fd);
    return ::linkat(AT_FDCWD, proc.c_str(), dirfd, name.c_str(), AT_SYMLINK_FOLLOW);
}

std::string temp_name(const std::string& base, int attempt) {
    std::string tmp = base + ".tmp." + std::to_string(::getpid());
    if (attempt > 0) tmp += "." + std::to_string(attempt);
    return tmp;
}

// A free temporary name under `dirfd` linked to `fd` (unnamed) or created
// (fd < 0: returns the new descriptor through `created`).
std::string claim_temp_name(int dirfd, const std::string& base, int fd, mode_t mode, int* created,
                            const std::string& shown) {
    for (int attempt = 0;; ++attempt) {
        const std::string tmp = temp_name(base, attempt);
        int rc;
        if (fd >= 0) {
            rc = link_unnamed(fd, dirfd, tmp);
        } else {
            rc = create_new_file_at(dirfd, tmp, mode);
            if (rc >= 0) *created = rc;
        }
        if (rc >= 0) return tmp;
        if (errno != EEXIST || attempt == 100)
            throw input_error(shown, 0, "cannot create a temporary file beside it: " + errno_text(errno));
    }
}

bool all_digits(const std::string& s) {
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

}  // namespace

UniqueFd::~UniqueFd() {
    if (fd_ >= 0) ::close(fd_);
}

UniqueFd& UniqueFd::operator=(UniqueFd&& o) noexcept {
    if (this != &o) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = o.release();
    }
    return *this;
}

std::string directory_of(const std::string& path) {
    const size_t slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

std::string base_name_of(const std::string& path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

void make_directories(const std::string& path) {
    size_t pos = 0;
    while (pos != std::string::npos) {
        pos = path.find('/', pos + 1);
        const std::string partial = path.substr(0, pos);
        if (partial.empty()) continue;
        if (::mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST)
            throw input_error(partial, 0, "cannot create the directory: " + errno_text(errno));
    }
}

UniqueFd open_directory_nofollow(const std::string& path) {
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (fd) return fd;
    const int err = errno;
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode))
        throw input_error(path, 0, "is a symbolic link; gfxstat does not create files through links "
                                   "(give the directory it points to)");
    if (err == ENOTDIR) throw input_error(path, 0, "is not a directory");
    throw input_error(path, 0, "cannot open the directory: " + errno_text(err));
}

void check_private_directory(int dirfd, const std::string& path, const std::string& what) {
    struct stat st {};
    if (::fstat(dirfd, &st) != 0) throw input_error(path, 0, "cannot stat " + what + ": " + errno_text(errno));
    const uid_t me = ::geteuid();
    if (st.st_uid != me && st.st_uid != 0)
        throw input_error(path, 0, what + " is owned by user " + std::to_string(st.st_uid) + ", not by user " +
                                       std::to_string(me) + " who runs gfxstat; another user could replace "
                                       "the files in it (use a directory of your own)");
    if (st.st_mode & (S_IWGRP | S_IWOTH)) {
        char mode[16];
        std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
        throw input_error(path, 0, what + " is writable by " +
                                       std::string(st.st_mode & S_IWOTH ? "other users" : "its group") +
                                       " (mode " + mode + "); another user could plant links in it "
                                       "(chmod go-w it, or use a directory of your own)");
    }
}

namespace {

std::string file_kind(mode_t mode) {
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISLNK(mode)) return "a symbolic link";
    return "not a regular file";
}

[[noreturn]] void refuse_not_regular(const std::string& shown, mode_t mode) {
    throw input_error(shown, 0, "is " + file_kind(mode) +
                                    ", not a regular file; gfxstat writes results and reports only to "
                                    "regular files (remove it, or choose another name)");
}

}  // namespace

UniqueFd open_regular_file(const std::string& path, int flags, mode_t mode, const std::string& shown) {
    UniqueFd fd(::open(path.c_str(), flags | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC, mode));
    if (!fd) {
        const int err = errno;
        // A FIFO opened for writing without a reader fails (ENXIO) instead
        // of waiting; say what is there rather than "no such device".
        struct stat st {};
        if (err == ENXIO && ::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) refuse_not_regular(shown, st.st_mode);
        errno = err;
        return fd;
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) throw input_error(shown, 0, "cannot stat: " + errno_text(errno));
    if (!S_ISREG(st.st_mode)) refuse_not_regular(shown, st.st_mode);
    // Back to blocking I/O: the flag was only for the open.
    const int fl = ::fcntl(fd.get(), F_GETFL);
    if (fl < 0 || ::fcntl(fd.get(), F_SETFL, fl & ~O_NONBLOCK) != 0)
        throw input_error(shown, 0, "cannot clear O_NONBLOCK: " + errno_text(errno));
    return fd;
}

void write_fully(int fd, std::string_view bytes, const std::string& shown) {
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw input_error(shown, 0, "write error: " + errno_text(errno));
        }
        done += static_cast<size_t>(n);
    }
}

int create_new_file_at(int dirfd, const std::string& name, mode_t mode) {
    return ::openat(dirfd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
}

void write_file_atomically(const std::string& path, const std::string& text, mode_t mode, bool replace) {
    const std::string base = base_name_of(path);
    if (base.empty() || base == "." || base == "..") throw input_error(path, 0, "is not a file name");
    UniqueFd dir(::open(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!dir) throw input_error(path, 0, "cannot open its directory: " + errno_text(errno));
    if (replace) {
        struct stat st {};
        if (::fstatat(dir.get(), base.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
            if (S_ISLNK(st.st_mode))
                throw input_error(path, 0, "is a symbolic link; gfxstat does not replace files through links "
                                           "(give the file it points to)");
            // Only a regular file is replaced: a FIFO, a device or a
            // directory at the name is not gfxstat's output.
            if (!S_ISREG(st.st_mode)) refuse_not_regular(path, st.st_mode);
        }
    }

    // An unnamed file first: a kill before it is linked leaves nothing.
    std::string named_tmp;  // the fallback's name, while it has one
    UniqueFd fd(::openat(dir.get(), ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, mode));
    // Only root can link a descriptor directly; others need /proc to name it.
    if (fd && ::geteuid() != 0 && ::access("/proc/self/fd", F_OK) != 0) fd = UniqueFd();
    if (!fd) {
        int created = -1;
        named_tmp = claim_temp_name(dir.get(), base, -1, mode, &created, path);
        fd = UniqueFd(created);
    }
    const auto drop_named = [&] {
        if (!named_tmp.empty()) ::unlinkat(dir.get(), named_tmp.c_str(), 0);
    };
    try {
        if (::fchmod(fd.get(), mode) != 0) throw input_error(path, 0, "cannot set its mode: " + errno_text(errno));
        write_fully(fd.get(), text, path);
        if (::fsync(fd.get()) != 0) throw input_error(path, 0, "fsync failed: " + errno_text(errno));
    } catch (...) {
        drop_named();
        throw;
    }

    HoldStopSignals hold;
    int rc, err;
    if (!replace && named_tmp.empty()) {
        // linkat never replaces: no check-then-create race.
        rc = link_unnamed(fd.get(), dir.get(), base);
        err = errno;
    } else {
        if (named_tmp.empty()) named_tmp = claim_temp_name(dir.get(), base, fd.get(), mode, nullptr, path);
        rc = replace ? ::renameat(dir.get(), named_tmp.c_str(), dir.get(), base.c_str())
                     : ::linkat(dir.get(), named_tmp.c_str(), dir.get(), base.c_str(), 0);
        err = errno;
        if (!replace || rc != 0) drop_named();
    }
    if (rc != 0) {
        if (err == EEXIST)
            throw input_error(path, 0, "already exists; not replaced (choose another name, "
                                       "or --append to add to it)");
        throw input_error(path, 0, "cannot write: " + errno_text(err));
    }
    // The new name must reach the disk too, or a power cut could bring
    // back the old directory entry.
    ::fsync(dir.get());
}

size_t sweep_stale_temp_files(const std::string& path) {
    const std::string prefix = base_name_of(path) + ".tmp.";
    const int dfd = ::open(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) return 0;
    DIR* d = ::fdopendir(dfd);
    if (!d) {
        ::close(dfd);
        return 0;
    }
    size_t removed = 0;
    const uid_t me = ::geteuid();
    while (const dirent* e = ::readdir(d)) {
        const std::string name = e->d_name;
        if (name.compare(0, prefix.size(), prefix) != 0) continue;
        std::string rest = name.substr(prefix.size());
        const size_t dot = rest.find('.');
        if (dot != std::string::npos) {
            if (!all_digits(rest.substr(dot + 1))) continue;
            rest.resize(dot);
        }
        if (!all_digits(rest) || rest.size() > 9) continue;
        const pid_t pid = static_cast<pid_t>(std::stol(rest));
        if (pid <= 0 || pid == ::getpid()) continue;
        if (::kill(pid, 0) == 0 || errno != ESRCH) continue;  // alive (or not ours to ask)
        struct stat st {};
        if (::fstatat(dfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
        if (!S_ISREG(st.st_mode) || st.st_uid != me) continue;
        if (::unlinkat(dfd, name.c_str(), 0) == 0) ++removed;
    }
    ::closedir(d);
    return removed;
}

std::string check_writable_only_by_root(const std::string& path, const std::string& what, bool sticky_ok) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) throw input_error(path, 0, "cannot stat " + what + ": " + errno_text(errno));
    if (S_ISLNK(st.st_mode))
        throw input_error(path, 0, what + " is a symbolic link; whoever can change the link could point it elsewhere "
                                          "(give the file it points to)");
    char* real = ::realpath(path.c_str(), nullptr);
    if (!real) throw input_error(path, 0, "cannot resolve " + what + ": " + errno_text(errno));
    const std::string canonical(real);
    std::free(real);
    // Each directory above matters too: whoever can write in it can rename
    // what it holds and put their own in its place.
    std::string p = canonical;
    for (bool self = true;; self = false) {
        if (::lstat(p.c_str(), &st) != 0) throw input_error(p, 0, "cannot stat: " + errno_text(errno));
        const std::string role = self ? what : "a directory above " + what;
        if (st.st_uid != 0)
            throw input_error(p, 0, role + " is owned by user " + std::to_string(st.st_uid) +
                                        ", not by root; a service that runs as root would run what that user "
                                        "can change (chown root it, or use a place of root's)");
        const bool sticky_dir = S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX);
        if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(sticky_dir && (!self || sticky_ok))) {
            char mode[16];
            std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
            throw input_error(p, 0, role + " is writable by " +
                                        std::string(st.st_mode & S_IWOTH ? "other users" : "its group") + " (mode " +
                                        mode + "); a service that runs as root would run what they can change "
                                        "(chmod go-w it)");
        }
        if (p == "/") break;
        p = directory_of(p);
    }
    return canonical;
}

}  // namespace gfxstat::data
