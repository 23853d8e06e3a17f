// SPDX-License-Identifier: MIT
#include "cli/compare_reading.h"

#include <algorithm>
#include <cstdio>

#include "cli/sample_inputs.h"
#include "data/input_error.h"
#include "report/diagnostic_words.h"
#include "text/text_escape.h"

namespace gfxstat::cli {

void print_compare_note(const std::string& program, const char* kind, const std::string& text) {
    // Notes are pasted into mail with the report, which is 72 columns wide too.
    for (const auto& line : wrap_words(program + ": " + kind + ": " + text, 72, 0, 4))
        std::fprintf(stderr, "%s\n", line.c_str());
}

findings::NoteSink compare_notes(const std::string& program) {
    return [program](const char* kind, const std::string& text) { print_compare_note(program, kind, text); };
}

findings::CompareInputs read_compare_inputs(const std::vector<std::string>& files, const CompareSettings& s) {
    findings::CompareInputs in;
    for (const auto& f : files) {
        SampleInput input = parse_sample_argument(f);
        if (input.path == "-") input.name = "<stdin>";
        for (const SampleInput& before : in.inputs)
            if (!input.label.empty() && before.label == input.label)
                throw data::InputError("the label '" + input.label + "' is given twice: each data set needs its own");
        in.inputs.push_back(std::move(input));
    }
    for (const auto& input : in.inputs) {
        RawInput raw = read_input(input, s.column);
        for (const auto& note : raw.notes) print_compare_note(s.program, "warning", text::escape_message(note));
        if (raw.results) in.results.push_back(std::move(*raw.results));
        else in.columns.push_back(std::move(raw.column->sample));
    }
    return in;
}

findings::CompareOptions analysis_options(const CompareSettings& s) {
    findings::CompareOptions options = s;
    options.keep_run_order = std::any_of(s.exports.begin(), s.exports.end(),
                                         [](const ExportRequest& q) { return q.kind == "kcidb"; });
    // Pictures draw the runs in the order they ran.
    options.keep_run_order |= !s.plot.empty();
    return options;
}

}  // namespace gfxstat::cli
