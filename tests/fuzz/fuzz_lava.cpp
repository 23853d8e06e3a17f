// SPDX-License-Identifier: MIT
// libFuzzer target for what gfxstat reads from LAVA (formats/lava.cpp and
// below): the YAML reader (formats/yaml_reader.h), the results block
// (formats/lava_block.h) and `import --from lava` on a whole file. The
// first byte picks the input, the rest is its bytes:
//   0: a YAML document        1: one log line (a flow mapping)
//   2: a file for import --from lava (a log or an export)
//   3: a results block's lines (the first its begin line)
//   4: text through yaml_quoted, read back
// InputError (and for yaml_quoted, invalid_argument) is the expected way
// to refuse input. Invariants, besides no crash and no sanitizer report:
// a decoded block has the begin line's byte count and digest; a quoted
// text reads back as itself; an import that succeeds adds only runs that
// the results model accepted.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "data/digest.h"
#include "data/input_error.h"
#include "data/results_model.h"
#include "formats/lava_block.h"
#include "formats/lava_testdef.h"
#include "formats/registry.h"
#include "formats/yaml_reader.h"

namespace {

using namespace gfxstat;

const std::string& scratch_path() {
    static const std::string path = [] {
        static char name[] = "/tmp/gfxstat-fuzz-lava-XXXXXX";
        const int fd = mkstemp(name);
        if (fd < 0) std::abort();
        close(fd);
        std::atexit([] { unlink(name); });
        return std::string(name);
    }();
    return path;
}

void block(std::string_view text) {
    const size_t nl = text.find('\n');
    std::string why;
    auto header = formats::parse_results_block_begin(text.substr(0, nl), why);
    if (!header) return;
    formats::ResultsBlockDecoder d(*header);
    std::string_view rest = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    while (!rest.empty()) {
        const size_t e = rest.find('\n');
        if (!d.add_line(rest.substr(0, e), why)) return;
        rest = e == std::string_view::npos ? std::string_view() : rest.substr(e + 1);
    }
    const auto bytes = d.finish(why);
    if (bytes && (bytes->size() != header->bytes || data::sha256_hex(*bytes) != header->sha256)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
    if (size == 0) return 0;
    const std::string_view rest(reinterpret_cast<const char*>(bytes + 1), size - 1);
    try {
        switch (bytes[0] % 5) {
            case 0: (void)formats::parse_yaml(rest, "fuzz.yaml"); break;
            case 1: (void)formats::parse_yaml_flow_line(rest, "fuzz.log", 1); break;
            case 2: {
                FILE* out = std::fopen(scratch_path().c_str(), "wb");
                if (!out) std::abort();
                if (!rest.empty() && std::fwrite(rest.data(), 1, rest.size(), out) != rest.size()) std::abort();
                std::fclose(out);
                data::ResultsFile results;
                formats::import_file("lava", scratch_path(), {}, results);
                for (const auto& r : results.runs())
                    if (r.variant.empty()) std::abort();
                break;
            }
            case 3: block(rest); break;
            case 4: {
                std::string quoted;
                try {
                    quoted = formats::yaml_quoted(rest);
                } catch (const std::invalid_argument&) {
                    return 0;  // not UTF-8: refused, as documented
                }
                const formats::YamlNode n = formats::parse_yaml("v: " + quoted + "\n", "quoted");
                const formats::YamlNode* v = n.get("v");
                if (!v || v->text != rest) std::abort();
                break;
            }
        }
    } catch (const data::InputError&) {
    }
    return 0;
}
