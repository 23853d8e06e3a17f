#pragma once

namespace gfxstat::cli {

// `gfxstat summary [--json] [-C column] [-d delimiters] FILE...`
int summary_main(int argc, char** argv);

}  // namespace gfxstat::cli
