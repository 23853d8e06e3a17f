// SPDX-License-Identifier: MIT
#include "cli/image_check_options.h"

#include <CLI/CLI.hpp>

#include "drivers/image_check_pass.h"

namespace gfxstat::cli {

std::shared_ptr<ImageCheckOptions> add_image_check_options(CLI::App& app, const char* per) {
    auto o = std::make_shared<ImageCheckOptions>();
    app.add_option("--check-images", o->every,
                   std::string("checking runs beside the timed ones (--parser apitrace or gfxrecon): frame "
                               "checksums, never timed; 2 per variant after the timed runs, or one after every K-th ") +
                       per + ", topped up to 2")
        ->type_name("[every:K]")
        ->expected(0, 1);
    app.add_option("--check-frames", o->callset,
                   "with --check-images and apitrace: check only these calls (-S CALLSET): numbers and ranges A-B[/STEP]")
        ->type_name("CALLSET");
    app.add_option("--keep-images", o->keep_dir,
                   "with --check-images: keep each checking run's images in DIR/ID-VARIANT-check-NNNN/frame-N.EXT")
        ->type_name("DIR");
    return o;
}

std::string apply_image_checks(const CLI::App& app, const ImageCheckOptions& o, std::vector<drivers::RunPlan>& plans) {
    auto s = std::make_shared<drivers::ImageCheckSettings>();
    s->enabled = app.get_option("--check-images")->count() > 0;
    s->parser = plans.empty() || !plans[0].workload ? "" : plans[0].workload->parser;
    s->callset = o.callset;
    s->keep_dir = o.keep_dir;
    std::vector<std::vector<std::string>> commands;
    for (const auto& p : plans) commands.push_back(p.command);
    try {
        if (app.get_option("--check-frames")->count() && o.callset.empty())
            throw std::invalid_argument("--check-frames: give call numbers, e.g. 1370,1392-1500/22");
        if (s->enabled) s->every = drivers::parse_check_images_every(o.every);
        drivers::check_image_settings(*s, commands);
    } catch (const std::exception& e) {  // std::invalid_argument, or data::InputError for --keep-images
        return e.what();
    }
    if (s->enabled && !plans.empty()) plans[0].image_checks = std::move(s);
    return "";
}

std::string apply_image_checks(const CLI::App& app, const ImageCheckOptions& o, drivers::RunPlan& plan) {
    std::vector<drivers::RunPlan> one(1);
    one[0].command = plan.command;
    one[0].workload = plan.workload;
    std::string error = apply_image_checks(app, o, one);
    plan.image_checks = one[0].image_checks;
    return error;
}

}  // namespace gfxstat::cli
