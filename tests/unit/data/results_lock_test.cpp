// SPDX-License-Identifier: MIT
// The results lock and safe file creation (data/results_writer.h,
// data/safe_files.h): a writer that waited for the lock while the file was
// replaced locks the new one; whole-file rewrites hold the lock; no
// symbolic link is followed; no temporary file outlives its writer; a file
// never gets a record its reader refuses.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "data/input_error.h"
#include "data/number_token.h"
#include "data/results_json.h"
#include "data/results_model.h"
#include "data/results_reader.h"
#include "data/results_writer.h"
#include "data/safe_files.h"

namespace gfxstat::data {
namespace {

namespace fs = std::filesystem;

std::string temp_dir() {
    char tmpl[] = "/tmp/gfxstat-lock-test-XXXXXX";
    const char* d = ::mkdtemp(tmpl);
    if (!d) throw std::runtime_error("mkdtemp failed");
    return d;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void write_file(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

std::vector<std::string> names_in(const std::string& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

NumberToken tok(const char* s) { return parse_number_token(s); }

RunRecord lat_run(const std::string& variant, uint64_t index) {
    RunRecord r;
    r.variant = variant;
    r.run = index;
    r.exit_class = ExitClass::ok;
    MetricValues m;
    m.name = "lat";
    m.values = {tok("1.5")};
    r.metrics.push_back(m);
    return r;
}

ResultsFile file_with(const std::string& variant, uint64_t index) {
    ResultsFile f;
    f.header = new_results_header();
    f.declare_metric({"lat", "us", Direction::lower_is_better, {}});
    EXPECT_EQ(f.add_run(lat_run(variant, index)), "");
    return f;
}

std::string what_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

// The lost-run bug: an appender opened the file, a rewriter renamed a new
// file into place, then the appender got its lock -- on the replaced file --
// and appended there, where nobody would ever read it.
TEST(ResultsLock, AWriterThatWaitedLocksTheFileThePathNamesNow) {
    const std::string dir = temp_dir();
    const std::string path = dir + "/r.jsonl";
    write_new_results_file(path, file_with("seed", 0));
    struct stat before {};
    ASSERT_EQ(::stat(path.c_str(), &before), 0);

    ResultsLock held = ResultsLock::acquire(path, O_RDONLY);
    ASSERT_TRUE(held.held());
    std::string appender_error;
    std::thread appender([&] {
        try {
            ResultsAppender app(path, 10.0);  // opens the old file and waits for its lock
            app.append_run(lat_run("R", app.file().next_run_index("R")));
        } catch (const std::exception& e) {
            appender_error = e.what();
        }
    });
    // Let it reach the lock, then do what a rewriter does: rename the new
    // file over the old one while holding the old one's lock.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ResultsFile next = file_with("seed", 0);
    ASSERT_EQ(next.add_run(lat_run("IMP", 0)), "");
    write_file_atomically(path, serialize_results(next), 0644, true);
    held = ResultsLock();  // releases the old file's lock
    appender.join();
    EXPECT_EQ(appender_error, "");

    const ResultsFile back = read_results_path(path, "r");
    std::vector<std::string> variants;
    for (const RunRecord& r : back.runs()) variants.push_back(r.variant);
    EXPECT_EQ(variants, (std::vector<std::string>{"seed", "IMP", "R"}));
    fs::remove_all(dir);
}

TEST(ResultsLock, RewritesWaitForAnAppenderThenRefuse) {
    const std::string dir = temp_dir();
    const std::string path = dir + "/r.jsonl";
    ResultsAppender app(path);
    const auto t0 = std::chrono::steady_clock::now();
    const std::string what = what_of([&] {
        rewrite_results_file(path, ExistingFile::update, [](const ResultsFile* f, const ReadReport&) {
            return *f;
        });
    });
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_NE(what.find("another gfxstat is writing to this results file"), std::string::npos) << what;
    EXPECT_GE(waited, ResultsLock::kDefaultWaitSeconds * 0.9);
    EXPECT_NE(what_of([&] {
                  rewrite_results_file(path, ExistingFile::replace,
                                       [](const ResultsFile*, const ReadReport&) { return file_with("x", 0); });
              }).find("another gfxstat"),
              std::string::npos);
    EXPECT_EQ(names_in(dir), std::vector<std::string>{"r.jsonl"});
    fs::remove_all(dir);
}

TEST(ResultsLock, UpdateSeesWhatWasAppendedBeforeIt) {
    const std::string dir = temp_dir();
    const std::string path = dir + "/r.jsonl";
    {
        ResultsAppender app(path);
        app.declare_metric({"lat", "us", Direction::lower_is_better, {}});
        app.append_run(lat_run("A", 0));
    }
    rewrite_results_file(path, ExistingFile::update, [](const ResultsFile* f, const ReadReport&) {
        EXPECT_NE(f, nullptr);
        ResultsFile next = *f;
        EXPECT_EQ(next.add_run(lat_run("B", 0)), "");
        return next;
    });
    EXPECT_EQ(read_results_path(path, "r").runs().size(), 2u);
    EXPECT_NE(what_of([&] {
                  rewrite_results_file(dir + "/none.jsonl", ExistingFile::update,
                                       [](const ResultsFile* f, const ReadReport&) { return *f; });
              }).find("No such file"),
              std::string::npos);
    fs::remove_all(dir);
}

// A link planted where gfxstat will write: nothing is written through it.
TEST(SafeFiles, NoWriterFollowsASymlink) {
    const std::string dir = temp_dir();
    const std::string victim = dir + "/victim";
    write_file(victim, "precious\n");
    const std::string link = dir + "/r.jsonl";
    ASSERT_EQ(::symlink(victim.c_str(), link.c_str()), 0);

    EXPECT_NE(what_of([&] { ResultsAppender app(link); }).find("symbolic link"), std::string::npos);
    EXPECT_NE(what_of([&] { write_new_results_file(link, file_with("x", 0)); }).find("already exists"),
              std::string::npos);
    EXPECT_NE(what_of([&] {
                  rewrite_results_file(link, ExistingFile::replace,
                                       [](const ResultsFile*, const ReadReport&) { return file_with("x", 0); });
              }).find("symbolic link"),
              std::string::npos);
    EXPECT_NE(what_of([&] { write_file_atomically(link, "x", 0644, true); }).find("symbolic link"),
              std::string::npos);
    // A dangling link is no way in either.
    const std::string dangling = dir + "/new.jsonl";
    ASSERT_EQ(::symlink((dir + "/made-by-the-link").c_str(), dangling.c_str()), 0);
    EXPECT_NE(what_of([&] { ResultsAppender app(dangling); }), "");
    EXPECT_FALSE(fs::exists(dir + "/made-by-the-link"));
    EXPECT_EQ(read_file(victim), "precious\n");

    // Directories: a link is refused; one others can write to is refused.
    const std::string real = dir + "/logs";
    ASSERT_EQ(::mkdir(real.c_str(), 0755), 0);
    ASSERT_EQ(::symlink(real.c_str(), (dir + "/logs-link").c_str()), 0);
    EXPECT_NE(what_of([&] { open_directory_nofollow(dir + "/logs-link"); }).find("symbolic link"),
              std::string::npos);
    UniqueFd d = open_directory_nofollow(real);
    EXPECT_NO_THROW(check_private_directory(d.get(), real, "the log directory"));
    ASSERT_EQ(::chmod(real.c_str(), 0777), 0);
    EXPECT_NE(what_of([&] { check_private_directory(d.get(), real, "the log directory"); })
                  .find("writable by other users (mode 0777)"),
              std::string::npos);
    ASSERT_EQ(::chmod(real.c_str(), 0775), 0);
    EXPECT_NE(what_of([&] { check_private_directory(d.get(), real, "the log directory"); }).find("its group"),
              std::string::npos);
    // create_new_file_at neither follows nor truncates.
    ASSERT_EQ(::symlink(victim.c_str(), (real + "/x.stdout").c_str()), 0);
    EXPECT_LT(create_new_file_at(d.get(), "x.stdout", 0644), 0);
    EXPECT_EQ(errno, EEXIST);
    EXPECT_EQ(read_file(victim), "precious\n");
    fs::remove_all(dir);
}

// A FIFO at a writer's name is refused at once: opened without O_NONBLOCK
// it would wait for its other end, for good (each call here would hang).
TEST(SafeFiles, AFifoIsRefusedNotWaitedOn) {
    const std::string dir = temp_dir();
    const std::string fifo = dir + "/r.jsonl";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    for (int flags : {O_RDONLY, O_WRONLY | O_APPEND, O_RDWR}) {
        const std::string what = what_of([&] { open_regular_file(fifo, flags, 0644, fifo); });
        EXPECT_NE(what.find("is a FIFO, not a regular file"), std::string::npos) << flags << ": " << what;
        EXPECT_NE(what.find(fifo), std::string::npos) << what;
    }
    EXPECT_NE(what_of([&] { ResultsLock::acquire(fifo, O_RDONLY); }).find("FIFO"), std::string::npos);
    EXPECT_NE(what_of([&] { ResultsAppender app(fifo); }).find("FIFO"), std::string::npos);
    EXPECT_NE(what_of([&] {
                  rewrite_results_file(fifo, ExistingFile::replace,
                                       [](const ResultsFile*, const ReadReport&) { return file_with("x", 0); });
              }).find("FIFO"),
              std::string::npos);
    EXPECT_NE(what_of([&] { write_file_atomically(fifo, "x", 0644, true); }).find("FIFO"), std::string::npos);
    struct stat st {};
    ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode));  // left as it was, not replaced

    // A regular file opens, in blocking mode again.
    const std::string plain = dir + "/plain";
    write_file(plain, "x\n");
    UniqueFd fd = open_regular_file(plain, O_RDONLY, 0, plain);
    ASSERT_TRUE(fd);
    EXPECT_EQ(::fcntl(fd.get(), F_GETFL) & O_NONBLOCK, 0);
    // Nothing there: no descriptor, errno ENOENT, no exception.
    EXPECT_FALSE(open_regular_file(dir + "/none", O_RDONLY, 0, dir + "/none"));
    EXPECT_EQ(errno, ENOENT);
    fs::remove_all(dir);
}

TEST(SafeFiles, AtomicWritesHaveTheirModeAndLeaveNoTemporaryFile) {
    const std::string dir = temp_dir();
    const mode_t old_mask = ::umask(0);  // what a root shell under systemd may have
    write_file_atomically(dir + "/unit", "[Unit]\n", 0644, false);
    ::umask(old_mask);
    struct stat st {};
    ASSERT_EQ(::stat((dir + "/unit").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0644u);
    write_file_atomically(dir + "/unit", "[Unit]\nDescription=x\n", 0600, true);
    ASSERT_EQ(::stat((dir + "/unit").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0600u);
    EXPECT_EQ(read_file(dir + "/unit"), "[Unit]\nDescription=x\n");
    EXPECT_NE(what_of([&] { write_file_atomically(dir + "/unit", "y", 0644, false); }).find("already exists"),
              std::string::npos);
    EXPECT_EQ(names_in(dir), std::vector<std::string>{"unit"});
    fs::remove_all(dir);
}

// What writers killed before their rename left (older versions, or a file
// system without O_TMPFILE): removed once their writer is dead; a live
// writer's, another name's, and other users' files are left alone.
TEST(SafeFiles, StaleTemporaryFilesOfDeadWritersAreSwept) {
    const std::string dir = temp_dir();
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    ASSERT_GT(child, 0);
    ::waitpid(child, nullptr, 0);  // a pid nobody has now
    const std::string dead = std::to_string(child);
    const std::string path = dir + "/r.jsonl";
    write_file(path + ".tmp." + dead, "half");
    write_file(path + ".tmp." + dead + ".3", "half");
    write_file(path + ".tmp.1", "pid 1 is alive");
    write_file(path + ".tmp." + dead + "x", "not a temp name");
    write_file(dir + "/other.jsonl.tmp." + dead, "another file's");
    ::mkdir((path + ".tmp." + dead + "7").c_str(), 0755);  // not a regular file
    EXPECT_EQ(sweep_stale_temp_files(path), 2u);
    const std::vector<std::string> want = {"other.jsonl.tmp." + dead, "r.jsonl.tmp.1", "r.jsonl.tmp." + dead + "7",
                                           "r.jsonl.tmp." + dead + "x"};
    EXPECT_EQ(names_in(dir), want);
    // Writers sweep before they write.
    write_file(path + ".tmp." + dead, "half");
    write_new_results_file(path, file_with("x", 0));
    EXPECT_FALSE(fs::exists(path + ".tmp." + dead));
    fs::remove_all(dir);
}

// A run with index 2^63-1 (imported from a CSV) left the next run index
// 2^63: written, it made the file unreadable to every later reader.
TEST(ResultsModel, NoRunIndexBeyondWhatTheReaderTakes) {
    const std::string dir = temp_dir();
    const std::string path = dir + "/r.jsonl";
    write_new_results_file(path, file_with("A", kMaxRunIndex));
    {
        ResultsAppender app(path);
        EXPECT_EQ(app.file().next_run_index("A"), kMaxRunIndex + 1);
        const std::string what = what_of([&] { app.append_run(lat_run("A", app.file().next_run_index("A"))); });
        EXPECT_NE(what.find("beyond 2^63-1"), std::string::npos) << what;
        app.append_run(lat_run("B", 0));  // other variants go on
    }
    const ResultsFile back = read_results_path(path, "r");  // still readable
    EXPECT_EQ(back.runs().size(), 2u);
    ResultsFile f = file_with("A", 0);
    EXPECT_NE(f.add_run(lat_run("A", kMaxRunIndex + 1)), "");
    fs::remove_all(dir);
}

// The last of two equal member names won silently; JSON parsers disagree
// on which one counts, so gfxstat refuses the record, naming the line.
TEST(ResultsJson, DuplicateMembersAreRefused) {
    const std::string header = R"({"format":"gfxstat-results","version":1,"id":"abc","created":"x"})";
    const std::string metric = R"({"type":"metric","name":"lat","unit":"us"})";
    const std::vector<std::string> bad = {
        R"({"type":"run","variant":"a","run":0,"run":1,"exit":{"class":"ok"},"metrics":{"lat":1}})",
        R"({"type":"run","variant":"a","variant":"b","run":0,"exit":{"class":"ok"},"metrics":{"lat":1}})",
        R"({"type":"run","type":"run","variant":"a","run":0,"exit":{"class":"ok"},"metrics":{"lat":1}})",
        R"({"variant":"a","type":"run","run":0,"type":"run","exit":{"class":"ok"},"metrics":{"lat":1}})",
        R"({"type":"run","variant":"a","run":0,"exit":{"class":"ok","class":"fail"},"metrics":{"lat":1}})",
        R"({"type":"metric","name":"x","unit":"us","unit":"ms"})",
        R"({"type":"environment","id":"e","kernel":"6.1","kernel":"6.2"})",
        R"({"type":"environment","id":"e","tags":{"sha":"1","sha":"2"}})",
    };
    for (const std::string& line : bad) {
        const std::string text = header + "\n" + metric + "\n" + line + "\n";
        const std::string what = what_of([&] { parse_results(text, "f.jsonl"); });
        EXPECT_NE(what.find("f.jsonl:3:"), std::string::npos) << line << " -> " << what;
        EXPECT_NE(what.find("appears twice"), std::string::npos) << line << " -> " << what;
    }
    const std::string dup_header = R"({"format":"gfxstat-results","version":1,"id":"abc","id":"def"})";
    EXPECT_NE(what_of([&] { parse_results(dup_header + "\n", "f.jsonl"); }).find("f.jsonl:1:"), std::string::npos);
    // Many distinct members (tags) are fine; one repeated among them is not.
    std::string tags;
    for (int i = 0; i < 100; ++i) tags += (i ? "," : "") + std::string("\"t") + std::to_string(i) + "\":\"v\"";
    const std::string ok_env = R"({"type":"environment","id":"e","tags":{)" + tags + "}}";
    EXPECT_EQ(what_of([&] { parse_results(header + "\n" + ok_env + "\n", "f.jsonl"); }), "");
    const std::string dup_env = R"({"type":"environment","id":"e","tags":{)" + tags + R"(,"t57":"w"}})";
    EXPECT_NE(what_of([&] { parse_results(header + "\n" + dup_env + "\n", "f.jsonl"); }).find("\"t57\""),
              std::string::npos);
}

}  // namespace
}  // namespace gfxstat::data
