// SPDX-License-Identifier: MIT
#include "data/results_reader.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "data/file_read.h"
#include "data/input_error.h"
#include "data/json_cursor.h"
#include "data/results_json.h"
#include "data/run_checks.h"
#include "data/run_identity_index.h"

namespace gfxstat::data {

namespace {

bool blank(std::string_view line) {
    for (char c : line)
        if (c != ' ' && c != '\t' && c != '\r') return false;
    return true;
}

std::string first_line(size_t line) { return " (first at line " + std::to_string(line) + ")"; }

// What ResultsFile::add_run checks, for a run that is not kept: its
// references, and its identity against those read before (`run_lines`:
// the line of each, by place).
std::string add_identity(const ResultsFile& file, RunIdentityIndex& identities, const RunRecord& run,
                         const std::vector<size_t>& run_lines) {
    if (std::string conflict = run_conflict(file, run); !conflict.empty()) return conflict;
    if (const auto dup = identities.find(run.origin, run.variant, run.run))
        return run_recorded_twice(run) + first_line(run_lines[*dup]);
    identities.add(run.origin, run.variant, run.run, run_lines.size());
    return {};
}

}  // namespace

namespace {

// The lines of a results file, one at a time, in order: the same rules
// whether the text is whole in memory (parse_results) or read a block at
// a time from a file (read_results_path), which then never holds more of
// the file's text than a block and the line it is in.
class LineParser {
public:
    LineParser(const std::string& name, ReadReport& rep, const RunHook& hook)
        : name_(name), rep_(rep), hook_(hook) {
        rep_ = ReadReport{};
    }

    // One line, without its '\n'; `terminated` when a '\n' ended it, `end`
    // the file offset after it (and its '\n'). False when reading stops: a
    // torn last line.
    bool line(std::string_view line, bool terminated, size_t end) {
        ++line_no_;
        if (blank(line)) {
            if (terminated) rep_.good_bytes = end;
            return true;
        }
        try {
            if (!have_header_) {
                file_.header = parse_header_line(line);
                have_header_ = true;
            } else {
                record(parse_record_line(line));
            }
        } catch (const JsonSyntaxError& e) {
            if (!terminated) {  // a writer died in the middle of this line
                rep_.torn_tail = true;
                rep_.torn_line = line_no_;
                rep_.torn_bytes = line.size();
                return false;
            }
            throw input_error(name_, line_no_,
                              std::string("broken JSON at byte ") + std::to_string(e.offset + 1) +
                                  " of the line: " + e.what());
        } catch (const RecordError& e) {
            throw input_error(name_, line_no_, e.what());
        }
        ++rep_.records;
        rep_.good_bytes = end;
        return true;
    }

    ResultsFile finish() {
        if (!have_header_) {
            if (rep_.torn_tail)
                throw input_error(name_, 1, "the header line is incomplete (a writer was interrupted "
                                            "while creating the file); no records");
            throw input_error(name_, 0, "empty: a results file starts with a header line "
                                        "{\"format\":\"gfxstat-results\",\"version\":1,...}");
        }
        return std::move(file_);
    }

private:
    void record(ResultsRecord rec) {
        std::string conflict;
        if (auto* m = std::get_if<MetricInfo>(&rec)) {
            conflict = file_.declare_metric(*m);
        } else if (auto* e = std::get_if<Environment>(&rec)) {
            conflict = file_.add_environment(*e);
        } else if (auto* d = std::get_if<DesignRecord>(&rec)) {
            conflict = file_.add_design(*d);
        } else if (auto* k = std::get_if<ImageCheck>(&rec)) {
            // Checking runs are few (one or two a variant): kept with or
            // without a hook.
            const auto dup = file_.find_image_check(k->origin, k->variant, k->check);
            conflict = file_.add_image_check(std::move(*k));
            if (dup && conflict.ends_with(" is recorded twice"))
                conflict += first_line(rep_.image_check_lines[*dup]);
            if (conflict.empty()) rep_.image_check_lines.push_back(line_no_);
        } else if (auto* u = std::get_if<UnknownRecord>(&rec)) {
            auto it = std::find_if(rep_.skipped.begin(), rep_.skipped.end(),
                                   [&](const ReadReport::Skipped& s) { return s.type == u->type; });
            if (it == rep_.skipped.end()) rep_.skipped.push_back({u->type, line_no_, 1});
            else ++it->count;
        } else if (hook_) {
            auto& run = std::get<RunRecord>(rec);
            hook_(run);
            conflict = add_identity(file_, identities_, run, rep_.run_lines);
            if (conflict.empty()) rep_.run_lines.push_back(line_no_);
        } else {
            auto& run = std::get<RunRecord>(rec);
            const auto dup = file_.find_run(run.origin, run.variant, run.run);
            conflict = file_.add_run(std::move(run));
            // Name the first line only when the identity is the problem.
            if (dup && conflict.ends_with(" is recorded twice")) conflict += first_line(rep_.run_lines[*dup]);
            if (conflict.empty()) rep_.run_lines.push_back(line_no_);
        }
        if (!conflict.empty()) throw input_error(name_, line_no_, conflict);
    }

    const std::string& name_;
    ReadReport& rep_;
    // A copy, not a reference: read_results_path passes an empty hook made
    // for the constructor's call only.
    const RunHook hook_;
    ResultsFile file_;
    // With a hook, the runs' identities only: a million runs read for
    // their samples cost ~8 bytes each here, not a record of ~600 bytes.
    RunIdentityIndex identities_;
    size_t line_no_ = 0;
    bool have_header_ = false;
};

}  // namespace

ResultsFile parse_results(std::string_view text, const std::string& name, ReadReport* report,
                          const RunHook& hook) {
    ReadReport local;
    LineParser parser(name, report ? *report : local, hook);
    size_t pos = 0;
    while (pos < text.size()) {
        const size_t nl = text.find('\n', pos);
        const bool terminated = nl != std::string_view::npos;
        const size_t end = terminated ? nl : text.size();
        const std::string_view line = text.substr(pos, end - pos);
        pos = terminated ? nl + 1 : text.size();
        if (!parser.line(line, terminated, pos)) break;
    }
    return parser.finish();
}

namespace {

// The lines of `fd`, after `buf` (bytes read from it already), a block at
// a time: what is held is the line being read, not the file (a million
// runs are ~100 MB of text). Read errors name `read_name`.
ResultsFile parse_blocks(int fd, std::string buf, const std::string& read_name, LineParser& parser) {
    constexpr size_t kBlock = 1 << 20;
    size_t base = 0;     // file offset of buf[0]
    size_t scanned = 0;  // buf[0, scanned) holds no '\n'
    for (bool more = true; more;) {
        const size_t had = buf.size();
        buf.resize(had + kBlock);
        ssize_t got;
        do got = ::read(fd, buf.data() + had, kBlock);
        while (got < 0 && errno == EINTR);
        if (got < 0) throw input_error(read_name, 0, std::string("read error: ") + std::strerror(errno));
        buf.resize(had + static_cast<size_t>(got));
        more = got > 0;
        size_t pos = 0;
        for (size_t nl; (nl = buf.find('\n', std::max(pos, scanned))) != std::string::npos; pos = nl + 1)
            if (!parser.line(std::string_view(buf).substr(pos, nl - pos), true, base + nl + 1))
                return parser.finish();
        buf.erase(0, pos);
        base += pos;
        scanned = buf.size();
    }
    if (!buf.empty()) parser.line(buf, false, base + buf.size());
    return parser.finish();
}

}  // namespace

ResultsFile read_results_path(const std::string& path, const std::string& name, ReadReport* report) {
    const InputFile in(path);
    ReadReport local;
    LineParser parser(name, report ? *report : local, {});
    // Errors name what read_all named: `name` for standard input, else the path.
    return parse_blocks(in.fd(), {}, in.is_stdin() ? name : path, parser);
}

ResultsFile read_results_fd(int fd, std::string prefix, const std::string& name, ReadReport* report) {
    ReadReport local;
    LineParser parser(name, report ? *report : local, {});
    return parse_blocks(fd, std::move(prefix), name, parser);
}

std::vector<std::string> skipped_record_messages(const std::string& name, const ReadReport& r) {
    std::vector<std::string> out;
    for (const ReadReport::Skipped& s : r.skipped)
        out.push_back(name + ":" + std::to_string(s.first_line) + ": skipped " + std::to_string(s.count) +
                      (s.count == 1 ? " record" : " records") + " of unknown type " + quote_token(s.type) +
                      (s.count == 1 ? "" : ", the first here") + " (a newer gfxstat's?)");
    return out;
}

std::string torn_tail_message(const std::string& name, const ReadReport& r) {
    return name + ":" + std::to_string(r.torn_line) + ": incomplete last record (" +
           std::to_string(r.torn_bytes) + " bytes, a writer was interrupted) ignored; the " +
           std::to_string(r.records) + " records before it are intact";
}

}  // namespace gfxstat::data
