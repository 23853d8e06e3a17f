// SPDX-License-Identifier: MIT
// Reading kmsg records: the record format, continuation lines, escapes,
// and the three kinds of source (a file appended to, a FIFO; /dev/kmsg
// itself is read the same way and is tested in the VM test).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "drivers/kernel_log_watch.h"

using namespace gfxstat::drivers;

namespace {

class TempDir {
public:
    TempDir() {
        char tmpl[] = "/tmp/gfxstat-kmsg-XXXXXX";
        path_ = mkdtemp(tmpl);
    }
    ~TempDir() { std::system(("rm -rf '" + path_ + "'").c_str()); }
    std::string file(const std::string& name) const { return path_ + "/" + name; }

private:
    std::string path_;
};

void append(const std::string& path, const std::string& text) {
    FILE* f = std::fopen(path.c_str(), "a");
    ASSERT_TRUE(f);
    std::fputs(text.c_str(), f);
    std::fclose(f);
}

const char* kHang =
    "3,1822,5124004311,-;i915 0000:00:02.0: [drm] GPU HANG: ecode 12:1:85dffffb, in gem_exec_nop [1734]\n"
    " SUBSYSTEM=pci\n"
    " DEVICE=+pci:0000:00:02.0\n";

TEST(KmsgRecord, ParsesTheHeaderAndMessage) {
    const auto r = parse_kmsg_line("6,339,5140900,-;NET: Registered protocol family 10");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->level, 6);
    EXPECT_EQ(r->seq, 339u);
    EXPECT_EQ(r->message, "NET: Registered protocol family 10");
    // The facility is in PRIO's upper bits; fields a newer kernel adds
    // after FLAGS (the caller id) are skipped.
    const auto u = parse_kmsg_line("12,340,5141000,-,caller=T1;user text");
    ASSERT_TRUE(u);
    EXPECT_EQ(u->level, 4);
    EXPECT_EQ(u->message, "user text");
}

TEST(KmsgRecord, ContinuationAndMalformedLinesAreNoRecords) {
    EXPECT_FALSE(parse_kmsg_line(" SUBSYSTEM=drm"));
    EXPECT_FALSE(parse_kmsg_line(" DEVICE=+pci:0000:00:02.0"));
    EXPECT_FALSE(parse_kmsg_line("no header at all"));
    EXPECT_FALSE(parse_kmsg_line("x,1,2,-;message"));
    EXPECT_FALSE(parse_kmsg_line("3,1;message"));
    EXPECT_FALSE(parse_kmsg_line(""));
}

TEST(KmsgRecord, DecodesEscapes) {
    EXPECT_EQ(decode_kmsg_escapes(R"(a\x1b[31mred\x0a)"), "a\x1b[31mred\n");
    EXPECT_EQ(decode_kmsg_escapes(R"(\xc3\xa9)"), "\xc3\xa9");
    // Not an escape: kept as written.
    EXPECT_EQ(decode_kmsg_escapes(R"(\x \xZZ \x4)"), R"(\x \xZZ \x4)");
    const auto r = parse_kmsg_line(R"(3,5,6,-;i915 0000:00:02.0: [drm] GPU HANG: ecode 1:0:0, in a\x09b [7])");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->message, "i915 0000:00:02.0: [drm] GPU HANG: ecode 1:0:0, in a\tb [7]");
}

TEST(KernelLogWatch, AFileCountsOnlyWhatIsAppendedDuringTheRun) {
    TempDir dir;
    const std::string log = dir.file("kmsg");
    // Already there when the watch opens: not this process's runs'.
    append(log, kHang);
    auto w = KernelLogWatch::open_path(log);
    ASSERT_TRUE(w->watching()) << w->why_not();
    EXPECT_EQ(w->why_not(), "");

    w->begin_run();
    append(log, "6,1823,5124004400,-;usb 1-1: reset high-speed USB device number 2 using xhci_hcd\n");
    KernelLogFinding clean = w->end_run();
    EXPECT_EQ(clean.trouble_lines, 0u);

    w->begin_run();
    append(log, kHang);
    append(log, "4,1824,5124004500,-;amdgpu 0000:03:00.0: amdgpu: GPU reset begin!\n");
    KernelLogFinding bad = w->end_run();
    EXPECT_EQ(bad.trouble_lines, 2u);
    EXPECT_EQ(bad.first.driver, "i915");
    EXPECT_EQ(bad.first_line, "i915 0000:00:02.0: [drm] GPU HANG: ecode 12:1:85dffffb, in gem_exec_nop [1734]");
    EXPECT_EQ(kernel_trouble_reason(bad),
              "kernel: i915 0000:00:02.0: [drm] GPU HANG: ecode 12:1:85dffffb, in gem_exec_nop [1734] (and 1 more "
              "line of kernel trouble)");

    // Between runs: set aside, reported by begin_run, no run's.
    append(log, "4,1825,5124004600,-;WARNING: CPU: 1 PID: 9 at kernel/foo.c:1 foo+0x1/0x2\n");
    KernelLogFinding between = w->begin_run();
    EXPECT_EQ(between.trouble_lines, 1u);
    EXPECT_EQ(between.first.what, "kernel warning");
    EXPECT_EQ(w->end_run().trouble_lines, 0u);
}

TEST(KernelLogWatch, ALineWrittenInPiecesIsReadWhole) {
    TempDir dir;
    const std::string log = dir.file("kmsg");
    append(log, "");
    auto w = KernelLogWatch::open_path(log);
    w->begin_run();
    append(log, "3,9,10,-;xe 0000:03:00.0: [drm] GT0: Timedout ");
    EXPECT_EQ(w->end_run().trouble_lines, 0u);  // not ended yet: the rest is next
    append(log, "job: seqno=1, lrc_seqno=1, guc_id=2, flags=0x0\n");
    // The run's start cuts the half line off: it belongs before the run.
    w->begin_run();
    append(log, "3,10,11,-;xe 0000:03:00.0: [drm] GT0: Timedout job: seqno=2, lrc_seqno=2, guc_id=2, flags=0x0\n");
    const KernelLogFinding f = w->end_run();
    EXPECT_EQ(f.trouble_lines, 1u);
    EXPECT_EQ(f.first.what, "job timeout");
}

TEST(KernelLogWatch, OnlyKmsgAndNullAmongDevices) {
    // /dev/zero is always readable: watching it would never end a drain.
    auto zero = KernelLogWatch::open_path("/dev/zero");
    EXPECT_FALSE(zero->watching());
    EXPECT_EQ(zero->why_not(), "cannot read /dev/zero (not a kernel log): GPU hangs and kernel warnings during runs "
                               "will not be caught");
    // /dev/null: nothing to watch, on purpose (the command-line tests).
    auto null = KernelLogWatch::open_path("/dev/null");
    EXPECT_TRUE(null->watching());
    EXPECT_EQ(null->end_run().trouble_lines, 0u);
}

TEST(KernelLogWatch, AFifoDiscardsWhatWaitedBeforeTheRun) {
    TempDir dir;
    const std::string fifo = dir.file("kmsg.fifo");
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    auto w = KernelLogWatch::open_path(fifo);
    ASSERT_TRUE(w->watching()) << w->why_not();
    const int wfd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
    ASSERT_GE(wfd, 0);
    const std::string before = std::string(kHang);
    ASSERT_EQ(::write(wfd, before.data(), before.size()), static_cast<ssize_t>(before.size()));
    EXPECT_EQ(w->begin_run().trouble_lines, 1u);  // between runs, not the run's
    const std::string during =
        "3,1900,6000000000,-;amdgpu 0000:03:00.0: amdgpu: ring gfx_0.0.0 timeout, signaled seq=5, emitted seq=7\n"
        " SUBSYSTEM=pci\n";
    ASSERT_EQ(::write(wfd, during.data(), during.size()), static_cast<ssize_t>(during.size()));
    ::close(wfd);  // the writer gone: the reader sees the end, not an error
    const KernelLogFinding f = w->end_run();
    EXPECT_EQ(f.trouble_lines, 1u);
    EXPECT_EQ(f.first.driver, "amdgpu");
    EXPECT_EQ(f.first.what, "ring timeout");
    EXPECT_EQ(w->end_run().trouble_lines, 0u);
}

TEST(KernelLogWatch, AnUnreadableSourceSaysWhatIsNotWatched) {
    TempDir dir;
    auto missing = KernelLogWatch::open_path(dir.file("none"));
    EXPECT_FALSE(missing->watching());
    EXPECT_EQ(missing->why_not(), "cannot read " + dir.file("none") +
                                      " (No such file or directory): GPU hangs and kernel warnings during runs "
                                      "will not be caught");
    EXPECT_EQ(missing->end_run().trouble_lines, 0u);
    if (geteuid() != 0) {
        const std::string locked = dir.file("locked");
        append(locked, "");
        chmod(locked.c_str(), 0);
        auto w = KernelLogWatch::open_path(locked);
        EXPECT_FALSE(w->watching());
        EXPECT_EQ(w->why_not(), "cannot read " + locked +
                                    " (Permission denied): GPU hangs and kernel warnings during runs will not be "
                                    "caught; run as root or set kernel.dmesg_restrict=0");
    }
}

}  // namespace
