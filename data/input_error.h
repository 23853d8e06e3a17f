// SPDX-License-Identifier: MIT
// The one error type for bad input: says which file, which line and what was
// expected. The CLI prints it and exits with status 2.
#pragma once

#include <stdexcept>
#include <string>

namespace gfxstat::data {

class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// "FILE:LINE: what" (LINE omitted when 0).
InputError input_error(const std::string& file, size_t line, const std::string& what);

// A token made printable for an error message: quoted, control bytes and
// non-ASCII escaped, long tokens cut with "...".
std::string quote_token(std::string_view token);

}  // namespace gfxstat::data
