// SPDX-License-Identifier: MIT
// Reading and writing one sysfs or procfs attribute, the way `gfxstat tune`
// and the pre-measure check need it: whole small files read with read(2)
// (sysfs reports sizes of 0 or 4096), writes that never create a file and
// never follow a symbolic link at the last component, and the errno of a
// write the kernel refuses, so that the message can name it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace gfxstat::drivers {

// What `fd` reads until its end, at most `limit` bytes, read with plain
// read(2) (sysfs and procfs report sizes of 0 or 4096 whatever they hold);
// closes `fd`. nullopt when `fd` is negative or a read fails (sysfs answers
// EIO, ENODATA, ... when the hardware cannot say).
std::optional<std::string> read_and_close(int fd, size_t limit = 64 * 1024);

// The bytes of `path` (a real path: callers prefix system_root()), at most
// 64 KiB; nullopt when it cannot be opened or read. The last component is
// opened without following a symbolic link.
std::optional<std::string> read_attribute(const std::string& path);

// Trimmed of surrounding whitespace; nullopt as above, or when empty.
std::optional<std::string> read_attribute_trimmed(const std::string& path);

// Writes `bytes` to the existing file `path` in one write(2), opened
// O_WRONLY | O_NOFOLLOW | O_CLOEXEC and never O_CREAT. `truncate` adds
// O_TRUNC: a fake tree's regular file must lose its old, maybe longer,
// contents; sysfs ignores it. Returns 0, or the errno of the open or the
// write (a short write counts as EIO: sysfs stores take the whole value).
int write_attribute(const std::string& path, const std::string& bytes, bool truncate);

// The same for a machine path ("/sys/..."), opened through
// open_machine_path (drivers/rooted_open.h): under --root nothing outside
// the tree is read or written, whatever links the tree holds. Writes under
// a root truncate (a fake tree's file must shrink; sysfs ignores O_TRUNC).
std::optional<std::string> read_machine_attribute(const std::string& machine_path);
std::optional<std::string> read_machine_attribute_trimmed(const std::string& machine_path);
int write_machine_attribute(const std::string& machine_path, const std::string& bytes);

// "EINVAL (Invalid argument)".
std::string errno_text(int err);

}  // namespace gfxstat::drivers
