// SPDX-License-Identifier: MIT
#include "drivers/gpu_clock_sampler.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <string_view>

#include "drivers/amdgpu_gpu_metrics.h"
#include "drivers/gpu_sysfs.h"

namespace gfxstat::drivers {

namespace {

int open_source(const std::string& path) {
    if (path.empty()) return -1;
    return ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
}

// The file's contents from offset 0 into `buf` (sysfs regenerates an
// attribute on a read at 0, so one descriptor serves every tick).
std::optional<std::string_view> pread_all(int fd, char* buf, size_t size) {
    if (fd < 0) return std::nullopt;
    ssize_t n;
    do n = ::pread(fd, buf, size, 0);
    while (n < 0 && errno == EINTR);
    if (n < 0) return std::nullopt;
    return std::string_view(buf, static_cast<size_t>(n));
}

std::optional<uint64_t> pread_unsigned(int fd) {
    char buf[64];
    auto text = pread_all(fd, buf, sizeof buf);
    if (!text) return std::nullopt;
    return parse_sysfs_unsigned(*text);
}

// Millidegrees, possibly negative, as hwmon and thermal zones give them.
std::optional<double> pread_millidegrees(int fd) {
    char buf[64];
    auto text = pread_all(fd, buf, sizeof buf);
    if (!text) return std::nullopt;
    const std::string_view s = trim_space(*text);
    int64_t v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
    if (v < -273150 || v > 1000000) return std::nullopt;  // not a temperature
    return static_cast<double>(v) / 1000;
}

}  // namespace

GpuClockReader::GpuClockReader(const GpuClockSources& s) : driver_(s.driver) {
    actual_ = open_source(s.actual_freq);
    requested_ = open_source(s.requested_freq);
    status_ = open_source(s.throttle_status);
    temp_ = open_source(s.cpu_package_temp);
    metrics_ = open_source(s.gpu_metrics);
    reasons_.reserve(s.reasons.size());
    for (const auto& [reason, path] : s.reasons) reasons_.push_back(open_source(path));
    any_ = actual_ >= 0 || requested_ >= 0 || status_ >= 0 || temp_ >= 0 || metrics_ >= 0 ||
           std::any_of(reasons_.begin(), reasons_.end(), [](int fd) { return fd >= 0; });
}

GpuClockReader::~GpuClockReader() {
    for (int fd : {actual_, requested_, status_, temp_, metrics_})
        if (fd >= 0) ::close(fd);
    for (int fd : reasons_)
        if (fd >= 0) ::close(fd);
}

GpuClockTick GpuClockReader::read() const {
    GpuClockTick t;
    if (driver_ == GpuClockDriver::amdgpu) {
        char buf[1024];  // pp_dpm_sclk: a line per level, a handful of levels
        if (auto text = pread_all(actual_, buf, sizeof buf))
            if (auto mhz = current_sclk_mhz(*text)) t.actual_mhz = static_cast<double>(*mhz);
    } else if (auto v = pread_unsigned(actual_)) {
        t.actual_mhz = static_cast<double>(*v);
    }
    if (auto v = pread_unsigned(requested_)) t.requested_mhz = static_cast<double>(*v);
    bool any_reason_read = false, named = false;
    for (size_t i = 0; i < reasons_.size(); ++i) {
        const auto v = pread_unsigned(reasons_[i]);
        if (!v) continue;
        any_reason_read = true;
        if (*v) {
            named = true;
            if (i < 64) t.reason_bits |= uint64_t{1} << i;
        }
    }
    const auto status = pread_unsigned(status_);
    if (any_reason_read || status) {
        const bool status_set = status && *status;
        t.throttled = named || status_set;
        t.status_only = status_set && !named;
    }
    if (metrics_ >= 0) {
        // amdgpu's gpu_metrics: its throttle status (ASIC-dependent bits,
        // so no reason names: "status"), and its current clock when
        // pp_dpm_sclk gave none.
        char buf[512];  // the layouts read are at most 128 bytes
        if (auto bytes = pread_all(metrics_, buf, sizeof buf))
            if (auto m = parse_gpu_metrics(*bytes)) {
                if (m->throttle_status) {
                    t.throttled = *m->throttle_status != 0;
                    t.status_only = *t.throttled;
                }
                if (!t.actual_mhz && m->current_gfxclk_mhz) t.actual_mhz = static_cast<double>(*m->current_gfxclk_mhz);
            }
    }
    t.cpu_package_temp_c = pread_millidegrees(temp_);
    return t;
}

ThrottleSummary::ThrottleSummary(const GpuClockSources& sources) : sources_(sources) {}

void ThrottleSummary::add(const GpuClockTick& t) {
    ++ticks_;
    bool any = false;
    if (t.actual_mhz) {
        actual_min_ = actual_n_ ? std::min(actual_min_, *t.actual_mhz) : *t.actual_mhz;
        actual_sum_ += *t.actual_mhz;
        ++actual_n_;
        any = true;
    }
    if (t.requested_mhz) {
        requested_sum_ += *t.requested_mhz;
        ++requested_n_;
        any = true;
    }
    if (t.throttled) {
        ++throttle_n_;
        throttled_ += *t.throttled;
        reasons_seen_ |= t.reason_bits;
        status_seen_ |= t.status_only;
        any = true;
    }
    if (t.cpu_package_temp_c) {
        temp_max_ = temp_max_ ? std::max(*temp_max_, *t.cpu_package_temp_c) : *t.cpu_package_temp_c;
        any = true;
    }
    read_any_ += any;
}

std::optional<data::ThrottleRecord> ThrottleSummary::record(std::chrono::milliseconds interval) const {
    if (read_any_ == 0) return std::nullopt;
    data::ThrottleRecord r;
    r.samples = ticks_;
    r.interval_ms = static_cast<uint64_t>(interval.count());
    if (throttle_n_) {
        r.throttled_share = static_cast<double>(throttled_) / static_cast<double>(throttle_n_);
        for (size_t i = 0; i < sources_.reasons.size() && i < 64; ++i)
            if (reasons_seen_ & (uint64_t{1} << i)) r.reasons.push_back(sources_.reasons[i].first);
        // Only the status said so (a reason the kernel has no file for).
        if (status_seen_ && std::find(r.reasons.begin(), r.reasons.end(), "status") == r.reasons.end()) {
            r.reasons.push_back("status");
            std::sort(r.reasons.begin(), r.reasons.end());
        }
    }
    if (actual_n_) {
        r.gpu_freq_min_mhz = actual_min_;
        r.gpu_freq_mean_mhz = actual_sum_ / static_cast<double>(actual_n_);
    }
    if (requested_n_) r.gpu_freq_requested_mean_mhz = requested_sum_ / static_cast<double>(requested_n_);
    r.cpu_package_temp_max_c = temp_max_;
    if (actual_n_ || requested_n_ || throttle_n_) r.gpu = sources_.gpu;
    return r;
}

GpuClockSampler::GpuClockSampler(GpuClockSources sources, std::chrono::milliseconds interval)
    : sources_(std::move(sources)), interval_(interval), reader_(sources_), summary_(sources_) {
    if (reader_.empty()) return;
    summary_.add(reader_.read());  // the first tick, as the workload starts
    try {
        thread_ = std::thread([this] { loop(); });
    } catch (...) {
        // No thread (resources): the run goes on, with its first tick and
        // the last one.
    }
}

void GpuClockSampler::loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    auto next = std::chrono::steady_clock::now() + interval_;
    while (!stopping_) {
        if (wake_.wait_until(lock, next, [this] { return stopping_; })) break;
        lock.unlock();
        summary_.add(reader_.read());
        lock.lock();
        // A fixed rate, not a fixed pause: a slow read does not stretch the
        // interval; ticks missed (the machine stalled) are not made up.
        next += interval_;
        const auto now = std::chrono::steady_clock::now();
        if (next <= now) next = now + interval_;
    }
}

std::optional<data::ThrottleRecord> GpuClockSampler::stop() {
    if (reader_.empty()) return std::nullopt;
    if (thread_.joinable()) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_one();
        thread_.join();
    }
    if (!stopped_) {
        stopped_ = true;
        summary_.add(reader_.read());  // the last tick, as the workload ends
    }
    return summary_.record(interval_);
}

GpuClockSampler::~GpuClockSampler() {
    if (thread_.joinable()) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_one();
        thread_.join();
    }
}

}  // namespace gfxstat::drivers
