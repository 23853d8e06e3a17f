// SPDX-License-Identifier: MIT
#include "drivers/gpu_usage_sampler.h"

#include <dirent.h>
#include <time.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <string_view>
#include <utility>

#include "data/number_token.h"
#include "drivers/drm_fdinfo.h"
#include "drivers/process_tree.h"

namespace gfxstat::drivers {

namespace {

uint64_t thread_cpu_ns() {
    timespec ts{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<uint64_t>(ts.tv_nsec);
}

}  // namespace

GpuUsageSampler::GpuUsageSampler(double interval_s) : interval_s_(interval_s > 0 ? interval_s : 0.1) {}

GpuUsageSampler::~GpuUsageSampler() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = quitting_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void GpuUsageSampler::start(int pid) noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    if (watching_) return;
    totals_ = GpuUsageTotals();
    cost_ = Cost();
    pid_ = pid;
    watching_ = true;
    if (!thread_.joinable()) {
        try {
            thread_ = std::thread([this] { loop(); });
        } catch (...) {
            // No thread (EAGAIN): the run goes on without GPU figures.
            watching_ = false;
            return;
        }
    }
    wake_.notify_all();
}

GpuUsageTotals GpuUsageSampler::stop() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (watching_) {
        stopping_ = true;
        wake_.notify_all();
        done_.wait(lock, [this] { return !watching_; });
        stopping_ = false;
    }
    return std::exchange(totals_, GpuUsageTotals());
}

void GpuUsageSampler::loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return quitting_ || watching_; });
        if (quitting_) return;
        const int pid = pid_;
        lock.unlock();
        watch(pid);
        lock.lock();
        watching_ = false;
        done_.notify_all();
    }
}

void GpuUsageSampler::watch(int pid) {
    const uint64_t cpu0 = thread_cpu_ns();
    const auto t0 = std::chrono::steady_clock::now();
    const auto interval = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(interval_s_));
    try {
        ProcessTree tree(pid);  // the real /proc: the workload's processes are real
        auto next = t0;
        // Dense at first (10, 30, 70, 150 ms, then every interval): a short
        // workload's clients are seen at all, a long one costs 10 Hz. None
        // at the start: the workload has just been exec'd and holds no DRM
        // file yet, and a workload over in a few ms is not disturbed.
        auto step = std::min(interval, std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                           std::chrono::milliseconds(10)));
        std::vector<DrmClient> files;
        for (;;) {
            // Ticks on a fixed schedule: a slow tick does not shift the rest.
            next += step;
            step = std::min(step * 2, interval);
            const auto now = std::chrono::steady_clock::now();
            if (next < now) next = now;
            {
                std::unique_lock<std::mutex> lock(mutex_);
                if (wake_.wait_until(lock, next, [this] { return stopping_; })) break;
            }
            files.clear();
            const std::vector<int> members = tree.refresh();
            cost_.most_processes = std::max(cost_.most_processes, members.size());
            for (const int p : members) {
                std::vector<DrmClient> of = drm_files_of(p, "");
                ++cost_.processes;
                for (DrmClient& f : of) files.push_back(std::move(f));
            }
            cost_.scanned_all |= tree.scanned_all();
            cost_.drm_files += files.size();
            ++cost_.ticks;
            const auto elapsed = std::chrono::steady_clock::now() - t0;
            totals_.add_sample(files, static_cast<uint64_t>(
                                          std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count()));
        }
    } catch (...) {
        // Out of memory while reading: what was sampled so far stands.
    }
    cost_.cpu_ns = thread_cpu_ns() - cpu0;
}

bool machine_has_drm_devices() {
    DIR* d = ::opendir("/sys/class/drm");
    if (!d) return false;
    bool found = false;
    while (const dirent* e = ::readdir(d)) {
        const std::string_view name = e->d_name;
        if ((name.substr(0, 4) == "card" || name.substr(0, 7) == "renderD") &&
            name.find('-') == std::string_view::npos) {  // card0-eDP-1 is a connector
            found = true;
            break;
        }
    }
    ::closedir(d);
    return found;
}

void add_gpu_usage_metrics(const std::vector<GpuUsageMetric>& metrics, data::RunRecord& rec,
                           data::ResultsAppender& appender) {
    for (const GpuUsageMetric& m : metrics) {
        bool taken = false;
        for (const auto& existing : rec.metrics) taken |= existing.name == m.name;
        if (taken) continue;
        data::MetricInfo info(m.name, m.unit, m.direction);
        info.primary = false;
        if (const data::MetricInfo* known = appender.file().find_metric(m.name)) {
            if (!known->same_declaration(info)) continue;
        } else {
            appender.declare_metric(info);
        }
        char buf[64];
        const auto res = std::to_chars(buf, buf + sizeof buf, m.value);  // shortest round trip
        const data::NumberToken t = data::parse_number_token(std::string_view(buf, static_cast<size_t>(res.ptr - buf)));
        data::MetricValues mv;
        mv.name = m.name;
        mv.values.push_back(t);
        rec.metrics.push_back(std::move(mv));
    }
}

}  // namespace gfxstat::drivers
