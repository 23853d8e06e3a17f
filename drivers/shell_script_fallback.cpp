// SPDX-License-Identifier: MIT
#include "drivers/shell_script_fallback.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace gfxstat::drivers {

bool runs_as_shell_script(int dir_fd, const std::string& path) {
    const int fd = ::openat(dir_fd, path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) return false;
    // bash looks at the first 80 bytes; so does this.
    char head[80];
    ssize_t n;
    do n = ::read(fd, head, sizeof head);
    while (n < 0 && errno == EINTR);
    ::close(fd);
    if (n < 0) return false;
    const size_t size = static_cast<size_t>(n);
    if (size >= 4 && std::memcmp(head, "\x7f" "ELF", 4) == 0) return false;
    int lines = size >= 2 && head[0] == '#' && head[1] == '!' ? 2 : 1;
    for (size_t i = 0; i < size; ++i) {
        if (head[i] == '\0') return false;
        if (head[i] == '\n' && --lines == 0) break;
    }
    return true;
}

std::vector<std::string> shell_script_argv(const std::string& path, const std::vector<std::string>& argv) {
    std::vector<std::string> out{kScriptShell, path};
    if (argv.size() > 1) out.insert(out.end(), argv.begin() + 1, argv.end());
    return out;
}

}  // namespace gfxstat::drivers
