// The formats that exist only as saved files, whose importers still live in
// data/import_*.cpp: CSV tables, hyperfine's JSON export, Google
// Benchmark's JSON, `go test -bench` output and Phoronix Test Suite XML.
#include "formats/format_list.h"

namespace gfxstat::formats {

const Format& csv_format() {
    static const Format f{"csv", "a CSV table: a column per metric, or label and value columns", nullptr,
                          data::import_csv};
    return f;
}
const Format& hyperfine_format() {
    static const Format f{"hyperfine", "hyperfine --export-json: every run's wall, user and system time", nullptr,
                          data::import_hyperfine};
    return f;
}
const Format& gbench_format() {
    static const Format f{"gbench", "Google Benchmark --benchmark_format=json: every repetition", nullptr,
                          data::import_gbench};
    return f;
}
const Format& gotest_format() {
    static const Format f{"gotest", "go test -bench output: ns/op and the other units per line", nullptr,
                          data::import_gotest};
    return f;
}
const Format& pts_format() {
    static const Format f{"pts", "Phoronix Test Suite composite.xml: every result's raw values", nullptr,
                          data::import_pts};
    return f;
}

}  // namespace gfxstat::formats
