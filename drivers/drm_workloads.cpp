// SPDX-License-Identifier: MIT
// The native DRM workloads: drm-ioctl, drm-gem, i915-exec-nop. See
// drm_workloads.h and docs/workloads.md.
#include "drivers/drm_workloads.h"

#include <fcntl.h>
#include <i915_drm.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <vector>

#include "drivers/drm_devices.h"

namespace gfxstat::drivers {
namespace {

constexpr unsigned kDrmMajor = 226;

inline int64_t raw_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// Closes the descriptor when it goes out of scope.
class Fd {
public:
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd() {
        if (fd_ >= 0) ::close(fd_);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return fd_; }

private:
    int fd_;
};

// 2 for a path that is not a DRM node, 77 when we may not look.
void check_drm_node(const std::string& node) {
    struct stat st {};
    if (::stat(node.c_str(), &st) != 0) {
        const int e = errno;
        if (e == ENOENT || e == ENOTDIR) throw DrmWorkloadError(2, node + " does not exist");
        if (e == EACCES || e == EPERM) throw DrmWorkloadError(77, drm_permission_message(node));
        throw DrmWorkloadError(2, "cannot look at " + node + ": " + std::strerror(e));
    }
    if (!S_ISCHR(st.st_mode) || major(st.st_rdev) != kDrmMajor)
        throw DrmWorkloadError(2, node + " is not a DRM device node (expected /dev/dri/cardN or /dev/dri/renderDN)");
}

// Opens a checked node read-write; the driver's name through DRM_IOCTL_VERSION.
int open_drm_node(const std::string& node, std::string& driver) {
    check_drm_node(node);
    const int fd = ::open(node.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        const int e = errno;
        if (e == EACCES || e == EPERM) throw DrmWorkloadError(77, drm_permission_message(node));
        throw DrmWorkloadError(e == ENODEV || e == ENXIO ? 77 : 2, "cannot open " + node + ": " + std::strerror(e));
    }
    drmVersionPtr v = drmGetVersion(fd);
    if (!v) {
        const int e = errno;
        ::close(fd);
        throw DrmWorkloadError(2, node + " is not a DRM device node (DRM_IOCTL_VERSION failed: " +
                                      std::string(std::strerror(e)) + ")");
    }
    driver = v->name && v->name_len > 0 ? std::string(v->name, strnlen(v->name, static_cast<size_t>(v->name_len)))
                                        : std::string("unknown");
    drmFreeVersion(v);
    return fd;
}

// An ioctl that failed: 77 when the driver refuses it (it cannot run on this
// device), 1 otherwise.
[[noreturn]] void ioctl_failed(const std::string& driver, const std::string& node, const char* ioctl_name, int e) {
    switch (e) {
        case ENOTTY:
        case EINVAL:
        case EOPNOTSUPP:
        case ENOSYS:
        case ENODEV:
            throw DrmWorkloadError(77, driver + " does not support " + ioctl_name + " on " + node + " (" +
                                           std::strerror(e) + ")");
        case EACCES:
        case EPERM:
            throw DrmWorkloadError(77, driver + " refuses " + ioctl_name + " on " + node + " (" + std::strerror(e) +
                                           ")");
        default:
            throw DrmWorkloadError(1, std::string(ioctl_name) + " on " + node + " failed: " + std::strerror(e));
    }
}

template <typename T>
void checked_ioctl(int fd, unsigned long request, T* arg, const std::string& driver, const std::string& node,
                   const char* name) {
    if (drmIoctl(fd, request, arg) != 0) ioctl_failed(driver, node, name, errno);
}

bool is_render_node(const std::string& node) {
    return std::filesystem::path(node).filename().string().rfind("renderD", 0) == 0;
}

}  // namespace

double clock_loop_overhead_ns(uint64_t iterations) {
    std::vector<double> v(static_cast<size_t>(std::clamp<uint64_t>(iterations, 1, 100000)));
    for (double& x : v) {
        const int64_t t0 = raw_ns();
        const int64_t t1 = raw_ns();
        x = static_cast<double>(t1 - t0);
    }
    return summarize_times(v).median;
}

std::string choose_drm_node(const std::string& workload, const std::string& requested) {
    if (!requested.empty()) {
        check_drm_node(requested);
        return requested;
    }
    const std::vector<DrmDeviceInfo> devices = list_drm_devices();
    if (workload == "i915-exec-nop") {
        for (const auto& d : devices)
            if (d.driver && d.driver->name == "i915") return d.render.empty() ? d.primary : d.render;
        if (devices.empty()) throw DrmWorkloadError(77, "no i915 device (no DRM device found)");
        std::string found;
        for (const auto& d : devices) {
            if (!found.empty()) found += ", ";
            const std::string node = d.render.empty() ? d.primary : d.render;
            found += (d.driver ? d.driver->name : "an unopened device") + " on " + node;
        }
        throw DrmWorkloadError(77, "no i915 device (found " + found + ")");
    }
    if (devices.empty()) throw DrmWorkloadError(77, "no DRM device found (no /dev/dri)");
    if (workload == "drm-gem") {
        // The first device that can, else the first: its reason is the error.
        for (const auto& d : devices)
            for (const auto& w : d.workloads)
                if (w.workload == "drm-gem" && w.runnable) return d.primary;
        const auto& d = devices.front();
        return d.primary.empty() ? d.render : d.primary;
    }
    for (const auto& d : devices)
        if (!d.render.empty()) return d.render;
    return devices.front().primary;
}

// ---------------------------------------------------------------- drm-ioctl

DrmIoctlResult run_drm_ioctl(const DrmIoctlOptions& options) {
    if (options.iterations == 0) throw DrmWorkloadError(2, "drm-ioctl: --iterations must be at least 1");
    DrmIoctlResult r;
    r.node = choose_drm_node("drm-ioctl", options.device);
    const Fd fd(open_drm_node(r.node, r.driver));
    const size_t n = static_cast<size_t>(options.iterations);
    std::vector<double> version(n), cap(n);

    // One of each first: a refusal is an error, not a sample.
    drm_version v{};
    if (::ioctl(fd.get(), DRM_IOCTL_VERSION, &v) != 0) ioctl_failed(r.driver, r.node, "DRM_IOCTL_VERSION", errno);
    drm_get_cap c{};
    c.capability = DRM_CAP_TIMESTAMP_MONOTONIC;
    if (::ioctl(fd.get(), DRM_IOCTL_GET_CAP, &c) != 0) ioctl_failed(r.driver, r.node, "DRM_IOCTL_GET_CAP", errno);

    for (size_t i = 0; i < n; ++i) {
        v = drm_version{};  // the kernel writes the lengths back: zero them again
        const int64_t t0 = raw_ns();
        const int rc = ::ioctl(fd.get(), DRM_IOCTL_VERSION, &v);
        const int64_t t1 = raw_ns();
        if (rc != 0) ioctl_failed(r.driver, r.node, "DRM_IOCTL_VERSION", errno);
        version[i] = static_cast<double>(t1 - t0);
    }
    for (size_t i = 0; i < n; ++i) {
        c = drm_get_cap{};
        c.capability = DRM_CAP_TIMESTAMP_MONOTONIC;
        const int64_t t0 = raw_ns();
        const int rc = ::ioctl(fd.get(), DRM_IOCTL_GET_CAP, &c);
        const int64_t t1 = raw_ns();
        if (rc != 0) ioctl_failed(r.driver, r.node, "DRM_IOCTL_GET_CAP", errno);
        cap[i] = static_cast<double>(t1 - t0);
    }
    r.version_ns = summarize_times(version);
    r.get_cap_ns = summarize_times(cap);
    r.loop_overhead_ns = clock_loop_overhead_ns(options.iterations);
    r.iterations = options.iterations;
    return r;
}

void print_drm_ioctl_report(const DrmIoctlResult& r, FILE* out) {
    std::fprintf(out,
                 "node=%s\n"
                 "driver=%s\n"
                 "ioctl_ns_mean=%.1f\n"
                 "ioctl_ns_median=%.1f\n"
                 "ioctl_ns_p99=%.1f\n"
                 "ioctl_ns_min=%.1f\n"
                 "get_cap_ns_mean=%.1f\n"
                 "get_cap_ns_median=%.1f\n"
                 "get_cap_ns_p99=%.1f\n"
                 "get_cap_ns_min=%.1f\n"
                 "loop_overhead_ns=%.1f\n"
                 "iterations=%llu\n",
                 r.node.c_str(), r.driver.c_str(), r.version_ns.mean, r.version_ns.median, r.version_ns.p99,
                 r.version_ns.min, r.get_cap_ns.mean, r.get_cap_ns.median, r.get_cap_ns.p99, r.get_cap_ns.min,
                 r.loop_overhead_ns, static_cast<unsigned long long>(r.iterations));
}

// ------------------------------------------------------------------ drm-gem

DumbGeometry dumb_geometry(uint64_t size) {
    DumbGeometry g;
    if (size < 4) return g;
    const uint64_t pixels = size / 4;
    uint64_t width = 0;
    if (pixels % 1024 == 0) {
        width = 1024;
    } else {
        // The widest exact rectangle up to 4096 pixels, if not absurdly narrow.
        for (uint64_t w = std::min<uint64_t>(4096, pixels); w >= 64; --w)
            if (pixels % w == 0) {
                width = w;
                break;
            }
    }
    if (width == 0) width = std::min<uint64_t>(1024, pixels);  // rows rounded up
    const uint64_t row = width * 4;
    const uint64_t height = (size + row - 1) / row;
    g.width = static_cast<uint32_t>(width);
    g.height = static_cast<uint32_t>(std::min<uint64_t>(height, UINT32_MAX));
    g.requested_bytes = row * g.height;
    return g;
}

double rounding_pct(uint64_t requested, uint64_t allocated) {
    if (requested == 0) return 0;
    return (static_cast<double>(allocated) - static_cast<double>(requested)) / static_cast<double>(requested) * 100;
}

std::string drm_gem_size_problem(uint64_t size) {
    constexpr uint64_t kMax = 0xFFFFF000;
    if (size < 4 || size % 4 != 0 || size > kMax)
        return "--size must be a multiple of 4 bytes from 4 to " + std::to_string(kMax) + ", not " +
               std::to_string(size);
    if (dumb_geometry(size).requested_bytes > kMax)
        return "--size " + std::to_string(size) + " needs rows rounded up past " + std::to_string(kMax) + " bytes";
    return "";
}

DrmGemResult run_drm_gem(const DrmGemOptions& options) {
    if (options.iterations == 0) throw DrmWorkloadError(2, "drm-gem: --iterations must be at least 1");
    if (const std::string problem = drm_gem_size_problem(options.size); !problem.empty())
        throw DrmWorkloadError(2, "drm-gem: " + problem);
    const DumbGeometry g = dumb_geometry(options.size);
    DrmGemResult r;
    r.node = choose_drm_node("drm-gem", options.device);
    r.requested_bytes = g.requested_bytes;

    const auto create = [&](int fd, drm_mode_create_dumb& c) {
        c = drm_mode_create_dumb{};
        c.width = g.width;
        c.height = g.height;
        c.bpp = g.bpp;
        return drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &c) == 0 ? 0 : errno;
    };
    const auto destroy = [](int fd, uint32_t handle) {
        drm_mode_destroy_dumb d{};
        d.handle = handle;
        return drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &d) == 0 ? 0 : errno;
    };

    // A first buffer: checks the driver allows dumb buffers on this node.
    // Render nodes refuse them on most drivers; then the device's primary
    // node is used, when there is one.
    int fd_raw = open_drm_node(r.node, r.driver);
    drm_mode_create_dumb c{};
    int e = create(fd_raw, c);
    if (e && is_render_node(r.node)) {
        const auto devices = list_drm_devices();
        const DrmDeviceInfo* d = find_drm_device(devices, r.node);
        if (d && !d->primary.empty()) {
            ::close(fd_raw);
            r.node = d->primary;
            fd_raw = open_drm_node(r.node, r.driver);
            e = create(fd_raw, c);
        }
    }
    const Fd fd(fd_raw);
    if (e) ioctl_failed(r.driver, r.node, "DRM_IOCTL_MODE_CREATE_DUMB", e);
    if ((e = destroy(fd.get(), c.handle))) ioctl_failed(r.driver, r.node, "DRM_IOCTL_MODE_DESTROY_DUMB", e);

    const size_t n = static_cast<size_t>(options.iterations);
    std::vector<double> create_us(n), map_us(n), write_us(n), cycle_us(n);
    for (size_t i = 0; i < n; ++i) {
        const int64_t t0 = raw_ns();
        if ((e = create(fd.get(), c))) ioctl_failed(r.driver, r.node, "DRM_IOCTL_MODE_CREATE_DUMB", e);
        const int64_t t1 = raw_ns();
        drm_mode_map_dumb m{};
        m.handle = c.handle;
        if (drmIoctl(fd.get(), DRM_IOCTL_MODE_MAP_DUMB, &m) != 0) {
            e = errno;
            destroy(fd.get(), c.handle);
            ioctl_failed(r.driver, r.node, "DRM_IOCTL_MODE_MAP_DUMB", e);
        }
        void* p = ::mmap(nullptr, c.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd.get(), static_cast<off_t>(m.offset));
        if (p == MAP_FAILED) {
            e = errno;
            destroy(fd.get(), c.handle);
            throw DrmWorkloadError(e == ENODEV || e == EINVAL ? 77 : 1,
                                   "mmap of a dumb buffer on " + r.node + " failed: " + std::strerror(e));
        }
        const int64_t t2 = raw_ns();
        std::memset(p, static_cast<int>(0x5a ^ (i & 0xff)), static_cast<size_t>(c.size));
        asm volatile("" : : "r"(p) : "memory");  // the stores happen before the clock is read
        const int64_t t3 = raw_ns();
        ::munmap(p, static_cast<size_t>(c.size));
        if ((e = destroy(fd.get(), c.handle))) ioctl_failed(r.driver, r.node, "DRM_IOCTL_MODE_DESTROY_DUMB", e);
        const int64_t t4 = raw_ns();
        create_us[i] = static_cast<double>(t1 - t0) / 1e3;
        map_us[i] = static_cast<double>(t2 - t1) / 1e3;
        write_us[i] = static_cast<double>(t3 - t2) / 1e3;
        cycle_us[i] = static_cast<double>(t4 - t0) / 1e3;
        r.allocated_bytes = std::max<uint64_t>(r.allocated_bytes, c.size);
        r.pitch = c.pitch;
    }
    r.create_us = summarize_times(create_us);
    r.map_us = summarize_times(map_us);
    r.write_us = summarize_times(write_us);
    r.cycle_us = summarize_times(cycle_us);
    r.allocs_per_s = r.cycle_us.mean > 0 ? 1e6 / r.cycle_us.mean : 0;
    r.upload_mib_per_s =
        r.write_us.median > 0 ? static_cast<double>(r.allocated_bytes) / 1048576.0 / (r.write_us.median / 1e6) : 0;
    r.loop_overhead_ns = clock_loop_overhead_ns(options.iterations);
    r.iterations = options.iterations;
    return r;
}

void print_drm_gem_report(const DrmGemResult& r, FILE* out) {
    std::fprintf(out,
                 "node=%s\n"
                 "driver=%s\n"
                 "pitch=%u\n"
                 "requested_bytes=%llu\n"
                 "allocated_bytes=%llu\n"
                 "rounding_pct=%.3f\n"
                 "allocs_per_s=%.1f\n"
                 "upload_mib_per_s=%.1f\n"
                 "create_us_median=%.3f\n"
                 "create_us_p99=%.3f\n"
                 "map_us_median=%.3f\n"
                 "write_us_median=%.3f\n"
                 "loop_overhead_ns=%.1f\n"
                 "iterations=%llu\n",
                 r.node.c_str(), r.driver.c_str(), r.pitch, static_cast<unsigned long long>(r.requested_bytes),
                 static_cast<unsigned long long>(r.allocated_bytes), rounding_pct(r.requested_bytes, r.allocated_bytes),
                 r.allocs_per_s, r.upload_mib_per_s, r.create_us.median, r.create_us.p99, r.map_us.median,
                 r.write_us.median, r.loop_overhead_ns, static_cast<unsigned long long>(r.iterations));
}

// ------------------------------------------------------------ i915-exec-nop

double overlap_pct(double serial_us, double slowest_us, double parallel_us) {
    if (!(serial_us > slowest_us)) return 0;
    return 100 * (serial_us - parallel_us) / (serial_us - slowest_us);
}

namespace {

constexpr uint32_t kMiBatchBufferEnd = 0xAu << 23;

struct Engine {
    const char* name;
    uint64_t flags;
};

class I915 {
public:
    I915(int fd, std::string node, std::string driver) : fd_(fd), node_(std::move(node)), driver_(std::move(driver)) {}

    uint32_t create_batch() {
        drm_i915_gem_create create{};
        create.size = 4096;
        checked_ioctl(fd_, DRM_IOCTL_I915_GEM_CREATE, &create, driver_, node_, "DRM_IOCTL_I915_GEM_CREATE");
        const uint32_t bb[2] = {kMiBatchBufferEnd, 0};
        drm_i915_gem_pwrite pw{};
        pw.handle = create.handle;
        pw.size = sizeof bb;
        pw.data_ptr = reinterpret_cast<uintptr_t>(bb);
        if (drmIoctl(fd_, DRM_IOCTL_I915_GEM_PWRITE, &pw) == 0) return create.handle;
        const int pwrite_errno = errno;
        // No pwrite (newer parts): write through a mapping instead, in the
        // WC domain as IGT's mmap_write does on integrated parts (discrete
        // ones refuse SET_DOMAIN with ENODEV, and need nothing).
        for (uint64_t flags : {uint64_t{I915_MMAP_OFFSET_WC}, uint64_t{I915_MMAP_OFFSET_FIXED}}) {
            drm_i915_gem_mmap_offset mo{};
            mo.handle = create.handle;
            mo.flags = flags;
            if (drmIoctl(fd_, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo) != 0) continue;
            void* p = ::mmap(nullptr, 4096, PROT_WRITE, MAP_SHARED, fd_, static_cast<off_t>(mo.offset));
            if (p == MAP_FAILED) continue;
            if (flags == I915_MMAP_OFFSET_WC) {
                drm_i915_gem_set_domain sd{};
                sd.handle = create.handle;
                sd.read_domains = I915_GEM_DOMAIN_WC;
                sd.write_domain = I915_GEM_DOMAIN_WC;
                drmIoctl(fd_, DRM_IOCTL_I915_GEM_SET_DOMAIN, &sd);  // ENODEV on discrete: nothing to do
            }
            std::memcpy(p, bb, sizeof bb);
            ::munmap(p, 4096);
            return create.handle;
        }
        ioctl_failed(driver_, node_, "DRM_IOCTL_I915_GEM_PWRITE", pwrite_errno);
    }

    int execbuf(uint32_t handle, uint64_t flags) {
        drm_i915_gem_exec_object2 obj{};
        obj.handle = handle;
        drm_i915_gem_execbuffer2 eb{};
        eb.buffers_ptr = reinterpret_cast<uintptr_t>(&obj);
        eb.buffer_count = 1;
        eb.batch_len = 8;
        eb.flags = flags;
        return drmIoctl(fd_, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb) == 0 ? 0 : errno;
    }

    void wait(uint32_t handle) {
        drm_i915_gem_wait w{};
        w.bo_handle = handle;
        w.timeout_ns = -1;
        checked_ioctl(fd_, DRM_IOCTL_I915_GEM_WAIT, &w, driver_, node_, "DRM_IOCTL_I915_GEM_WAIT");
    }

    bool has_param(int param) {
        int value = 0;
        drm_i915_getparam gp{};
        gp.param = param;
        gp.value = &value;
        return drmIoctl(fd_, DRM_IOCTL_I915_GETPARAM, &gp) == 0 && value > 0;
    }

    [[noreturn]] void failed(const char* what, int e) { ioctl_failed(driver_, node_, what, e); }

private:
    int fd_;
    std::string node_, driver_;
};

}  // namespace

I915ExecNopResult run_i915_exec_nop(const I915ExecNopOptions& options) {
    if (!(options.duration_s > 0) || !std::isfinite(options.duration_s))
        throw DrmWorkloadError(2, "i915-exec-nop: --duration must be a positive number of seconds");
    if (options.burst == 0) throw DrmWorkloadError(2, "i915-exec-nop: --burst must be at least 1");
    I915ExecNopResult r;
    r.node = choose_drm_node("i915-exec-nop", options.device);
    const Fd fd(open_drm_node(r.node, r.driver));
    if (r.driver != "i915") throw DrmWorkloadError(77, "no i915 device: " + r.node + " is driven by " + r.driver);
    I915 gpu(fd.get(), r.node, r.driver);
    const uint32_t handle = gpu.create_batch();

    // The engines this GPU has: a legacy ring selector the kernel accepts.
    std::vector<Engine> candidates{{"rcs0", I915_EXEC_RENDER}, {"bcs0", I915_EXEC_BLT}};
    if (gpu.has_param(I915_PARAM_HAS_BSD2)) {
        candidates.push_back({"vcs0", I915_EXEC_BSD | I915_EXEC_BSD_RING1});
        candidates.push_back({"vcs1", I915_EXEC_BSD | I915_EXEC_BSD_RING2});
    } else {
        candidates.push_back({"vcs0", I915_EXEC_BSD});
    }
    candidates.push_back({"vecs0", I915_EXEC_VEBOX});
    std::vector<Engine> engines;
    for (const Engine& e : candidates) {
        const int err = gpu.execbuf(handle, e.flags);
        if (err == 0) engines.push_back(e);
        else if (err != EINVAL && err != ENODEV) gpu.failed("DRM_IOCTL_I915_GEM_EXECBUFFER2", err);
    }
    if (engines.empty()) gpu.failed("DRM_IOCTL_I915_GEM_EXECBUFFER2", EINVAL);
    gpu.wait(handle);

    const int64_t duration_ns = std::llround(options.duration_s * 1e9);
    for (const Engine& e : engines) {
        I915EngineResult er;
        er.name = e.name;
        // The submit times of the first kMaxSubmitSamples batches (reserved
        // up front, so no reallocation lands in the timed loop; a second
        // of submissions is about a million).
        constexpr size_t kMaxSubmitSamples = size_t{1} << 20;
        std::vector<double> submit;
        submit.reserve(kMaxSubmitSamples);
        uint64_t batches = 0;
        const int64_t start = raw_ns();
        int64_t now = start;
        while (now - start < duration_ns) {
            const int64_t t0 = raw_ns();
            const int err = gpu.execbuf(handle, e.flags);
            now = raw_ns();
            if (err) gpu.failed("DRM_IOCTL_I915_GEM_EXECBUFFER2", err);
            if (submit.size() < kMaxSubmitSamples) submit.push_back(static_cast<double>(now - t0) / 1e3);
            ++batches;
        }
        gpu.wait(handle);
        const int64_t end = raw_ns();
        er.batches = batches;
        er.us_per_batch = static_cast<double>(end - start) / 1e3 / static_cast<double>(er.batches);
        er.submit_us = summarize_times(submit);
        r.all_expected_us += er.us_per_batch;
        r.slowest_us = std::max(r.slowest_us, er.us_per_batch);
        r.engines.push_back(std::move(er));
    }

    // All engines round-robin, `burst` batches on each in turn.
    r.burst = options.burst;
    uint64_t batches = 0;
    const int64_t start = raw_ns();
    while (raw_ns() - start < duration_ns)
        for (const Engine& e : engines)
            for (unsigned b = 0; b < options.burst; ++b) {
                if (const int err = gpu.execbuf(handle, e.flags)) gpu.failed("DRM_IOCTL_I915_GEM_EXECBUFFER2", err);
                ++batches;
            }
    gpu.wait(handle);
    const int64_t end = raw_ns();
    r.rounds = batches / engines.size();
    r.all_parallel_us = static_cast<double>(end - start) / 1e3 / static_cast<double>(r.rounds);
    r.overlap_pct = overlap_pct(r.all_expected_us, r.slowest_us, r.all_parallel_us);
    drm_gem_close close{};
    close.handle = handle;
    drmIoctl(fd.get(), DRM_IOCTL_GEM_CLOSE, &close);
    r.loop_overhead_ns = clock_loop_overhead_ns(10000);
    return r;
}

void print_i915_exec_nop_report(const I915ExecNopResult& r, FILE* out) {
    std::fprintf(out, "node=%s\ndriver=%s\n", r.node.c_str(), r.driver.c_str());
    for (const auto& e : r.engines)
        std::fprintf(out, "engine_%s_us=%.3f\nengine_%s_batches=%llu\nengine_%s_submit_us_median=%.3f\n",
                     e.name.c_str(), e.us_per_batch, e.name.c_str(), static_cast<unsigned long long>(e.batches),
                     e.name.c_str(), e.submit_us.median);
    std::fprintf(out,
                 "all_expected_us=%.3f\n"
                 "slowest_us=%.3f\n"
                 "burst=%u\n"
                 "rounds=%llu\n"
                 "all_parallel_us=%.3f\n"
                 "all_parallel_overlap_pct=%.1f\n"
                 "loop_overhead_ns=%.1f\n",
                 r.all_expected_us, r.slowest_us, r.burst, static_cast<unsigned long long>(r.rounds),
                 r.all_parallel_us, r.overlap_pct, r.loop_overhead_ns);
}

}  // namespace gfxstat::drivers
