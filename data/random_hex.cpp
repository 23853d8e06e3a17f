// SPDX-License-Identifier: MIT
#include "data/random_hex.h"

#include <sys/random.h>

#include <cerrno>
#include <cstdio>
#include <vector>

namespace gfxstat::data {

std::optional<std::string> random_hex(size_t bytes) {
    std::vector<unsigned char> pool(bytes);
    size_t got = 0;
    while (got < bytes) {
        // getrandom may return fewer bytes than asked, or be interrupted.
        const ssize_t n = ::getrandom(pool.data() + got, bytes - got, 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            return std::nullopt;
        }
        got += static_cast<size_t>(n);
    }
    std::string hex(2 * bytes, '0');
    char digits[3];
    for (size_t i = 0; i < bytes; ++i) {
        std::snprintf(digits, sizeof digits, "%02x", pool[i]);
        hex[2 * i] = digits[0], hex[2 * i + 1] = digits[1];
    }
    return hex;
}

}  // namespace gfxstat::data
