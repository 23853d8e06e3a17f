// SPDX-License-Identifier: MIT
#include "drivers/kernel_trouble.h"

#include <memory>

#include <re2/re2.h>

namespace gfxstat::drivers {

// What counts as trouble, and why these rules:
//
// - A GPU driver's hang, reset, timeout, fault or error is always trouble:
//   the workload's numbers include the hang's recovery (or a reset GPU's
//   cold clocks and caches), whatever the workload itself said.
// - The kernel's own WARN, BUG, Oops, hung task and RCU stall are trouble
//   from any subsystem: after one the machine is no longer in the state it
//   was measured in (a WARN in network code still means a backtrace was
//   printed and a path the kernel did not expect was taken during the run).
// - Ordinary words are not: "reset" from a USB or network driver, a GPU
//   driver's informational lines, the "reset done" that follows a reset
//   already caught. Rules that name common words are tied to their
//   driver's line prefix ("amdgpu 0000:03:00.0: ") or module ("[amdgpu]").
//
// The patterns follow the format strings of the drivers (i915's
// i915_gpu_error.c and intel_reset.c, xe's xe_guc_submit.c and xe_gt.c,
// amdgpu's amdgpu_job.c, amdgpu_device.c, amdgpu_ring.c and gmc, nouveau's
// gr and fifo, msm's msm_gpu.c and a6xx_gpu.c, panfrost_job.c and
// panfrost_mmu.c, v3d_gem.c and v3d_irq.c, radeon, etnaviv) and of the
// kernel's panic.c, traps, hung_task.c and the RCU stall warning. Each has
// a test with such a line (tests/unit/drivers/kernel_trouble_test.cpp).
const std::vector<KernelTroubleRule>& kernel_trouble_rules() {
    static const std::vector<KernelTroubleRule> rules = {
        // i915
        {"i915", "GPU hang", R"(GPU HANG: ecode )"},
        {"i915", "GPU reset", R"(Resetting chip for )"},
        {"i915", "engine reset", R"(Resetting (rcs|bcs|vcs|vecs|ccs)\d+ for )"},
        {"i915", "driver error", R"(^i915 \S+: \[drm\] \*ERROR\*|\[drm:[^\]]*\[i915\]\] \*ERROR\*)"},
        // xe
        {"xe", "job timeout", R"(Timedout job: seqno=)"},
        {"xe", "GT reset", R"(^xe \S+: .*GT\d+: reset (started|failed))"},
        {"xe", "engine reset", R"(^xe \S+: .*Engine reset: engine_class=)"},
        {"xe", "driver error", R"(^xe \S+: \[drm\] \*ERROR\*|\[drm:[^\]]*\[xe\]\] \*ERROR\*)"},
        // amdgpu
        {"amdgpu", "ring timeout", R"(amdgpu.*\bring \S+ timeout\b)"},
        {"amdgpu", "GPU reset", R"(amdgpu.*\bGPU reset( begin|\(\d+\) (succeeded|failed)))"},
        {"amdgpu", "ring test failed", R"(amdgpu.*\bring \S+ test failed)"},
        {"amdgpu", "GPU page fault", R"(amdgpu.*\[(gfxhub|mmhub)\d*\] (retry |no-retry )?page fault)"},
        // GCN up to Polaris (gmc v6-v8) report VM faults this way, as radeon does
        {"amdgpu", "GPU VM fault", R"(^(amdgpu|radeon) \S+: GPU fault detected: \d+ )"},
        {"amdgpu", "driver error", R"(^amdgpu \S+: .*\*ERROR\*|\[drm:[^\]]*\[amdgpu\]\] \*ERROR\*)"},
        // radeon
        {"radeon", "ring stall", R"(^radeon \S+: ring \d+ stalled for more than)"},
        {"radeon", "GPU lockup", R"(^radeon \S+: GPU lockup)"},
        // nouveau
        {"nouveau", "graphics trap", R"(^nouveau \S+: .*\bgr: TRAP\b)"},
        {"nouveau", "channel killed", R"(^nouveau \S+: .*\bchannel \d+ killed)"},
        {"nouveau", "fifo error", R"(^nouveau \S+: .*\bfifo: (SCHED_ERROR|PBDMA\d+:|fault|read fault|write fault))"},
        // etnaviv before msm: both say "hangcheck detected gpu lockup"
        {"etnaviv", "GPU hang", R"(^etnaviv\S* \S+: .*hangcheck detected gpu lockup|recover hung GPU!)"},
        // msm (Adreno)
        {"msm", "GPU hang", R"(hangcheck detected gpu lockup)"},
        {"msm", "GPU fault", R"(\bgpu fault ring \d+ fence |\*\*\* gpu fault: )"},
        // panfrost (Mali)
        {"panfrost", "job fault", R"(\bjs fault, js=\d+)"},
        {"panfrost", "job timeout", R"(\bgpu sched timeout, js=\d+)"},
        {"panfrost", "GPU page fault", R"(^panfrost \S+: .*Unhandled Page fault in AS\d+)"},
        // v3d (Raspberry Pi)
        {"v3d", "GPU reset", R"(Resetting GPU for hang)"},
        {"v3d", "MMU error", R"(^v3d \S+: .*MMU error from client )"},
        // any DRM driver
        {"drm", "scheduler timeout", R"(\bdrm_sched_job_timedout\b)"},
        {"drm", "driver error", R"(\[drm(:[^\]]*\]?)?\] \*ERROR\* )"},
        // the kernel itself, from any subsystem
        {"kernel", "kernel warning", R"(^WARNING: CPU: \d+ PID: \d+ at )"},
        {"kernel", "kernel BUG", R"((^|: )BUG: |^kernel BUG at )"},
        {"kernel", "kernel Oops", R"(^Oops: |^Internal error: Oops|^general protection fault)"},
        {"kernel", "hung task", R"(^INFO: task \S.* blocked for more than \d+ seconds)"},
        {"kernel", "RCU stall", R"(\brcu: INFO: \S+ (self-)?detected (expedited )?stalls?\b)"},
        {"kernel", "hard lockup", R"(Watchdog detected hard LOCKUP on cpu \d+)"},
    };
    return rules;
}

namespace {

struct CompiledRule {
    const KernelTroubleRule* rule;
    std::unique_ptr<RE2> re;
};

// Compiled once; a pattern that does not compile is a defect of the table
// (its test fails), never of the input.
const std::vector<CompiledRule>& compiled_rules() {
    static const std::vector<CompiledRule> compiled = [] {
        std::vector<CompiledRule> v;
        RE2::Options o;
        o.set_log_errors(false);
        for (const KernelTroubleRule& r : kernel_trouble_rules()) {
            auto re = std::make_unique<RE2>(r.pattern, o);
            if (re->ok()) v.push_back({&r, std::move(re)});
        }
        return v;
    }();
    return compiled;
}

// For the generic DRM rules: the driver that printed the line, from the
// dev_printk prefix "DRIVER DEVICE: " (the device's own driver), else from
// "[drm:func [module]]" (the module of the function that printed it, which
// may be a helper: drm_kms_helper, gpu_sched).
std::string printing_driver(std::string_view message) {
    static const RE2 module(R"(\[drm:[^\]\s]+ \[(\w+)\]\])");
    static const RE2 prefix(R"(^([\w-]+) [^\s:]+(:[^\s:]+)*: )");
    std::string name;
    if (RE2::PartialMatch(message, prefix, &name) || RE2::PartialMatch(message, module, &name)) return name;
    return "drm";
}

}  // namespace

std::optional<KernelTrouble> match_kernel_trouble(std::string_view message) {
    for (const CompiledRule& c : compiled_rules()) {
        if (!RE2::PartialMatch(message, *c.re)) continue;
        KernelTrouble t{c.rule->driver, c.rule->what};
        if (t.driver == "drm") t.driver = printing_driver(message);
        return t;
    }
    return std::nullopt;
}

}  // namespace gfxstat::drivers
