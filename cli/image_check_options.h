// SPDX-License-Identifier: MIT
// `--check-images [every:K]`, `--check-frames CALLSET` and `--keep-images
// DIR`, the options of run and ab that add checking runs (frame checksums,
// never timed: drivers/image_check_pass.h), declared once.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "drivers/run_loop.h"

namespace CLI {
class App;
}

namespace gfxstat::cli {

struct ImageCheckOptions {
    std::string every;  // --check-images' value: "" or every:K
    std::string callset, keep_dir;
};

// Registers the options on `app`; the values land in what it returns.
// `per` says where every:K puts a checking run: "timed run" (run) or
// "block" (ab).
std::shared_ptr<ImageCheckOptions> add_image_check_options(CLI::App& app, const char* per);

// With --check-images, the settings into the first plan (ab reads them
// there for every variant), checked against the parser and each
// variant's command before anything runs: "" when they can work, else the
// usage error (exit 2). Makes the --keep-images directory.
std::string apply_image_checks(const CLI::App& app, const ImageCheckOptions& o, std::vector<drivers::RunPlan>& plans);
std::string apply_image_checks(const CLI::App& app, const ImageCheckOptions& o, drivers::RunPlan& plan);

}  // namespace gfxstat::cli
