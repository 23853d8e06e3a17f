// SPDX-License-Identifier: MIT
#pragma once

namespace gfxstat::cli {

// `gfxstat ministat` and a symlink named `ministat`: FreeBSD/Debian
// ministat's options, output and exit statuses, with its numerical errors
// fixed (docs/ministat-compat.md). `prog` prefixes messages.
int ministat_main(int argc, char** argv, const char* prog);

}  // namespace gfxstat::cli
