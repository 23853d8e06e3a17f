// SPDX-License-Identifier: MIT
#include "drivers/kept_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace gfxstat::drivers {

KeptFile::~KeptFile() {
    if (fd_ >= 0) ::close(fd_);
}

std::optional<std::string> KeptFile::read(size_t limit) {
    if (fd_ < 0) fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) return std::nullopt;
    std::string out;
    char buf[4096];
    while (out.size() < limit) {
        const size_t want = std::min(sizeof buf, limit - out.size());
        const ssize_t n = ::pread(fd_, buf, want, static_cast<off_t>(out.size()));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return std::nullopt;
        out.append(buf, static_cast<size_t>(n));
        if (static_cast<size_t>(n) < want) break;
    }
    return out;
}

KeptDirectory::~KeptDirectory() {
    if (fd_ >= 0) ::close(fd_);
}

std::vector<std::string> KeptDirectory::names() {
    std::vector<std::string> out;
    if (fd_ < 0) fd_ = ::open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd_ < 0 || ::lseek(fd_, 0, SEEK_SET) != 0) return out;
    alignas(dirent64) char buf[32768];
    for (;;) {
        const ssize_t n = ::getdents64(fd_, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return {};
        if (n == 0) break;
        for (ssize_t at = 0; at < n;) {
            const auto* e = reinterpret_cast<const dirent64*>(buf + at);
            at += e->d_reclen;
            if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) out.emplace_back(e->d_name);
        }
    }
    return out;
}

}  // namespace gfxstat::drivers
