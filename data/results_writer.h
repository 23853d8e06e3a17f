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

#include <string>
#include <vector>

#include "data/results_model.h"

namespace gfxstat::data {

// A header for a new file: a random id, the current UTC time, this gfxstat.
ResultsHeader new_results_header();
// The current time as RFC 3339 UTC with microseconds.
std::string utc_now_rfc3339();

// The whole file as text: header, then each metric and environment just
// before the first run that uses it (all of them when unused), then runs.
std::string serialize_results(const ResultsFile& file);

// Writes `file` to `path` atomically. Refuses (InputError) to replace an
// existing file unless `replace`.
void write_results_file(const std::string& path, const ResultsFile& file, bool replace);

class ResultsAppender {
public:
    // Opens `path` for appending, creating it (with a fresh header) when it
    // does not exist. Takes an exclusive lock: a second writer gets an
    // InputError instead of interleaving records. A torn last line is cut
    // off; `repaired()` then says so.
    explicit ResultsAppender(const std::string& path);
    ~ResultsAppender();
    ResultsAppender(const ResultsAppender&) = delete;
    ResultsAppender& operator=(const ResultsAppender&) = delete;

    const ResultsFile& file() const { return file_; }
    const std::string& repaired() const { return repaired_; }

    // Declarations are written together with the next run that needs them.
    void declare_metric(const MetricInfo& metric);
    // Returns the environment's id.
    std::string add_environment(Environment env);
    // Appends the run (with pending declarations); returns once durable.
    // Throws InputError when the run breaks a rule of the format, or on an
    // I/O error (nothing is acknowledged then). After an I/O error the bytes
    // written are cut off again and every later append_run throws: reopen
    // the file to go on.
    void append_run(const RunRecord& run);
    // The same, then frees the run's values, in `run` and in file(): they
    // are on disk, and a run of ten million values (`run --parser lines`
    // on 100 MB of output) must not be held twice, nor kept for the
    // runs after it. Names, exit and identity stay.
    void append_run_and_release_values(RunRecord& run);

private:
    void write_durably(const std::string& bytes);

    std::string path_;
    int fd_ = -1;
    ResultsFile file_;
    std::string pending_;  // declaration lines not yet written
    std::string repaired_;
    bool failed_ = false;  // a write failed: file_ holds a run the file may not
};

}  // namespace gfxstat::data
