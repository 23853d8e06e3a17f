// Every output parser of gfxstat run on arbitrary bytes: first byte picks
// the parser, the rest is stdout (and, split at the first NUL, stderr).
// Parsers must never crash, and either find metrics with valid names and
// values or say why not.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "drivers/run_parsers.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace gfxstat::drivers;
    if (size == 0) return 0;
    static const auto names = parser_names();
    const std::string& name = names[data[0] % names.size()];
    const std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
    const size_t nul = rest.find('\0');
    RunOutput o;
    o.out = rest.substr(0, nul);
    o.err = nul == std::string_view::npos ? std::string_view() : rest.substr(nul + 1);
    ProcessResult pr;
    pr.ended = ProcessResult::Ended::exited;
    pr.wall_s = static_cast<double>(size) / 7;
    o.process = &pr;
    const auto parser = make_parser(name);
    const ParseResult r = parser->parse(o);
    if (r.metrics.empty() && r.error.empty()) std::abort();  // a failure must say why
    for (const auto& m : r.metrics) {
        if (!valid_metric_name(m.name) || m.values.empty()) std::abort();
        for (const auto& t : m.values)
            if (t.status != gfxstat::data::TokenStatus::decimal && t.status != gfxstat::data::TokenStatus::binary)
                std::abort();
    }
    return 0;
}
