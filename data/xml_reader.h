// SPDX-License-Identifier: MIT
// A small, strict XML reader for the files other benchmark tools write
// (Phoronix Test Suite's composite.xml). No XML library is among gfxstat's
// dependencies (all of them are Debian packages, and none of those listed
// parses XML), and what PTS writes needs only a small subset, so the reader
// is written here: elements, character data, CDATA sections, comments,
// processing instructions (the <?xml ...?> declaration), and the predefined
// and numeric character references. Attributes are checked for syntax and
// dropped; DOCTYPE declarations (and so custom entities) are refused.
// Every element remembers its line, so importers can say where a bad value
// was found.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gfxstat::data {

struct XmlElement {
    std::string name;
    size_t line = 0;   // of the start tag's '<', from 1
    std::string text;  // all character data directly inside, decoded, untrimmed
    std::vector<XmlElement> children;

    // The first child named `name`, or nullptr.
    const XmlElement* child(std::string_view name) const;
    // Every child named `name`, in document order.
    std::vector<const XmlElement*> children_named(std::string_view name) const;
};

// Parses a whole document and returns its root element. Throws InputError
// naming `file` and the line where the document stopped being well formed,
// with what was expected there.
XmlElement read_xml(std::string_view text, const std::string& file);

}  // namespace gfxstat::data
