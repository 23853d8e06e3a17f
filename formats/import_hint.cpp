// SPDX-License-Identifier: MIT
#include "formats/import_hint.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "data/file_read.h"
#include "formats/recognise.h"
#include "text/shell_quote.h"

namespace gfxstat::formats {

namespace {

// The first bytes of a regular file, or "" for anything else: a FIFO or a
// device would block or be consumed by a second read.
std::string file_head(const std::string& path) {
    if (path.empty() || path == "-") return "";
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return "";
    std::string head;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        head.resize(kSniffBytes + 1);
        size_t got = 0;
        while (got < head.size()) {
            const ssize_t n = ::pread(fd, head.data() + got, head.size() - got, static_cast<off_t>(got));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            got += static_cast<size_t>(n);
        }
        head.resize(got);
    }
    ::close(fd);
    return head;
}

}  // namespace

std::string import_hint(const std::string& path, std::string_view stdin_head) {
    const std::optional<RecognisedFormat> f =
        recognise_import(path == "-" ? stdin_head.substr(0, kSniffBytes + 1) : file_head(path));
    if (!f) return "";
    // A file named like an option would be taken for one.
    const std::string file = text::shell_quote(path != "-" && !path.empty() && path[0] == '-' ? "./" + path : path);
    return "; this looks like " + std::string(f->what) + ": gfxstat import --from " + std::string(f->format) + " " +
           file + " -o results.json";
}

data::InputError with_import_hint(const data::InputError& e, const std::string& path, std::string_view stdin_head) {
    const std::string hint = import_hint(path, stdin_head);
    if (hint.empty()) return e;
    const std::string name = path == "-" ? std::string("standard input") : path;
    return data::InputError(name + " is not a gfxstat results file: " + hint.substr(2));
}

data::ResultsFile read_results_path_hinted(const std::string& path, const std::string& name,
                                           data::ReadReport* report) {
    if (path != "-") {
        try {
            return data::read_results_path(path, name, report);
        } catch (const data::InputError& e) {
            throw with_import_hint(e, path);
        }
    }
    const std::string text = data::read_all(STDIN_FILENO, name);
    try {
        return data::parse_results(text, name, report);
    } catch (const data::InputError& e) {
        throw with_import_hint(e, path, text);
    }
}

}  // namespace gfxstat::formats
