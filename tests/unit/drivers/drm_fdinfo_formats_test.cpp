// SPDX-License-Identifier: MIT
// More drivers' fdinfo shapes for parse_drm_fdinfo, the ones the GPU
// time per run reads (docs/run.md, "GPU time"): amdgpu with the common
// memory keys (6.8 on), panfrost and v3d (engines with cycles and
// frequencies, memory from drm_show_memory_stats), i915 with local
// memory (DG2), and the client name newer kernels print. Shapes from the
// kernel's Documentation/gpu/drm-usage-stats.rst and the drivers'
// show_fdinfo functions.
#include "drivers/drm_fdinfo.h"

#include <gtest/gtest.h>

namespace gfxstat::drivers {
namespace {

TEST(DrmFdinfoFormats, AmdgpuCommonMemoryKeysAndEveryEngine) {
    const auto info = parse_drm_fdinfo(
        "pos:\t0\nflags:\t02100002\nmnt_id:\t24\nino:\t1056\n"
        "drm-driver:\tamdgpu\ndrm-client-id:\t1421\ndrm-pdev:\t0000:03:00.0\npasid:\t32779\n"
        "drm-total-cpu:\t0\ndrm-shared-cpu:\t0\ndrm-active-cpu:\t0\ndrm-resident-cpu:\t0\n"
        "drm-purgeable-cpu:\t0\n"
        "drm-total-gtt:\t2392 KiB\ndrm-shared-gtt:\t0\ndrm-active-gtt:\t0\ndrm-resident-gtt:\t2392 KiB\n"
        "drm-purgeable-gtt:\t0\n"
        "drm-total-vram:\t62 MiB\ndrm-shared-vram:\t8 MiB\ndrm-active-vram:\t0\ndrm-resident-vram:\t60 MiB\n"
        "drm-purgeable-vram:\t0\n"
        "amd-evicted-vram:\t0 KiB\namd-requested-vram:\t62 MiB\namd-requested-gtt:\t2392 KiB\n"
        "drm-engine-gfx:\t49172640 ns\ndrm-engine-compute:\t0 ns\ndrm-engine-dma:\t77100 ns\n"
        "drm-engine-dec:\t0 ns\ndrm-engine-enc:\t0 ns\ndrm-engine-enc_1:\t10 ns\ndrm-engine-jpeg:\t0 ns\n");
    ASSERT_TRUE(info);
    EXPECT_EQ(info->driver, "amdgpu");
    EXPECT_EQ(info->client_id, 1421u);
    EXPECT_EQ(info->pdev, "0000:03:00.0");
    EXPECT_EQ(info->engine_ns.size(), 7u);
    EXPECT_EQ(info->engine_ns.at("gfx"), 49172640u);
    EXPECT_EQ(info->engine_ns.at("enc_1"), 10u);
    // Shared, active and purgeable are not resident, amd-* not DRM keys.
    EXPECT_EQ(info->memory_resident.size(), 3u);
    EXPECT_EQ(info->memory_resident.at("vram"), 60u * 1024 * 1024);
    EXPECT_EQ(info->memory_resident.at("gtt"), 2392u * 1024);
    EXPECT_EQ(info->memory_total.size(), 3u);
    EXPECT_EQ(info->memory_total.at("vram"), 62u * 1024 * 1024);
    EXPECT_TRUE(info->engine_cycles.empty());
}

TEST(DrmFdinfoFormats, PanfrostEnginesWithCyclesAndFrequencies) {
    // A platform device: no drm-pdev. Engine names with a '-'.
    const auto info = parse_drm_fdinfo(
        "pos:\t0\nflags:\t02100002\nmnt_id:\t23\nino:\t398\n"
        "drm-driver:\tpanfrost\ndrm-client-id:\t12\n"
        "drm-engine-fragment:\t1846584880 ns\ndrm-cycles-fragment:\t1424359409\n"
        "drm-maxfreq-fragment:\t799999987 Hz\ndrm-curfreq-fragment:\t799999987 Hz\n"
        "drm-engine-vertex-tiler:\t71932239 ns\ndrm-cycles-vertex-tiler:\t52617357\n"
        "drm-maxfreq-vertex-tiler:\t799999987 Hz\ndrm-curfreq-vertex-tiler:\t799999987 Hz\n"
        "drm-total-memory:\t290 MiB\ndrm-shared-memory:\t0\ndrm-active-memory:\t0\n"
        "drm-resident-memory:\t221 MiB\ndrm-purgeable-memory:\t128 KiB\n");
    ASSERT_TRUE(info);
    EXPECT_EQ(info->pdev, "");
    EXPECT_EQ(info->engine_ns.size(), 2u);
    EXPECT_EQ(info->engine_ns.at("vertex-tiler"), 71932239u);
    EXPECT_EQ(info->engine_cycles.size(), 2u);
    EXPECT_EQ(info->engine_cycles.at("fragment"), 1424359409u);
    EXPECT_EQ(info->memory_total.at("memory"), 290u * 1024 * 1024);
    EXPECT_EQ(info->memory_resident.at("memory"), 221u * 1024 * 1024);
    EXPECT_EQ(info->memory_resident.size(), 1u);
}

TEST(DrmFdinfoFormats, V3dEnginesAndMemory) {
    const auto info = parse_drm_fdinfo(
        "pos:\t0\nflags:\t02100002\nmnt_id:\t24\nino:\t616\n"
        "drm-driver:\tv3d\ndrm-client-id:\t44\n"
        "drm-engine-bin:\t1109437375 ns\nv3d-jobs-bin:\t5 jobs\n"
        "drm-engine-render:\t7434929 ns\nv3d-jobs-render:\t5 jobs\n"
        "drm-engine-tfu:\t0 ns\nv3d-jobs-tfu:\t0 jobs\n"
        "drm-engine-csd:\t0 ns\nv3d-jobs-csd:\t0 jobs\n"
        "drm-engine-cache_clean:\t0 ns\nv3d-jobs-cache_clean:\t0 jobs\n"
        "drm-total-memory:\t5 MiB\ndrm-shared-memory:\t0\ndrm-active-memory:\t0\n"
        "drm-resident-memory:\t5 MiB\ndrm-purgeable-memory:\t0\n");
    ASSERT_TRUE(info);
    EXPECT_EQ(info->driver, "v3d");
    EXPECT_EQ(info->engine_ns.size(), 5u);
    EXPECT_EQ(info->engine_ns.at("bin"), 1109437375u);
    EXPECT_EQ(info->engine_ns.at("cache_clean"), 0u);
    EXPECT_EQ(info->memory_resident.at("memory"), 5u * 1024 * 1024);
}

TEST(DrmFdinfoFormats, I915WithLocalMemoryRegions) {
    // DG2: system and device-local memory, each with its own keys.
    const auto info = parse_drm_fdinfo(
        "pos:\t0\nflags:\t02100002\nmnt_id:\t26\nino:\t1164\n"
        "drm-driver:\ti915\ndrm-client-id:\t41\ndrm-pdev:\t0000:03:00.0\n"
        "drm-total-system0:\t80 KiB\ndrm-shared-system0:\t0\ndrm-active-system0:\t0\n"
        "drm-resident-system0:\t80 KiB\ndrm-purgeable-system0:\t0\n"
        "drm-total-local0:\t28 MiB\ndrm-shared-local0:\t0\ndrm-active-local0:\t0\n"
        "drm-resident-local0:\t28 MiB\ndrm-purgeable-local0:\t0\n"
        "drm-total-stolen-local0:\t0\ndrm-resident-stolen-local0:\t0\n"
        "drm-engine-render:\t1016312 ns\ndrm-engine-copy:\t0 ns\n"
        "drm-engine-video:\t0 ns\ndrm-engine-capacity-video:\t2\n"
        "drm-engine-video-enhance:\t0 ns\ndrm-engine-capacity-video-enhance:\t2\n"
        "drm-engine-compute:\t0 ns\ndrm-engine-capacity-compute:\t4\n");
    ASSERT_TRUE(info);
    EXPECT_EQ(info->memory_resident.size(), 3u);
    EXPECT_EQ(info->memory_resident.at("local0"), 28u * 1024 * 1024);
    EXPECT_EQ(info->memory_resident.at("system0"), 80u * 1024);
    EXPECT_EQ(info->memory_resident.at("stolen-local0"), 0u);
    EXPECT_EQ(info->engine_ns.size(), 5u);
    EXPECT_EQ(info->engine_capacity.at("video-enhance"), 2u);
    EXPECT_EQ(info->engine_capacity.at("compute"), 4u);
    EXPECT_EQ(info->engine_capacity.count("render"), 0u);
}

TEST(DrmFdinfoFormats, ClientNameAndCommonKeysOnly) {
    // drm_show_fdinfo for a driver without statistics of its own (vgem),
    // with the client name a process may set (6.13 on).
    const auto info = parse_drm_fdinfo(
        "pos:\t0\nflags:\t02100002\nmnt_id:\t15\nino:\t5\n"
        "drm-driver:\tvgem\ndrm-client-id:\t4\ndrm-client-name:\tgfxstat-test\n");
    ASSERT_TRUE(info);
    EXPECT_EQ(info->driver, "vgem");
    EXPECT_EQ(info->client_id, 4u);
    EXPECT_TRUE(info->engine_ns.empty());
    EXPECT_TRUE(info->engine_cycles.empty());
    EXPECT_TRUE(info->memory_total.empty());
    EXPECT_TRUE(info->memory_resident.empty());
}

}  // namespace
}  // namespace gfxstat::drivers
