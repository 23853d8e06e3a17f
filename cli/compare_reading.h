// SPDX-License-Identifier: MIT
// The first steps of every command that compares (compare, ab, campaign
// analyze, report): the inputs read as compare reads them, the analysis
// settings taken from the command's, and the notes printed as compare
// prints them. The analysis itself is findings::compare.
#pragma once

#include <string>
#include <vector>

#include "cli/compare_command.h"
#include "findings/compare.h"

namespace gfxstat::cli {

// A note or warning on stderr ("PROG: note: ..."), broken at spaces into
// lines of 72 columns, the later ones indented.
void print_compare_note(const std::string& program, const char* kind, const std::string& text);

// findings::compare's notes, printed as they come (print_compare_note).
findings::NoteSink compare_notes(const std::string& program);

// LABEL=PATH and PATH:COLUMN, each read whole (a column file's sample, or
// a results file); what reading noted is printed as it is read. Throws
// data::InputError (a label given twice, a file not read).
findings::CompareInputs read_compare_inputs(const std::vector<std::string>& files, const CompareSettings& s);

// The analysis's settings: the command's, each sample's run order kept
// when a KCIDB export or a picture of the runs needs it.
findings::CompareOptions analysis_options(const CompareSettings& s);

}  // namespace gfxstat::cli
