// SPDX-License-Identifier: MIT
#include "drivers/log_owner.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "data/file_read.h"
#include "data/input_error.h"
#include "data/results_json.h"
#include "data/safe_files.h"
#include "drivers/run_output.h"

namespace gfxstat::drivers {
namespace {

// A claim is one absolute path and a newline; anything larger was not
// written by gfxstat.
constexpr off_t kMaxClaimBytes = PATH_MAX + 1;
// A results file's header is its first line; a header this long is not one.
constexpr size_t kMaxHeaderBytes = 1 << 20;

// `path` made absolute through its directory (the file itself is never a
// link: the results lock refuses one), so that the same file gives the same
// text from any working directory.
std::string absolute_path(const std::string& path) {
    char* dir = ::realpath(data::directory_of(path).c_str(), nullptr);
    if (!dir) return path;
    std::string out(dir);
    std::free(dir);
    if (out != "/") out += "/";
    return out + data::base_name_of(path);
}

// The recorded claim, or nullopt when there is none. Throws when the name
// holds something gfxstat did not write.
std::optional<std::string> read_claim(int dirfd, const std::string& name, const std::string& shown) {
    data::UniqueFd fd(::openat(dirfd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    if (!fd) {
        if (errno == ENOENT) return std::nullopt;
        throw data::input_error(shown, 0, std::string("cannot read which results file writes these logs: ") +
                                              std::strerror(errno));
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > kMaxClaimBytes)
        throw data::input_error(shown, 0, "is not a claim of gfxstat's (a regular file of one path is expected); "
                                          "remove it to let gfxstat write it again");
    std::string text = data::read_all(fd.get(), shown);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    return text;
}

// False when another claim got the name first.
bool write_claim(int dirfd, const std::string& name, const std::string& shown, const std::string& owner) {
    data::UniqueFd fd(data::create_new_file_at(dirfd, name, 0644));
    if (!fd && errno == EEXIST) return false;
    if (!fd)
        throw data::input_error(shown, 0, std::string("cannot record which results file writes these logs: ") +
                                              std::strerror(errno));
    data::write_fully(fd.get(), owner + "\n", shown);
    return true;
}

// The id in the header of the results file at `path`, or "" when it is
// gone or is not a results file. Read without the results lock (the header
// never changes in place) and without waiting on a FIFO.
std::string header_id_of(const std::string& path) {
    data::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    struct stat st {};
    if (!fd || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) return "";
    std::string head;
    char buf[4096];
    for (;;) {
        const ssize_t got = ::read(fd.get(), buf, sizeof buf);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        head.append(buf, size_t(got));
        if (head.find('\n') != std::string::npos || head.size() > kMaxHeaderBytes) break;
    }
    const size_t nl = head.find('\n');
    if (nl == std::string::npos) return "";
    try {
        return data::parse_header_line(std::string_view(head).substr(0, nl)).id;
    } catch (const std::exception&) {
        return "";
    }
}

bool same_file(const std::string& path, const struct stat& ours) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && st.st_dev == ours.st_dev && st.st_ino == ours.st_ino;
}

}  // namespace

void claim_log_names(int log_dir_fd, const std::string& log_dir, const std::string& results_path,
                     const std::string& id) {
    std::string prefix = log_name_prefix(id);
    if (prefix.empty()) return;  // no id: the logs' names have no prefix to share
    prefix.pop_back();           // the '-'
    const std::string name = prefix + ".results";
    const std::string shown = log_dir + "/" + name;
    const std::string ours = absolute_path(results_path);
    struct stat our_stat {};
    if (::stat(results_path.c_str(), &our_stat) != 0)
        throw data::input_error(results_path, 0, std::string("cannot stat: ") + std::strerror(errno));

    for (int pass = 0;; ++pass) {
        const std::optional<std::string> owner = read_claim(log_dir_fd, name, shown);
        if (!owner) {
            if (write_claim(log_dir_fd, name, shown, ours)) return;
            if (pass > 3) throw data::input_error(shown, 0, "keeps being claimed by another gfxstat");
            continue;  // another gfxstat claimed it first: read its claim
        }
        // Ours: the same path, or the same file by another path (a bind
        // mount, a directory reached through a link).
        if (*owner == ours || same_file(*owner, our_stat)) return;
        if (!owner->empty() && owner->front() == '/' && header_id_of(*owner) == id)
            throw data::input_error(
                results_path, 0,
                "has the same id as " + *owner + ", whose runs' logs are in " + log_dir +
                    " too (one file is a copy of the other): their runs would take each other's log names. "
                    "Nothing was run. Give this file a log directory of its own (--log-dir, or none: "
                    "RESULTS.logs beside it), or a new id: `gfxstat merge -o NEW.json " + results_path +
                    "` copies its runs into a new file");
        // Claimed by a file that is gone, or no longer has this id (moved,
        // replaced): this file carries the id on now.
        if (::unlinkat(log_dir_fd, name.c_str(), 0) != 0 && errno != ENOENT)
            throw data::input_error(shown, 0, std::string("cannot replace the claim: ") + std::strerror(errno));
        if (pass > 3) throw data::input_error(shown, 0, "keeps being claimed by another gfxstat");
    }
}

}  // namespace gfxstat::drivers
