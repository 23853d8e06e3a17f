// SPDX-License-Identifier: MIT
// GPU time per run from DRM fdinfo: the totals over sequences of parsed
// fdinfo snapshots in the drivers' own shapes (clients appearing and
// going, dup'd fds, clients that existed before the run, the memory
// peak), metric names, the workload's process tree on fake and real
// /proc, and the sampler on real child processes (which hold no DRM file
// here: it must find them, read them and record nothing).
#include "drivers/gpu_usage.h"
#include "drivers/gpu_usage_sampler.h"
#include "drivers/process_runner.h"
#include "drivers/process_tree.h"
#include "drivers/run_loop.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace gfxstat::drivers {
namespace {

namespace fs = std::filesystem;
constexpr uint64_t kMs = 1'000'000;  // ns

class TempDir {
public:
    TempDir() {
        const char* base = std::getenv("TMPDIR");
        std::string tmpl = std::string(base && *base ? base : "/tmp") + "/gfxstat-gpu-XXXXXX";
        if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
        path_ = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    std::string file(const std::string& name) const { return path_ + "/" + name; }

private:
    std::string path_;
};

void write_file(const std::string& path, const std::string& text) {
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path) << text;
}

// A DRM file of process `pid` whose fdinfo reads `text`.
DrmClient file_of(int pid, int fd, const std::string& text) {
    DrmClient c;
    c.pid = pid;
    c.fd = fd;
    auto info = parse_drm_fdinfo(text);
    if (!info) throw std::runtime_error("not DRM fdinfo: " + text);
    c.info = *info;
    return c;
}

// i915's shape (i915_drm_client_fdinfo): engines in ns, per class.
std::string i915(uint64_t id, uint64_t render_ns, uint64_t video_ns = 0, const std::string& extra = "") {
    return "pos:\t0\nflags:\t02100002\nmnt_id:\t25\nino:\t1041\ndrm-driver:\ti915\ndrm-pdev:\t0000:00:02.0\n"
           "drm-client-id:\t" + std::to_string(id) + "\ndrm-engine-render:\t" + std::to_string(render_ns) +
           " ns\ndrm-engine-copy:\t0 ns\ndrm-engine-video:\t" + std::to_string(video_ns) +
           " ns\ndrm-engine-capacity-video:\t2\ndrm-engine-video-enhance:\t0 ns\n" + extra;
}

const GpuUsageMetric* find(const std::vector<GpuUsageMetric>& ms, const std::string& name) {
    for (const auto& m : ms)
        if (m.name == name) return &m;
    return nullptr;
}

std::vector<std::string> names(const std::vector<GpuUsageMetric>& ms) {
    std::vector<std::string> out;
    for (const auto& m : ms) out.push_back(m.name);
    return out;
}

// ---- the totals ----------------------------------------------------------

TEST(GpuUsageTotals, NoDrmFileOrNoStatisticsRecordNothing) {
    GpuUsageTotals t;
    t.add_sample({}, 0);
    t.add_sample({}, 100 * kMs);
    EXPECT_TRUE(t.metrics().empty());
    EXPECT_EQ(t.samples(), 2u);
    // A kernel before 5.19: the DRM file is there, its fdinfo has no drm-* keys.
    DrmClient bare;
    bare.pid = 10;
    bare.fd = 3;
    bare.node = "/dev/dri/card0";
    t.add_sample({bare}, 200 * kMs);
    EXPECT_TRUE(t.metrics().empty());
    // vgem: a driver line and a client id, no engine and no memory key.
    t.add_sample({file_of(10, 3, "drm-driver:\tvgem\ndrm-client-id:\t4\n")}, 300 * kMs);
    EXPECT_TRUE(t.metrics().empty());
}

TEST(GpuUsageTotals, ClientOpenedDuringTheRunCountsFromZeroUntilItsLastSample) {
    GpuUsageTotals t;
    t.add_sample({}, 0);  // at the start: no DRM file yet
    // First seen 100 ms in with 60 ms of render time: earned since it opened.
    t.add_sample({file_of(10, 5, i915(157, 60 * kMs))}, 100 * kMs);
    t.add_sample({file_of(10, 5, i915(157, 150 * kMs, 30 * kMs))}, 200 * kMs);
    // Gone (closed, or the process ended): its last sample stands.
    t.add_sample({}, 300 * kMs);
    const auto ms = t.metrics();
    EXPECT_EQ(names(ms), (std::vector<std::string>{"gpu_copy_busy", "gpu_render_busy", "gpu_video_busy",
                                                   "gpu_video_enhance_busy"}));
    EXPECT_DOUBLE_EQ(find(ms, "gpu_render_busy")->value, 150);
    EXPECT_EQ(find(ms, "gpu_render_busy")->unit, "ms");
    EXPECT_EQ(find(ms, "gpu_render_busy")->direction, data::Direction::lower_is_better);
    EXPECT_DOUBLE_EQ(find(ms, "gpu_video_busy")->value, 30);
    EXPECT_DOUBLE_EQ(find(ms, "gpu_copy_busy")->value, 0);  // reported, so recorded
    EXPECT_EQ(t.clients(), 1u);
}

TEST(GpuUsageTotals, ClientsAddUpAndADupdFdCountsOnce) {
    GpuUsageTotals t;
    // Client 157 through fds 5 and 6 of process 10 and fd 3 of its child
    // 11 (dup'd, inherited): one client. Client 158 is another.
    const std::string mem = "drm-total-system0:\t4 MiB\ndrm-resident-system0:\t3 MiB\n";
    t.add_sample({file_of(10, 5, i915(157, 40 * kMs, 0, mem)), file_of(10, 6, i915(157, 40 * kMs, 0, mem)),
                  file_of(11, 3, i915(157, 40 * kMs, 0, mem)), file_of(11, 4, i915(158, 25 * kMs))},
                 100 * kMs);
    const auto ms = t.metrics();
    EXPECT_DOUBLE_EQ(find(ms, "gpu_render_busy")->value, 65);
    EXPECT_DOUBLE_EQ(find(ms, "gpu_memory_resident_peak")->value, 3 * 1024);
    EXPECT_DOUBLE_EQ(find(ms, "gpu_memory_total_peak")->value, 4 * 1024);
    EXPECT_EQ(t.clients(), 2u);
}

TEST(GpuUsageTotals, AClientFromBeforeTheRunCountsOnlyItsGrowth) {
    GpuUsageTotals t;
    t.add_sample({}, 0);
    // 5 s of render time 100 ms after the start: it was opened long
    // before (an fd received from another process).
    t.add_sample({file_of(10, 7, i915(9, 5000 * kMs))}, 100 * kMs);
    t.add_sample({file_of(10, 7, i915(9, 5080 * kMs))}, 200 * kMs);
    EXPECT_DOUBLE_EQ(find(t.metrics(), "gpu_render_busy")->value, 80);
}

TEST(GpuUsageTotals, EngineCapacityBoundsWhatANewClientCanHaveEarned) {
    // 150 ms of video time 100 ms after the start: two video engines
    // (drm-engine-capacity-video: 2) can do that; counted whole.
    GpuUsageTotals two;
    two.add_sample({file_of(10, 5, i915(20, 0, 150 * kMs))}, 100 * kMs);
    EXPECT_DOUBLE_EQ(find(two.metrics(), "gpu_video_busy")->value, 150);
    // The same on render, one engine: it must have existed before.
    GpuUsageTotals one;
    one.add_sample({file_of(10, 5, i915(21, 150 * kMs))}, 100 * kMs);
    one.add_sample({file_of(10, 5, i915(21, 170 * kMs))}, 200 * kMs);
    EXPECT_DOUBLE_EQ(find(one.metrics(), "gpu_render_busy")->value, 20);
}

TEST(GpuUsageTotals, ACounterThatGoesBackCountsNoGrowth) {
    GpuUsageTotals t;
    t.add_sample({file_of(10, 5, i915(30, 50 * kMs))}, 100 * kMs);
    t.add_sample({file_of(10, 5, i915(30, 10 * kMs))}, 200 * kMs);
    EXPECT_DOUBLE_EQ(find(t.metrics(), "gpu_render_busy")->value, 50);
}

TEST(GpuUsageTotals, MemoryPeakIsTheLargestSumOfOneSample) {
    // amdgpu's shape (amdgpu_show_fdinfo, 6.8+): every region, KiB.
    const auto amd = [](uint64_t id, uint64_t vram_kib, uint64_t gtt_kib) {
        return "pos:\t0\nflags:\t02100002\nmnt_id:\t24\nino:\t1056\ndrm-driver:\tamdgpu\ndrm-pdev:\t0000:0b:00.0\n"
               "drm-client-id:\t" + std::to_string(id) + "\npasid:\t32771\n"
               "drm-total-cpu:\t0 KiB\ndrm-shared-cpu:\t0 KiB\ndrm-resident-cpu:\t0 KiB\n"
               "drm-total-gtt:\t" + std::to_string(gtt_kib) + " KiB\ndrm-resident-gtt:\t" + std::to_string(gtt_kib) +
               " KiB\ndrm-total-vram:\t" + std::to_string(vram_kib + 100) + " KiB\ndrm-resident-vram:\t" +
               std::to_string(vram_kib) + " KiB\ndrm-engine-gfx:\t1000000 ns\namd-evicted-vram:\t0 KiB\n";
    };
    GpuUsageTotals t;
    t.add_sample({file_of(10, 5, amd(1, 3000, 1000)), file_of(12, 5, amd(2, 2000, 0))}, 100 * kMs);  // 6000
    t.add_sample({file_of(10, 5, amd(1, 5000, 0))}, 200 * kMs);                                        // 5000
    const auto ms = t.metrics();
    EXPECT_DOUBLE_EQ(find(ms, "gpu_memory_resident_peak")->value, 6000);
    EXPECT_EQ(find(ms, "gpu_memory_resident_peak")->unit, "KiB");
    EXPECT_DOUBLE_EQ(find(ms, "gpu_memory_total_peak")->value, 6200);
    EXPECT_DOUBLE_EQ(find(ms, "gpu_gfx_busy")->value, 2);
    // The older amdgpu form (drm-memory-vram) is resident memory, without totals.
    GpuUsageTotals old;
    old.add_sample({file_of(10, 5, "drm-driver:\tamdgpu\ndrm-pdev:\t0000:0b:00.0\ndrm-client-id:\t3\n"
                                  "drm-memory-vram:\t2048 KiB\ndrm-memory-gtt:\t1024 KiB\n")},
                   100 * kMs);
    EXPECT_EQ(names(old.metrics()), std::vector<std::string>{"gpu_memory_resident_peak"});
    EXPECT_DOUBLE_EQ(old.metrics()[0].value, 3072);
}

TEST(GpuUsageTotals, CyclesOfMsmAndXe) {
    GpuUsageTotals t;
    // msm (msm_gpu_show_fdinfo): time and cycles of its one engine, bytes without unit.
    t.add_sample({file_of(10, 5, "drm-driver:\tmsm\ndrm-client-id:\t7\ndrm-engine-gpu:\t12000000 ns\n"
                                 "drm-cycles-gpu:\t7200000\ndrm-maxfreq-gpu:\t600000000 Hz\n"
                                 "drm-resident-memory:\t1048576\n"),
                  // xe (xe_drm_client_fdinfo): cycles only.
                  file_of(11, 4, "drm-driver:\txe\ndrm-client-id:\t3\ndrm-pdev:\t0000:03:00.0\n"
                                 "drm-cycles-rcs:\t28257900\ndrm-total-cycles-rcs:\t7655183225\n"
                                 "drm-cycles-video-enhance:\t10\n")},
                 100 * kMs);
    const auto ms = t.metrics();
    EXPECT_EQ(names(ms), (std::vector<std::string>{"gpu_gpu_busy", "gpu_gpu_cycles", "gpu_rcs_cycles",
                                                   "gpu_video_enhance_cycles", "gpu_memory_resident_peak"}));
    EXPECT_DOUBLE_EQ(find(ms, "gpu_gpu_busy")->value, 12);
    EXPECT_DOUBLE_EQ(find(ms, "gpu_gpu_cycles")->value, 7200000);
    EXPECT_EQ(find(ms, "gpu_rcs_cycles")->unit, "cycles");
    EXPECT_DOUBLE_EQ(find(ms, "gpu_rcs_cycles")->value, 28257900);
    EXPECT_DOUBLE_EQ(find(ms, "gpu_memory_resident_peak")->value, 1024);
}

TEST(GpuUsageNames, MetricSafeAndRecognised) {
    EXPECT_EQ(metric_safe("video-enhance"), "video_enhance");
    EXPECT_EQ(metric_safe("Enc.1 x"), "enc_1_x");
    EXPECT_EQ(metric_safe("dec_0"), "dec_0");
    EXPECT_EQ(metric_safe(""), "");
    EXPECT_TRUE(is_gpu_usage_metric("gpu_render_busy"));
    EXPECT_TRUE(is_gpu_usage_metric("gpu_rcs_cycles"));
    EXPECT_TRUE(is_gpu_usage_metric("gpu_memory_resident_peak"));
    EXPECT_TRUE(is_gpu_usage_metric("gpu_memory_total_peak"));
    EXPECT_FALSE(is_gpu_usage_metric("gpu_busy"));
    EXPECT_FALSE(is_gpu_usage_metric("render_busy"));
    EXPECT_FALSE(is_gpu_usage_metric("max_rss"));
}

TEST(GpuUsageNames, NeverTheDefaultTrackedMetricBesideTheWorkloadsOwn) {
    using data::Direction;
    // An output whose metric has no unit (lines): without the rule the
    // GPU time, with unit and direction, would be tracked.
    std::vector<data::MetricInfo> ms{data::MetricInfo("score", "", Direction::unknown),
                                     data::MetricInfo("gpu_render_busy", "ms", Direction::lower_is_better),
                                     data::MetricInfo("gpu_memory_resident_peak", "KiB", Direction::lower_is_better)};
    EXPECT_EQ(default_tracked(ms), "score");
    // All there is: still a metric to follow.
    EXPECT_EQ(default_tracked({ms[1], ms[2]}), "gpu_render_busy");
    EXPECT_EQ(default_tracked({}), "");
}

// ---- the process tree ----------------------------------------------------

// A fake /proc: stat lines in the kernel's shape, children files optional.
struct FakeProc {
    TempDir dir;
    std::string root = dir.file("proc");
    void process(int pid, int ppid, uint64_t start, char state = 'S', const std::string& comm = "sh") {
        std::ostringstream s;
        s << pid << " (" << comm << ") " << state << " " << ppid << " " << pid
          << " 1 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 " << start << " 2453504 225 18446744073709551615\n";
        write_file(root + "/" + std::to_string(pid) + "/stat", s.str());
        fs::create_directories(root + "/" + std::to_string(pid) + "/task/" + std::to_string(pid));
    }
    void children(int pid, int tid, const std::string& list) {
        write_file(root + "/" + std::to_string(pid) + "/task/" + std::to_string(tid) + "/children", list);
    }
};

std::vector<int> sorted(std::vector<int> v) {
    std::sort(v.begin(), v.end());
    return v;
}

TEST(ProcessTree, FollowsChildrenFilesOfEveryThread) {
    FakeProc p;
    p.process(100, 1, 5000);
    p.process(101, 100, 5001, 'R', "a) (b");  // comm with ") (" in it
    p.process(102, 101, 5002);
    p.process(106, 101, 5003);
    p.process(200, 1, 10);  // not ours
    p.children(100, 100, "101 ");
    p.children(101, 101, "102 ");
    p.children(101, 105, "106 ");  // a child of another thread of 101
    p.children(102, 102, "");
    p.children(106, 106, "");
    p.children(200, 200, "");
    ProcessTree tree(100, p.root);
    EXPECT_EQ(sorted(tree.refresh()), (std::vector<int>{100, 101, 102, 106}));
    EXPECT_FALSE(tree.scanned_all());

    // 101 exits: 102 and 106 are reparented (to init) and no children
    // file names them any more; they stay members.
    fs::remove_all(p.root + "/101");
    p.process(102, 1, 5002);
    p.process(106, 1, 5003);
    p.children(100, 100, "");
    EXPECT_EQ(sorted(tree.refresh()), (std::vector<int>{100, 102, 106}));
    // 106 ends and its pid is reused by someone else's process: not a member.
    p.process(106, 1, 9999);
    // A zombie is not counted, though it is still there.
    p.process(102, 1, 5002, 'Z');
    EXPECT_EQ(tree.refresh(), (std::vector<int>{100}));
    // The root is gone: nothing.
    fs::remove_all(p.root + "/100");
    EXPECT_TRUE(tree.refresh().empty());
}

TEST(ProcessTree, WithoutChildrenFilesScansEveryProcess) {
    FakeProc p;
    p.process(100, 1, 5000);
    p.process(90, 102, 5010);  // a grandchild listed before its parent
    p.process(101, 100, 5001);
    p.process(102, 101, 5002);
    p.process(103, 1, 5003);
    p.process(104, 103, 5004);
    p.process(105, 100, 5005, 'Z');
    ProcessTree tree(100, p.root);
    EXPECT_EQ(sorted(tree.refresh()), (std::vector<int>{90, 100, 101, 102}));
    EXPECT_TRUE(tree.scanned_all());
}

TEST(ProcessTree, ARealWorkloadWithBackgroundChildren) {
    ProcessSpec spec;
    spec.argv = {"sh", "-c", "sleep 2 & sleep 2 & wait"};
    spec.end_group = true;
    std::vector<int> seen;
    spec.on_started = [&](int pid) {
        ProcessTree tree(pid);
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (seen.size() < 3 && std::chrono::steady_clock::now() < until) {
            seen = tree.refresh();
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        EXPECT_FALSE(tree.scanned_all());  // Debian's kernels have children files
        ::kill(-pid, SIGTERM);             // done: do not wait for the sleeps
    };
    run_process(spec);
    ASSERT_EQ(seen.size(), 3u);
    for (int pid : seen) EXPECT_GT(pid, 0);
}

// ---- the sampler on real processes -------------------------------------

TEST(GpuUsageSampler, FindsAChildsTreeAndRecordsNothingWithoutDrmFiles) {
    GpuUsageSampler sampler(0.02);
    ProcessSpec spec;
    // A tree of three processes, one holding an open file.
    spec.argv = {"sh", "-c", "exec 3</dev/null; sleep 1 & sleep 1; wait"};
    spec.on_started = [&](int pid) { sampler.start(pid); };
    const ProcessResult r = run_process(spec);
    const GpuUsageTotals totals = sampler.stop();
    EXPECT_EQ(r.ended, ProcessResult::Ended::exited);
    EXPECT_EQ(r.exit_code, 0);
    const auto cost = sampler.cost();
    EXPECT_GE(cost.ticks, 2u);
    EXPECT_EQ(cost.ticks, totals.samples());
    EXPECT_GE(cost.most_processes, 3u);
    EXPECT_GE(cost.processes, cost.ticks);
    EXPECT_EQ(cost.drm_files, 0u);
    EXPECT_GT(cost.cpu_ns, 0u);
    EXPECT_EQ(totals.clients(), 0u);
    EXPECT_TRUE(totals.metrics().empty());
}

// A workload with a file under /dev/dri in a mount namespace of its own
// (a tmpfs over /dev: the machine's /dev is untouched). Not a DRM device,
// but named like one: the sampler finds it in both processes of the tree
// and reads its fdinfo, which has no drm-* keys, so nothing is recorded.
TEST(GpuUsageSampler, ReadsTheFdinfoOfAFileNamedLikeADrmNode) {
    const std::string setup = "mount -t tmpfs none /dev && mkdir /dev/dri && : >/dev/dri/card0";
    ProcessSpec probe;
    probe.argv = {"unshare", "-m", "sh", "-c", setup};
    const ProcessResult can = run_process(probe);
    if (!(can.ended == ProcessResult::Ended::exited && can.exit_code == 0))
        GTEST_SKIP() << "no private mount namespace here (unshare -m needs root): " << describe_end(can);
    GpuUsageSampler sampler(0.02);
    ProcessSpec spec;
    spec.argv = {"unshare", "-m", "sh", "-c", setup + " && exec 3</dev/dri/card0 && sleep 0.5 & wait"};
    spec.on_started = [&](int pid) { sampler.start(pid); };
    const ProcessResult r = run_process(spec);
    const GpuUsageTotals totals = sampler.stop();
    EXPECT_EQ(r.exit_code, 0);
    const auto cost = sampler.cost();
    EXPECT_GE(cost.drm_files, 1u);
    EXPECT_GE(totals.clients(), 1u);
    EXPECT_TRUE(totals.metrics().empty());
}

TEST(GpuUsageSampler, StopWithoutStartAndAChildThatIsAlreadyGone) {
    GpuUsageSampler idle;
    EXPECT_TRUE(idle.stop().metrics().empty());
    EXPECT_EQ(idle.cost().ticks, 0u);
    // A pid with no process: one empty sample, no error.
    GpuUsageSampler gone(0.01);
    ProcessSpec spec;
    spec.argv = {"true"};
    int child = 0;
    spec.on_started = [&](int pid) { child = pid; };
    run_process(spec);  // reaped
    gone.start(child);
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    EXPECT_TRUE(gone.stop().metrics().empty());
    EXPECT_GE(gone.cost().ticks, 1u);
    EXPECT_EQ(gone.cost().most_processes, 0u);
}

// The threads of this process, from /proc/self/task.
size_t own_threads() {
    size_t n = 0;
    for (const auto& e : fs::directory_iterator("/proc/self/task")) n += e.is_directory();
    return n;
}

// A loop of runs: one sampler, one thread, watch after watch, each watch
// with its own totals and cost.
TEST(GpuUsageSampler, WatchesOneRunAfterAnotherOnOneThread) {
    const size_t before = own_threads();
    GpuUsageSampler sampler(0.01);
    for (int run = 0; run < 3; ++run) {
        ProcessSpec spec;
        spec.argv = {"sleep", "0.05"};
        spec.on_started = [&](int pid) { sampler.start(pid); };
        const ProcessResult r = run_process(spec);
        EXPECT_EQ(r.exit_code, 0);
        const GpuUsageTotals totals = sampler.stop();
        EXPECT_GE(sampler.cost().ticks, 1u) << "run " << run;
        EXPECT_EQ(sampler.cost().ticks, totals.samples()) << "run " << run;
        EXPECT_GE(sampler.cost().most_processes, 1u) << "run " << run;
        EXPECT_EQ(own_threads(), before + 1) << "run " << run;
    }
}

// ---- into the run's record -----------------------------------------------

TEST(GpuUsageRecord, DeclaredNotPrimaryAndNeverOverTheRunsOwn) {
    TempDir dir;
    data::ResultsAppender appender(dir.file("r.json"));
    data::RunRecord rec;
    data::MetricValues own;
    own.name = "gpu_copy_busy";  // the run's parser gave this one
    own.values.push_back(data::parse_number_token("7"));
    rec.metrics.push_back(own);
    // Declared otherwise in the file: left out too.
    appender.declare_metric(data::MetricInfo("gpu_video_busy", "%", data::Direction::higher_is_better));
    GpuUsageMetric busy{"gpu_render_busy", "ms", data::Direction::lower_is_better, 12.5};
    GpuUsageMetric copy{"gpu_copy_busy", "ms", data::Direction::lower_is_better, 1};
    GpuUsageMetric video{"gpu_video_busy", "ms", data::Direction::lower_is_better, 2};
    GpuUsageMetric mem{"gpu_memory_resident_peak", "KiB", data::Direction::lower_is_better, 6144};
    add_gpu_usage_metrics({busy, copy, video, mem}, rec, appender);
    ASSERT_EQ(rec.metrics.size(), 3u);
    EXPECT_EQ(rec.metrics[0].name, "gpu_copy_busy");
    EXPECT_EQ(rec.metrics[0].values[0].significand, 7u);
    EXPECT_EQ(rec.metrics[1].name, "gpu_render_busy");
    ASSERT_EQ(rec.metrics[1].values.size(), 1u);
    EXPECT_EQ(rec.metrics[1].values[0].status, data::TokenStatus::decimal);
    EXPECT_EQ(rec.metrics[1].values[0].significand, 125u);
    EXPECT_EQ(rec.metrics[1].values[0].exponent, -1);
    EXPECT_EQ(rec.metrics[2].name, "gpu_memory_resident_peak");
    const data::MetricInfo* info = appender.file().find_metric("gpu_render_busy");
    ASSERT_TRUE(info);
    EXPECT_EQ(info->unit, "ms");
    EXPECT_EQ(info->direction, data::Direction::lower_is_better);
    EXPECT_EQ(info->primary, false);
    EXPECT_FALSE(info->within_run());
    EXPECT_EQ(appender.file().find_metric("gpu_video_busy")->unit, "%");
}

}  // namespace
}  // namespace gfxstat::drivers
