// SPDX-License-Identifier: MIT
// Random identifiers from the kernel's pool (getrandom), as lower-case hex:
// a results file's id, an `ab` campaign's id. One loop for the short reads
// and EINTR; each caller words its own error.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace gfxstat::data {

// `bytes` random bytes as 2 * `bytes` lower-case hex digits; std::nullopt,
// with errno set, when getrandom fails.
std::optional<std::string> random_hex(size_t bytes);

}  // namespace gfxstat::data
