// SPDX-License-Identifier: MIT
#pragma once
namespace gfxstat::cli {
// gfxstat store init|push|ls|get|check|upgrade [--store URL] ...
int store_main(int argc, char** argv);
}  // namespace gfxstat::cli
