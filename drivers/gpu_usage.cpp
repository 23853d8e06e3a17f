// SPDX-License-Identifier: MIT
#include "drivers/gpu_usage.h"

#include <algorithm>

namespace gfxstat::drivers {

std::string client_key(const DrmClient& file) {
    const DrmFdinfo& i = file.info;
    // '\n' cannot be in a parsed fdinfo value: the key's parts stay apart.
    if (i.client_id) return i.driver + "\n" + i.pdev + "\n" + std::to_string(*i.client_id);
    return i.driver + "\n" + i.pdev + "\npid " + std::to_string(file.pid) + " fd " + std::to_string(file.fd);
}

std::string metric_safe(const std::string& name) {
    std::string out = name;
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
        if (!ok) c = '_';
    }
    return out;
}

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

uint64_t region_sum(const std::map<std::string, uint64_t>& regions) {
    uint64_t sum = 0;
    for (const auto& [region, bytes] : regions) sum += bytes;
    return sum;
}

// Growth of cumulative counters since the baseline; a counter that went
// back (a driver resetting it) counts no growth rather than wrapping.
void add_growth(const std::map<std::string, uint64_t>& latest, const std::map<std::string, uint64_t>& base,
                std::map<std::string, uint64_t>& sums) {
    for (const auto& [engine, value] : latest) {
        const auto b = base.find(engine);
        const uint64_t from = b == base.end() ? 0 : b->second;
        sums[metric_safe(engine)] += value > from ? value - from : 0;
    }
}

}  // namespace

bool is_gpu_usage_metric(const std::string& name) {
    if (name == "gpu_memory_resident_peak" || name == "gpu_memory_total_peak") return true;
    if (name.rfind("gpu_", 0) != 0) return false;
    for (const char* tail : {"_busy", "_cycles"})
        if (ends_with(name, tail) && name.size() > 4 + std::string(tail).size()) return true;
    return false;
}

std::optional<std::vector<data::MetricInfo>> gpu_usage_metrics_left_out(const std::vector<data::MetricInfo>& metrics) {
    std::vector<data::MetricInfo> rest;
    for (const auto& m : metrics)
        if (!is_gpu_usage_metric(m.name)) rest.push_back(m);
    if (rest.size() == metrics.size() || rest.empty()) return std::nullopt;
    return rest;
}

void GpuUsageTotals::add_sample(const std::vector<DrmClient>& files, uint64_t elapsed_ns) {
    ++samples_;
    // Memory is counted per client once in a sample, whatever number of
    // fds or processes show it.
    std::map<std::string, const DrmFdinfo*> in_sample;
    for (const DrmClient& f : files) in_sample.emplace(client_key(f), &f.info);

    uint64_t resident = 0, total = 0;
    for (const auto& [key, info] : in_sample) {
        auto [it, fresh] = clients_.try_emplace(key);
        Client& c = it->second;
        if (fresh) {
            bool existed_before = false;
            for (const auto& [engine, ns] : info->engine_ns) {
                const auto cap = info->engine_capacity.find(engine);
                const uint64_t engines = cap == info->engine_capacity.end() || cap->second == 0 ? 1 : cap->second;
                const uint64_t bound = elapsed_ns > UINT64_MAX / engines ? UINT64_MAX : elapsed_ns * engines;
                existed_before |= ns > bound;
            }
            if (existed_before) {
                c.base_ns = info->engine_ns;
                c.base_cycles = info->engine_cycles;
            }
        }
        // Cumulative: the latest is the largest seen, and what a client
        // that goes away keeps.
        for (const auto& [engine, ns] : info->engine_ns) c.ns[engine] = std::max(c.ns[engine], ns);
        for (const auto& [engine, n] : info->engine_cycles) c.cycles[engine] = std::max(c.cycles[engine], n);
        resident_seen_ |= !info->memory_resident.empty();
        total_seen_ |= !info->memory_total.empty();
        resident += region_sum(info->memory_resident);
        total += region_sum(info->memory_total);
    }
    resident_peak_ = std::max(resident_peak_, resident);
    total_peak_ = std::max(total_peak_, total);
}

std::vector<GpuUsageMetric> GpuUsageTotals::metrics() const {
    std::map<std::string, uint64_t> busy_ns, cycles;
    bool any_engine = false, any_cycles = false;
    for (const auto& [key, c] : clients_) {
        any_engine |= !c.ns.empty();
        any_cycles |= !c.cycles.empty();
        add_growth(c.ns, c.base_ns, busy_ns);
        add_growth(c.cycles, c.base_cycles, cycles);
    }
    std::vector<GpuUsageMetric> out;
    const auto add = [&](std::string name, const char* unit, double value) {
        GpuUsageMetric m;
        m.name = std::move(name);
        m.unit = unit;
        m.direction = data::Direction::lower_is_better;
        m.value = value;
        out.push_back(std::move(m));
    };
    if (any_engine)
        for (const auto& [engine, ns] : busy_ns)
            if (!engine.empty()) add("gpu_" + engine + "_busy", "ms", static_cast<double>(ns) / 1e6);
    if (any_cycles)
        for (const auto& [engine, n] : cycles)
            if (!engine.empty()) add("gpu_" + engine + "_cycles", "cycles", static_cast<double>(n));
    // KiB, as `time`'s max_rss.
    if (resident_seen_) add("gpu_memory_resident_peak", "KiB", static_cast<double>(resident_peak_) / 1024);
    if (total_seen_) add("gpu_memory_total_peak", "KiB", static_cast<double>(total_peak_) / 1024);
    return out;
}

}  // namespace gfxstat::drivers
