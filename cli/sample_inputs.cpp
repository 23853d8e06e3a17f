// SPDX-License-Identifier: MIT
#include "cli/sample_inputs.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <thread>

#include "formats/import_hint.h"
#include "text/nearest_word.h"
#include "data/input_error.h"
#include "data/results_json.h"
#include "data/results_reader.h"
#include "data/store_argument.h"
#include "text/text_escape.h"

namespace gfxstat::cli {

using text::escape_message;
using text::escape_text;

namespace {

// Reads the first bytes of `fd`, enough to see the first non-blank byte.
std::string read_prefix(int fd, const std::string& name) {
    std::string prefix;
    char buf[4096];
    for (;;) {
        const ssize_t got = ::read(fd, buf, sizeof buf);
        if (got < 0) {
            if (errno == EINTR) continue;
            throw data::input_error(name, 0, std::string("read error: ") + std::strerror(errno));
        }
        if (got == 0) return prefix;
        prefix.append(buf, static_cast<size_t>(got));
        if (prefix.find_first_not_of(" \t\r\n") != std::string::npos) return prefix;
    }
}

// Whether `path` names something to read: "-", store:SELECTION (whatever
// files there are: ./store:x is that file), or a directory entry (a
// dangling link too: opening it then says why it cannot be read).
bool names_input(const std::string& path) {
    struct stat st;
    return path == "-" || data::is_store_argument(path) || ::lstat(path.c_str(), &st) == 0;
}

constexpr size_t kMaxColumn = 1000000;  // as -C

// "PATH:N", N digits from 1 to 1000000 after the last ':', PATH an input:
// PATH and N.
std::optional<std::pair<std::string, size_t>> path_and_column(const std::string& arg) {
    const size_t colon = arg.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == arg.size()) return std::nullopt;
    size_t n = 0;
    for (size_t i = colon + 1; i < arg.size(); ++i) {
        if (arg[i] < '0' || arg[i] > '9') return std::nullopt;
        n = n * 10 + static_cast<size_t>(arg[i] - '0');
        if (n > kMaxColumn) return std::nullopt;
    }
    if (n == 0 || !names_input(arg.substr(0, colon))) return std::nullopt;
    return std::make_pair(arg.substr(0, colon), n);
}

// A C0 control, DEL, or a C1 control (U+0080..U+009F in UTF-8): what a
// label printed in a report must not hold.
bool has_control(std::string_view s) {
    for (size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x20 || c == 0x7f) return true;
        if (c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
            static_cast<unsigned char>(s[i + 1]) <= 0x9f)
            return true;
    }
    return false;
}

// The argument as the user wrote it (up to leading zeros of the column).
std::string argument_text(const SampleInput& in) {
    std::string arg = in.label.empty() ? in.path : in.label + "=" + in.path;
    if (in.column) arg += ":" + std::to_string(*in.column);
    return arg;
}

// The command's column format, with this input's column if it has one; a
// results file has no columns.
data::ColumnFormat format_for(const SampleInput& in, const data::ColumnFormat& format, bool results) {
    data::ColumnFormat f = format;
    if (!in.column) return f;
    if (results)
        throw data::input_error(argument_text(in), 0,
                                "a column applies to column files; results files have metrics: use --metric");
    f.column = static_cast<int>(*in.column);
    return f;
}

LoadedSample column_sample(const SampleInput& in, data::ColumnFile&& f, const data::ColumnFormat& format) {
    LoadedSample s;
    s.sample = std::move(f.sample);
    if (!in.label.empty()) s.sample.name = in.label;
    s.source = in.name;
    s.column = format.column;
    s.lines_without_column = f.lines_without_column;
    s.first_line_without_column = f.first_line_without_column;
    return s;
}

size_t per_run_metrics(const data::ResultsFile& file) {
    size_t n = 0;
    for (const data::MetricInfo& m : file.metrics()) n += !m.within_run();
    return n;
}

// Opens `in` (or takes standard input) and reads the first bytes, which
// tell a results file from a column file. store:SELECTION is read whole:
// its text is the prefix, and nothing is left to read.
class OpenedInput {
public:
    explicit OpenedInput(const SampleInput& in) {
        if (data::is_store_argument(in.path)) {
            data::SelectedRuns selected = data::read_store_argument(in.path);
            prefix_ = data::results_text(selected);
            notes_ = std::move(selected.notes);
            fd_ = -1;
            return;
        }
        if (in.path != "-") {
            fd_ = ::open(in.path.c_str(), O_RDONLY | O_CLOEXEC);
            if (fd_ < 0) throw InputOpenError(in.path, errno);
        }
        prefix_ = read_prefix(fd_, in.name);
    }
    ~OpenedInput() {
        if (fd_ != STDIN_FILENO && fd_ >= 0) ::close(fd_);
    }
    OpenedInput(const OpenedInput&) = delete;
    OpenedInput& operator=(const OpenedInput&) = delete;
    int fd() const { return fd_; }
    const std::string& prefix() const { return prefix_; }
    bool results() const { return stored() || data::looks_like_results(prefix_); }
    bool stored() const { return fd_ < 0; }
    std::string rest(const std::string& name) const { return stored() ? std::string() : data::read_all(fd_, name); }
    const std::vector<std::string>& notes() const { return notes_; }

private:
    int fd_ = STDIN_FILENO;
    std::string prefix_;
    std::vector<std::string> notes_;  // what reading a store selection noted
};

void load_opened(const SampleInput& in, OpenedInput& input, bool qualify, const data::ColumnFormat& format,
                 const ResultsChoice& choice, InputOutcome& out) {
    const int fd = input.fd();
    const std::string& prefix = input.prefix();
    const data::ColumnFormat own = format_for(in, format, input.results());
    if (!input.results()) {
        out.samples.push_back(column_sample(in, data::read_column(fd, in.name, own, prefix), own));
        return;
    }
    const std::string text = prefix + input.rest(in.name);
    out.notes.insert(out.notes.end(), input.notes().begin(), input.notes().end());
    data::ReadReport report;
    const auto keep_whole = [&] {
        out.results = data::parse_results(text, in.name, &report);
        if (report.torn_tail) out.notes.push_back(data::torn_tail_message(in.name, report));
    for (std::string& m : data::skipped_record_messages(in.name, report)) out.notes.push_back(std::move(m));
    };
    if (choice.whole == ResultsChoice::Whole::always) return keep_whole();
    std::optional<data::MetricSelection> sel;
    try {
        // One pass, selecting as it parses: a file of a million values is
        // never held as parsed numbers and samples at once.
        sel = data::read_and_select(text, in.name, choice.metric, choice.variants, &report);
    } catch (const data::InputError&) {
        // No metric chosen among several: parsed again, kept whole.
        if (choice.whole != ResultsChoice::Whole::when_several || !choice.metric.empty()) throw;
        const data::ResultsFile file = data::parse_results(text, in.name);
        if (per_run_metrics(file) < 2) throw;
        report = {};
        return keep_whole();
    }
    if (report.torn_tail) out.notes.push_back(data::torn_tail_message(in.name, report));
    for (std::string& m : data::skipped_record_messages(in.name, report)) out.notes.push_back(std::move(m));
    for (LoadedSample& s : input_samples(std::move(*sel), in, qualify)) out.samples.push_back(std::move(s));
}

// A file that is neither a results file nor a column file may be one that
// gfxstat import reads: the error says so (formats/import_hint.h). Standard
// input cannot be read again: its first bytes, read already, are the guess's.
void load(const SampleInput& in, bool qualify, const data::ColumnFormat& format, const ResultsChoice& choice,
          InputOutcome& out) {
    OpenedInput input(in);
    try {
        load_opened(in, input, qualify, format, choice, out);
    } catch (const data::UnknownMetricError& e) {
        throw data::InputError(e.what() + text::did_you_mean(e.typed, e.known));
    } catch (const data::InputError& e) {
        throw formats::with_import_hint(e, in.path, input.prefix());
    }
}

RawInput read_opened(const SampleInput& in, OpenedInput& input, const data::ColumnFormat& format) {
    RawInput raw;
    const data::ColumnFormat own = format_for(in, format, input.results());
    if (!input.results()) {
        raw.column = data::read_column(input.fd(), in.name, own, input.prefix());
        if (!in.label.empty()) raw.column->sample.name = in.label;
        return raw;
    }
    data::ReadReport report;
    raw.notes = input.notes();
    // A block at a time: the file's text is not held beside its runs.
    raw.results = input.stored() ? data::parse_results(input.prefix(), in.name, &report)
                                 : data::read_results_fd(input.fd(), input.prefix(), in.name, &report);
    if (report.torn_tail) raw.notes.push_back(data::torn_tail_message(in.name, report));
    for (std::string& m : data::skipped_record_messages(in.name, report)) raw.notes.push_back(std::move(m));
    return raw;
}

}  // namespace

InputOpenError::InputOpenError(const std::string& path, int e)
    : data::InputError(data::input_error(path, 0, std::string("cannot open: ") + std::strerror(e))), err(e) {}

SampleInput parse_sample_argument(const std::string& arg) {
    SampleInput in{arg, arg};
    if (names_input(arg)) return in;  // a file called "a=b.txt" or "x:2" is that file
    if (const size_t eq = arg.find('='); eq != std::string::npos) {
        const std::string rest = arg.substr(eq + 1);
        std::optional<std::pair<std::string, size_t>> with_column;
        if (names_input(rest) || (with_column = path_and_column(rest))) {
            const std::string label = arg.substr(0, eq);
            if (label.empty()) throw data::input_error(arg, 0, "the label before '=' is empty");
            if (has_control(label))
                throw data::input_error(arg, 0, "the label holds a control character (labels are printed in reports)");
            in.label = label;
            in.path = in.name = with_column ? with_column->first : rest;
            if (with_column) in.column = with_column->second;
            return in;
        }
    }
    if (const auto with_column = path_and_column(arg)) {
        in.path = in.name = with_column->first;
        in.column = with_column->second;
    }
    return in;
}

std::vector<LoadedSample> loaded_samples(data::MetricSelection&& sel, const std::string& name, bool qualify) {
    std::vector<LoadedSample> out;
    for (auto& v : sel.variants) {
        LoadedSample s;
        s.sample = std::move(v.sample);
        s.sample.name = qualify ? name + ":" + v.variant : v.variant;
        s.from_results = true;
        s.source = name;
        s.metric = sel.metric;
        s.counts = v.counts;
        s.layout = std::move(v.layout);
        out.push_back(std::move(s));
    }
    return out;
}

std::vector<LoadedSample> input_samples(data::MetricSelection&& sel, const SampleInput& in, bool qualify) {
    if (!in.label.empty() && sel.variants.size() != 1)
        throw data::input_error(in.name, 0,
                                "holds " + std::to_string(sel.variants.size()) +
                                    " variants; a label names one data set (choose one with --variant)");
    std::vector<LoadedSample> out = loaded_samples(std::move(sel), in.name, qualify);
    if (!in.label.empty()) out[0].sample.name = in.label;
    return out;
}

RawInput read_input(const SampleInput& in, const data::ColumnFormat& format) {
    OpenedInput input(in);
    try {
        return read_opened(in, input, format);
    } catch (const data::InputError& e) {
        throw formats::with_import_hint(e, in.path, input.prefix());
    }
}

std::vector<InputOutcome> read_inputs_parallel(
    const std::vector<SampleInput>& inputs, const data::ColumnFormat& format,
    const ResultsChoice& choice, const std::function<void(size_t, size_t, LoadedSample&)>& then) {
    std::vector<InputOutcome> out(inputs.size());
    const bool qualify = inputs.size() > 1;
    auto work = [&](size_t i) {
        try {
            load(inputs[i], qualify, format, choice, out[i]);
            if (then)
                for (size_t k = 0; k < out[i].samples.size(); ++k) then(i, k, out[i].samples[k]);
        } catch (const InputOpenError& e) {
            out[i].samples.clear();
            out[i].error = e.what();
            out[i].open_errno = e.err;
        } catch (const data::InputError& e) {
            out[i].samples.clear();
            out[i].error = e.what();
        } catch (const std::bad_alloc&) {
            out[i].samples.clear();
            out[i].error = inputs[i].name + ": out of memory";
        }
    };
    // Standard input, the last file and small files are read on this
    // thread: starting a thread (its stack, its malloc arena) costs more
    // than reading a file of a few thousand values, and is most of what a
    // small ministat spends past start-up. A file that cannot be looked
    // at is left to its reading to report.
    const auto here = [&](size_t i) {
        struct stat st;
        return inputs[i].path == "-" || i + 1 == inputs.size() ||
               (::stat(inputs[i].path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size < (off_t{1} << 20));
    };
    std::vector<bool> on_this(inputs.size());
    std::vector<std::thread> threads;
    for (size_t i = 0; i < inputs.size(); ++i) {
        on_this[i] = here(i);
        if (!on_this[i]) threads.emplace_back(work, i);
    }
    for (size_t i = 0; i < inputs.size(); ++i)
        if (on_this[i]) work(i);
    for (auto& t : threads) t.join();
    return out;
}

void warn_left_out(const char* prog, const InputOutcome& outcome, const data::ColumnFormat& format, FILE* err) {
    for (const std::string& note : outcome.notes)
        std::fprintf(err, "%s: warning: %s\n", prog, escape_message(note).c_str());
    for (const LoadedSample& s : outcome.samples) {
        // About the file: its name (not its label) and its column.
        if (s.lines_without_column > 0)
            std::fprintf(err,
                         "%s: warning: %s: %zu line%s without column %d skipped (first: line %zu)\n",
                         prog, escape_text(s.source.empty() ? s.sample.name : s.source).c_str(),
                         s.lines_without_column, s.lines_without_column == 1 ? "" : "s",
                         s.column ? s.column : format.column, s.first_line_without_column);
        const std::string left_out = data::describe_exclusions(s.counts);
        if (!left_out.empty())
            std::fprintf(err, "%s: note: %s: %s left out of %s\n", prog, escape_text(s.sample.name).c_str(),
                         left_out.c_str(), escape_text(s.metric.name).c_str());
    }
}

}  // namespace gfxstat::cli
