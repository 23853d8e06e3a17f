// SPDX-License-Identifier: MIT
#include "drivers/amdgpu_gpu_metrics.h"

#include <cstring>

namespace gfxstat::drivers {

namespace {

// Little-endian, as amdgpu's hosts are (x86, arm64 little-endian).
uint32_t u16_at(std::string_view b, size_t off) {
    unsigned char c[2];
    std::memcpy(c, b.data() + off, 2);
    return static_cast<uint32_t>(c[0]) | static_cast<uint32_t>(c[1]) << 8;
}

uint32_t u32_at(std::string_view b, size_t off) {
    unsigned char c[4];
    std::memcpy(c, b.data() + off, 4);
    return static_cast<uint32_t>(c[0]) | static_cast<uint32_t>(c[1]) << 8 | static_cast<uint32_t>(c[2]) << 16 |
           static_cast<uint32_t>(c[3]) << 24;
}

struct Layout {
    uint8_t format, content;
    size_t size;            // sizeof the struct
    size_t current_gfxclk;  // offsets of the members read
    size_t throttle_status;
};

// The natural-alignment offsets of the kernel's structs. v1_1..v1_3 share
// their first 96 bytes (header, 6 temperatures, 3 activities, socket
// power, 64-bit energy and timestamp, 7 average and 7 current clocks,
// then throttle_status); v1_2 adds a 64-bit firmware timestamp, v1_3
// voltages and the ASIC-independent status. v2_1 and v2_2 (APUs): 12
// temperatures, 2 activities, the timestamp, 12 powers, 6 average clocks,
// 16 current clocks, then throttle_status; v2_2 adds the independent
// status.
constexpr Layout kLayouts[] = {
    {1, 1, 96, 54, 68},  {1, 2, 104, 54, 68}, {1, 3, 120, 54, 68},
    {2, 1, 120, 76, 108}, {2, 2, 128, 76, 108},
};

}  // namespace

std::optional<GpuMetricsReading> parse_gpu_metrics(std::string_view b) {
    if (b.size() < 4) return std::nullopt;
    const uint32_t structure_size = u16_at(b, 0);
    const auto format = static_cast<uint8_t>(b[2]);
    const auto content = static_cast<uint8_t>(b[3]);
    for (const Layout& l : kLayouts) {
        if (l.format != format || l.content != content) continue;
        // The header's size must be the struct's, and all of it read.
        if (structure_size != l.size || b.size() < l.size) return std::nullopt;
        GpuMetricsReading r;
        if (const uint32_t v = u16_at(b, l.current_gfxclk); v != 0xffff) r.current_gfxclk_mhz = v;
        if (const uint32_t v = u32_at(b, l.throttle_status); v != 0xffffffffu) r.throttle_status = v;
        return r;
    }
    return std::nullopt;
}

}  // namespace gfxstat::drivers
