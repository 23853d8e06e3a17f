// SPDX-License-Identifier: MIT
// Environment probe: small reads of /proc and /sys (under ProbeOptions::root)
// plus libdrm for the DRM devices. Every source is optional; a read error or
// content that does not parse leaves its field out. Nothing here throws.
#include "drivers/environment_probe.h"
#include "drivers/gpu_sysfs.h"
#include "drivers/kept_files.h"
#include "drivers/libdrm_devices.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <xf86drm.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace gfxstat::drivers {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kSpace = " \t\r\n\f\v";

// The shared sysfs reads (drivers/gpu_sysfs.h), by their short names here.
std::string_view trim(std::string_view s) { return trim_space(s); }
std::optional<std::string> read_text(const std::string& path, size_t limit = 64 * 1024) {
    return read_sysfs_text(path, limit);
}
std::optional<std::string> read_trimmed(const std::string& path) { return read_sysfs_trimmed(path); }

// A single token: non-empty, no whitespace inside (a governor, a DPM level).
std::optional<std::string> read_token(const std::string& path) {
    auto t = read_trimmed(path);
    if (!t || t->find_first_of(kSpace) != std::string::npos) return std::nullopt;
    return t;
}

template <class Int>
std::optional<Int> parse_int(std::string_view s, int base = 10) {
    Int v{};
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v, base);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size() || s.empty()) return std::nullopt;
    return v;
}

std::optional<uint64_t> read_unsigned(const std::string& path) { return read_sysfs_unsigned(path); }

bool is_decimal_number(std::string_view s) {  // "0.12", "12"
    if (s.empty()) return false;
    bool digit = false, dot = false;
    for (char c : s) {
        if (c >= '0' && c <= '9') digit = true;
        else if (c == '.' && !dot) dot = true;
        else return false;
    }
    return digit;
}

// "cardN" / "renderDN" / "hwmonN" / "cpuN": the number after `prefix`,
// when all the rest is digits.
std::optional<unsigned> numbered(std::string_view name, std::string_view prefix) {
    if (name.substr(0, prefix.size()) != prefix) return std::nullopt;
    return parse_int<unsigned>(name.substr(prefix.size()));
}

using Fields = std::map<std::string, std::string>;
using DeviceListing = std::vector<std::pair<std::string, uint64_t>>;

// ---- kernel and host --------------------------------------------------

// Per run: the hostname (hostname(1) may change it at any time) and, at the
// real root, the release with it (one uname(2), no file); the load average.
void probe_host(const std::string& root, Fields& f, KeptFile* loadavg) {
    if (root.empty()) {
        struct utsname u {};
        if (::uname(&u) == 0) {
            if (u.nodename[0]) f["hostname"] = u.nodename;
            if (u.release[0]) f["kernel_release"] = u.release;
        }
    } else {
        // What uname(2) reports, as the kernel also publishes it in /proc.
        if (auto h = read_token(root + "/proc/sys/kernel/hostname")) f["hostname"] = *h;
    }
    if (auto l = loadavg ? loadavg->read() : read_text(root + "/proc/loadavg")) {
        // "0.12 0.30 0.25 1/234 5678": the 1, 5 and 15 minute averages.
        std::string_view s = trim(*l);
        std::string out;
        int n = 0;
        while (n < 3 && !s.empty()) {
            const auto e = std::min(s.find(' '), s.size());
            const auto tok = s.substr(0, e);
            if (!is_decimal_number(tok)) break;
            if (n) out += ' ';
            out += tok;
            ++n;
            s = trim(s.substr(e));
        }
        if (n == 3) f["load_average"] = out;
    }
}

// Once per boot: the running kernel's release and command line are fixed
// when it boots.
void probe_kernel(const std::string& root, Fields& f) {
    if (!root.empty())
        if (auto r = read_token(root + "/proc/sys/kernel/osrelease")) f["kernel_release"] = *r;
    if (auto c = read_trimmed(root + "/proc/cmdline")) f["kernel_cmdline"] = *c;
}

// ---- CPU --------------------------------------------------------------

// The first "model name" of /proc/cpuinfo. Read in chunks and stopped at the
// first match: the kernel formats cpuinfo per CPU on demand (on x86 each
// record asks its CPU for its clock), so reading all of it on a big machine
// costs far more than the first record.
std::optional<std::string> cpu_model(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    std::string text;
    size_t line_start = 0;
    std::optional<std::string> found;
    bool seen = false;  // the first "model name" decides, empty or not
    bool eof = false;
    char buf[4096];
    while (!seen && !eof && text.size() < (1u << 20)) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) eof = true;  // end of file, or a read error: scan what we have
        else text.append(buf, static_cast<size_t>(n));
        while (!seen && line_start < text.size()) {
            auto nl = text.find('\n', line_start);
            if (nl == std::string::npos) {
                if (!eof) break;  // wait for the rest of the line
                nl = text.size();
            }
            const std::string_view line(text.data() + line_start, nl - line_start);
            line_start = nl + 1;
            const auto colon = line.find(':');
            if (colon != std::string_view::npos && trim(line.substr(0, colon)) == "model name") {
                seen = true;
                const auto v = trim(line.substr(colon + 1));
                if (!v.empty()) found = std::string(v);
            }
        }
    }
    ::close(fd);
    return found;
}

// "0-3,6,8-9" → 7. nullopt for anything else.
std::optional<unsigned> count_cpu_list(std::string_view s) {
    s = trim(s);
    if (s.empty()) return std::nullopt;
    unsigned count = 0;
    while (!s.empty()) {
        const auto comma = std::min(s.find(','), s.size());
        const auto range = s.substr(0, comma);
        const auto dash = range.find('-');
        if (dash == std::string_view::npos) {
            if (!parse_int<unsigned>(range)) return std::nullopt;
            ++count;
        } else {
            auto a = parse_int<unsigned>(range.substr(0, dash));
            auto b = parse_int<unsigned>(range.substr(dash + 1));
            if (!a || !b || *b < *a) return std::nullopt;
            count += *b - *a + 1;
        }
        if (comma == s.size()) break;
        s = s.substr(comma + 1);
        if (s.empty()) return std::nullopt;  // trailing comma
    }
    return count;
}

// Per run: which CPUs are online, their governors and turbo are what
// `gfxstat tune` and --prepare hooks change between runs.
// `online` and `cpus`, when given, are /sys/devices/system/cpu/online and
// that directory, kept open by a run loop's probe at the real root.
void probe_cpu_state(const std::string& root, Fields& f, KeptFile* online, KeptDirectory* cpus) {
    const std::string cpu = root + "/sys/devices/system/cpu";
    if (auto text = online ? online->read() : read_text(cpu + "/online"))
        if (auto n = count_cpu_list(*text)) f["cpu_count"] = std::to_string(*n);

    std::vector<std::pair<unsigned, std::string>> entries;
    if (cpus) {
        // As numbered_entries lists them: cpuN, by N.
        for (std::string& name : cpus->names())
            if (auto n = numbered(name, "cpu")) entries.emplace_back(*n, std::move(name));
        std::sort(entries.begin(), entries.end());
    } else {
        entries = numbered_entries(cpu, "cpu");
    }
    std::set<std::string> governors;  // sorted, distinct
    for (const auto& [n, name] : entries) {
        (void)n;
        if (auto g = read_token(cpu + "/" + name + "/cpufreq/scaling_governor")) governors.insert(*g);
    }
    if (!governors.empty()) {
        std::string joined;
        for (const auto& g : governors) joined += (joined.empty() ? "" : ",") + g;
        f["cpu_governor"] = joined;
    }

    // intel_pstate's no_turbo (1: turbo off) wins over cpufreq's boost
    // (1: boost on, acpi-cpufreq and amd-pstate); the first that reads
    // 0 or 1 decides.
    auto flag = [](const std::string& path) -> std::optional<bool> {
        auto v = read_trimmed(path);
        if (v == "0") return false;
        if (v == "1") return true;
        return std::nullopt;
    };
    if (auto no_turbo = flag(cpu + "/intel_pstate/no_turbo"))
        f["cpu_turbo"] = *no_turbo ? "off" : "on";
    else if (auto boost = flag(cpu + "/cpufreq/boost"))
        f["cpu_turbo"] = *boost ? "on" : "off";
}

// ---- DRM devices ------------------------------------------------------

struct DrmDevice {
    // Sort key: primary nodes (cardN) by N, then render-only devices
    // (renderDN) by N.
    int kind = 0;  // 0: cardN, 1: renderDN
    unsigned number = 0;
    std::string sysfs_name;  // "card0" / "renderD128" under /sys/class/drm
    std::optional<std::string> driver, driver_version, pci_id;
};

std::string hex4(unsigned v) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "%04x", v & 0xffffu);
    return buf;
}

// The DRM devices libdrm sees: name/version from DRM_IOCTL_VERSION on a node
// we may open (render node first: opening a primary node may make us DRM
// master for a moment), PCI ids from the bus info.
std::vector<DrmDevice> libdrm_devices() {
    std::vector<DrmDevice> out;
    for_each_libdrm_device([&](const drmDevice& device, const std::string& primary, const std::string& render) {
        const drmDevice* d = &device;
        const bool has_primary = !primary.empty(), has_render = !render.empty();
        DrmDevice dev;
        const std::string node = has_primary ? primary : render;
        dev.sysfs_name = fs::path(node).filename().string();
        if (auto n = numbered(dev.sysfs_name, "card")) {
            dev.kind = 0;
            dev.number = *n;
        } else if (auto r = numbered(dev.sysfs_name, "renderD")) {
            dev.kind = 1;
            dev.number = *r;
        } else {
            return;  // a node name we cannot place in /sys/class/drm
        }
        if (d->bustype == DRM_BUS_PCI && d->deviceinfo.pci)
            dev.pci_id = hex4(d->deviceinfo.pci->vendor_id) + ":" + hex4(d->deviceinfo.pci->device_id);
        for (const char* path : {has_render ? render.c_str() : nullptr, has_primary ? primary.c_str() : nullptr}) {
            if (!path) continue;
            const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
            if (fd < 0) continue;  // EACCES and the like: sysfs names the driver
            if (drmVersionPtr v = drmGetVersion(fd)) {
                if (v->name && v->name_len > 0) {
                    dev.driver = std::string(v->name, strnlen(v->name, static_cast<size_t>(v->name_len)));
                    dev.driver_version = std::to_string(v->version_major) + "." +
                                         std::to_string(v->version_minor) + "." +
                                         std::to_string(v->version_patchlevel);
                }
                drmFreeVersion(v);
            }
            ::close(fd);
            if (dev.driver) break;
        }
        out.push_back(std::move(dev));
    });
    return out;
}

// "0x8086\n" → "8086".
std::optional<std::string> pci_hex(const std::string& path) {
    auto t = read_trimmed(path);
    if (!t || t->size() < 3 || (*t)[0] != '0' || ((*t)[1] != 'x' && (*t)[1] != 'X')) return std::nullopt;
    auto v = parse_int<unsigned>(std::string_view(*t).substr(2), 16);
    if (!v || *v > 0xffff) return std::nullopt;
    return hex4(*v);
}

// The field prefix of the i-th device: gpu, gpu1, gpu2, ...
std::string gpu_prefix(size_t i) { return i == 0 ? "gpu" : "gpu" + std::to_string(i); }

// The kernel driver a device is bound to: the last component of the
// device/driver symlink ("../../../bus/pci/drivers/i915" → "i915").
std::optional<std::string> bound_driver(const std::string& device_dir) {
    std::error_code ec;
    const fs::path target = fs::read_symlink(device_dir + "/driver", ec);
    if (ec) return std::nullopt;
    std::string name = target.filename().string();
    if (name.empty() || name == "." || name == "..") return std::nullopt;
    return name;
}

// Frequencies, throttle reasons and amdgpu DPM state of one card's sysfs
// directory, with field names prefixed by `p` ("gpu", "gpu1").
void probe_gpu_sysfs(const std::string& dir, const std::string& p, Fields& f) {
    static constexpr const char* kFreqs[] = {"min", "max", "boost", "cur", "act"};

    // i915: cardN/gt_<x>_freq_mhz (the first GT).
    bool i915 = false;
    for (const char* which : kFreqs) {
        if (auto v = read_unsigned(i915_freq_file(dir, which))) {
            f[p + "_" + which + "_freq_mhz"] = std::to_string(*v);
            i915 = true;
        }
    }
    // xe: device/tile0/gt0/freq0/<x>_freq (MHz), when i915's files are absent.
    if (!i915)
        for (const char* which : {"min", "max", "cur", "act"})
            if (auto v = read_unsigned(xe_freq_file(dir, which)))
                f[p + "_" + which + "_freq_mhz"] = std::to_string(*v);

    // Throttle reasons: i915 gt/gt0/throttle_reason_<r>, xe
    // freq0/throttle/reason_<r>. Non-zero reasons, sorted, comma-separated;
    // "none" when every reason reads 0. "status" (the OR of all reasons) is
    // listed only when it is set and no named reason is.
    auto throttle = [&](const ThrottleFiles& files) {
        std::set<std::string> set;
        bool any_read = false;
        for (const auto& [reason, path] : throttle_reason_files(files)) {
            auto v = read_unsigned(path);
            if (!v) continue;
            any_read = true;
            if (*v) set.insert(reason);
        }
        const auto status = read_unsigned(files.dir + "/" + files.status_file);
        if (status) any_read = true;
        if (!any_read) return false;
        std::string joined;
        for (const auto& r : set) joined += (joined.empty() ? "" : ",") + r;
        if (joined.empty()) joined = (status && *status) ? "status" : "none";
        f[p + "_throttle"] = joined;
        return true;
    };
    if (!throttle(i915_throttle_files(dir))) throttle(xe_throttle_files(dir));

    // amdgpu: the current shader clock level is the line marked '*' of
    // pp_dpm_sclk ("1: 1800Mhz *").
    if (auto sclk = read_text(amdgpu_sclk_file(dir)))
        if (auto v = current_sclk_mhz(*sclk)) f[p + "_sclk_mhz"] = std::to_string(*v);
    if (auto level = read_token(dir + "/device/power_dpm_force_performance_level")) {
        const bool word = std::all_of(level->begin(), level->end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
        });
        if (word) f[p + "_performance_level"] = *level;
    }
}

// Once per set of devices: the cards, in order, with the driver, version
// and PCI id each is known by (their fields gpu*_driver, _driver_version,
// _pci_id go into `f`).
std::vector<DrmDevice> drm_cards(const std::string& root, bool use_libdrm, Fields& f) {
    const std::string drm = root + "/sys/class/drm";
    std::map<std::pair<int, unsigned>, DrmDevice> devices;
    for (const auto& [n, name] : numbered_entries(drm, "card")) {
        DrmDevice d;
        d.kind = 0;
        d.number = n;
        d.sysfs_name = name;
        devices.emplace(std::make_pair(0, n), std::move(d));
    }
    if (use_libdrm) {
        for (auto& d : libdrm_devices()) {
            auto& slot = devices[{d.kind, d.number}];
            slot = std::move(d);  // libdrm's answers replace the sysfs-only entry
        }
    }
    std::vector<DrmDevice> out;
    for (auto& [key, d] : devices) {
        (void)key;
        const std::string p = gpu_prefix(out.size());
        const std::string device = drm + "/" + d.sysfs_name + "/device";
        if (!d.driver) d.driver = bound_driver(device);
        if (!d.pci_id) {
            auto vendor = pci_hex(device + "/vendor");
            auto product = pci_hex(device + "/device");
            if (vendor && product) d.pci_id = *vendor + ":" + *product;
        }
        if (d.driver) f[p + "_driver"] = *d.driver;
        if (d.driver_version) f[p + "_driver_version"] = *d.driver_version;
        if (d.pci_id) f[p + "_pci_id"] = *d.pci_id;
        out.push_back(std::move(d));
    }
    return out;
}

// Per run: each card's clocks, throttle reasons and DPM state.
void probe_drm_state(const std::string& root, const std::vector<DrmDevice>& cards, Fields& f) {
    for (size_t i = 0; i < cards.size(); ++i)
        probe_gpu_sysfs(root + "/sys/class/drm/" + cards[i].sysfs_name, gpu_prefix(i), f);
}

// ---- hwmon ------------------------------------------------------------

// Millidegrees → degrees with one decimal, rounded half away from zero in
// integers ("45650" → "45.7", "-500" → "-0.5").
std::string degrees(int64_t milli) {
    const bool neg = milli < 0;
    const uint64_t m = neg ? static_cast<uint64_t>(-(milli + 1)) + 1 : static_cast<uint64_t>(milli);
    const uint64_t tenths = (m + 50) / 100;
    std::string s = (neg && tenths ? "-" : "") + std::to_string(tenths / 10) + "." +
                    std::to_string(tenths % 10);
    return s;
}

// A sensor chip's temperature inputs, found once per set of devices (hwmon
// creates a device's attributes when it registers it).
struct HwmonChip {
    std::string key;                // the chip's name as a field name
    std::vector<std::string> inputs;  // its temp<N>_input files
};

std::vector<HwmonChip> hwmon_chips(const std::string& root) {
    const std::string base = root + "/sys/class/hwmon";
    std::vector<HwmonChip> chips;
    for (const auto& [n, name] : numbered_entries(base, "hwmon")) {
        (void)n;
        const std::string dir = base + "/" + name;
        auto chip = read_token(dir + "/name");
        if (!chip) continue;
        HwmonChip c;
        for (char ch : *chip) {
            const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_';
            c.key += ok ? ch : (ch >= 'A' && ch <= 'Z') ? static_cast<char>(ch - 'A' + 'a') : '_';
        }
        std::error_code ec;
        fs::directory_iterator it(dir, ec), end;
        for (; !ec && it != end; it.increment(ec)) {
            const std::string file = it->path().filename().string();
            // temp<N>_input
            if (file.size() < 11 || file.compare(0, 4, "temp") != 0 ||
                file.compare(file.size() - 6, 6, "_input") != 0 ||
                !parse_int<unsigned>(std::string_view(file).substr(4, file.size() - 10)))
                continue;
            c.inputs.push_back(dir + "/" + file);
        }
        chips.push_back(std::move(c));
    }
    return chips;
}

// Per run: the hottest input of every chip name.
void probe_hwmon(const std::vector<HwmonChip>& chips, Fields& f) {
    std::map<std::string, int64_t> hottest;  // by sensor-chip name
    for (const HwmonChip& chip : chips) {
        std::optional<int64_t> best;
        for (const std::string& input : chip.inputs) {
            auto t = read_trimmed(input);
            if (!t) continue;
            auto v = parse_int<int64_t>(*t);
            if (!v || *v < -300000 || *v > 1000000) continue;  // not a temperature
            if (!best || *v > *best) best = v;
        }
        if (!best) continue;
        auto [pos, fresh] = hottest.emplace(chip.key, *best);
        if (!fresh && *best > pos->second) pos->second = *best;
    }
    for (const auto& [key, milli] : hottest) f["temp_" + key] = degrees(milli);
}

// ---- which machine -----------------------------------------------------

// A fleet's results are merged from many machines, and `compare` treats the
// machine as a level above the boot; the hostname alone cannot be that key
// (CI images all call themselves "localhost" or "debian"). The key is a
// 64-bit FNV-1a digest of /etc/machine-id (systemd's stable random id), or
// else of the DMI product name and serial; "m-" + 16 hex digits. A digest,
// not the id itself: systemd asks that the machine id never leave the
// machine verbatim, and 64 bits of a 128-bit random id cannot be turned
// back into it while two machines of a fleet still practically never
// collide.
std::string machine_digest(std::string_view what, std::string_view value) {
    uint64_t h = 0xcbf29ce484222325ull;
    const auto mix = [&](std::string_view s) {
        const std::string len = std::to_string(s.size()) + ":";
        for (unsigned char c : len) h = (h ^ c) * 0x100000001b3ull;
        for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
    };
    mix("gfxstat machine");
    mix(what);
    mix(value);
    char out[19];
    std::snprintf(out, sizeof out, "m-%016llx", static_cast<unsigned long long>(h));
    return out;
}

// 32 lowercase hex digits, not all zero: what machine-id(5) promises. An
// empty or "uninitialized" file (a fresh image before first boot) is no id.
bool is_machine_id(std::string_view s) {
    if (s.size() != 32) return false;
    bool nonzero = false;
    for (char c : s) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
        if (c != '0') nonzero = true;
    }
    return nonzero;
}

void probe_machine(const std::string& root, Fields& f) {
    if (auto id = read_token(root + "/etc/machine-id"); id && is_machine_id(*id)) {
        f["machine"] = machine_digest("machine-id", *id);
        return;
    }
    // DMI: the serial is readable by root only; a product name alone names
    // a model, not a machine, so without the serial there is no key (the
    // analysis then falls back to the hostname).
    auto product = read_trimmed(root + "/sys/class/dmi/id/product_name");
    auto serial = read_trimmed(root + "/sys/class/dmi/id/product_serial");
    if (product && serial && !serial->empty() && *serial != "To be filled by O.E.M." &&
        *serial != "Not Specified" && *serial != "System Serial Number" && *serial != "Default string")
        f["machine"] = machine_digest("dmi", *product + "\n" + *serial);
}

// The entries of /sys/class/drm, /sys/class/hwmon and /sys/class/thermal
// (the GPU clock sampler's package temperature) with their inode numbers,
// sorted. sysfs gives every node it creates a new inode number, so
// a device that goes and comes back (a driver unbound and bound again, a
// module reloaded by a --prepare hook) changes the listing even under the
// same name: an unchanged listing means the same devices, whose identity
// (driver, version, PCI id, sensor names and inputs) need not be read again.
DeviceListing device_listing(const std::string& root) {
    DeviceListing out;
    for (const char* dir : {"/sys/class/drm", "/sys/class/hwmon", "/sys/class/thermal"}) {
        DIR* d = ::opendir((root + dir).c_str());
        if (!d) continue;
        while (const dirent* e = ::readdir(d))
            if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0)
                out.emplace_back(std::string(dir) + "/" + e->d_name, static_cast<uint64_t>(e->d_ino));
        ::closedir(d);
    }
    std::sort(out.begin(), out.end());
    return out;
}

template <class F>
void guarded(F&& step) {
    try {
        step();
    } catch (...) {
        // Only allocation can fail here; a probe never fails a run.
    }
}

}  // namespace

std::string current_boot_id() {
    try {
        const char* file = std::getenv("GFXSTAT_BOOT_ID_FILE");
        const std::string path = (file && *file) ? file : "/proc/sys/kernel/random/boot_id";
        auto text = read_text(path, 4096);
        if (!text) return {};
        return std::string(trim(*text));
    } catch (...) {
        return {};
    }
}

// What a probe at the real root keeps open for its reads at every run
// (drivers/kept_files.h).
struct EnvironmentProbe::Kept {
    KeptFile boot_id{"/proc/sys/kernel/random/boot_id"};
    KeptFile loadavg{"/proc/loadavg"};
    KeptFile cpu_online{"/sys/devices/system/cpu/online"};
    KeptDirectory cpus{"/sys/devices/system/cpu"};
};

// What EnvironmentProbe reads once: the fields that stay, the devices
// whose state is read per run, and what they were found under.
struct EnvironmentProbe::Facts {
    std::string boot_id;
    DeviceListing devices;
    Fields fields;
    std::vector<DrmDevice> cards;
    std::vector<HwmonChip> chips;
};

EnvironmentProbe::EnvironmentProbe(const ProbeOptions& options) : root_(options.root), drm_(options.drm) {
    while (!root_.empty() && root_.back() == '/') root_.pop_back();  // "/" is the real root
    drm_ = drm_ && root_.empty();
    if (root_.empty()) {
        try {
            kept_ = std::make_unique<Kept>();
        } catch (...) {
            // Without it, every read opens its file.
        }
    }
}

std::string EnvironmentProbe::boot_id() {
    const char* file = std::getenv("GFXSTAT_BOOT_ID_FILE");
    if (!kept_ || (file && *file)) return current_boot_id();
    try {
        auto text = kept_->boot_id.read(4096);
        return text ? std::string(trim(*text)) : std::string();
    } catch (...) {
        return {};
    }
}

EnvironmentProbe::~EnvironmentProbe() = default;
EnvironmentProbe::EnvironmentProbe(EnvironmentProbe&&) noexcept = default;
EnvironmentProbe& EnvironmentProbe::operator=(EnvironmentProbe&&) noexcept = default;

data::Environment EnvironmentProbe::probe(const std::string& boot_id) {
    data::Environment env;
    auto& f = env.fields;
    guarded([&] {
        DeviceListing devices = device_listing(root_);
        if (!facts_ || facts_->boot_id != boot_id || facts_->devices != devices) {
            auto facts = std::make_unique<Facts>();
            facts->boot_id = boot_id;
            facts->devices = std::move(devices);
            guarded([&] { probe_kernel(root_, facts->fields); });
            guarded([&] { probe_machine(root_, facts->fields); });
            guarded([&] {
                if (auto m = cpu_model(root_ + "/proc/cpuinfo")) facts->fields["cpu_model"] = *m;
            });
            guarded([&] { facts->cards = drm_cards(root_, drm_, facts->fields); });
            guarded([&] { facts->chips = hwmon_chips(root_); });
            facts_ = std::move(facts);
            ++static_probes_;
        }
        f = facts_->fields;
    });
    guarded([&] { probe_host(root_, f, kept_ ? &kept_->loadavg : nullptr); });
    guarded([&] {
        probe_cpu_state(root_, f, kept_ ? &kept_->cpu_online : nullptr, kept_ ? &kept_->cpus : nullptr);
    });
    if (facts_) {
        guarded([&] { probe_drm_state(root_, facts_->cards, f); });
        guarded([&] { probe_hwmon(facts_->chips, f); });
    }
    return env;
}

std::optional<bool> EnvironmentProbe::drm_device_listed() const {
    if (!root_.empty() || !facts_) return std::nullopt;
    constexpr std::string_view kDrm = "/sys/class/drm/";
    for (const auto& [path, inode] : facts_->devices) {
        (void)inode;
        if (path.compare(0, kDrm.size(), kDrm) != 0) continue;
        const std::string_view name = std::string_view(path).substr(kDrm.size());
        // card0-eDP-1 is a connector
        if ((name.substr(0, 4) == "card" || name.substr(0, 7) == "renderD") && name.find('-') == std::string_view::npos)
            return true;
    }
    return false;
}

data::Environment probe_environment(const ProbeOptions& options) {
    return EnvironmentProbe(options).probe();
}

}  // namespace gfxstat::drivers
