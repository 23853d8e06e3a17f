// SPDX-License-Identifier: MIT
// Reading whole inputs into memory, with errors that name the file. Results
// files and the importers' formats are parsed in memory; column files are
// streamed instead (data/column_file), since they can be far larger.
#pragma once

#include <string>

namespace gfxstat::data {

// Everything from `fd` (not closed) until end of file. Throws InputError
// naming `name` on a read error.
std::string read_all(int fd, const std::string& name);

// `path` open for reading, closed when this goes; "-" is standard input
// (left open). Throws InputError naming `path` when it cannot be opened.
class InputFile {
public:
    explicit InputFile(const std::string& path);
    int fd() const { return fd_; }
    bool is_stdin() const { return stdin_; }

    ~InputFile();
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;

private:
    int fd_;
    bool stdin_;
};

// The whole of `path`; "-" is standard input. Throws InputError when the
// file cannot be opened or read.
std::string read_whole_file(const std::string& path);

}  // namespace gfxstat::data
