// SPDX-License-Identifier: MIT
// The kernel trouble table, one test per row, each with a line in the shape
// its driver prints (the format strings of the kernel sources, filled in as
// a machine would), plus ordinary lines that must not count.
#include <gtest/gtest.h>

#include <re2/re2.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "drivers/kernel_trouble.h"

using gfxstat::drivers::kernel_trouble_rules;
using gfxstat::drivers::match_kernel_trouble;

namespace {

struct Example {
    const char* line;
    const char* driver;
    const char* what;
};

// One example per row of the table, in the table's order.
const std::vector<Example> kExamples = {
    {"i915 0000:00:02.0: [drm] GPU HANG: ecode 12:1:85dffffb, in gem_exec_nop [1734]", "i915", "GPU hang"},
    {"i915 0000:00:02.0: [drm] Resetting chip for stopped heartbeat on rcs0", "i915", "GPU reset"},
    {"i915 0000:00:02.0: [drm] Resetting rcs0 for preemption time out", "i915", "engine reset"},
    {"i915 0000:00:02.0: [drm] *ERROR* Failed to reset chip", "i915", "driver error"},
    {"xe 0000:03:00.0: [drm] GT0: Timedout job: seqno=4294967169, lrc_seqno=4294967169, guc_id=2, flags=0x0 in "
     "xe_exec_basic [2811]",
     "xe", "job timeout"},
    {"xe 0000:03:00.0: [drm] GT0: reset started", "xe", "GT reset"},
    {"xe 0000:03:00.0: [drm] GT1: Engine reset: engine_class=vcs, logical_mask: 0x1, guc_id=5", "xe", "engine reset"},
    {"xe 0000:03:00.0: [drm] *ERROR* GT0: GuC PC query task state failed: -ETIMEDOUT", "xe", "driver error"},
    {"amdgpu 0000:03:00.0: amdgpu: ring gfx_0.0.0 timeout, signaled seq=1234, emitted seq=1236", "amdgpu",
     "ring timeout"},
    {"amdgpu 0000:03:00.0: amdgpu: GPU reset begin!", "amdgpu", "GPU reset"},
    {"[drm:amdgpu_ring_test_helper [amdgpu]] *ERROR* ring kiq_2.1.0 test failed (-110)", "amdgpu",
     "ring test failed"},
    {"amdgpu 0000:0b:00.0: amdgpu: [gfxhub0] retry page fault (src_id:0 ring:0 vmid:3 pasid:32769, for process "
     "vkcube pid 2123 thread vkcube:cs0 pid 2130)",
     "amdgpu", "GPU page fault"},
    {"amdgpu 0000:01:00.0: GPU fault detected: 146 0x0000480c for process glxgears pid 2012 thread glxgears:cs0 pid 2015",
     "amdgpu", "GPU VM fault"},
    {"[drm:amdgpu_dm_atomic_commit_tail [amdgpu]] *ERROR* Waiting for fences timed out!", "amdgpu", "driver error"},
    {"radeon 0000:01:00.0: ring 0 stalled for more than 10240msec", "radeon", "ring stall"},
    {"radeon 0000:01:00.0: GPU lockup (current fence id 0x0000000000012a3c last fence id 0x0000000000012a3d on "
     "ring 0)",
     "radeon", "GPU lockup"},
    {"nouveau 0000:01:00.0: gr: TRAP ch 5 [003f8aa000 compiz[2059]]", "nouveau", "graphics trap"},
    {"nouveau 0000:03:00.0: Xorg[2079]: channel 13 killed!", "nouveau", "channel killed"},
    {"nouveau 0000:02:00.0: fifo: SCHED_ERROR 0a [CTXSW_TIMEOUT]", "nouveau", "fifo error"},
    {"etnaviv-gpu 130000.gpu: hangcheck detected gpu lockup!", "etnaviv", "GPU hang"},
    {"msm_dpu ae01000.display-controller: [drm:hangcheck_handler [msm]] *ERROR* 7.3.0.1: hangcheck detected gpu "
     "lockup rb 0!",
     "msm", "GPU hang"},
    {"adreno 3d00000.gpu: [drm:a6xx_irq [msm]] *ERROR* gpu fault ring 0 fence 2f3a status 00800005 rb 0127/0127 "
     "ib1 0000000100104000/0000 ib2 0000000000000000/0000",
     "msm", "GPU fault"},
    {"panfrost 13000000.gpu: js fault, js=1, status=JOB_BUS_FAULT, head=0xaadc380, tail=0xaadc380", "panfrost",
     "job fault"},
    {"panfrost 13000000.gpu: gpu sched timeout, js=0, config=0x7300, status=0x58, head=0xaaca180, "
     "tail=0xaaca180, sched_job=000000002fd03ccc",
     "panfrost", "job timeout"},
    {"panfrost 13000000.gpu: Unhandled Page fault in AS0 at VA 0x0000000000000000", "panfrost", "GPU page fault"},
    {"v3d fec00000.v3d: [drm:v3d_reset [v3d]] *ERROR* Resetting GPU for hang.", "v3d", "GPU reset"},
    {"v3d fec00000.v3d: MMU error from client CLE (0) at 0x1c4000, pte invalid", "v3d", "MMU error"},
    {"[drm:drm_sched_job_timedout [gpu_sched]] *ERROR* lima job timeout", "gpu_sched", "scheduler timeout"},
    {"lima 1c40000.gpu: [drm] *ERROR* lima gp task error int_state=0 status=1", "lima", "driver error"},
    {"WARNING: CPU: 3 PID: 1734 at drivers/gpu/drm/i915/gt/intel_engine_cs.c:1589 "
     "intel_engine_print_registers+0x5a/0x760 [i915]",
     "kernel", "kernel warning"},
    {"BUG: kernel NULL pointer dereference, address: 0000000000000008", "kernel", "kernel BUG"},
    {"Oops: 0000 [#1] PREEMPT SMP NOPTI", "kernel", "kernel Oops"},
    {"INFO: task kworker/u16:3:211 blocked for more than 122 seconds.", "kernel", "hung task"},
    {"rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:", "kernel", "RCU stall"},
    {"NMI watchdog: Watchdog detected hard LOCKUP on cpu 3", "kernel", "hard lockup"},
};

// "-" when the line is no trouble, so that a miss fails the comparison.
std::string what_of(const char* line) {
    const auto t = match_kernel_trouble(line);
    return t ? t->what : "-";
}
std::string driver_of(const char* line) {
    const auto t = match_kernel_trouble(line);
    return t ? t->driver : "-";
}

TEST(KernelTrouble, BothFormsOfAnRcuStall) {
    // A stall another CPU saw, and one the stalled CPU saw itself.
    EXPECT_EQ(what_of("rcu: INFO: rcu_sched detected expedited stalls on CPUs/tasks: { 3-... } 21 jiffies"),
              "RCU stall");
    EXPECT_EQ(what_of("rcu: INFO: rcu_preempt self-detected stall on CPU"), "RCU stall");
}

TEST(KernelTrouble, EveryPatternCompiles) {
    for (const auto& r : kernel_trouble_rules()) {
        RE2 re(r.pattern, RE2::Quiet);
        EXPECT_TRUE(re.ok()) << r.driver << " " << r.what << ": " << re.error();
    }
}

TEST(KernelTrouble, EveryRowHasItsExampleAndEveryExampleItsRow) {
    // Each example is matched by its own row (the one that names its driver
    // and trouble) and by no row before it in the table.
    const auto& rules = kernel_trouble_rules();
    ASSERT_EQ(rules.size(), kExamples.size());
    for (size_t i = 0; i < rules.size(); ++i) {
        RE2 re(rules[i].pattern, RE2::Quiet);
        EXPECT_TRUE(RE2::PartialMatch(kExamples[i].line, re))
            << "row " << i << " (" << rules[i].driver << ", " << rules[i].what << ") misses " << kExamples[i].line;
    }
}

TEST(KernelTrouble, EachDriverLineIsNamed) {
    for (const Example& e : kExamples) {
        const auto t = match_kernel_trouble(e.line);
        ASSERT_TRUE(t) << e.line;
        EXPECT_EQ(t->driver, e.driver) << e.line;
        EXPECT_EQ(t->what, e.what) << e.line;
    }
}

TEST(KernelTrouble, VariantsOfTheSameMessages) {
    // Older kernels: DRM_ERROR's "[drm:function [module]] *ERROR*", i915's
    // "[drm] GPU HANG" without a device prefix, xe's drm_notice without "GT0:".
    EXPECT_EQ(what_of("[drm] GPU HANG: ecode 9:0:0x84d5fffb, in Xorg [941], reason: hang on rcs0"),
              "GPU hang");
    EXPECT_EQ(driver_of("xe 0000:00:02.0: [drm] Timedout job: seqno=1, guc_id=2, flags=0x0"), "xe");
    EXPECT_EQ(what_of("[drm:amdgpu_job_timedout [amdgpu]] *ERROR* ring gfx timeout, signaled seq=7, "
                                   "emitted seq=9"),
              "ring timeout");
    EXPECT_EQ(what_of("amdgpu 0000:03:00.0: amdgpu: GPU reset(2) succeeded!"), "GPU reset");
    EXPECT_EQ(driver_of("[drm:intel_cpu_fifo_underrun_irq_handler [i915]] *ERROR* CPU pipe A FIFO "
                                   "underrun"),
              "i915");
    EXPECT_EQ(what_of("watchdog: BUG: soft lockup - CPU#2 stuck for 26s! [gem_exec_nop:1734]"),
              "kernel BUG");
    EXPECT_EQ(what_of("kernel BUG at mm/slub.c:384!"), "kernel BUG");
    EXPECT_EQ(what_of("Internal error: Oops: 96000005 [#1] PREEMPT SMP"), "kernel Oops");
    EXPECT_EQ(what_of("general protection fault, probably for non-canonical address "
                                   "0xdead000000000100: 0000 [#1] PREEMPT SMP NOPTI"),
              "kernel Oops");
    // The generic rule names the device's driver, else the printing module.
    EXPECT_EQ(driver_of("i915 0000:00:02.0: [drm:drm_atomic_helper_wait_for_flip_done [drm_kms_helper]] *ERROR* "
                        "[CRTC:51:pipe A] flip_done timed out"),
              "i915");
    EXPECT_EQ(driver_of("[drm:drm_atomic_helper_wait_for_flip_done [drm_kms_helper]] *ERROR* [CRTC:51:pipe A] "
                        "flip_done timed out"),
              "drm_kms_helper");
    // A WARN from anywhere, not only a GPU driver: the run cannot be trusted.
    EXPECT_EQ(driver_of("WARNING: CPU: 0 PID: 0 at net/sched/sch_generic.c:525 dev_watchdog+0x20d/0x220"),
              "kernel");
}

TEST(KernelTrouble, OrdinaryLinesDoNotCount) {
    for (const char* line : {
             "usb 1-1: reset high-speed USB device number 2 using xhci_hcd",
             "e1000e 0000:00:1f.6 eth0: Reset adapter unexpectedly",
             "r8169 0000:02:00.0 enp2s0: rtl_chipcmd_cond == 1 (loop: 100, delay: 100).",
             "i915 0000:00:02.0: [drm] GuC firmware i915/tgl_guc_70.bin version 70.20.0",
             "i915 0000:00:02.0: [drm] GT0: GuC submission enabled",
             "[drm] Initialized i915 1.6.0 20201103 for 0000:00:02.0 on minor 0",
             "xe 0000:03:00.0: [drm] GT0: reset done",
             "xe 0000:03:00.0: [drm] Using GuC firmware from xe/lnl_guc_70.bin version 70.29.2",
             "amdgpu 0000:03:00.0: amdgpu: ring gfx_0.0.0 uses VM inv eng 0 on hub 0",
             "amdgpu 0000:03:00.0: amdgpu: SMU is initialized successfully!",
             "nouveau 0000:01:00.0: DRM: VRAM: 2048 MiB",
             "panfrost 13000000.gpu: mali-t860 id 0x860 major 0x2 minor 0x0 status 0x0",
             "v3d fec00000.v3d: [drm] Using Xe 3.3 V3D",
             "Warning: Deprecated Driver is detected: nft_compat will not be maintained in a future major release",
             "ACPI Warning: SystemIO range 0x0000000000000428-0x000000000000042F conflicts with OpRegion",
             "sched: RT throttling activated",
             "hid-generic 0003:046D:C52B.0003: input,hidraw2: USB HID v1.11 Keyboard",
             "gem_exec_nop: executing",
             "",
         })
        EXPECT_FALSE(match_kernel_trouble(line)) << line;
}

TEST(KernelTrouble, RowsAreDistinct) {
    std::set<std::pair<std::string, std::string>> seen;
    for (const auto& r : kernel_trouble_rules())
        EXPECT_TRUE(seen.insert({r.driver, r.what}).second) << r.driver << " " << r.what;
}

}  // namespace
