// SPDX-License-Identifier: MIT
#pragma once
namespace gfxstat::cli {
// gfxstat merge A.json B.json... -o OUT.json
int merge_main(int argc, char** argv);
}  // namespace gfxstat::cli
