#include "cli/column_samples.h"

#include <cstdio>
#include <thread>

#include "data/input_error.h"

namespace gfxstat::cli {

std::vector<ColumnReadOutcome> read_columns_parallel(
    const std::vector<ColumnInput>& inputs, const data::ColumnFormat& format,
    const std::function<void(size_t, data::ColumnFile&)>& then) {
    std::vector<ColumnReadOutcome> out(inputs.size());
    auto work = [&](size_t i) {
        try {
            out[i].file = data::read_column_path(inputs[i].path, inputs[i].name, format);
            if (then) then(i, *out[i].file);
        } catch (const data::InputError& e) {
            out[i].error = e.what();
        } catch (const std::bad_alloc&) {
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

void warn_skipped_lines(const char* prog, const data::ColumnFile& file,
                        const data::ColumnFormat& format) {
    if (file.lines_without_column == 0) return;
    std::fprintf(stderr,
                 "%s: warning: %s: %zu line%s without column %d skipped (first: line %zu)\n",
                 prog, file.sample.name.c_str(), file.lines_without_column,
                 file.lines_without_column == 1 ? "" : "s", format.column,
                 file.first_line_without_column);
}

}  // namespace gfxstat::cli
