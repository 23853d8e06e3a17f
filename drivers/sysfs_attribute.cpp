// SPDX-License-Identifier: MIT
#include "drivers/sysfs_attribute.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "drivers/rooted_open.h"
#include "drivers/system_root.h"

namespace gfxstat::drivers {

std::optional<std::string> read_and_close(int fd, size_t limit) {
    if (fd < 0) return std::nullopt;
    std::string out;
    char buf[4096];
    bool ok = true;
    while (out.size() < limit) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR) continue;
            ok = false;  // sysfs answers EIO, ENODATA, ... when the hardware cannot say
            break;
        }
        if (n == 0) break;
        out.append(buf, static_cast<size_t>(n));
    }
    ::close(fd);
    if (!ok) return std::nullopt;
    return out;
}

namespace {

std::optional<std::string> trimmed_text(std::optional<std::string> text) {
    if (!text) return std::nullopt;
    static constexpr const char* kSpace = " \t\r\n\f\v";
    const auto b = text->find_first_not_of(kSpace);
    if (b == std::string::npos) return std::nullopt;
    const auto e = text->find_last_not_of(kSpace);
    return text->substr(b, e - b + 1);
}

// One write(2) of all of `bytes`, then close.
int write_and_close(int fd, const std::string& bytes) {
    if (fd < 0) return errno;
    int err = 0;
    for (;;) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) err = errno;
        else if (static_cast<size_t>(n) != bytes.size()) err = EIO;
        break;
    }
    if (::close(fd) != 0 && err == 0 && errno != EINTR) err = errno;
    return err;
}

constexpr int kReadFlags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK;

}  // namespace

std::optional<std::string> read_attribute(const std::string& path) {
    return read_and_close(::open(path.c_str(), kReadFlags));
}

std::optional<std::string> read_machine_attribute(const std::string& machine_path) {
    return read_and_close(open_machine_path(machine_path, kReadFlags));
}

std::optional<std::string> read_machine_attribute_trimmed(const std::string& machine_path) {
    return trimmed_text(read_machine_attribute(machine_path));
}

int write_machine_attribute(const std::string& machine_path, const std::string& bytes) {
    // A fake tree's regular files must lose their old, maybe longer, contents.
    const bool fake_tree = !system_root().empty();
    return write_and_close(open_machine_path(machine_path, O_WRONLY | O_NOFOLLOW | (fake_tree ? O_TRUNC : 0)), bytes);
}

std::optional<std::string> read_attribute_trimmed(const std::string& path) { return trimmed_text(read_attribute(path)); }

int write_attribute(const std::string& path, const std::string& bytes, bool truncate) {
    return write_and_close(::open(path.c_str(), O_WRONLY | O_NOFOLLOW | O_CLOEXEC | (truncate ? O_TRUNC : 0)), bytes);
}

std::string errno_text(int err) {
    // The errors a sysfs or debugfs write gives, by the name kernel
    // documentation uses for them.
    static constexpr std::pair<int, const char*> kNames[] = {
        {EINVAL, "EINVAL"}, {EPERM, "EPERM"},   {EACCES, "EACCES"},         {EBUSY, "EBUSY"},
        {EIO, "EIO"},       {ENOENT, "ENOENT"}, {ELOOP, "ELOOP"},           {EISDIR, "EISDIR"},
        {EROFS, "EROFS"},   {ENODEV, "ENODEV"}, {EOPNOTSUPP, "EOPNOTSUPP"}, {EXDEV, "EXDEV"},
        {ENOSYS, "ENOSYS"},
    };
    const char* name = nullptr;
    for (const auto& [code, code_name] : kNames)
        if (code == err) name = code_name;
    const std::string text = std::strerror(err);
    return name ? std::string(name) + " (" + text + ")" : text + " (errno " + std::to_string(err) + ")";
}

}  // namespace gfxstat::drivers
