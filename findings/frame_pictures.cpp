// SPDX-License-Identifier: MIT
#include "findings/frame_pictures.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "data/file_read.h"
#include "data/image_check.h"
#include "data/input_error.h"
#include "data/safe_files.h"

namespace gfxstat::findings {

namespace {

// A kept image is at most a 16384x16384 BMP of 4 bytes a pixel and its
// headers: anything larger is not one gfxstat reads.
constexpr uint64_t kMaxImageFileBytes =
    uint64_t(formats::kMaxFrameImageSide) * formats::kMaxFrameImageSide * 4 + (1u << 16);

std::string join(const std::string& dir, const std::string& name) {
    if (dir.empty() || dir == ".") return name;
    return dir.back() == '/' ? dir + name : dir + "/" + name;
}

// `kept` as shown to people: under the results file's directory unless absolute.
std::string kept_shown(const std::string& file_dir, const std::string& kept) {
    return !kept.empty() && kept.front() == '/' ? kept : join(file_dir, kept);
}

// The directory `kept`, walked from the results file's directory (or "/")
// one component at a time, never through a symbolic link: a results file
// names the directory, but what lies on the way there is nobody's promise.
// Throws InputError naming `shown`.
data::UniqueFd open_kept_directory(const std::string& file_dir, const std::string& kept, const std::string& shown) {
    const bool absolute = kept.front() == '/';
    const std::string start = absolute ? "/" : (file_dir.empty() ? "." : file_dir);
    data::UniqueFd fd(::open(start.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!fd) throw data::input_error(start, 0, std::string("cannot open the directory: ") + std::strerror(errno));
    size_t at = 0;
    while (at < kept.size()) {
        size_t end = kept.find('/', at);
        if (end == std::string::npos) end = kept.size();
        const std::string part = kept.substr(at, end - at);
        at = end + 1;
        if (part.empty() || part == ".") continue;
        data::UniqueFd next(::openat(fd.get(), part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (!next) {
            const int err = errno;
            struct stat st {};
            if (::fstatat(fd.get(), part.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
                throw data::input_error(shown, 0, "'" + part + "' on the way is a symbolic link; kept images are "
                                                  "read through none");
            throw data::input_error(shown, 0, "cannot open the directory: " + std::string(std::strerror(err)));
        }
        fd = std::move(next);
    }
    return fd;
}

struct Found {
    bool found = false;
    std::string shown;
    std::string bytes;
};

// frame-N.pnm, frame-N.bmp or frame-N.png in the directory `dirfd`; not
// found: nothing.
// Throws InputError for one that is there but cannot be read.
Found read_frame_file(int dirfd, const std::string& dir_shown, uint64_t frame) {
    for (const char* ext : {"pnm", "bmp", "png"}) {
        const std::string name = "frame-" + std::to_string(frame) + "." + ext;
        const std::string shown = join(dir_shown, name);
        data::UniqueFd fd(::openat(dirfd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
        if (!fd) {
            if (errno == ENOENT) continue;
            if (errno == ELOOP) throw data::input_error(shown, 0, "is a symbolic link; kept images are read through none");
            throw data::input_error(shown, 0, std::string("cannot open: ") + std::strerror(errno));
        }
        struct stat st {};
        if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode))
            throw data::input_error(shown, 0, "is not a regular file");
        if (uint64_t(st.st_size) > kMaxImageFileBytes)
            throw data::input_error(shown, 0, "is larger than any image gfxstat reads (" +
                                                  std::to_string(st.st_size) + " bytes)");
        return {true, shown, data::read_all(fd.get(), shown)};
    }
    return {};
}

// One variant's checking runs with the directory of the file each came from.
struct Sourced {
    VariantChecks checks;
    std::vector<std::string> dirs;  // per check
};

void add(Sourced& s, const data::ImageCheck& c, const std::string& dir) {
    s.checks.checks.push_back(c);
    s.dirs.push_back(dir);
}

// The image of `frame` from the first ok checking run of `v` that kept it.
struct Lookup {
    std::optional<formats::RgbImage> image;
    std::string shown;
    std::optional<PictureGap> gap;
};

Lookup look_up(const Sourced& v, uint64_t frame) {
    PictureGap gap;
    gap.frame = frame;
    gap.variant = v.checks.variant;
    std::string first_error;  // of a kept directory that could not be read; later ones may hold the frame
    for (size_t i = 0; i < v.checks.checks.size(); ++i) {
        const data::ImageCheck& c = v.checks.checks[i];
        if (c.exit_class != data::ExitClass::ok || c.kept.empty()) continue;
        const std::string dir_shown = kept_shown(v.dirs[i], c.kept);
        gap.looked_in.push_back(dir_shown);
        Found f;
        try {
            const data::UniqueFd dir = open_kept_directory(v.dirs[i], c.kept, dir_shown);
            f = read_frame_file(dir.get(), dir_shown, frame);
        } catch (const data::InputError& e) {
            if (first_error.empty()) first_error = e.what();
            continue;
        }
        if (!f.found) continue;
        try {
            return {formats::parse_frame_image(f.bytes, f.shown), f.shown, std::nullopt};
        } catch (const data::InputError& e) {
            gap.why = PictureGap::Why::unreadable;
            gap.error = e.what();
            return {std::nullopt, "", gap};
        }
    }
    gap.why = !first_error.empty() ? PictureGap::Why::unreadable
                                   : gap.looked_in.empty() ? PictureGap::Why::not_kept : PictureGap::Why::no_file;
    gap.error = first_error;
    return {std::nullopt, "", gap};
}

bool kept_any(const Sourced& v) {
    return std::any_of(v.checks.checks.begin(), v.checks.checks.end(), [](const data::ImageCheck& c) {
        return c.exit_class == data::ExitClass::ok && !c.kept.empty();
    });
}

std::vector<std::string> kept_dirs(const Sourced& v) {
    std::vector<std::string> out;
    for (size_t i = 0; i < v.checks.checks.size(); ++i) {
        const data::ImageCheck& c = v.checks.checks[i];
        if (c.exit_class != data::ExitClass::ok || c.kept.empty()) continue;
        const std::string shown = kept_shown(v.dirs[i], c.kept);
        if (std::find(out.begin(), out.end(), shown) == out.end()) out.push_back(shown);
    }
    return out;
}

CandidatePictures pictures_of(const ImageComparison& c, const Sourced& base, const Sourced& cand, size_t max_frames) {
    CandidatePictures out;
    if (c.outcome != ImageOutcome::differ) return out;
    for (const Sourced* v : {&base, &cand})
        if (!kept_any(*v)) {
            PictureGap gap;
            gap.why = PictureGap::Why::not_kept;
            gap.variant = v->checks.variant;
            out.gaps.push_back(std::move(gap));
        }
    if (!out.gaps.empty()) return out;
    for (const uint64_t frame : c.differing) {
        if (out.frames.size() >= max_frames || out.gaps.size() >= max_frames) break;
        Lookup b = look_up(base, frame);
        if (b.gap) {
            out.gaps.push_back(std::move(*b.gap));
            continue;
        }
        Lookup k = look_up(cand, frame);
        if (k.gap) {
            out.gaps.push_back(std::move(*k.gap));
            continue;
        }
        FramePicture p;
        p.frame = frame;
        p.baseline_file = b.shown;
        p.candidate_file = k.shown;
        p.baseline = std::move(*b.image);
        p.candidate = std::move(*k.image);
        if (p.baseline.width == p.candidate.width && p.baseline.height == p.candidate.height)
            p.difference = image_difference(p.baseline, p.candidate);
        out.frames.push_back(std::move(p));
    }
    return out;
}

}  // namespace

uint8_t dimmed_grey(const uint8_t* rgb) {
    const unsigned luma = (77u * rgb[0] + 150u * rgb[1] + 29u * rgb[2]) >> 8;  // 0..255
    return uint8_t(16 + luma * 3 / 8);
}

ImageDifference image_difference(const formats::RgbImage& a, const formats::RgbImage& b) {
    ImageDifference d;
    d.pixels = uint64_t(a.width) * a.height;
    d.image.width = a.width;
    d.image.height = a.height;
    d.image.rgb.resize(a.rgb.size());
    for (size_t i = 0; i < d.pixels; ++i) {
        const uint8_t* p = a.rgb.data() + 3 * i;
        const uint8_t* q = b.rgb.data() + 3 * i;
        int largest = 0;
        for (int ch = 0; ch < 3; ++ch) largest = std::max(largest, std::abs(int(p[ch]) - int(q[ch])));
        uint8_t* out = d.image.rgb.data() + 3 * i;
        if (largest != 0) {
            ++d.differing_pixels;
            d.largest_channel_difference = std::max(d.largest_channel_difference, largest);
            std::memcpy(out, kDifferenceColour, 3);
        } else
            out[0] = out[1] = out[2] = dimmed_grey(p);
    }
    return d;
}

std::optional<ImageCheckPictures> image_check_pictures(const std::vector<data::ResultsFile>& files,
                                                       const std::vector<std::string>& dirs,
                                                       const std::string& baseline,
                                                       const std::vector<std::string>& candidates,
                                                       size_t max_frames) {
    bool any = false;
    for (const auto& f : files) any |= !f.image_checks().empty();
    if (!any) return std::nullopt;
    std::vector<Sourced> sides(1 + candidates.size());
    sides[0].checks.variant = baseline;
    for (size_t k = 0; k < candidates.size(); ++k) sides[k + 1].checks.variant = candidates[k];
    const bool one_per_variant = files.size() > 1 && files.size() == sides.size();
    for (size_t i = 0; i < files.size(); ++i) {
        const std::string dir = i < dirs.size() ? dirs[i] : ".";
        for (const data::ImageCheck& c : files[i].image_checks()) {
            if (one_per_variant) {
                add(sides[i], c, dir);
                continue;
            }
            for (Sourced& s : sides)
                if (s.checks.variant == c.variant) add(s, c, dir);
        }
    }
    std::vector<VariantChecks> cands;
    for (size_t k = 1; k < sides.size(); ++k) cands.push_back(sides[k].checks);
    ImageCheckPictures out;
    out.checks = check_images(sides[0].checks, cands);
    for (size_t k = 0; k < out.checks.comparisons.size() && k + 1 < sides.size(); ++k)
        out.candidates.push_back(pictures_of(out.checks.comparisons[k], sides[0], sides[k + 1], max_frames));
    for (const Sourced& s : sides) out.kept_dirs.push_back(kept_dirs(s));
    return out;
}

}  // namespace gfxstat::findings
