// SPDX-License-Identifier: MIT
// The process runner with real programs: /bin/true, /bin/false, sh, sleep,
// cat. Timeouts are 1 s; the whole file runs in a few seconds.
#include "drivers/process_runner.h"

#include "drivers/group_guard.h"

#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace {

using gfxstat::drivers::ProcessResult;
using gfxstat::drivers::ProcessSpec;
using gfxstat::drivers::run_process;
using Ended = ProcessResult::Ended;
namespace fs = std::filesystem;

class TempDir {
public:
    TempDir() {
        const char* base = std::getenv("TMPDIR");
        std::string tmpl = std::string(base && *base ? base : "/tmp") + "/gfxstat-pr-XXXXXX";
        if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
        path_ = fs::canonical(tmpl).string();
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    std::string file(const std::string& name) const { return path_ + "/" + name; }
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void write_file(const std::string& path, const std::string& bytes, mode_t mode = 0644) {
    {
        std::ofstream out(path, std::ios::binary);
        out << bytes;
    }
    ::chmod(path.c_str(), mode);
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

ProcessResult run_sh(const std::string& script, const std::string& out = "",
                     const std::string& err = "") {
    ProcessSpec spec;
    spec.argv = {"sh", "-c", script};
    spec.stdout_path = out;
    spec.stderr_path = err;
    return run_process(spec);
}

// Live (not zombie) processes whose process group is pgid, from /proc.
std::vector<pid_t> live_members(pid_t pgid) {
    std::vector<pid_t> out;
    DIR* d = ::opendir("/proc");
    if (!d) return out;
    while (dirent* e = ::readdir(d)) {
        char* end;
        long pid = std::strtol(e->d_name, &end, 10);
        if (*end != '\0' || pid <= 0) continue;
        std::string stat = slurp("/proc/" + std::string(e->d_name) + "/stat");
        auto close = stat.rfind(')');
        if (close == std::string::npos) continue;  // gone meanwhile
        char state = 0;
        int ppid = 0, pgrp = 0;
        if (std::sscanf(stat.c_str() + close + 1, " %c %d %d", &state, &ppid, &pgrp) != 3) continue;
        if (pgrp == pgid && state != 'Z' && state != 'X') out.push_back(pid_t(pid));
    }
    ::closedir(d);
    return out;
}

// Waits up to `seconds` for the group to have no live member.
bool group_gone_within(pid_t pgid, double seconds) {
    auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    for (;;) {
        if (live_members(pgid).empty()) return true;
        if (std::chrono::steady_clock::now() > until) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

bool process_live(pid_t pid) {
    if (::kill(pid, 0) != 0) return false;  // ESRCH: gone (and reaped)
    std::string stat = slurp("/proc/" + std::to_string(pid) + "/stat");
    auto close = stat.rfind(')');
    return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z';
}

int count_open_fds() {
    int n = 0;
    for ([[maybe_unused]] auto& e : fs::directory_iterator("/proc/self/fd")) ++n;
    return n;
}

// ---------------------------------------------------------------------------

TEST(ProcessRunner, ExitCodesZeroOneAndSeventySeven) {
    ProcessSpec t;
    t.argv = {"true"};
    ProcessResult r = run_process(t);
    EXPECT_EQ(r.ended, Ended::exited);
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.signal, 0);
    EXPECT_TRUE(r.error.empty());
    EXPECT_GT(r.wall_s, 0);

    ProcessSpec f;
    f.argv = {"/bin/false"};
    r = run_process(f);
    EXPECT_EQ(r.ended, Ended::exited);
    EXPECT_EQ(r.exit_code, 1);

    r = run_sh("exit 77");
    EXPECT_EQ(r.ended, Ended::exited);
    EXPECT_EQ(r.exit_code, 77);
}

TEST(ProcessRunner, StdoutIsCapturedByteExact) {
    TempDir dir;
    std::string bytes;
    for (int i = 0; i < 256; ++i) bytes.push_back(char(i));
    bytes += "no trailing newline";
    write_file(dir.file("in.bin"), bytes);
    write_file(dir.file("out.bin"), std::string(100000, 'x'));  // truncated, not overwritten

    ProcessSpec spec;
    spec.argv = {"cat", dir.file("in.bin")};
    spec.stdout_path = dir.file("out.bin");
    ProcessResult r = run_process(spec);
    ASSERT_EQ(r.ended, Ended::exited) << r.error;
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(slurp(dir.file("out.bin")), bytes);

    r = run_sh("printf 'a\\tb'", dir.file("printf.txt"));
    EXPECT_EQ(slurp(dir.file("printf.txt")), "a\tb");

    struct stat st{};
    ASSERT_EQ(::stat(dir.file("printf.txt").c_str(), &st), 0);
    mode_t mask = ::umask(0);
    ::umask(mask);
    EXPECT_EQ(st.st_mode & 0777, 0644 & ~mask);
}

TEST(ProcessRunner, StderrIsSeparateAndSamePathIsShared) {
    TempDir dir;
    ProcessResult r = run_sh("echo out; echo err >&2; echo out2", dir.file("o"), dir.file("e"));
    ASSERT_EQ(r.ended, Ended::exited);
    EXPECT_EQ(slurp(dir.file("o")), "out\nout2\n");
    EXPECT_EQ(slurp(dir.file("e")), "err\n");

    // Same file for both: one open file, like >f 2>&1, nothing overwritten.
    r = run_sh("echo one; echo two >&2; echo three", dir.file("both"), dir.file("both"));
    ASSERT_EQ(r.ended, Ended::exited);
    EXPECT_EQ(slurp(dir.file("both")), "one\ntwo\nthree\n");
}

TEST(ProcessRunner, StdinAndEmptyPathsAreDevNull) {
    TempDir dir;
    // stdin: cat reads nothing (and does not hang). readlink runs in a
    // subshell: dash redirects its own descriptors around a command.
    ProcessResult r = run_sh("cat; x=$(readlink /proc/$$/fd/0 /proc/$$/fd/1); echo \"$x\" >&2", "",
                             dir.file("e"));
    ASSERT_EQ(r.ended, Ended::exited);
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(slurp(dir.file("e")), "/dev/null\n/dev/null\n");
}

TEST(ProcessRunner, UnwritableOutputThrows) {
    ProcessSpec spec;
    spec.argv = {"true"};
    spec.stdout_path = "/nonexistent-dir-gfxstat/out.txt";
    EXPECT_THROW(run_process(spec), std::runtime_error);
}

// A campaign's hook logs go through here as root: a link planted at a
// log's name must not make the hook's output land in the file it names.
TEST(ProcessRunner, OutputPathsDoNotFollowLinks) {
    TempDir dir;
    write_file(dir.file("victim"), "precious\n");
    ASSERT_EQ(::symlink(dir.file("victim").c_str(), dir.file("hook.log").c_str()), 0);
    ProcessSpec spec;
    spec.argv = {"echo", "42"};
    spec.stdout_path = dir.file("hook.log");
    EXPECT_THROW(run_process(spec), std::runtime_error);
    spec.stdout_path = dir.file("ok.log");
    spec.stderr_path = dir.file("hook.log");
    EXPECT_THROW(run_process(spec), std::runtime_error);
    EXPECT_EQ(slurp(dir.file("victim")), "precious\n");
}

TEST(ProcessRunner, CommandNotFoundIsNotStarted) {
    for (std::string cmd : {"gfxstat-no-such-command-4711", "/nonexistent/gem_exec_nop"}) {
        ProcessSpec spec;
        spec.argv = {cmd, "-r", "1"};
        ProcessResult r;
        EXPECT_NO_THROW(r = run_process(spec));
        EXPECT_EQ(r.ended, Ended::not_started);
        EXPECT_EQ(r.error, cmd + ": " + std::strerror(ENOENT));
    }
    ProcessSpec empty;
    ProcessResult r = run_process(empty);
    EXPECT_EQ(r.ended, Ended::not_started);
    EXPECT_FALSE(r.error.empty());
}

TEST(ProcessRunner, DirectoryOrNonExecutableIsNotStarted) {
    TempDir dir;
    ProcessSpec spec;
    spec.argv = {dir.path()};
    ProcessResult r = run_process(spec);
    EXPECT_EQ(r.ended, Ended::not_started);
    EXPECT_EQ(r.error, dir.path() + ": " + std::strerror(EACCES));

    write_file(dir.file("script"), "#!/bin/sh\nexit 0\n", 0644);
    spec.argv = {dir.file("script")};
    r = run_process(spec);
    EXPECT_EQ(r.ended, Ended::not_started);
    EXPECT_EQ(r.error, dir.file("script") + ": " + std::strerror(EACCES));

    // A binary the kernel will not run (ENOEXEC) is not read as shell
    // commands: bash's test, an ELF header or a NUL byte in the first line.
    write_file(dir.file("elf"), std::string("\x7f" "ELF\x02\x01\x01\0exit 0\n", 15), 0755);
    spec.argv = {dir.file("elf")};
    r = run_process(spec);
    EXPECT_EQ(r.ended, Ended::not_started);
    EXPECT_EQ(r.error, dir.file("elf") + ": " + std::strerror(ENOEXEC));
    write_file(dir.file("nul"), std::string("exit 0\0\n", 8), 0755);
    spec.argv = {dir.file("nul")};
    r = run_process(spec);
    EXPECT_EQ(r.ended, Ended::not_started);
    EXPECT_EQ(r.error, dir.file("nul") + ": " + std::strerror(ENOEXEC));
}

// A text file without "#!" is run by /bin/sh, as execvp and shells run it:
// found through PATH, with its path as $0 and the arguments after it.
TEST(ProcessRunner, ScriptWithoutInterpreterLineRunsWithTheShell) {
    TempDir dir;
    write_file(dir.file("noshebang"), "printf '%s|' \"$0\" \"$@\"\nexit 7\n", 0755);
    ProcessSpec spec;
    spec.argv = {dir.file("noshebang"), "a b", "c"};
    spec.stdout_path = dir.file("out");
    ProcessResult r = run_process(spec);
    EXPECT_EQ(r.ended, Ended::exited) << r.error;
    EXPECT_EQ(r.exit_code, 7);
    EXPECT_EQ(slurp(dir.file("out")), dir.file("noshebang") + "|a b|c|");

    const char* old_path = ::getenv("PATH");
    const std::string saved = old_path ? old_path : "";
    ::setenv("PATH", (dir.path() + ":/usr/bin:/bin").c_str(), 1);
    spec.argv = {"noshebang", "x"};
    r = run_process(spec);
    ::setenv("PATH", saved.c_str(), 1);
    EXPECT_EQ(r.ended, Ended::exited) << r.error;
    EXPECT_EQ(slurp(dir.file("out")), dir.file("noshebang") + "|x|");

    // A relative path is the working directory's, for the test and the shell.
    spec.working_directory = dir.path();
    spec.argv = {"./noshebang"};
    r = run_process(spec);
    EXPECT_EQ(r.ended, Ended::exited) << r.error;
    EXPECT_EQ(slurp(dir.file("out")), "./noshebang|");
}

TEST(ProcessRunner, EnvironmentOverridesReplaceInherited) {
    TempDir dir;
    ::setenv("GFXSTAT_PR_INHERITED", "kept", 1);
    ::setenv("GFXSTAT_PR_REPLACED", "old", 1);
    ::setenv("GFXSTAT_PR_REMOVED", "gone", 1);
    ProcessSpec spec;
    spec.argv = {"sh", "-c", "echo \"$FOO\"; tr '\\0' '\\n' < /proc/$$/environ"};
    spec.env = {"FOO=bar baz", "GFXSTAT_PR_REPLACED=first", "GFXSTAT_PR_REPLACED=new=value",
                "GFXSTAT_PR_REMOVED"};
    spec.stdout_path = dir.file("o");
    ProcessResult r = run_process(spec);
    ::unsetenv("GFXSTAT_PR_INHERITED");
    ::unsetenv("GFXSTAT_PR_REPLACED");
    ::unsetenv("GFXSTAT_PR_REMOVED");
    ASSERT_EQ(r.ended, Ended::exited);

    auto lines = lines_of(slurp(dir.file("o")));
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines[0], "bar baz");
    std::map<std::string, std::vector<std::string>> env;
    for (size_t i = 1; i < lines.size(); ++i) {
        auto eq = lines[i].find('=');
        if (eq != std::string::npos) env[lines[i].substr(0, eq)].push_back(lines[i].substr(eq + 1));
    }
    EXPECT_EQ(env["FOO"], std::vector<std::string>{"bar baz"});
    EXPECT_EQ(env["GFXSTAT_PR_INHERITED"], std::vector<std::string>{"kept"});
    EXPECT_EQ(env["GFXSTAT_PR_REPLACED"], std::vector<std::string>{"new=value"});
    EXPECT_EQ(env.count("GFXSTAT_PR_REMOVED"), 0u);
    EXPECT_EQ(env.count("PATH"), 1u);
}

TEST(ProcessRunner, WorkingDirectory) {
    TempDir dir;
    fs::create_directory(dir.file("sub"));
    ProcessSpec spec;
    spec.argv = {"sh", "-c", "pwd; echo here > created.txt"};
    spec.working_directory = dir.file("sub");
    spec.stdout_path = dir.file("o");  // relative to us, not to the child
    ProcessResult r = run_process(spec);
    ASSERT_EQ(r.ended, Ended::exited) << r.error;
    EXPECT_EQ(slurp(dir.file("o")), dir.file("sub") + "\n");
    EXPECT_EQ(slurp(dir.file("sub/created.txt")), "here\n");

    spec.working_directory = dir.file("missing");
    r = run_process(spec);
    EXPECT_EQ(r.ended, Ended::not_started);
    EXPECT_NE(r.error.find(dir.file("missing")), std::string::npos) << r.error;
    EXPECT_NE(r.error.find(std::strerror(ENOENT)), std::string::npos) << r.error;
}

TEST(ProcessRunner, KilledBySignal) {
    // ulimit -c 0: no core file from the abort.
    ProcessResult r = run_sh("ulimit -c 0; kill -ABRT $$");
    EXPECT_EQ(r.ended, Ended::signaled);
    EXPECT_EQ(r.signal, SIGABRT);
    r = run_sh("kill -TERM $$");
    EXPECT_EQ(r.ended, Ended::signaled);
    EXPECT_EQ(r.signal, SIGTERM);
}

TEST(ProcessRunner, SignalsIgnoredByUsAreDefaultInTheChild) {
    // Under an ignored SIGTERM the child would survive the timeout's SIGTERM.
    struct sigaction ign{}, old{};
    ign.sa_handler = SIG_IGN;
    ::sigaction(SIGTERM, &ign, &old);
    ProcessResult r = run_sh("kill -TERM $$; exit 3");
    ::sigaction(SIGTERM, &old, nullptr);
    EXPECT_EQ(r.ended, Ended::signaled);
    EXPECT_EQ(r.signal, SIGTERM);
}

TEST(ProcessRunner, ResourceUsage) {
    ProcessResult r = run_sh("i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done");
    ASSERT_EQ(r.ended, Ended::exited);
    EXPECT_GE(r.user_s, 0.1);
    EXPECT_GE(r.sys_s, 0.0);
    EXPECT_LE(r.user_s + r.sys_s, r.wall_s + 0.05);
    EXPECT_GT(r.max_rss_kib, 0);
    std::printf("[ ProcessRunner ] CPU loop: wall %.3f s, user %.3f s, sys %.3f s, max RSS %ld KiB\n",
                r.wall_s, r.user_s, r.sys_s, r.max_rss_kib);
}

TEST(ProcessRunner, NoDescriptorReachesTheChild) {
    TempDir dir;
    // Our own descriptors, with and without O_CLOEXEC: none may appear in the child.
    int plain = ::open(dir.file("mine-plain").c_str(), O_WRONLY | O_CREAT, 0644);
    int cloexec = ::open(dir.file("mine-cloexec").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    int pipefd[2];
    ASSERT_EQ(::pipe(pipefd), 0);
    ASSERT_GE(plain, 0);
    ASSERT_GE(cloexec, 0);

    ProcessResult r = run_sh("ls -l /proc/$$/fd; :", dir.file("o"));
    ::close(plain);
    ::close(cloexec);
    ::close(pipefd[0]);
    ::close(pipefd[1]);
    ASSERT_EQ(r.ended, Ended::exited);
    std::string listing = slurp(dir.file("o"));
    EXPECT_EQ(listing.find("mine-"), std::string::npos) << listing;
    EXPECT_EQ(listing.find("pipe:"), std::string::npos) << listing;

    // fd -> target. 0 is /dev/null, 1 our file, 2 /dev/null; anything else
    // is a copy the shell made of one of them itself (dash keeps fd 10).
    std::map<int, std::string> fds;
    for (const auto& line : lines_of(listing)) {
        auto arrow = line.find(" -> ");
        if (arrow == std::string::npos) continue;
        auto sp = line.rfind(' ', arrow - 1);
        fds[std::stoi(line.substr(sp + 1, arrow - sp - 1))] = line.substr(arrow + 4);
    }
    EXPECT_EQ(fds[0], "/dev/null");
    EXPECT_EQ(fds[1], dir.file("o"));
    EXPECT_EQ(fds[2], "/dev/null");
    for (const auto& [fd, target] : fds) {
        if (fd <= 2) continue;
        EXPECT_TRUE(target == "/dev/null" || target == dir.file("o")) << fd << " -> " << target;
    }
}

TEST(ProcessRunner, LeavesNoZombieAndNoDescriptorInUs) {
    TempDir dir;
    // The guard (one child and one socket for the whole process) is
    // started by the first run; it is not a run's leftover.
    gfxstat::drivers::start_group_guard();
    int before = count_open_fds();
    for (int i = 0; i < 5; ++i) {
        run_sh("echo x; exit 1", dir.file("o"), dir.file("e"));
        ProcessSpec missing;
        missing.argv = {"gfxstat-no-such-command-4711"};
        run_process(missing);
        run_sh("kill -KILL $$");
    }
    ProcessSpec t;
    t.argv = {"sleep", "10"};
    t.timeout_s = 0.05;
    EXPECT_EQ(run_process(t).ended, Ended::timed_out);
    EXPECT_EQ(count_open_fds(), before);
    int status;
    errno = 0;
    // No zombie: nothing to reap. The guard is the only child left, alive.
    const pid_t reaped = ::waitpid(-1, &status, WNOHANG);
    if (gfxstat::drivers::group_guard_pid() > 0) {
        EXPECT_EQ(reaped, 0);
        EXPECT_EQ(::kill(gfxstat::drivers::group_guard_pid(), 0), 0);
    } else {
        EXPECT_EQ(reaped, -1);
        EXPECT_EQ(errno, ECHILD);
    }
}

TEST(ProcessRunner, FinishesWellBeforeTheTimeout) {
    ProcessSpec spec;
    spec.argv = {"sleep", "0.1"};
    spec.timeout_s = 5;
    ProcessResult r = run_process(spec);
    EXPECT_EQ(r.ended, Ended::exited);
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_GE(r.wall_s, 0.1);
    EXPECT_LT(r.wall_s, 1.0);  // woken by the exit, not by the timeout
}

// sh prints its pid (= the group id) and the background sleep's pid, then
// waits on a foreground sleep until the timeout.
void expect_timeout_cleans_up_group(const std::string& script, double grace, int want_signal) {
    TempDir dir;
    ProcessSpec spec;
    spec.argv = {"sh", "-c", script};
    spec.stdout_path = dir.file("pids");
    spec.timeout_s = 1;
    spec.kill_grace_s = grace;
    ProcessResult r = run_process(spec);
    EXPECT_EQ(r.ended, Ended::timed_out);
    EXPECT_EQ(r.signal, want_signal);
    EXPECT_GE(r.wall_s, 1.0);
    EXPECT_LT(r.wall_s, 1.0 + grace + 1.0);

    auto pids = lines_of(slurp(dir.file("pids")));
    ASSERT_EQ(pids.size(), 2u) << slurp(dir.file("pids"));
    pid_t pgid = std::stoi(pids[0]);
    pid_t grandchild = std::stoi(pids[1]);
    // SIGKILL was sent before we returned; give the kernel a moment.
    EXPECT_TRUE(group_gone_within(pgid, 1.0)) << "live members of group " << pgid;
    EXPECT_FALSE(process_live(grandchild));
}

TEST(ProcessRunnerTimeout, StopsTheWholeGroupWithSigterm) {
    expect_timeout_cleans_up_group("echo $$; sleep 100 & echo $!; sleep 100", 2.0, SIGTERM);
}

TEST(ProcessRunnerTimeout, SigkillAfterGraceWhenTermIsTrapped) {
    expect_timeout_cleans_up_group("trap '' TERM; echo $$; sleep 100 & echo $!; sleep 100", 0.5,
                                   SIGKILL);
}

TEST(ProcessRunnerTimeout, ChildExitsByItselfAfterSigterm) {
    ProcessSpec spec;
    spec.argv = {"sh", "-c", "trap 'exit 5' TERM; sleep 100 & wait"};
    spec.timeout_s = 1;
    spec.kill_grace_s = 3;
    ProcessResult r = run_process(spec);
    EXPECT_EQ(r.ended, Ended::timed_out);
    EXPECT_EQ(r.signal, SIGTERM);
    EXPECT_EQ(r.exit_code, 5);
    EXPECT_LT(r.wall_s, 2.5);
}

// sh prints the background sleep's pid and ends at once.
TEST(ProcessRunnerEndGroup, BackgroundProcessesAreStoppedOnlyWhenAsked) {
    TempDir dir;
    ProcessSpec spec;
    spec.argv = {"sh", "-c", "sleep 100 & echo $!"};
    spec.stdout_path = dir.file("pid");
    ProcessResult r = run_process(spec);
    ASSERT_EQ(r.ended, Ended::exited);
    EXPECT_EQ(r.leftovers, 0u);
    pid_t left = std::stoi(slurp(dir.file("pid")));
    EXPECT_TRUE(process_live(left)) << "end_group false: the background sleep is left alone";
    ::kill(left, SIGKILL);

    spec.end_group = true;
    r = run_process(spec);
    ASSERT_EQ(r.ended, Ended::exited);
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.leftovers, 1u);
    left = std::stoi(slurp(dir.file("pid")));
    EXPECT_FALSE(process_live(left)) << "gone when run_process returns";
    EXPECT_LT(r.wall_s, 1.0);

    // Nothing left: nothing counted, nothing waited for.
    spec.argv = {"true"};
    auto t0 = std::chrono::steady_clock::now();
    r = run_process(spec);
    EXPECT_EQ(r.leftovers, 0u);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 0.5);
}

TEST(ProcessRunnerEndGroup, SigkillAfterGraceWhenTermIsIgnored) {
    TempDir dir;
    ProcessSpec spec;
    spec.argv = {"sh", "-c", "trap '' TERM; sleep 100 & sleep 100 & echo $!"};
    spec.stdout_path = dir.file("pid");
    spec.end_group = true;
    spec.kill_grace_s = 0.3;
    auto t0 = std::chrono::steady_clock::now();
    ProcessResult r = run_process(spec);
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_EQ(r.ended, Ended::exited);
    EXPECT_EQ(r.leftovers, 2u);
    EXPECT_FALSE(process_live(std::stoi(slurp(dir.file("pid")))));
    EXPECT_GE(took, 0.3);
    EXPECT_LT(took, 2.0);
}

TEST(ProcessRunner, ChildHasParentDeathSignal) {
    // /proc does not show PR_SET_PDEATHSIG; the child asks for itself. (The
    // CLI test SIGKILLs gfxstat and watches the workload go.)
    TempDir dir;
    ProcessSpec spec;
    spec.argv = {"/usr/bin/python3", "-c",
                 "import ctypes, signal; l = ctypes.CDLL(None); s = ctypes.c_int(); "
                 "l.prctl(2, ctypes.byref(s)); print(s.value)"};  // PR_GET_PDEATHSIG
    spec.stdout_path = dir.file("sig");
    ProcessResult r = run_process(spec);
    ASSERT_EQ(r.ended, Ended::exited) << r.error;
    EXPECT_EQ(slurp(dir.file("sig")), std::to_string(SIGKILL) + "\n");
}

TEST(ProcessRunnerFallback, WithoutPidfd) {
    gfxstat::drivers::set_process_runner_pidfd_enabled(false);
    ProcessResult r = run_sh("exit 77");
    EXPECT_EQ(r.ended, Ended::exited);
    EXPECT_EQ(r.exit_code, 77);

    ProcessSpec spec;
    spec.argv = {"sleep", "0.1"};
    spec.timeout_s = 5;
    r = run_process(spec);
    EXPECT_EQ(r.ended, Ended::exited);
    EXPECT_LT(r.wall_s, 0.5);

    expect_timeout_cleans_up_group("echo $$; sleep 100 & echo $!; sleep 100", 2.0, SIGTERM);
    gfxstat::drivers::set_process_runner_pidfd_enabled(true);
}

extern "C" void forward_usr1_as_term(int) { gfxstat::drivers::stop_current_process(SIGTERM); }

TEST(ProcessRunner, StopCurrentProcessFromASignalHandler) {
    gfxstat::drivers::stop_current_process(SIGTERM);  // nothing runs: no effect

    struct sigaction sa{}, old{};
    sa.sa_handler = forward_usr1_as_term;
    sigemptyset(&sa.sa_mask);
    ASSERT_EQ(::sigaction(SIGUSR1, &sa, &old), 0);

    TempDir dir;
    ProcessSpec spec;
    spec.argv = {"sh", "-c", "echo $$; sleep 100 & echo $!; sleep 100"};
    spec.stdout_path = dir.file("pids");
    spec.timeout_s = 20;  // only a safety net
    auto run = std::async(std::launch::async, [&] { return run_process(spec); });
    // Raised in this thread, not the runner's; repeated until the child is
    // there (the first one may come before the spawn).
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    for (int i = 0; i < 250 && run.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready; ++i)
        ::raise(SIGUSR1);
    ProcessResult r = run.get();
    ::sigaction(SIGUSR1, &old, nullptr);
    EXPECT_EQ(r.ended, Ended::signaled);
    EXPECT_EQ(r.signal, SIGTERM);
    EXPECT_LT(r.wall_s, 5.0);
    auto pids = lines_of(slurp(dir.file("pids")));
    ASSERT_EQ(pids.size(), 2u);
    EXPECT_TRUE(group_gone_within(std::stoi(pids[0]), 1.0));  // the group, grandchild included

    // A direct call from another thread.
    spec.argv = {"sleep", "100"};
    run = std::async(std::launch::async, [&] { return run_process(spec); });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    for (int i = 0; i < 250 && run.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready; ++i)
        gfxstat::drivers::stop_current_process(SIGKILL);
    r = run.get();
    EXPECT_EQ(r.ended, Ended::signaled);
    EXPECT_EQ(r.signal, SIGKILL);
}

// Printed, not asserted: run_process against a bare posix_spawnp + waitpid of
// the same program, interleaved so that both see the same machine load.
TEST(ProcessRunner, PerRunOverhead) {
    ProcessSpec spec;
    spec.argv = {"true"};
    char* bare_argv[] = {const_cast<char*>("true"), nullptr};
    auto bare = [&] {
        pid_t pid;
        ASSERT_EQ(::posix_spawnp(&pid, "true", nullptr, nullptr, bare_argv, environ), 0);
        int status;
        ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    };
    run_process(spec);  // warm up
    bare();
    constexpr int kRuns = 200, kBatch = 20;
    using clock = std::chrono::steady_clock;
    clock::duration ours{}, theirs{};
    for (int b = 0; b < kRuns / kBatch; ++b) {
        auto t0 = clock::now();
        for (int i = 0; i < kBatch; ++i) ASSERT_EQ(run_process(spec).exit_code, 0);
        auto t1 = clock::now();
        for (int i = 0; i < kBatch; ++i) bare();
        auto t2 = clock::now();
        ours += t1 - t0;
        theirs += t2 - t1;
    }
    auto ms = [](clock::duration d) { return std::chrono::duration<double, std::milli>(d).count() / kRuns; };
    std::printf("[ ProcessRunner ] run_process({\"true\"}): %.3f ms per run; bare posix_spawnp + waitpid: "
                "%.3f ms (%d runs each)\n", ms(ours), ms(theirs), kRuns);
    RecordProperty("ms_per_run", std::to_string(ms(ours)));
    RecordProperty("bare_spawn_ms_per_run", std::to_string(ms(theirs)));
}

// ---------------------------------------------------------------------------
// on_started: the caller learns the pid while the program runs.

std::string exe_of(pid_t pid) {
    std::error_code ec;
    return fs::read_symlink("/proc/" + std::to_string(pid) + "/exe", ec).filename().string();
}

TEST(ProcessRunnerOnStarted, SeesTheProgramRunningInItsOwnGroup) {
    ProcessSpec spec;
    spec.argv = {"sleep", "0.3"};
    int calls = 0;
    pid_t seen = 0;
    std::string exe;
    pid_t group = 0;
    spec.on_started = [&](int pid) {
        ++calls;
        seen = pid;
        exe = exe_of(pid);        // the exec has happened: the program, not gfxstat
        group = ::getpgid(pid);
    };
    ProcessResult r = run_process(spec);
    EXPECT_EQ(r.ended, Ended::exited);
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(calls, 1);
    ASSERT_GT(seen, 0);
    EXPECT_EQ(exe, "sleep");
    EXPECT_EQ(group, seen);
    // Reaped by the time run_process returns.
    errno = 0;
    EXPECT_EQ(::kill(seen, 0), -1);
    EXPECT_EQ(errno, ESRCH);
}

TEST(ProcessRunnerOnStarted, NotCalledWhenTheCommandDoesNotStart) {
    ProcessSpec spec;
    spec.argv = {"gfxstat-no-such-command-4711"};
    int calls = 0;
    spec.on_started = [&](int) { ++calls; };
    EXPECT_EQ(run_process(spec).ended, Ended::not_started);
    spec.argv = {"true"};
    spec.working_directory = "/gfxstat-no-such-directory";
    EXPECT_EQ(run_process(spec).ended, Ended::not_started);
    EXPECT_EQ(calls, 0);
}

TEST(ProcessRunnerOnStarted, AHookThatThrowsLeavesNothingRunning) {
    ProcessSpec spec;
    spec.argv = {"sleep", "30"};
    pid_t seen = 0;
    spec.on_started = [&](int pid) {
        seen = pid;
        throw std::runtime_error("hook failed");
    };
    gfxstat::drivers::start_group_guard();  // its socket stays for the whole process
    int before = count_open_fds();
    EXPECT_THROW(run_process(spec), std::runtime_error);
    ASSERT_GT(seen, 0);
    errno = 0;
    EXPECT_EQ(::kill(seen, 0), -1);  // killed and reaped: no zombie
    EXPECT_EQ(errno, ESRCH);
    EXPECT_EQ(count_open_fds(), before);
    // The runner is usable afterwards.
    spec.on_started = {};
    spec.argv = {"true"};
    EXPECT_EQ(run_process(spec).exit_code, 0);
}

}  // namespace
