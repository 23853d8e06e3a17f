// SPDX-License-Identifier: MIT
#include "drivers/tune_state.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <nlohmann/json.hpp>

#include "data/file_read.h"
#include "data/input_error.h"
#include "data/safe_files.h"
#include "drivers/environment_probe.h"
#include "drivers/rooted_open.h"
#include "drivers/sysfs_attribute.h"
#include "drivers/system_root.h"
#include "drivers/tunables.h"

namespace gfxstat::drivers {
namespace {

constexpr const char* kDir = "/var/lib/gfxstat";
constexpr const char* kName = "tune.json";
// A state holds a few hundred bytes per CPU and GPU: 1 MiB is far more than
// any machine needs, and keeps a planted huge file from being read whole.
constexpr long kMaxStateBytes = 1024 * 1024;

std::string dir_path() { return system_path(kDir); }

// Bytes to a JSON string and back, one code point per byte (see the header).
std::string bytes_to_utf8(const std::string& bytes) {
    std::string out;
    for (unsigned char c : bytes) {
        if (c < 0x80) {
            out += static_cast<char>(c);
        } else {
            out += static_cast<char>(0xC0 | (c >> 6));
            out += static_cast<char>(0x80 | (c & 0x3F));
        }
    }
    return out;
}

std::optional<std::string> utf8_to_bytes(const std::string& text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            out += static_cast<char>(c);
        } else if ((c == 0xC2 || c == 0xC3) && i + 1 < text.size()) {
            const unsigned char d = static_cast<unsigned char>(text[++i]);
            if ((d & 0xC0) != 0x80) return std::nullopt;
            out += static_cast<char>(((c & 0x03) << 6) | (d & 0x3F));
        } else {
            return std::nullopt;  // a code point above U+00FF is no byte
        }
    }
    return out;
}

[[noreturn]] void fail(const std::string& what) { throw data::InputError(tune_state_path() + ": " + what); }

// ROOT/var/lib/gfxstat, made by gfxstat when missing. Under a root it is
// reached inside the tree only (drivers/rooted_open.h); on the real root
// through no symbolic link at all. An existing one must be owned by root
// (or the user) and writable by nobody else.
}  // namespace

data::UniqueFd open_tune_state_dir(bool create) {
    const std::string dir = dir_path();
    const bool real_root = system_root().empty();
    if (create) {
        std::string failed;
        if (const int err = make_machine_directories(kDir, 0755, real_root, failed))
            throw data::InputError(failed + ": cannot create the tune state directory: " +
                                   (err == ENOSYS ? std::string("openat2(2) is missing, so a write under ") +
                                                        system_root() + " could leave the tree"
                                                  : std::string(std::strerror(err))));
    }
    data::UniqueFd fd(open_machine_path(kDir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, 0, real_root));
    if (!fd) {
        if (errno == ENOENT && !create) return data::UniqueFd();
        if (errno == ELOOP || errno == ENOTDIR)
            throw data::InputError(dir + ": is a symbolic link or not a directory; gfxstat did not create it");
        throw data::InputError(dir + ": cannot open the tune state directory: " + std::strerror(errno));
    }
    data::check_private_directory(fd.get(), dir, "the tune state directory");
    // Readable by all (0755, the file 0644): the originals are sysfs values,
    // anyone may read, and `tune show` and every user's run report them; only
    // root (or a --root tree's owner) writes there. One made 0700 by an
    // older gfxstat, or under a tight umask, is opened up when writing.
    struct stat st {};
    if (create && ::fstat(fd.get(), &st) == 0 && (st.st_mode & 07777) != 0755 && st.st_uid == ::geteuid())
        ::fchmod(fd.get(), 0755);
    return fd;
}

const SavedFile* TuneState::find(const std::string& path) const {
    for (const auto& f : files)
        if (f.path == path) return &f;
    return nullptr;
}

std::string tune_state_path() { return dir_path() + "/" + kName; }

std::string tune_boot_id() {
    const char* file = std::getenv("GFXSTAT_BOOT_ID_FILE");
    if ((file && *file) || system_root().empty()) return current_boot_id();
    return read_machine_attribute_trimmed("/proc/sys/kernel/random/boot_id").value_or("");
}

std::string utc_now_text() {
    const std::time_t now = std::time(nullptr);
    std::tm tm {};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::optional<TuneState> load_tune_state() {
    data::UniqueFd dir = open_tune_state_dir(false);
    if (!dir) return std::nullopt;
    // O_NONBLOCK and S_ISREG: a FIFO in its place must not hang show, apply
    // and every run's check.
    data::UniqueFd fd(::openat(dir.get(), kName, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
    if (!fd) {
        if (errno == ENOENT) return std::nullopt;
        fail(errno == ELOOP ? "is a symbolic link; gfxstat did not write it" : std::string("cannot open: ") + std::strerror(errno));
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) fail(std::string("cannot stat: ") + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) fail("not a regular file; gfxstat did not write it");
    if (st.st_size > kMaxStateBytes)
        fail("holds " + std::to_string(st.st_size) + " bytes, more than the " + std::to_string(kMaxStateBytes) +
             " a tune state can have; gfxstat did not write it");
    std::string text = data::read_all(fd.get(), tune_state_path());
    if (text.size() > static_cast<size_t>(kMaxStateBytes)) fail("grew past " + std::to_string(kMaxStateBytes) + " bytes while read");
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        fail(std::string("not JSON: ") + e.what());
    } catch (const nlohmann::json::exception& e) {  // a number too large for any type (1e400)
        fail(std::string("not JSON: ") + e.what());
    }
    if (!j.is_object() || j.value("format", "") != "gfxstat-tune") fail("not a gfxstat tune state (format \"gfxstat-tune\" expected)");
    if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<int>() != 1)
        fail("version 1 expected");
    TuneState s;
    const auto str = [&](const nlohmann::json& o, const char* key) {
        if (!o.contains(key) || !o[key].is_string()) fail(std::string("\"") + key + "\" (a string) expected");
        return o[key].get<std::string>();
    };
    s.boot_id = str(j, "boot_id");
    s.time = str(j, "time");
    if (j.contains("settings") && j["settings"].is_string()) s.settings = j["settings"].get<std::string>();
    if (j.contains("pid") && j["pid"].is_number_integer()) s.pid = j["pid"].get<long>();
    if (j.contains("by")) {
        if (!j["by"].is_string() || (j["by"] != kTunedByApply && j["by"] != kTunedByRun))
            fail("\"by\": \"apply\" or \"run --tune\" expected");
        s.by = j["by"].get<std::string>();
    }
    if (j.contains("start_time")) {
        if (!j["start_time"].is_number_unsigned()) fail("\"start_time\" (a number) expected");
        s.start_time = j["start_time"].get<unsigned long long>();
    }
    if (!j.contains("files") || !j["files"].is_array()) fail("\"files\" (an array) expected");
    for (const auto& f : j["files"]) {
        if (!f.is_object()) fail("\"files\": objects expected");
        SavedFile sf;
        sf.path = str(f, "path");
        // Only sysfs attributes are ever written back, whatever the file says.
        if (!is_tunable_path(sf.path))
            fail("\"files\": " + data::quote_token(sf.path) + " is not a file gfxstat tune writes");
        auto bytes = utf8_to_bytes(str(f, "original"));
        if (!bytes) fail("\"files\": the original of " + sf.path + " holds a code point above U+00FF");
        sf.original = *bytes;
        s.files.push_back(std::move(sf));
    }
    return s;
}

void save_tune_state(const TuneState& s) {
    nlohmann::ordered_json j;
    j["format"] = "gfxstat-tune";
    j["version"] = 1;
    j["boot_id"] = s.boot_id;
    j["time"] = s.time;
    j["by"] = s.by;
    j["pid"] = s.pid;
    j["start_time"] = s.start_time;
    j["settings"] = s.settings;
    j["files"] = nlohmann::ordered_json::array();
    for (const auto& f : s.files) j["files"].push_back({{"path", f.path}, {"original", bytes_to_utf8(f.original)}});
    const std::string text = j.dump(1) + "\n";

    data::UniqueFd dir = open_tune_state_dir(true);
    const std::string tmp = std::string(kName) + ".tmp." + std::to_string(::getpid());
    int fd = data::create_new_file_at(dir.get(), tmp, 0644);
    if (fd < 0 && errno == EEXIST) {  // left by a killed gfxstat of the same pid
        ::unlinkat(dir.get(), tmp.c_str(), 0);
        fd = data::create_new_file_at(dir.get(), tmp, 0644);
    }
    if (fd < 0) fail(std::string("cannot create ") + tmp + ": " + std::strerror(errno));
    data::UniqueFd file(fd);
    try {
        if (::fchmod(file.get(), 0644) != 0) fail(std::string("chmod: ") + std::strerror(errno));  // past the umask
        data::write_fully(file.get(), text, tune_state_path());
        if (::fsync(file.get()) != 0) fail(std::string("fsync: ") + std::strerror(errno));
    } catch (...) {
        ::unlinkat(dir.get(), tmp.c_str(), 0);
        throw;
    }
    if (::renameat(dir.get(), tmp.c_str(), dir.get(), kName) != 0) {
        const int err = errno;
        ::unlinkat(dir.get(), tmp.c_str(), 0);
        fail(std::string("cannot rename into place: ") + std::strerror(err));
    }
    if (::fsync(dir.get()) != 0) fail(std::string("fsync of the directory: ") + std::strerror(errno));
}

void remove_tune_state() {
    data::UniqueFd dir = open_tune_state_dir(false);
    if (!dir) return;
    if (::unlinkat(dir.get(), kName, 0) != 0 && errno != ENOENT) fail(std::string("cannot remove: ") + std::strerror(errno));
    ::fsync(dir.get());
}

}  // namespace gfxstat::drivers
