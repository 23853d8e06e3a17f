// SPDX-License-Identifier: MIT
#pragma once
namespace gfxstat::cli {
// gfxstat import --from FORMAT FILE... -o OUT.json
int import_main(int argc, char** argv);
}  // namespace gfxstat::cli
