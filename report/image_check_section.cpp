// SPDX-License-Identifier: MIT
#include "report/image_check_section.h"

#include <utility>

#include "report/image_check_words.h"
#include "report/png_image.h"
#include "text/plural.h"

namespace gfxstat::report {

namespace {

using findings::FramePicture;
using findings::PictureGap;

std::string sides(const formats::RgbImage& i) { return std::to_string(i.width) + "x" + std::to_string(i.height); }

// "6 MB", "1.6 kB", "900 bytes".
std::string byte_size(size_t bytes) {
    if (bytes < 1000) return std::to_string(bytes) + " bytes";
    const bool mega = bytes >= 1'000'000;
    const size_t unit = mega ? 1'000'000 : 1000, tenths = (bytes * 10 + unit / 2) / unit;
    return std::to_string(tenths / 10) + (tenths % 10 ? "." + std::to_string(tenths % 10) : "") +
           (mega ? " MB" : " kB");
}

// What a frame's row says above its pictures.
std::string frame_caption(const FramePicture& p, const std::string& base, const std::string& cand, bool shrunk) {
    std::string s = "Frame " + std::to_string(p.frame) + ": ";
    if (!p.difference)
        s += "the images differ in size (" + sides(p.baseline) + " in " + base + ", " + sides(p.candidate) + " in " +
             cand + "): no difference image.";
    else if (p.difference->differing_pixels == 0)
        s += "no pixel differs (the files differ, the images do not).";
    else
        s += std::to_string(p.difference->differing_pixels) + " of " + text::plural(p.difference->pixels, "pixel") +
             (p.difference->differing_pixels == 1 ? " differs" : " differ") + " (shown in magenta over the baseline in grey), by at most " +
             std::to_string(p.difference->largest_channel_difference) + " in a channel.";
    if (shrunk) s += " Shown shrunk to fit the page (a shown pixel of the difference is magenta when any pixel it stands for differs); the files hold the images whole.";
    return s;
}

std::string gap_note(const PictureGap& g) {
    switch (g.why) {
        case PictureGap::Why::not_kept:
            return "The images of " + g.variant + " were not kept: record its checking runs with --keep-images DIR "
                   "to see its differing frames here.";
        case PictureGap::Why::no_file: {
            std::string dirs;
            for (const auto& d : g.looked_in) dirs += (dirs.empty() ? "" : ", ") + d;
            return "Frame " + std::to_string(g.frame) + ": no kept image of " + g.variant + " (looked in " + dirs +
                   ").";
        }
        case PictureGap::Why::unreadable:
            return "Frame " + std::to_string(g.frame) + ": the kept image of " + g.variant +
                   " could not be read: " + g.error + ".";
    }
    return "";
}

size_t base64_size(size_t n) { return (n + 2) / 3 * 4; }

}  // namespace

HtmlSection image_check_section(const findings::ImageCheckPictures& pics, const PictureLimits& limits) {
    const findings::ImageChecks& checks = pics.checks;
    HtmlSection s;
    s.id = "images";
    s.title = "Image checks";
    s.paragraphs.push_back("Frame checksums of the checking runs (never timed): a candidate whose stable frames "
                           "differ from the baseline's renders differently and is never called an improvement.");
    for (const std::string& note : image_variant_notes(checks.baseline)) s.paragraphs.push_back(note);
    size_t embedded = 0;
    for (size_t k = 0; k < checks.comparisons.size(); ++k) {
        const findings::ImageComparison& c = checks.comparisons[k];
        HtmlPictureGroup g;
        g.heading = c.candidate + " against " + c.baseline;
        g.paragraphs.push_back(c.candidate + " vs " + c.baseline + ": " + image_verdict_words(c));
        if (k < checks.candidates.size())
            for (const std::string& note : image_variant_notes(checks.candidates[k])) g.paragraphs.push_back(note);
        for (const std::string& note : image_comparison_notes(c)) g.paragraphs.push_back(note);
        if (k < pics.candidates.size()) {
            const findings::CandidatePictures& cp = pics.candidates[k];
            for (const FramePicture& p : cp.frames) {
                HtmlPictureRow row;
                bool shrunk = false;
                auto add = [&](const formats::RgbImage& img, std::string caption, const uint8_t* marker = nullptr) {
                    const formats::RgbImage small = shrink_to_width(img, limits.max_width, marker);
                    shrunk |= small.width != img.width;
                    row.pictures.push_back({encode_png(small), small.width, small.height, std::move(caption)});
                };
                add(p.baseline, c.baseline + ": " + p.baseline_file);
                add(p.candidate, c.candidate + ": " + p.candidate_file);
                if (p.difference) add(p.difference->image, "difference", findings::kDifferenceColour);
                size_t bytes = 0;
                for (const HtmlPicture& pic : row.pictures) bytes += base64_size(pic.png.size());
                if (embedded + bytes > limits.max_bytes) {
                    g.notes.push_back("Frame " + std::to_string(p.frame) + " is not shown: the page holds at most " +
                                      byte_size(limits.max_bytes) + " of pictures. Its images are " +
                                      p.baseline_file + " (" + c.baseline + ") and " + p.candidate_file + " (" +
                                      c.candidate + ").");
                    continue;
                }
                embedded += bytes;
                row.caption = frame_caption(p, c.baseline, c.candidate, shrunk);
                g.rows.push_back(std::move(row));
            }
            for (const PictureGap& gap : cp.gaps) g.notes.push_back(gap_note(gap));
            const size_t looked = cp.frames.size() + cp.gaps.size();
            if (c.outcome == findings::ImageOutcome::differ && !cp.frames.empty() && c.differing.size() > looked)
                g.notes.push_back("Looked at here: the first " + std::to_string(looked) + " of the " +
                                  std::to_string(c.differing.size()) + " differing frames.");
        }
        s.picture_groups.push_back(std::move(g));
    }
    return s;
}

}  // namespace gfxstat::report
