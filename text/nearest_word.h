// SPDX-License-Identifier: MIT
// "did you mean ...?": the known words nearest to a mistyped one, for an
// unknown command (`gfxstat comapre`), subcommand, option (`--treshold`)
// or value (`--format jsn`). A suggestion is made only when the word is
// close enough that it is likely the same word mistyped; for nonsense
// (`gfxstat xyz`) there is none, as git does.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gfxstat::text {

// Damerau-Levenshtein distance in its "optimal string alignment" form:
// insertions, deletions, substitutions and transpositions of two adjacent
// bytes each cost 1 ("comapre" is 1 from "compare"). O(|a| |b|) time,
// O(|b|) memory.
size_t edit_distance(std::string_view a, std::string_view b);

// The words of `known` that `typed` most likely meant, best first, at most
// three: those that `typed` begins (at least 3 characters: "--thresh"),
// else those at the smallest edit distance when it is small for the
// word's length (1 up to 5 characters, 2 up to 8, then 3). Leading dashes
// are not counted in lengths, and an option is only suggested for an
// option ("--x" for "-x" or "--x", never "x"). Empty when none is close.
std::vector<std::string> nearest_words(std::string_view typed, const std::vector<std::string>& known);

// "; did you mean compare?" / "; did you mean --gate or --gpu?", or ""
// when nearest_words finds none: appended to an error line.
std::string did_you_mean(std::string_view typed, const std::vector<std::string>& known);

}  // namespace gfxstat::text
