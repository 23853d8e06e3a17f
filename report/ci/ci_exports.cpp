// SPDX-License-Identifier: MIT
#include "report/ci/ci_exports.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "data/input_error.h"
#include "data/safe_files.h"

namespace gfxstat::cli {

std::string render_to_string(void (*render)(const CompareReport&, FILE*), const CompareReport& r) {
    char* buf = nullptr;
    size_t size = 0;
    FILE* f = open_memstream(&buf, &size);
    if (!f) throw data::InputError(std::string("cannot render a report: ") + std::strerror(errno));
    render(r, f);
    std::fclose(f);
    std::string out(buf, size);
    std::free(buf);
    return out;
}

// $GITHUB_STEP_SUMMARY: the runner creates the file and reads it when the
// step ends; every step appends. Appended to, never replaced, and never
// through a symbolic link.
void append_step_summary(const std::string& path, const std::string& text) {
    // Only to a regular file: a FIFO opened for writing waits for a reader.
    const data::UniqueFd fd =
        data::open_regular_file(path, O_WRONLY | O_APPEND | O_CREAT, 0644, "GITHUB_STEP_SUMMARY " + path);
    if (!fd)
        throw data::InputError("GITHUB_STEP_SUMMARY " + path + ": cannot append the markdown report: " +
                               std::strerror(errno));
    data::write_fully(fd.get(), text + "\n", path);
}

void write_exports(const std::vector<ExportRequest>& requests, const CompareReport& r, const ExportContext& ctx,
                   void (*markdown)(const CompareReport&, FILE*), void (*json)(const CompareReport&, FILE*)) {
    std::string markdown_text;
    const auto md = [&]() -> const std::string& {
        if (markdown_text.empty()) markdown_text = render_to_string(markdown, r);
        return markdown_text;
    };
    for (const ExportRequest& q : requests) {
        if (q.kind == "rows") {
            if (q.rows) q.rows(verdict_rows(r, ctx.gate));
            continue;
        }
        std::string bytes;
        if (q.kind == "junit") bytes = render_junit(r, ctx);
        else if (q.kind == "openmetrics") bytes = render_openmetrics(r, ctx);
        else if (q.kind == "kcidb") bytes = render_kcidb(r, ctx);
        else if (q.kind == "markdown") bytes = md();
        else if (q.kind == "json") bytes = render_to_string(json, r);
        else throw std::logic_error("write_exports: unknown report kind " + q.kind);
        data::write_file_atomically(q.path, bytes, 0644, true);
    }
    if (const char* summary = std::getenv("GITHUB_STEP_SUMMARY"); summary && *summary) {
        const bool asked = std::any_of(requests.begin(), requests.end(),
                                       [](const ExportRequest& q) { return q.kind == "markdown"; });
        if (asked) append_step_summary(summary, md());
    }
}

}  // namespace gfxstat::cli
