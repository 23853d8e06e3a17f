// SPDX-License-Identifier: MIT
#include "data/file_read.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "data/input_error.h"

namespace gfxstat::data {

std::string read_all(int fd, const std::string& name) {
    std::string text;
    struct stat st;
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
        text.reserve(static_cast<size_t>(st.st_size));
    char buf[1 << 16];
    for (;;) {
        const ssize_t got = ::read(fd, buf, sizeof buf);
        if (got < 0) {
            if (errno == EINTR) continue;
            throw input_error(name, 0, std::string("read error: ") + std::strerror(errno));
        }
        if (got == 0) break;
        text.append(buf, static_cast<size_t>(got));
    }
    return text;
}

InputFile::InputFile(const std::string& path) : fd_(STDIN_FILENO), stdin_(path == "-") {
    if (stdin_) return;
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw input_error(path, 0, std::string("cannot open: ") + std::strerror(errno));
}

InputFile::~InputFile() {
    if (!stdin_) ::close(fd_);
}

std::string read_whole_file(const std::string& path) {
    const InputFile in(path);
    return read_all(in.fd(), in.is_stdin() ? "<stdin>" : path);
}

}  // namespace gfxstat::data
