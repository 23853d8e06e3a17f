// SPDX-License-Identifier: MIT
// The run loop's output capture, kept from run to run: reused while only
// gfxstat has its memory files open, new files as soon as anything else
// may still write them (a background process that kept the run's stdout,
// a descriptor, a writable mapping), so that nothing of one run ever
// lands in the next run's output.
#include "drivers/output_capture.h"

#include "drivers/group_guard.h"
#include "drivers/process_runner.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>

namespace {

using gfxstat::drivers::OutputCapture;
using gfxstat::drivers::ProcessResult;
using gfxstat::drivers::ProcessSpec;
using gfxstat::drivers::run_process;

int count_open_fds() {
    int n = 0;
    for ([[maybe_unused]] auto& e : std::filesystem::directory_iterator("/proc/self/fd")) ++n;
    return n;
}

// Runs `script` under sh with its stdout and stderr in the capture.
ProcessResult run_into(OutputCapture& capture, const std::string& script, bool end_group = true) {
    ProcessSpec spec;
    spec.argv = {"/bin/sh", "-c", script};
    spec.stdout_path = capture.path(0);
    spec.stderr_path = capture.path(1);
    spec.end_group = end_group;
    return run_process(spec);
}

TEST(OutputCapture, ReusesItsFilesWhileNothingElseHoldsThem) {
    OutputCapture capture(true);
    // The guard's socket stays for the whole process: opened first.
    gfxstat::drivers::start_group_guard();
    const int fds = count_open_fds();
    for (int run = 1; run <= 4; ++run) {
        capture.begin_run();
        const std::string n = std::to_string(run);
        // A longer output first: what follows must not keep its tail.
        const std::string script = run == 1 ? "echo 'run 1 and a long line'; echo e1 >&2" : "echo run " + n;
        ASSERT_EQ(run_into(capture, script).exit_code, 0);
        EXPECT_EQ(capture.text(0), run == 1 ? "run 1 and a long line\n" : "run " + n + "\n");
        EXPECT_EQ(capture.text(1), run == 1 ? "e1\n" : "");
        capture.end_run();
    }
    EXPECT_EQ(capture.files_made(), 2u);
    EXPECT_EQ(count_open_fds(), fds);
}

TEST(OutputCapture, ABackgroundWriterNeverReachesTheNextRun) {
    OutputCapture capture(true);
    capture.begin_run();
    // Left running on purpose (no end_group), as a daemon that escaped the
    // run's process group would be: it keeps the run's stdout and writes
    // into it while the next run runs.
    ASSERT_EQ(run_into(capture, "echo first; (sleep 0.2; echo late; sleep 0.2; echo later) &", false).exit_code, 0);
    EXPECT_EQ(capture.text(0), "first\n");
    capture.end_run();
    capture.begin_run();
    EXPECT_EQ(capture.files_made(), 4u);  // the subshell holds stdout and stderr: both new
    ASSERT_EQ(run_into(capture, "sleep 0.7; echo second").exit_code, 0);
    EXPECT_EQ(capture.text(0), "second\n");
    capture.end_run();
}

TEST(OutputCapture, ADescriptorKeptAfterTheRunIsNotWrittenThrough) {
    OutputCapture capture(true);
    capture.begin_run();
    ASSERT_EQ(run_into(capture, "echo one").exit_code, 0);
    // Someone opened the run's stdout and keeps it (a process that got it
    // passed, or read /proc/PID/fd/1 of the workload).
    const int kept = open(capture.path(0).c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    ASSERT_GE(kept, 0);
    EXPECT_EQ(capture.text(0), "one\n");
    capture.end_run();
    capture.begin_run();
    ASSERT_EQ(run_into(capture, "echo two").exit_code, 0);
    ASSERT_EQ(write(kept, "stray\n", 6), 6);
    EXPECT_EQ(capture.text(0), "two\n");
    capture.end_run();
    close(kept);
    // Nothing holds the new files: they stay.
    const size_t made = capture.files_made();
    capture.begin_run();
    ASSERT_EQ(run_into(capture, "echo three").exit_code, 0);
    EXPECT_EQ(capture.text(0), "three\n");
    capture.end_run();
    capture.begin_run();
    EXPECT_EQ(capture.files_made(), made);
}

TEST(OutputCapture, AWritableMappingKeptAfterTheRunIsNotWrittenThrough) {
    OutputCapture capture(true);
    capture.begin_run();
    ASSERT_EQ(run_into(capture, "echo 0123456789").exit_code, 0);
    // A mapping keeps the file open after its descriptor is closed.
    const int fd = open(capture.path(0).c_str(), O_RDWR | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    void* map = mmap(nullptr, 11, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    ASSERT_NE(map, MAP_FAILED);
    close(fd);
    EXPECT_EQ(capture.text(0), "0123456789\n");
    capture.end_run();
    capture.begin_run();
    ASSERT_EQ(run_into(capture, "echo abcdefghij").exit_code, 0);
    std::memcpy(map, "XXXXX", 5);
    EXPECT_EQ(capture.text(0), "abcdefghij\n");
    capture.end_run();
    munmap(map, 11);
}

TEST(OutputCapture, AForkedHolderIsSeenUntilItExits) {
    OutputCapture capture(true);
    capture.begin_run();
    ASSERT_EQ(run_into(capture, "echo one").exit_code, 0);
    int ready[2];
    ASSERT_EQ(pipe2(ready, O_CLOEXEC), 0);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        // The memory file is this process's too after fork: /proc/self/fd/N.
        const int w = open(capture.path(0).c_str(), O_WRONLY | O_CLOEXEC);
        (void)!write(ready[1], "r", 1);
        for (;;) {
            pause();
            (void)!write(w, "x", 1);
        }
    }
    close(ready[1]);
    char c;
    ASSERT_EQ(read(ready[0], &c, 1), 1);
    close(ready[0]);
    EXPECT_EQ(capture.text(0), "one\n");
    struct stat held {};
    ASSERT_EQ(stat(capture.path(0).c_str(), &held), 0);
    const size_t made = capture.files_made();
    capture.end_run();
    capture.begin_run();
    // The file the child holds is never reused: stdout gets a new one. The
    // count is a floor, not exact: where the lease probe cannot tell
    // (a busy machine, a lease broken in flight), stderr's file is replaced
    // too, which costs a file and is always safe.
    struct stat now {};
    ASSERT_EQ(stat(capture.path(0).c_str(), &now), 0);
    EXPECT_NE(now.st_ino, held.st_ino);
    EXPECT_GE(capture.files_made(), made + 1);
    EXPECT_LE(capture.files_made(), made + 2);
    kill(child, SIGKILL);
    int status;
    waitpid(child, &status, 0);
}

TEST(OutputCapture, ASingleRunCaptureIsSealedAgainstShrinking) {
    OutputCapture capture;
    ASSERT_EQ(run_into(capture, "echo hello").exit_code, 0);
    EXPECT_EQ(capture.text(0), "hello\n");
    const int fd = open(capture.path(0).c_str(), O_WRONLY | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    EXPECT_NE(ftruncate(fd, 0), 0);  // a SIGBUS under the mapping otherwise
    close(fd);
    EXPECT_EQ(capture.text(0), "hello\n");
}

}  // namespace
