// SPDX-License-Identifier: MIT
#pragma once
namespace gfxstat::cli {
// gfxstat run [options] -o FILE -- COMMAND [ARGS...]
// gfxstat run [options] -o FILE --workload NAME
int run_main(int argc, char** argv);
// gfxstat workload NAME [options]: gfxstat's built-in workloads, which
// `run --workload` runs as child processes and parses.
int workload_main(int argc, char** argv);
}  // namespace gfxstat::cli
