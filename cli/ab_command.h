// SPDX-License-Identifier: MIT
#pragma once

namespace gfxstat::cli {
// gfxstat ab -o OUT --variant A --variant B [options] -- COMMAND [ARGS...]
int ab_main(int argc, char** argv);
}  // namespace gfxstat::cli
