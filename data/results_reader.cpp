// SPDX-License-Identifier: MIT
#include "data/results_reader.h"

#include <unistd.h>

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

ResultsFile parse_results(std::string_view text, const std::string& name, ReadReport* report,
                          const RunHook& hook) {
    ReadReport local;
    ReadReport& rep = report ? *report : local;
    rep = ReadReport{};
    ResultsFile file;
    // With a hook, the runs' identities only: a million runs read for
    // their samples cost ~8 bytes each here, not a record of ~600 bytes.
    RunIdentityIndex identities;
    size_t pos = 0, line_no = 0;
    bool have_header = false;
    while (pos < text.size()) {
        const size_t nl = text.find('\n', pos);
        const bool terminated = nl != std::string_view::npos;
        const size_t end = terminated ? nl : text.size();
        const std::string_view line = text.substr(pos, end - pos);
        ++line_no;
        const size_t line_start = pos;
        pos = terminated ? nl + 1 : text.size();
        if (blank(line)) {
            if (terminated) rep.good_bytes = pos;
            continue;
        }
        try {
            if (!have_header) {
                file.header = parse_header_line(line);
                have_header = true;
            } else {
                ResultsRecord rec = parse_record_line(line);
                std::string conflict;
                if (auto* m = std::get_if<MetricInfo>(&rec)) {
                    conflict = file.declare_metric(*m);
                } else if (auto* e = std::get_if<Environment>(&rec)) {
                    conflict = file.add_environment(*e);
                } else if (auto* d = std::get_if<DesignRecord>(&rec)) {
                    conflict = file.add_design(*d);
                } else if (hook) {
                    auto& run = std::get<RunRecord>(rec);
                    hook(run);
                    conflict = add_identity(file, identities, run, rep.run_lines);
                    if (conflict.empty()) rep.run_lines.push_back(line_no);
                } else {
                    auto& run = std::get<RunRecord>(rec);
                    const auto dup = file.find_run(run.origin, run.variant, run.run);
                    conflict = file.add_run(std::move(run));
                    // Name the first line only when the identity is the problem.
                    if (dup && conflict.ends_with(" is recorded twice"))
                        conflict += first_line(rep.run_lines[*dup]);
                    if (conflict.empty()) rep.run_lines.push_back(line_no);
                }
                if (!conflict.empty()) throw input_error(name, line_no, conflict);
            }
        } catch (const JsonSyntaxError& e) {
            if (!terminated) {  // a writer died in the middle of this line
                rep.torn_tail = true;
                rep.torn_line = line_no;
                rep.torn_bytes = text.size() - line_start;
                break;
            }
            throw input_error(name, line_no,
                              std::string("broken JSON at byte ") + std::to_string(e.offset + 1) +
                                  " of the line: " + e.what());
        } catch (const RecordError& e) {
            throw input_error(name, line_no, e.what());
        }
        ++rep.records;
        rep.good_bytes = pos;
    }
    if (!have_header) {
        if (rep.torn_tail)
            throw input_error(name, 1, "the header line is incomplete (a writer was interrupted "
                                       "while creating the file); no records");
        throw input_error(name, 0, "empty: a results file starts with a header line "
                                   "{\"format\":\"gfxstat-results\",\"version\":1,...}");
    }
    return file;
}

ResultsFile read_results_path(const std::string& path, const std::string& name, ReadReport* report) {
    if (path == "-") return parse_results(read_all(STDIN_FILENO, name), name, report);
    return parse_results(read_whole_file(path), name, report);
}

std::string torn_tail_message(const std::string& name, const ReadReport& r) {
    return name + ":" + std::to_string(r.torn_line) + ": incomplete last record (" +
           std::to_string(r.torn_bytes) + " bytes, a writer was interrupted) ignored; the " +
           std::to_string(r.records) + " records before it are intact";
}

}  // namespace gfxstat::data
