// SPDX-License-Identifier: MIT
// Writes results files so that nothing is ever lost or half-written.
//
// Whole files (import, merge) are written to a temporary file in the same
// directory, fsync'd and renamed over the target: a reader sees the old
// file or the new one, never a mixture. Runs recorded while a campaign goes
// on are appended one record at a time, each as a single write() followed
// by fdatasync(): a kill -9 or power loss can only leave an incomplete last
// line, which readers report and ignore, and which the next appender cuts
// off before writing. A run is acknowledged (append_run returns) only once
// it is on disk.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "data/image_check.h"
#include "data/packed_tokens.h"
#include "data/results_model.h"
#include "data/results_reader.h"

namespace gfxstat::data {

// A header for a new file: a random id, the current UTC time, this gfxstat.
ResultsHeader new_results_header();
// The current time as RFC 3339 UTC with microseconds.
std::string utc_now_rfc3339();

// The whole file as text: header, then each metric and environment just
// before the first run that uses it (all of them when unused), then runs.
std::string serialize_results(const ResultsFile& file);

// Writes `file` to `path` atomically (a new file; an existing one is an
// InputError "already exists"). For a file that may exist, and that other
// gfxstat processes may be appending to, use rewrite_results_file.
void write_new_results_file(const std::string& path, const ResultsFile& file);

// The results lock (docs/results-format.md, "Writers and the lock"). Every
// writer of a results file holds it while it writes: an exclusive flock()
// on the results file itself, verified once held to be on the file the
// path still names -- a rewriter renames a new file into place, and a lock
// taken on the file it replaced guards nothing. A busy lock is waited for
// up to `wait_s`, then refused with an InputError that names the file.
class ResultsLock {
public:
    // Locks the file at `path`, opened with `flags` (O_RDONLY or O_RDWR;
    // O_NOFOLLOW and O_CLOEXEC are added). Returns a lock that holds no
    // file (!held()) when `path` does not exist. A symbolic link at `path`
    // is refused.
    static ResultsLock acquire(const std::string& path, int flags, double wait_s = kDefaultWaitSeconds);
    static constexpr double kDefaultWaitSeconds = 3.0;

    ResultsLock() = default;
    ~ResultsLock();
    ResultsLock(ResultsLock&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
    ResultsLock& operator=(ResultsLock&& o) noexcept;
    ResultsLock(const ResultsLock&) = delete;
    ResultsLock& operator=(const ResultsLock&) = delete;

    bool held() const { return fd_ >= 0; }
    int fd() const { return fd_; }
    // Gives up the descriptor (and with it, when closed, the lock).
    int release() {
        const int fd = fd_;
        fd_ = -1;
        return fd;
    }

private:
    explicit ResultsLock(int fd) : fd_(fd) {}
    int fd_ = -1;
};

// What rewrite_results_file does with a file already at the path.
enum class ExistingFile {
    refuse,   // an error: "already exists" (import without --append)
    replace,  // replaced whole (merge --replace)
    update,   // required: `build` gets its runs and adds to them (import --append)
};

// Writes a whole results file at `path` as the one writer: with the
// results lock held on the file it replaces, so that no run appended
// meanwhile is lost, and atomically, so that a reader (or a kill) sees the
// old file or the new. `build` is called with the lock held: with the
// current file (ExistingFile::update) or nullptr, and returns the file to
// write. It may be called more than once when another writer gets in
// first (a file created meanwhile is locked and the work redone).
// Throws InputError.
void rewrite_results_file(const std::string& path, ExistingFile existing,
                          const std::function<ResultsFile(const ResultsFile* current, const ReadReport& report)>& build);

// The same for a file already serialised, whose records keep the order
// they are in (gfxstat store get gives a pushed file back as it was
// pushed): written new (`replace` false: an existing file is an InputError
// "already exists") or replacing one under its results lock. `text` is
// called once the lock is held.
void write_results_text(const std::string& path, bool replace, const std::function<std::string()>& text);

class ResultsAppender {
public:
    // Opens `path` for appending, creating it (with a fresh header) when it
    // does not exist, and holds the results lock until destroyed: a second
    // writer waits `wait_s` for it, then gets an InputError instead of
    // interleaving records. A torn last line is cut off; `repaired()` then
    // says so.
    explicit ResultsAppender(const std::string& path, double wait_s = ResultsLock::kDefaultWaitSeconds);
    ~ResultsAppender();
    ResultsAppender(const ResultsAppender&) = delete;
    ResultsAppender& operator=(const ResultsAppender&) = delete;

    const ResultsFile& file() const { return file_; }
    const std::string& repaired() const { return repaired_; }
    // An append failed while writing (disk full, I/O error), as opposed to
    // a record refused before anything was written.
    bool write_failed() const { return failed_; }

    // Declarations are written together with the next run that needs them.
    void declare_metric(const MetricInfo& metric);
    // The design of the runs to come (`gfxstat ab`): written with the next
    // run, like a metric. The same id declared again with other content
    // throws InputError.
    void declare_design(const DesignRecord& design);
    // Returns the environment's id.
    std::string add_environment(Environment env);
    // Appends the run (with pending declarations); returns once durable.
    // Throws InputError when the run breaks a rule of the format, or on an
    // I/O error (nothing is acknowledged then). After an I/O error the bytes
    // written are cut off again and every later append_run throws: reopen
    // the file to go on.
    void append_run(const RunRecord& run);
    // Appends a checking run (with pending declarations: its environment,
    // its design); returns once durable. Throws InputError as append_run.
    void append_image_check(const ImageCheck& check);
    // The same, then frees the run's values, in `run` and in file(): they
    // are on disk, and a run of ten million values (`run --parser lines`
    // on 100 MB of output) must not be held twice, nor kept for the
    // runs after it. Names, exit and identity stay.
    void append_run_and_release_values(RunRecord& run);
    // The same, with the values of run.metrics[i] in packed[i] when that is
    // not empty (append_run_line); those are freed too.
    void append_run_and_release_values(RunRecord& run, std::vector<PackedTokens>& packed);

private:
    void write_durably(const std::string& bytes);

    std::string path_;
    ResultsLock lock_;  // its descriptor is the one appended to
    ResultsFile file_;
    std::string pending_;  // declaration lines not yet written
    std::string repaired_;
    bool failed_ = false;  // a write failed: file_ holds a run the file may not
};

}  // namespace gfxstat::data
