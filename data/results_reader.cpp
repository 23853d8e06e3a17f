// SPDX-License-Identifier: MIT
#include "data/results_reader.h"

#include <unistd.h>

#include "data/file_read.h"
#include "data/input_error.h"
#include "data/json_cursor.h"
#include "data/results_json.h"

namespace gfxstat::data {

namespace {

bool blank(std::string_view line) {
    for (char c : line)
        if (c != ' ' && c != '\t' && c != '\r') return false;
    return true;
}

}  // namespace

ResultsFile parse_results(std::string_view text, const std::string& name, ReadReport* report,
                          const RunHook& hook) {
    ReadReport local;
    ReadReport& rep = report ? *report : local;
    rep = ReadReport{};
    ResultsFile file;
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
                } else {
                    auto& run = std::get<RunRecord>(rec);
                    if (hook) hook(run);
                    const auto dup = file.find_run(run.origin, run.variant, run.run);
                    conflict = file.add_run(std::move(run));
                    // Name the first line only when the identity is the problem.
                    if (dup && conflict.ends_with(" is recorded twice"))
                        conflict += " (first at line " + std::to_string(rep.run_lines[*dup]) + ")";
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
