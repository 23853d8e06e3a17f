#pragma once
namespace gfxstat::cli {
// gfxstat show FILE [--json]
int show_main(int argc, char** argv);
}  // namespace gfxstat::cli
