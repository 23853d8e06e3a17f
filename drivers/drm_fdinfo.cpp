// SPDX-License-Identifier: MIT
// DRM fdinfo: the key-value text the kernel prints for an open DRM file
// (Documentation/gpu/drm-usage-stats.rst), and the walk over /proc that
// finds such files. Everything here tolerates a process or file that
// vanishes mid-walk: /proc changes under us by nature.
#include "drivers/drm_fdinfo.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstdlib>
#include <set>
#include <utility>

namespace gfxstat::drivers {
namespace {

constexpr unsigned kDrmMajor = 226;  // include/uapi/drm/drm.h DRM_MAJOR

std::string_view trim(std::string_view s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos) return {};
    const auto e = s.find_last_not_of(" \t\r\n");
    return s.substr(b, e - b + 1);
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// A whole small file (fdinfo, comm), or nothing when it cannot be read.
std::optional<std::string> read_small(const std::string& path) {
    // O_NONBLOCK: a FIFO planted in a --root tree's proc must not hang the
    // check (procfs and regular files ignore the flag).
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return std::nullopt;
    std::string out;
    char buf[4096];
    while (out.size() < 256 * 1024) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            ::close(fd);
            return std::nullopt;
        }
        if (n == 0) break;
        out.append(buf, static_cast<size_t>(n));
    }
    ::close(fd);
    return out;
}

std::optional<uint64_t> parse_u64(std::string_view s) {
    uint64_t v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
    return v;
}

// "<uint> ns": the only unit the document gives engine time.
std::optional<uint64_t> parse_ns(std::string_view value) {
    const size_t space = value.find_first_of(" \t");
    if (space == std::string_view::npos) return std::nullopt;
    if (trim(value.substr(space)) != "ns") return std::nullopt;
    return parse_u64(value.substr(0, space));
}

// "<uint> [KiB|MiB]" (the kernel picks the largest unit that divides the
// size exactly; no unit is bytes). GiB and an explicit B are accepted for
// drivers that print them. Nothing when the product overflows.
std::optional<uint64_t> parse_bytes(std::string_view value) {
    const size_t space = value.find_first_of(" \t");
    const auto n = parse_u64(value.substr(0, space));
    if (!n) return std::nullopt;
    const std::string_view unit = space == std::string_view::npos ? std::string_view() : trim(value.substr(space));
    uint64_t scale = 1;
    if (unit.empty() || unit == "B")
        scale = 1;
    else if (unit == "KiB")
        scale = 1024;
    else if (unit == "MiB")
        scale = 1024 * 1024;
    else if (unit == "GiB")
        scale = 1024ull * 1024 * 1024;
    else
        return std::nullopt;
    if (*n > UINT64_MAX / scale) return std::nullopt;
    return *n * scale;
}

// The card ("card0") that a DRM node belongs to, from sysfs: a card node is
// its own; a render node's device directory lists the card beside it
// (device/drm/card0). Else the card whose device is `pdev`.
std::string card_of(const std::string& root, const std::string& node, const std::string& pdev) {
    const std::string name = node.substr(node.rfind('/') + 1);
    if (starts_with(name, "card") && name.size() > 4 &&
        std::all_of(name.begin() + 4, name.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return name;
    std::vector<std::string> cards;
    auto collect = [&](const std::string& dir, bool by_pdev) {
        DIR* d = ::opendir(dir.c_str());
        if (!d) return;
        while (const dirent* e = ::readdir(d)) {
            const std::string n = e->d_name;
            if (!starts_with(n, "card") || n.find('-') != std::string::npos || n.size() == 4) continue;
            if (by_pdev) {
                char link[PATH_MAX];
                const ssize_t len = ::readlink((dir + "/" + n + "/device").c_str(), link, sizeof link - 1);
                if (len <= 0) continue;
                const std::string target(link, static_cast<size_t>(len));
                if (target.substr(target.rfind('/') + 1) != pdev) continue;
            }
            cards.push_back(n);
        }
        ::closedir(d);
    };
    if (!name.empty()) collect(root + "/sys/class/drm/" + name + "/device/drm", false);
    if (cards.empty() && !pdev.empty()) collect(root + "/sys/class/drm", true);
    std::sort(cards.begin(), cards.end());
    return cards.empty() ? "" : cards.front();
}

bool is_number(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The keys that carry a name after their prefix (an engine, a memory
// region): the prefix, how its value reads, the map it fills. The first
// prefix that matches takes the key, so drm-engine-capacity- stands before
// drm-engine-, and drm-total-cycles- (xe's engine clock, not a memory
// region) before drm-total-.
struct PerNameKey {
    std::string_view prefix;
    std::optional<uint64_t> (*parse)(std::string_view);
    std::map<std::string, uint64_t> DrmFdinfo::*into;
};

const PerNameKey kPerNameKeys[] = {
    {"drm-engine-capacity-", parse_u64, &DrmFdinfo::engine_capacity},
    {"drm-engine-", parse_ns, &DrmFdinfo::engine_ns},
    {"drm-total-cycles-", parse_u64, &DrmFdinfo::engine_total_cycles},
    {"drm-cycles-", parse_u64, &DrmFdinfo::engine_cycles},
    {"drm-total-", parse_bytes, &DrmFdinfo::memory_total},
    {"drm-resident-", parse_bytes, &DrmFdinfo::memory_resident},
    // amdgpu before 6.8 (deprecated form): what is resident.
    {"drm-memory-", parse_bytes, &DrmFdinfo::memory_resident},
};

}  // namespace

std::optional<DrmFdinfo> parse_drm_fdinfo(std::string_view text) {
    DrmFdinfo info;
    bool drm = false;
    while (!text.empty()) {
        const size_t nl = text.find('\n');
        const std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
        const size_t colon = line.find(':');
        if (colon == std::string_view::npos) continue;
        const std::string_view key = trim(line.substr(0, colon));
        const std::string_view value = trim(line.substr(colon + 1));
        if (!starts_with(key, "drm-")) continue;
        auto suffix = [&](std::string_view prefix) { return std::string(key.substr(prefix.size())); };
        if (key == "drm-driver") {
            if (!value.empty()) {
                info.driver = std::string(value);
                drm = true;
            }
        } else if (key == "drm-pdev") {
            info.pdev = std::string(value);
        } else if (key == "drm-client-id") {
            info.client_id = parse_u64(value);
        } else {
            for (const PerNameKey& k : kPerNameKeys) {
                if (!starts_with(key, k.prefix)) continue;
                if (auto v = k.parse(value); v && key.size() > k.prefix.size()) (info.*k.into)[suffix(k.prefix)] = *v;
                break;
            }
        }
    }
    if (!drm) return std::nullopt;
    return info;
}

std::vector<DrmClient> drm_files_of(int pid, const std::string& root) {
    std::vector<DrmClient> out;
    const std::string proc = root + "/proc/" + std::to_string(pid);
    DIR* d = ::opendir((proc + "/fd").c_str());
    if (!d) return out;
    std::vector<int> fds;
    while (const dirent* e = ::readdir(d))
        if (is_number(e->d_name)) fds.push_back(std::atoi(e->d_name));
    ::closedir(d);
    std::sort(fds.begin(), fds.end());
    std::string comm;
    bool comm_read = false;
    for (const int fd : fds) {
        const std::string link_path = proc + "/fd/" + std::to_string(fd);
        char link[PATH_MAX];
        const ssize_t len = ::readlink(link_path.c_str(), link, sizeof link - 1);
        const std::string node = len > 0 ? std::string(link, static_cast<size_t>(len)) : std::string();
        struct stat st {};
        const bool drm_device = ::stat(link_path.c_str(), &st) == 0 && S_ISCHR(st.st_mode) && major(st.st_rdev) == kDrmMajor;
        if (!drm_device && !starts_with(node, "/dev/dri/")) continue;
        DrmClient c;
        c.pid = pid;
        c.fd = fd;
        c.node = starts_with(node, "/") ? node : "";
        const auto text = read_small(proc + "/fdinfo/" + std::to_string(fd));
        if (!text) continue;  // closed meanwhile
        if (auto info = parse_drm_fdinfo(*text)) c.info = std::move(*info);
        c.card = card_of(root, c.node, c.info.pdev);
        if (!comm_read) {
            comm_read = true;
            if (auto t = read_small(proc + "/comm")) comm = std::string(trim(*t));
        }
        c.comm = comm;
        out.push_back(std::move(c));
    }
    return out;
}

std::vector<DrmClient> list_drm_clients(const std::string& root) {
    std::vector<int> pids;
    DIR* d = ::opendir((root + "/proc").c_str());
    if (!d) return {};
    while (const dirent* e = ::readdir(d))
        if (is_number(e->d_name)) pids.push_back(std::atoi(e->d_name));
    ::closedir(d);
    std::sort(pids.begin(), pids.end());
    std::vector<DrmClient> out;
    for (const int pid : pids) {
        std::set<std::pair<std::string, uint64_t>> seen;  // pdev, client id
        for (DrmClient& c : drm_files_of(pid, root)) {
            if (c.info.client_id && !seen.insert({c.info.pdev, *c.info.client_id}).second) continue;
            out.push_back(std::move(c));
        }
    }
    return out;
}

}  // namespace gfxstat::drivers
