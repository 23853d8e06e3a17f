// SPDX-License-Identifier: MIT
#include "drivers/image_check_pass.h"

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

#include "data/digest.h"
#include "data/file_read.h"
#include "data/safe_files.h"
#include "drivers/environment_probe.h"
#include "drivers/output_capture.h"
#include "drivers/run_end_words.h"
#include "drivers/run_output.h"
#include "drivers/system_root.h"
#include "formats/apitrace_snapshots.h"
#include "formats/gfxrecon_screenshots.h"

namespace gfxstat::drivers {

namespace {

// glretrace's snapshot files in the private directory: PREFIX is "s".
constexpr const char* kSnapshotPrefix = "s";

// The start of the exit reason of a checking run the user interrupted.
constexpr const char* kInterruptedReason = "interrupted by the user (";

// Removes the directory `name` under `parent` and what it holds, never
// following a link (unlinkat removes a link itself); false when something
// stayed.
bool remove_tree_at(int parent, const char* name) {
    const int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return unlinkat(parent, name, 0) == 0;
    DIR* d = fdopendir(fd);
    if (!d) {
        close(fd);
        return false;
    }
    bool ok = true;
    while (dirent* e = readdir(d)) {
        if (!std::strcmp(e->d_name, ".") || !std::strcmp(e->d_name, "..")) continue;
        struct stat st {};
        if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
        if (S_ISDIR(st.st_mode)) ok &= remove_tree_at(fd, e->d_name);
        else ok &= unlinkat(fd, e->d_name, 0) == 0;
    }
    closedir(d);
    return unlinkat(parent, name, AT_REMOVEDIR) == 0 && ok;
}

struct ImageFile {
    std::string name;
    uint64_t frame = 0;
};

// The replayer's image files in the private directory `dir` (plain files
// of its naming only), checksummed with SHA-256.
formats::FrameChecksums hash_image_files(const std::string& dir, ImageCheckFamily family,
                                         std::vector<ImageFile>& files) {
    formats::FrameChecksums out;
    data::UniqueFd fd = data::open_directory_nofollow(dir);
    DIR* d = fdopendir(dup(fd.get()));
    if (!d) {
        out.error = dir + ": cannot read the images: " + std::strerror(errno);
        return out;
    }
    while (dirent* e = readdir(d)) {
        const std::string name = e->d_name;
        const std::optional<uint64_t> frame = family == ImageCheckFamily::gfxrecon
                                                  ? formats::gfxrecon_screenshot_frame(name)
                                                  : formats::apitrace_snapshot_file_number(name, kSnapshotPrefix);
        if (!frame) continue;
        const int f = openat(fd.get(), name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
        struct stat st {};
        if (f < 0 || fstat(f, &st) != 0 || !S_ISREG(st.st_mode)) {
            if (f >= 0) close(f);
            continue;
        }
        data::UniqueFd file(f);
        try {
            out.frames[*frame] = data::sha256_hex(data::read_all(f, dir + "/" + name));
            files.push_back({name, *frame});
        } catch (const std::exception& e) {
            out.error = e.what();
        }
    }
    closedir(d);
    if (out.error.empty() && out.frames.empty())
        out.error = family == ImageCheckFamily::gfxrecon
                        ? "gfxrecon-replay wrote no screenshot_frame_N.bmp file"
                        : "glretrace wrote no snapshot file";
    if (!out.error.empty()) out.frames.clear();
    return out;
}

std::string absolute(const std::string& path) {
    char buf[PATH_MAX];
    if (realpath(path.c_str(), buf)) return buf;
    return path;
}

// `dir` relative to the results file's directory when under it.
std::string recorded_path(const std::string& dir, const std::string& results_path) {
    const std::string abs = absolute(dir), base = absolute(data::directory_of(results_path));
    if (abs.size() > base.size() + 1 && abs.compare(0, base.size(), base) == 0 && abs[base.size()] == '/')
        return abs.substr(base.size() + 1);
    return abs;
}

// Moves the hashed images into KEEP/NAME/frame-N.EXT; the recorded
// directory, or "" (and a warning) when they could not be kept.
std::string keep_images(const std::string& tmp, const std::vector<ImageFile>& files, const ImageCheckSettings& s,
                        const std::string& name, const std::string& results_path, RunReport& report) {
    data::UniqueFd keep = data::open_directory_nofollow(s.keep_dir);
    if (mkdirat(keep.get(), name.c_str(), 0700) != 0) {
        report.warnings.push_back(s.keep_dir + "/" + name + ": cannot keep the images: " + std::strerror(errno));
        return "";
    }
    data::UniqueFd to(openat(keep.get(), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    data::UniqueFd from = data::open_directory_nofollow(tmp);
    for (const ImageFile& f : files) {
        const std::string ext = f.name.substr(f.name.rfind('.') + 1);
        const std::string target = "frame-" + std::to_string(f.frame) + "." + ext;
        if (!to || renameat(from.get(), f.name.c_str(), to.get(), target.c_str()) != 0) {
            report.warnings.push_back(s.keep_dir + "/" + name + "/" + target + ": cannot keep the image: " +
                                      std::strerror(errno));
            return "";
        }
    }
    return recorded_path(s.keep_dir + "/" + name, results_path);
}

}  // namespace

size_t parse_check_images_every(const std::string& value) {
    if (value.empty()) return 0;
    const std::string prefix = "every:";
    if (value.compare(0, prefix.size(), prefix) == 0 && value.size() > prefix.size() &&
        value.find_first_not_of("0123456789", prefix.size()) == std::string::npos && value.size() < prefix.size() + 7) {
        const size_t k = std::stoul(value.substr(prefix.size()));
        if (k >= 1) return k;
    }
    throw std::invalid_argument("--check-images takes no value (a checking pass after the timed runs) or every:K "
                                "(a checking run after every K-th; K from 1), not '" + value + "'");
}

void check_image_settings(const ImageCheckSettings& s, const std::vector<std::vector<std::string>>& commands) {
    if (!s.enabled) {
        if (!s.callset.empty()) throw std::invalid_argument("--check-frames goes with --check-images");
        if (!s.keep_dir.empty()) throw std::invalid_argument("--keep-images goes with --check-images");
        return;
    }
    const ImageCheckFamily family = image_check_family(s.parser);
    if (family == ImageCheckFamily::none) throw std::invalid_argument(image_check_refusal(s.parser));
    if (!s.callset.empty()) parse_check_frames(s.callset);
    CheckArgvOptions o;
    o.callset = s.callset;
    o.screenshot_dir = "DIR";
    if (!s.keep_dir.empty()) o.snapshot_prefix = "PREFIX";
    for (const auto& argv : commands) image_check_command(argv, family, o);
    if (!s.keep_dir.empty()) {
        data::make_directories(s.keep_dir);
        data::UniqueFd fd = data::open_directory_nofollow(s.keep_dir);
        data::check_private_directory(fd.get(), s.keep_dir, "the --keep-images directory");
    }
}

size_t image_checks_of(const data::ResultsFile& file, const std::string& variant) {
    size_t n = 0;
    for (const data::ImageCheck& c : file.image_checks())
        if (c.variant == variant && c.origin.empty() && c.check + 1 > n) n = c.check + 1;
    return n;
}

size_t image_checks_in_boot(const data::ResultsFile& file, const std::string& variant, const std::string& boot) {
    size_t n = 0;
    for (const data::ImageCheck& c : file.image_checks())
        n += c.variant == variant && c.origin.empty() && c.boot == boot &&
             c.exit_reason.compare(0, std::strlen(kInterruptedReason), kInterruptedReason) != 0;
    return n;
}

std::string image_check_pass_line(const ImageCheckTally& t) {
    char buf[160];
    // Two significant digits, never an exponent: "0.23 s", "7.9 s", "130 s".
    std::snprintf(buf, sizeof buf, t.seconds < 99.5 ? "checking pass: %zu replay%s in %.2g s, not timed"
                                                    : "checking pass: %zu replay%s in %.0f s, not timed",
                  t.runs, t.runs == 1 ? "" : "s", t.seconds);
    std::string line = buf;
    if (t.failed) line += " (" + std::to_string(t.failed) + " did not end ok: their frames are not counted)";
    return line;
}

data::ImageCheck run_image_check(const RunPlan& plan, const Execution& ex, const ImageCheckSettings& s,
                                 data::ResultsAppender& appender, RunReport& report, ImageCheckTally& tally,
                                 const std::string& design, std::optional<uint64_t> block, const std::string& boot) {
    const auto began = std::chrono::steady_clock::now();
    const ImageCheckFamily family = image_check_family(s.parser);
    data::ImageCheck c;
    c.variant = plan.variant;
    c.check = image_checks_of(appender.file(), plan.variant);
    if (!ex.probe) {
        ProbeOptions probe;
        probe.drm = plan.probe_drm;
        probe.root = system_root();
        ex.probe = std::make_shared<EnvironmentProbe>(probe);
    }
    const std::string real_boot = ex.probe->boot_id();
    data::Environment env = ex.probe->probe(real_boot);
    c.boot = boot.empty() ? real_boot : boot;
    env.tags = plan.tags;
    env.workload = recorded_workload(plan);
    char index[32];
    std::snprintf(index, sizeof index, "-check-%04llu", static_cast<unsigned long long>(c.check));
    const std::string name = log_name_prefix(appender.file().header.id) + file_safe(plan.variant) + index;
    c.start = data::utc_now_rfc3339();

    // The images' private directory: beside the kept ones (a rename keeps
    // them), else in TMPDIR.
    std::string tmp;
    const bool files = family == ImageCheckFamily::gfxrecon || !s.keep_dir.empty();
    if (files) {
        const char* tmpdir = std::getenv("TMPDIR");
        std::string pattern = (s.keep_dir.empty() ? std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") : s.keep_dir) +
                              "/.gfxstat-check-XXXXXX";
        if (mkdtemp(pattern.data())) {
            tmp = pattern;
        } else {
            // Said and recorded as the check's failure: the timed runs go on.
            c.exit_class = data::ExitClass::fail;
            c.exit_reason = pattern + ": cannot make a directory for the images: " + std::strerror(errno);
        }
    }
    struct RemoveTmp {
        const std::string& dir;
        RunReport& report;
        ~RemoveTmp() {
            if (dir.empty()) return;
            const std::string parent = data::directory_of(dir), base = data::base_name_of(dir);
            const int pfd = open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (pfd < 0 || !remove_tree_at(pfd, base.c_str()))
                report.warnings.push_back(dir + ": could not remove all of the checking run's images");
            if (pfd >= 0) close(pfd);
        }
    } remove_tmp{tmp, report};

    CheckArgvOptions o;
    o.callset = s.callset;
    o.screenshot_dir = tmp;
    if (family == ImageCheckFamily::apitrace && !s.keep_dir.empty()) o.snapshot_prefix = tmp + "/" + kSnapshotPrefix;
    const CheckCommand cmd = image_check_command(ex.command, family, o);
    c.tool = cmd.tool;
    c.method = cmd.method;

    bool prepared = !files || !tmp.empty();
    if (prepared && !plan.prepare.empty()) {
        const ProcessResult pr = run_hook(plan.prepare, ex, name + ".prepare", plan.timeout_s, report);
        if (!(pr.ended == ProcessResult::Ended::exited && pr.exit_code == 0)) {
            prepared = false;
            c.exit_class = data::ExitClass::fail;
            // A hook stopped by the user's signal is the user's stop, as in a run.
            c.exit_reason = one_line(run_plan_interrupted() ? kInterruptedReason + ("--prepare: " + describe_end(pr)) + ")"
                                                            : "--prepare failed: " + describe_end(pr));
        }
    }
    if (prepared) {
        if (!ex.capture) ex.capture = std::make_shared<OutputCapture>(true);
        OutputCapture& capture = *ex.capture;
        capture.begin_run();
        struct EndRun {
            OutputCapture& c;
            ~EndRun() { c.end_run(); }
        } end_run{capture};
        ProcessSpec spec;
        spec.argv = cmd.argv;
        spec.env = plan.env;
        spec.stdin_null_fd = ex.dev_null ? ex.dev_null.get() : -1;
        spec.stdout_path = capture.path(0);
        spec.stderr_path = capture.path(1);
        spec.timeout_s = plan.timeout_s;
        spec.end_group = true;
        const ProcessResult pr = run_process(spec);
        c.duration_s = pr.wall_s;
        const std::string_view out = capture.text(0), err = capture.text(1);
        keep_output(ex, name + ".stdout", out, report);
        keep_output(ex, name + ".stderr", err, report);
        switch (pr.ended) {
            case ProcessResult::Ended::not_started:
                c.exit_class = data::ExitClass::fail;
                c.exit_reason = one_line(pr.error);
                break;
            case ProcessResult::Ended::timed_out: {
                c.exit_class = data::ExitClass::timeout;
                char buf[96];
                std::snprintf(buf, sizeof buf, "timed out after %g s (stopped with %s)", plan.timeout_s,
                              describe_signal(pr.signal).c_str());
                c.exit_reason = buf;
                break;
            }
            case ProcessResult::Ended::signaled: {
                c.exit_class = data::ExitClass::crash;
                const std::string why = last_line(err);
                c.exit_reason = one_line("killed by " + describe_signal(pr.signal) + (why.empty() ? "" : ": " + why));
                break;
            }
            case ProcessResult::Ended::exited: {
                c.exit_code = pr.exit_code;
                if (pr.exit_code != 0) {
                    const std::string why = last_line(err);
                    c.exit_class = data::ExitClass::fail;
                    c.exit_reason = one_line("exit " + std::to_string(pr.exit_code) + (why.empty() ? "" : ": " + why));
                    break;
                }
                std::vector<ImageFile> images;
                formats::FrameChecksums sums;
                if (cmd.files) {
                    try {  // the replayer may have removed or replaced its directory
                        sums = hash_image_files(tmp, family, images);
                    } catch (const std::exception& e) {
                        sums.frames.clear();
                        sums.error = e.what();
                    }
                } else {
                    const std::vector<uint64_t> numbers =
                        s.callset.empty() ? std::vector<uint64_t>() : parse_check_frames(s.callset);
                    sums = formats::parse_apitrace_md5_snapshots(out, numbers);
                }
                if (!sums.error.empty()) {
                    c.exit_class = data::ExitClass::fail;
                    c.exit_reason = one_line("no frame checksums: " + sums.error);
                    break;
                }
                c.exit_class = data::ExitClass::ok;
                c.frames = std::move(sums.frames);
                if (!s.keep_dir.empty()) {
                    try {
                        c.kept = keep_images(tmp, images, s, name, plan.results_path, report);
                    } catch (const std::exception& e) {  // the directory went away: the checksums stand
                        report.warnings.push_back(std::string("the images were not kept: ") + e.what());
                    }
                }
                break;
            }
        }
        if (run_plan_interrupted() && c.exit_class != data::ExitClass::ok) {
            c.exit_class = data::ExitClass::fail;
            c.exit_reason = kInterruptedReason + describe_end(pr) + ")";
        }
    }
    if (!plan.cleanup.empty()) {
        const ProcessResult pr = run_hook(plan.cleanup, ex, name + ".cleanup", plan.timeout_s, report);
        if (!(pr.ended == ProcessResult::Ended::exited && pr.exit_code == 0))
            report.warnings.push_back("checking run " + std::to_string(c.check) + " of variant '" + plan.variant +
                                      "': --cleanup failed: " + describe_end(pr));
    }
    if (c.exit_class != data::ExitClass::ok) {
        ++tally.failed;
        report.warnings.push_back("checking run " + std::to_string(c.check) + " of variant '" + plan.variant +
                                  "' did not end ok (" + c.exit_reason + "): recorded without frames; its output: " +
                                  ex.log_dir + "/" + name + ".stdout/.stderr");
    }
    c.environment = appender.add_environment(std::move(env));
    c.design = design;
    c.block = block;
    appender.append_image_check(c);
    ++tally.runs;
    tally.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    return c;
}

}  // namespace gfxstat::drivers
