// SPDX-License-Identifier: MIT
// DRM fdinfo: the text of each driver's show_fdinfo (shapes from the
// kernel's drm-usage-stats document and the drivers that print it), fake
// /proc trees with fd links, and this process's real fdinfo.
#include "drivers/drm_fdinfo.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace gfxstat::drivers {
namespace {

namespace fs = std::filesystem;

TEST(DrmFdinfo, I915EnginesInNanosecondsAndCapacity) {
    const auto info = parse_drm_fdinfo(
        "pos:\t0\nflags:\t02100002\nmnt_id:\t25\nino:\t1041\n"
        "drm-driver:\ti915\ndrm-pdev:\t0000:00:02.0\ndrm-client-id:\t157\n"
        "drm-engine-render:\t9288864723 ns\ndrm-engine-copy:\t2035071108 ns\n"
        "drm-engine-video:\t0 ns\ndrm-engine-capacity-video:\t2\n"
        "drm-engine-video-enhance:\t227567642 ns\n"
        "drm-total-system0:\t1280 KiB\ndrm-resident-system0:\t1024 KiB\ndrm-shared-system0:\t0\n"
        "drm-total-stolen-system0:\t0\n");
    ASSERT_TRUE(info);
    EXPECT_EQ(info->driver, "i915");
    EXPECT_EQ(info->pdev, "0000:00:02.0");
    EXPECT_EQ(info->client_id, 157u);
    EXPECT_EQ(info->engine_ns.at("render"), 9288864723u);
    EXPECT_EQ(info->engine_ns.at("copy"), 2035071108u);
    EXPECT_EQ(info->engine_ns.at("video"), 0u);
    EXPECT_EQ(info->engine_ns.at("video-enhance"), 227567642u);
    EXPECT_EQ(info->engine_ns.size(), 4u);  // capacity is not an engine
    EXPECT_EQ(info->engine_capacity.at("video"), 2u);
    EXPECT_EQ(info->memory_total.at("system0"), 1280u * 1024);
    EXPECT_EQ(info->memory_total.at("stolen-system0"), 0u);
    EXPECT_EQ(info->memory_resident.at("system0"), 1024u * 1024);
    EXPECT_TRUE(info->engine_cycles.empty());
}

TEST(DrmFdinfo, XeCyclesAndTotalCyclesAreNotMemory) {
    const auto info = parse_drm_fdinfo(
        "pos:    0\nflags:  0100002\nmnt_id: 26\nino:    685\n"
        "drm-driver:     xe\ndrm-client-id:  3\ndrm-pdev:       0000:03:00.0\n"
        "drm-total-system:       0\ndrm-resident-system:    0\n"
        "drm-total-gtt:  192 KiB\ndrm-resident-gtt:       192 KiB\n"
        "drm-total-vram0:        23992 KiB\ndrm-shared-vram0:       16 MiB\ndrm-resident-vram0:     23992 KiB\n"
        "drm-cycles-rcs: 28257900\ndrm-total-cycles-rcs:   7655183225\n"
        "drm-cycles-vcs: 0\ndrm-total-cycles-vcs:   7655183225\ndrm-engine-capacity-vcs:        2\n");
    ASSERT_TRUE(info);
    EXPECT_EQ(info->driver, "xe");
    EXPECT_EQ(info->client_id, 3u);
    EXPECT_EQ(info->engine_cycles.at("rcs"), 28257900u);
    EXPECT_EQ(info->engine_cycles.at("vcs"), 0u);
    EXPECT_EQ(info->engine_total_cycles.at("rcs"), 7655183225u);
    EXPECT_EQ(info->engine_capacity.at("vcs"), 2u);
    EXPECT_TRUE(info->engine_ns.empty());
    // drm-total-cycles-rcs is a clock, never a memory region.
    EXPECT_EQ(info->memory_total.count("cycles-rcs"), 0u);
    EXPECT_EQ(info->memory_total.size(), 3u);
    EXPECT_EQ(info->memory_total.at("vram0"), 23992u * 1024);
    EXPECT_EQ(info->memory_resident.at("gtt"), 192u * 1024);
}

TEST(DrmFdinfo, AmdgpuOldMemoryFormCountsAsResident) {
    // amdgpu before the common memory keys: drm-memory-<region>.
    const auto old = parse_drm_fdinfo(
        "pos:\t0\nflags:\t02100002\nmnt_id:\t24\ndrm-driver:\tamdgpu\ndrm-pdev:\t0000:0b:00.0\n"
        "drm-client-id:\t53\npasid:\t32771\ndrm-memory-vram:\t84 KiB\ndrm-memory-gtt:\t4 MiB\n"
        "drm-memory-cpu:\t0 KiB\namd-memory-visible-vram:\t84 KiB\n"
        "drm-engine-gfx:\t3245736 ns\ndrm-engine-compute:\t0 ns\ndrm-engine-dec:\t0 ns\n");
    ASSERT_TRUE(old);
    EXPECT_EQ(old->driver, "amdgpu");
    EXPECT_EQ(old->memory_resident.at("vram"), 84u * 1024);
    EXPECT_EQ(old->memory_resident.at("gtt"), 4u * 1024 * 1024);
    EXPECT_EQ(old->memory_resident.at("cpu"), 0u);
    EXPECT_EQ(old->engine_ns.at("gfx"), 3245736u);
    EXPECT_EQ(old->engine_ns.size(), 3u);
    EXPECT_TRUE(old->memory_total.empty());
}

TEST(DrmFdinfo, MsmCyclesFrequenciesAndBytesWithoutUnit) {
    const auto info = parse_drm_fdinfo(
        "pos:\t0\nflags:\t02\nmnt_id:\t22\ndrm-driver:\tmsm\ndrm-client-id:\t7\n"
        "drm-engine-gpu:\t1474541698 ns\ndrm-cycles-gpu:\t442362390\ndrm-maxfreq-gpu:\t710000000 Hz\n"
        "drm-total-memory:\t4096\ndrm-resident-memory:\t2 MiB\ndrm-purgeable-memory:\t0\n");
    ASSERT_TRUE(info);
    EXPECT_EQ(info->driver, "msm");
    EXPECT_EQ(info->pdev, "");  // a platform device prints no drm-pdev
    EXPECT_EQ(info->engine_ns.at("gpu"), 1474541698u);
    EXPECT_EQ(info->engine_cycles.at("gpu"), 442362390u);
    EXPECT_EQ(info->memory_total.at("memory"), 4096u);
    EXPECT_EQ(info->memory_resident.at("memory"), 2u * 1024 * 1024);
}

TEST(DrmFdinfo, NotDrmOrBrokenLines) {
    // A regular file's fdinfo: not a DRM file.
    EXPECT_FALSE(parse_drm_fdinfo("pos:\t0\nflags:\t0100000\nmnt_id:\t29\nino:\t123\n"));
    EXPECT_FALSE(parse_drm_fdinfo(""));
    EXPECT_FALSE(parse_drm_fdinfo("drm-driver:\t\n"));
    // Values that do not parse are left out, the rest is kept.
    const auto info = parse_drm_fdinfo(
        "drm-driver: i915\ndrm-client-id: x12\ndrm-engine-render: 12 us\ndrm-engine-copy: 99999999999999999999999 ns\n"
        "drm-engine-video: 5 ns\ndrm-total-system0: 3 TiB\ndrm-resident-system0: 18446744073709551615 MiB\n"
        "drm-engine-: 4 ns\nno colon here\n:\n");
    ASSERT_TRUE(info);
    EXPECT_FALSE(info->client_id);
    EXPECT_EQ(info->engine_ns.size(), 1u);
    EXPECT_EQ(info->engine_ns.at("video"), 5u);
    EXPECT_TRUE(info->memory_total.empty());
    EXPECT_TRUE(info->memory_resident.empty());  // overflowing product
}

// A fake /proc: a process with a render node, a dup of it, a card node
// and a socket, and a sysfs that ties renderD128 to card0.
class FakeProc : public ::testing::Test {
protected:
    void SetUp() override {
        root_ = fs::temp_directory_path() / ("gfxstat-fdinfo-" + std::to_string(getpid()));
        fs::remove_all(root_);
        fs::create_directories(root_ / "sys/class/drm/renderD128/device/drm/card0");
        fs::create_directories(root_ / "sys/class/drm/renderD128/device/drm/renderD128");
        fs::create_directories(root_ / "sys/class/drm/card1");
        fs::create_symlink("../../../0000:03:00.0", root_ / "sys/class/drm/card1/device");
        add_process(812, "Xorg\n");
        add_fd(812, 3, "socket:[4411]", "pos:\t0\nflags:\t02\n");
        add_fd(812, 5, "/dev/dri/renderD128",
               "pos:\t0\ndrm-driver:\ti915\ndrm-pdev:\t0000:00:02.0\ndrm-client-id:\t9\ndrm-engine-render:\t50 ns\n");
        add_fd(812, 6, "/dev/dri/renderD128",
               "pos:\t0\ndrm-driver:\ti915\ndrm-pdev:\t0000:00:02.0\ndrm-client-id:\t9\ndrm-engine-render:\t50 ns\n");
        add_process(1440, "firefox\n");
        add_fd(1440, 40, "/dev/dri/card1", "pos:\t0\nflags:\t02\n");  // a kernel without drm-* keys
        add_fd(1440, 41, "/dev/dri/renderD129",
               "pos:\t0\ndrm-driver:\txe\ndrm-pdev:\t0000:03:00.0\ndrm-client-id:\t2\n");
        fs::create_directories(root_ / "proc/self");  // not a pid
    }
    void TearDown() override { fs::remove_all(root_); }

    void add_process(int pid, const std::string& comm) {
        fs::create_directories(root_ / "proc" / std::to_string(pid) / "fd");
        fs::create_directories(root_ / "proc" / std::to_string(pid) / "fdinfo");
        std::ofstream(root_ / "proc" / std::to_string(pid) / "comm") << comm;
    }
    void add_fd(int pid, int fd, const std::string& target, const std::string& fdinfo) {
        const fs::path p = root_ / "proc" / std::to_string(pid);
        fs::create_symlink(target, p / "fd" / std::to_string(fd));
        std::ofstream(p / "fdinfo" / std::to_string(fd)) << fdinfo;
    }
    fs::path root_;
};

TEST_F(FakeProc, FilesOfOneProcessInFdOrder) {
    const auto files = drm_files_of(812, root_.string());
    ASSERT_EQ(files.size(), 2u);  // the socket is not a DRM file
    EXPECT_EQ(files[0].fd, 5);
    EXPECT_EQ(files[0].comm, "Xorg");
    EXPECT_EQ(files[0].node, "/dev/dri/renderD128");
    EXPECT_EQ(files[0].card, "card0");  // the render node's card, from sysfs
    EXPECT_EQ(files[0].info.engine_ns.at("render"), 50u);
    EXPECT_EQ(files[1].fd, 6);
    EXPECT_TRUE(drm_files_of(999, root_.string()).empty());
}

TEST_F(FakeProc, ClientsListedOnceEachInPidOrder) {
    const auto clients = list_drm_clients(root_.string());
    ASSERT_EQ(clients.size(), 3u);  // Xorg's dup'd fd is the same client
    EXPECT_EQ(clients[0].pid, 812);
    EXPECT_EQ(clients[0].fd, 5);
    EXPECT_EQ(clients[1].pid, 1440);
    EXPECT_EQ(clients[1].comm, "firefox");
    EXPECT_EQ(clients[1].card, "card1");
    EXPECT_EQ(clients[1].info.driver, "");  // no drm-* keys: known by its link only
    EXPECT_EQ(clients[2].fd, 41);
    EXPECT_EQ(clients[2].info.driver, "xe");
    EXPECT_EQ(clients[2].card, "card1");  // no sysfs for renderD129: found by its pdev
}

TEST(DrmFdinfoRealProc, ThisProcessHasNoDrmFile) {
    // The real /proc: this process has open files (a pipe, /dev/null), none
    // of them DRM; reading them is no error.
    const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    EXPECT_TRUE(drm_files_of(getpid()).empty());
    ::close(fd);
    for (const DrmClient& c : list_drm_clients()) {
        // Whatever this machine runs: every client names a process and a DRM node or driver.
        EXPECT_GT(c.pid, 0);
        EXPECT_TRUE(!c.node.empty() || !c.info.driver.empty());
    }
}

}  // namespace
}  // namespace gfxstat::drivers
