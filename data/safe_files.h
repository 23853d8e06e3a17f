// SPDX-License-Identifier: MIT
// Creating files safely when gfxstat runs as root in directories other
// users can write to (a campaign's results beside a shared /srv, logs under
// /tmp). Everything gfxstat creates goes through here:
//   - no symbolic link is ever followed at the last component of a path
//     gfxstat creates or writes (O_NOFOLLOW), and a new file is new
//     (O_EXCL), so a link planted in advance makes the write fail instead of
//     clobbering the file it points to;
//   - directories that will hold many created files (a run's logs) are
//     opened once, checked (owner, mode), and the files created under that
//     descriptor (openat), so the directory cannot be swapped afterwards;
//   - whole-file writes are atomic (an unnamed O_TMPFILE file, fsync'd,
//     then linked into place), so a kill at any moment leaves the old file
//     or the new one, and no temporary file behind.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>

namespace gfxstat::data {

// An owned file descriptor: closed when it goes out of scope.
class UniqueFd {
public:
    UniqueFd() = default;
    explicit UniqueFd(int fd) : fd_(fd) {}
    ~UniqueFd();
    UniqueFd(UniqueFd&& o) noexcept : fd_(o.release()) {}
    UniqueFd& operator=(UniqueFd&& o) noexcept;
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;
    int get() const { return fd_; }
    int release() {
        const int fd = fd_;
        fd_ = -1;
        return fd;
    }
    explicit operator bool() const { return fd_ >= 0; }

private:
    int fd_ = -1;
};

// The directory part of `path` ("." when it has none, "/" for "/x").
std::string directory_of(const std::string& path);
// The last component of `path`.
std::string base_name_of(const std::string& path);

// Creates `path` and any missing parents (mode 0755 before the umask).
// Throws InputError naming the component that could not be made.
void make_directories(const std::string& path);

// Opens the directory `path` for openat(), refusing a symbolic link at its
// last component. Throws InputError ("is a symbolic link", "is not a
// directory", ...).
UniqueFd open_directory_nofollow(const std::string& path);

// Refuses (InputError) a directory that other users could fill with files
// of their choosing: one owned by a user other than the effective user (or
// root), or writable by group or others. `what` says what it is for ("the
// log directory").
void check_private_directory(int dirfd, const std::string& path, const std::string& what);

// Opens `path` with `flags` (O_CLOEXEC, O_NOFOLLOW and, while it opens,
// O_NONBLOCK are added) and refuses, before any read or write, anything
// that is not a regular file: opening a FIFO for reading waits for a
// writer, and for writing waits for a reader, so a FIFO that another user
// planted at an output's name in a sticky directory would hang gfxstat.
// O_NONBLOCK makes the open return at once; fstat then says what it is.
// Returns an invalid UniqueFd with errno set when the open fails (ENOENT
// when nothing has the name; ELOOP for a symbolic link). Throws InputError
// naming `shown` for what is not a regular file.
UniqueFd open_regular_file(const std::string& path, int flags, mode_t mode, const std::string& shown);

// Writes all of `bytes` to `fd` (retrying short writes and EINTR).
// Throws InputError "write error: ..." naming `shown`.
void write_fully(int fd, std::string_view bytes, const std::string& shown);

// Creates the new file `name` under `dirfd` for writing: O_CREAT | O_EXCL |
// O_NOFOLLOW. Returns -1 with errno set (EEXIST when anything, a link
// included, already has the name).
int create_new_file_at(int dirfd, const std::string& name, mode_t mode);

// Writes `text` to `path` atomically with `mode` (not subject to the
// umask): the old file or the new one, never a mixture, and no temporary
// file left behind by a kill. With `replace` false an existing `path` is
// an error (EEXIST, reported as InputError "already exists"); with
// `replace` true an existing regular file is replaced, but a symbolic link,
// a FIFO, a device or a directory at `path` is refused. Throws InputError naming `path`.
void write_file_atomically(const std::string& path, const std::string& text, mode_t mode, bool replace);

// Removes temporary files "NAME.tmp.PID[.N]" beside `path` that gfxstat
// processes, now dead, left behind (older gfxstat versions, or a file
// system without O_TMPFILE); only regular files owned by the effective
// user are touched. Returns how many were removed.
size_t sweep_stale_temp_files(const std::string& path);

// For what a root service runs or reads (a systemd unit's ExecStart, a
// campaign's plan): refuses (InputError naming the path) `path` when a user
// other than root could change it or put something else in its place: a
// symbolic link at its last component; it, or a directory above it up to
// "/", not owned by root; it writable by group or others (with
// `sticky_ok`, a sticky directory may be, like /tmp: others cannot replace
// root's files in it); a directory above it writable by group or others
// without the sticky bit. `what` names it ("the campaign directory").
// Returns the path made canonical (realpath), the one that was checked.
std::string check_writable_only_by_root(const std::string& path, const std::string& what, bool sticky_ok = false);

}  // namespace gfxstat::data
