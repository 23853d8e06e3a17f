// Every output parser of gfxstat run on arbitrary bytes: first byte picks
// the parser, the rest is stdout (and, split at the first NUL, stderr).
// Parsers must never crash, and either find metrics with valid names and
// values or say why not; asking why a failed run failed must not crash
// either. Formats that cut a saved output into runs (glmark2's banners, a
// replayer's FPS lines) must return views of the text, in order, that
// parse in turn.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "drivers/run_parsers.h"
#include "formats/registry.h"

namespace {

using namespace gfxstat::drivers;

void check(const ParseResult& r) {
    if (r.metrics.empty() && r.error.empty()) std::abort();  // a failure must say why
    for (const auto& m : r.metrics) {
        if (!valid_metric_name(m.name) || m.values.empty()) std::abort();
        for (const auto& t : m.values)
            if (t.status != gfxstat::data::TokenStatus::decimal && t.status != gfxstat::data::TokenStatus::binary)
                std::abort();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    static const auto names = parser_names();
    const std::string& name = names[data[0] % names.size()];
    const std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
    const size_t nul = rest.find('\0');
    RunOutput o;
    o.out = rest.substr(0, nul);
    o.err = nul == std::string_view::npos ? std::string_view() : rest.substr(nul + 1);
    RunUsage usage;
    usage.wall_s = static_cast<double>(size) / 7;
    o.usage = &usage;
    const auto parser = make_parser(name);
    check(parser->parse(o));
    (void)parser->failure_reason(o);
    if (const gfxstat::formats::Format* f = gfxstat::formats::find_format(name); f && f->sections) {
        const char* next = o.out.data();
        const char* const end = o.out.data() + o.out.size();
        for (const std::string_view s : f->sections(o.out)) {
            if (s.data() < next || s.data() + s.size() > end) std::abort();
            next = s.data() + s.size();
            RunOutput so;
            so.out = s;
            check(parser->parse(so));
        }
    }
    return 0;
}
