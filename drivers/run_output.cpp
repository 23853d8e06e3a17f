// SPDX-License-Identifier: MIT
#include "drivers/run_output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "data/safe_files.h"

namespace gfxstat::drivers {

// A variant label as a file name: letters, digits, '.', '_', '-' kept.
std::string file_safe(const std::string& s) {
    std::string out;
    for (char c : s) {
        const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                          c == '_' || c == '-';
        out += keep ? c : '_';
    }
    if (out.empty() || out[0] == '.') out = "_" + out;
    // A file name holds 255 bytes; the log's and the kept images' names add
    // the file's id, "-check-NNNN" and ".prepare.stderr" to this: a longer
    // label is cut, and the hash below tells the cut ones apart.
    if (out.size() > kFileSafeMax) out.resize(kFileSafeMax);
    if (out != s) {
        // Labels that map to the same name ("mesa/main", "mesa_main") must
        // not share log files: the label's hash tells them apart.
        uint64_t h = 1469598103934665603ULL;
        for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
        char buf[24];
        std::snprintf(buf, sizeof buf, "-%08llx", static_cast<unsigned long long>(h & 0xffffffffULL));
        out += buf;
    }
    return out;
}

// The start of a log's name: the first 16 characters of the results
// file's id (32 random hex digits), letters and digits only (the id comes
// from a file that may have been edited), then '-'; "" without an id.
std::string log_name_prefix(const std::string& id) {
    std::string out;
    for (char c : id) {
        if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) out += c;
        if (out.size() == 16) break;
    }
    return out.empty() ? out : out + "-";
}

// Writes `text` to the new file `name` in the log directory when non-empty;
// true when a file was written. The file is created under the directory's
// checked descriptor with O_EXCL | O_NOFOLLOW: a name that is already taken
// (a link planted there, a file another user owns) is never followed,
// truncated or appended to. That, and a failed write (disk full), is a
// warning, not a lost run: the run's record matters more than its log.
bool keep_output(const Execution& ex, const std::string& name, std::string_view text, RunReport& report) {
    if (text.empty()) return false;
    const std::string shown = ex.log_dir + "/" + name;
    const int dir = ex.log_dir_fd.get();
    data::UniqueFd fd(data::create_new_file_at(dir, name, 0644));
    struct stat st {};
    if (!fd && errno == EEXIST && fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
        st.st_uid == geteuid() && st.st_nlink == 1) {
        // Our own plain file: the log of a run that never reached the
        // results file (gfxstat killed between the two, or the append cut
        // off), whose index this run now has. Removed, not truncated: in
        // a directory no one else can write to, the new name is ours.
        if (unlinkat(dir, name.c_str(), 0) == 0) fd = data::UniqueFd(data::create_new_file_at(dir, name, 0644));
        else errno = EEXIST;
    }
    if (!fd) {
        const int err = errno;
        report.warnings.push_back(
            shown + (err == EEXIST ? ": already exists and is not a log of gfxstat's (a link, or a file of another "
                                     "user's); not followed, not replaced: the run's output was not kept"
                                   : std::string(": cannot keep the run's output: ") + std::strerror(err)));
        return false;
    }
    bool ok = true;
    size_t done = 0;
    while (ok && done < text.size()) {
        const ssize_t n = write(fd.get(), text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) ok = false;
        else done += static_cast<size_t>(n);
    }
    if (!ok) {
        const int err = errno;
        // Ours (just created, in a directory only we can write): no
        // half-written log stays behind.
        unlinkat(dir, name.c_str(), 0);
        report.warnings.push_back(shown + ": cannot keep the run's output: " + std::strerror(err));
        return false;
    }
    ++report.logs_kept;
    return true;
}

}  // namespace gfxstat::drivers
