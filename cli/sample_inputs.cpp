#include "cli/sample_inputs.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <thread>

#include "cli/import_hint.h"
#include "cli/nearest_word.h"
#include "data/input_error.h"
#include "data/results_json.h"
#include "data/results_reader.h"
#include "report/text_escape.h"

namespace gfxstat::cli {

using report::escape_message;
using report::escape_text;

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

// An input that cannot be opened, told apart from bad content.
struct OpenError : data::InputError {
    OpenError(const std::string& path, int e)
        : data::InputError(data::input_error(path, 0, std::string("cannot open: ") + std::strerror(e))), err(e) {}
    int err;
};

// Opens `in` (or takes standard input) and reads the first bytes, which
// tell a results file from a column file.
class OpenedInput {
public:
    explicit OpenedInput(const SampleInput& in) {
        if (in.path != "-") {
            fd_ = ::open(in.path.c_str(), O_RDONLY | O_CLOEXEC);
            if (fd_ < 0) throw OpenError(in.path, errno);
        }
        prefix_ = read_prefix(fd_, in.name);
    }
    ~OpenedInput() {
        if (fd_ != STDIN_FILENO) ::close(fd_);
    }
    OpenedInput(const OpenedInput&) = delete;
    OpenedInput& operator=(const OpenedInput&) = delete;
    int fd() const { return fd_; }
    const std::string& prefix() const { return prefix_; }
    bool results() const { return data::looks_like_results(prefix_); }

private:
    int fd_ = STDIN_FILENO;
    std::string prefix_;
};

void load_opened(const SampleInput& in, OpenedInput& input, bool qualify, const data::ColumnFormat& format,
                 const ResultsChoice& choice, InputOutcome& out) {
    const int fd = input.fd();
    const std::string& prefix = input.prefix();
    if (!data::looks_like_results(prefix)) {
        data::ColumnFile f = data::read_column(fd, in.name, format, prefix);
        LoadedSample s;
        s.sample = std::move(f.sample);
        s.lines_without_column = f.lines_without_column;
        s.first_line_without_column = f.first_line_without_column;
        out.samples.push_back(std::move(s));
        return;
    }
    const std::string text = prefix + data::read_all(fd, in.name);
    data::ReadReport report;
    data::MetricSelection sel =
        data::read_and_select(text, in.name, choice.metric, choice.variants, &report);
    if (report.torn_tail) out.notes.push_back(data::torn_tail_message(in.name, report));
    for (LoadedSample& s : loaded_samples(std::move(sel), in.name, qualify)) out.samples.push_back(std::move(s));
}

// A file that is neither a results file nor a column file may be one that
// gfxstat import reads: the error says so (cli/import_hint.h). Standard
// input cannot be read again: its first bytes, read already, are the guess's.
void load(const SampleInput& in, bool qualify, const data::ColumnFormat& format, const ResultsChoice& choice,
          InputOutcome& out) {
    OpenedInput input(in);
    try {
        load_opened(in, input, qualify, format, choice, out);
    } catch (const data::UnknownMetricError& e) {
        throw data::InputError(e.what() + did_you_mean(e.typed, e.known));
    } catch (const data::InputError& e) {
        throw with_import_hint(e, in.path, input.prefix());
    }
}

RawInput read_opened(const SampleInput& in, OpenedInput& input, const data::ColumnFormat& format) {
    RawInput raw;
    if (!input.results()) {
        raw.column = data::read_column(input.fd(), in.name, format, input.prefix());
        return raw;
    }
    data::ReadReport report;
    raw.results = data::parse_results(input.prefix() + data::read_all(input.fd(), in.name), in.name, &report);
    if (report.torn_tail) raw.notes.push_back(data::torn_tail_message(in.name, report));
    return raw;
}

}  // namespace

std::vector<LoadedSample> loaded_samples(data::MetricSelection&& sel, const std::string& name, bool qualify) {
    std::vector<LoadedSample> out;
    for (auto& v : sel.variants) {
        LoadedSample s;
        s.sample = std::move(v.sample);
        s.sample.name = qualify ? name + ":" + v.variant : v.variant;
        s.from_results = true;
        s.metric = sel.metric;
        s.counts = v.counts;
        s.layout = std::move(v.layout);
        out.push_back(std::move(s));
    }
    return out;
}

data::MetricSelection select_metric_suggesting(const data::ResultsFile& file, const std::string& name,
                                               std::string_view metric, const std::vector<std::string>& variants) {
    try {
        return data::select_metric(file, name, metric, variants);
    } catch (const data::UnknownMetricError& e) {
        throw data::InputError(e.what() + did_you_mean(e.typed, e.known));
    }
}

RawInput read_input(const SampleInput& in, const data::ColumnFormat& format) {
    OpenedInput input(in);
    try {
        return read_opened(in, input, format);
    } catch (const data::InputError& e) {
        throw with_import_hint(e, in.path, input.prefix());
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
        } catch (const OpenError& e) {
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
    std::vector<std::thread> threads;
    for (size_t i = 0; i < inputs.size(); ++i) {
        if (inputs[i].path == "-" || i + 1 == inputs.size())
            continue;  // standard input and the last file: this thread
        threads.emplace_back(work, i);
    }
    for (size_t i = 0; i < inputs.size(); ++i)
        if (inputs[i].path == "-" || i + 1 == inputs.size()) work(i);
    for (auto& t : threads) t.join();
    return out;
}

void warn_left_out(const char* prog, const InputOutcome& outcome, const data::ColumnFormat& format, FILE* err) {
    for (const std::string& note : outcome.notes)
        std::fprintf(err, "%s: warning: %s\n", prog, escape_message(note).c_str());
    for (const LoadedSample& s : outcome.samples) {
        if (s.lines_without_column > 0)
            std::fprintf(err,
                         "%s: warning: %s: %zu line%s without column %d skipped (first: line %zu)\n",
                         prog, escape_text(s.sample.name).c_str(), s.lines_without_column,
                         s.lines_without_column == 1 ? "" : "s", format.column,
                         s.first_line_without_column);
        const std::string left_out = data::describe_exclusions(s.counts);
        if (!left_out.empty())
            std::fprintf(err, "%s: note: %s: %s left out of %s\n", prog, escape_text(s.sample.name).c_str(),
                         left_out.c_str(), escape_text(s.metric.name).c_str());
    }
}

}  // namespace gfxstat::cli
