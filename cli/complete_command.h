// SPDX-License-Identifier: MIT
// gfxstat __complete KIND [ARGS]: the words shell completion offers, so
// that completion/gfxstat.bash and completion/_gfxstat stay thin and
// cannot drift from the commands (their options come from __describe).
//
//   commands                          the command names
//   subcommands COMMAND               campaign's and tune's SUB names
//   options COMMAND [SUB]             option names
//   values COMMAND [SUB] OPTION       the values OPTION accepts, when it has a list
//   kind COMMAND [SUB] OPTION         what OPTION's value is: one word of
//                                     flag choice file dir variant metric command text
//                                     ("@" for OPTION: the command's positional arguments)
//   variants FILE...                  variant labels in these results files
//   metrics FILE...                   their metrics that can be compared
//
// One word per line. It never prints an error and always exits 0: what it
// prints lands in the user's command line.
#pragma once

namespace gfxstat::cli {

int complete_main(int argc, char** argv);

}  // namespace gfxstat::cli
