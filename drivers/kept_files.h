// SPDX-License-Identifier: MIT
// Files of /proc and /sys that a run loop reads before every run, opened
// once and read again through the same descriptor: procfs and sysfs make
// a file's text anew on a read from offset 0, and list a directory's
// current entries after a rewind. An open, a read to the end and a close
// (three or four system calls, and a path lookup) become one pread; a
// directory's open, fstat, fcntl, two getdents and close become a rewind
// and two getdents.
//
// Only for what stays for the whole boot at the real root (/proc/loadavg,
// the boot id, /sys/devices/system/cpu and its online list): a file of a
// fake tree may be replaced by a test between runs, and a device's
// directory goes with the device. Reads give what a fresh open would:
// nullopt (or no entries) when the file cannot be opened or read; one
// that could not be opened is tried again at the next read.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace gfxstat::drivers {

class KeptFile {
public:
    explicit KeptFile(std::string path) : path_(std::move(path)) {}
    ~KeptFile();
    KeptFile(const KeptFile&) = delete;
    KeptFile& operator=(const KeptFile&) = delete;

    // The whole text, at most `limit` bytes. A read shorter than asked is
    // the end: procfs and sysfs hand over what they have in one read.
    std::optional<std::string> read(size_t limit = 64 * 1024);

private:
    std::string path_;
    int fd_ = -1;
};

class KeptDirectory {
public:
    explicit KeptDirectory(std::string path) : path_(std::move(path)) {}
    ~KeptDirectory();
    KeptDirectory(const KeptDirectory&) = delete;
    KeptDirectory& operator=(const KeptDirectory&) = delete;

    // The names in the directory now, without "." and "..", in the
    // order the kernel gives; empty when it cannot be listed.
    std::vector<std::string> names();

private:
    std::string path_;
    int fd_ = -1;
};

}  // namespace gfxstat::drivers
