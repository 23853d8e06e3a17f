#pragma once
namespace gfxstat::cli {
// gfxstat compare [options] BASELINE CANDIDATE...
int compare_main(int argc, char** argv);
}  // namespace gfxstat::cli
