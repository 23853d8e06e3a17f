// SPDX-License-Identifier: MIT
#include "data/results_model.h"

#include <cstdio>

#include "analysis/enum_names.h"
#include "data/image_check.h"
#include "data/run_checks.h"

namespace gfxstat::data {

namespace {

using analysis::EnumName;

constexpr EnumName<Direction> kDirectionNames[] = {{Direction::lower_is_better, "lower"},
                                                   {Direction::higher_is_better, "higher"},
                                                   {Direction::unknown, "unknown"}};

constexpr EnumName<ExitClass> kExitClassNames[] = {
    {ExitClass::ok, "ok"},           {ExitClass::fail, "fail"},   {ExitClass::skip, "skip"},
    {ExitClass::timeout, "timeout"}, {ExitClass::crash, "crash"}, {ExitClass::invalid, "invalid"}};

}  // namespace

const char* direction_name(Direction d) { return analysis::name_of(kDirectionNames, d, "unknown"); }

std::optional<Direction> parse_direction(std::string_view s) { return analysis::parse_name(kDirectionNames, s); }

const char* exit_class_name(ExitClass c) { return analysis::name_of(kExitClassNames, c, "fail"); }

std::optional<ExitClass> parse_exit_class(std::string_view s) { return analysis::parse_name(kExitClassNames, s); }

std::string machine_key(const Environment& env) {
    if (auto m = env.fields.find("machine"); m != env.fields.end() && !m->second.empty()) return m->second;
    if (auto h = env.fields.find("hostname"); h != env.fields.end()) return h->second;
    return {};
}

std::string machine_name(const Environment& env) {
    if (auto h = env.fields.find("hostname"); h != env.fields.end() && !h->second.empty()) return h->second;
    return machine_key(env);
}

std::string environment_id(const Environment& env) {
    // FNV-1a over a length-prefixed serialisation: stable across versions
    // and platforms, so the same machine state always gets the same id.
    uint64_t h = 0xcbf29ce484222325ull;
    const auto mix = [&](std::string_view s) {
        const std::string len = std::to_string(s.size()) + ":";
        for (unsigned char c : len) h = (h ^ c) * 0x100000001b3ull;
        for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
    };
    for (const auto& [k, v] : env.fields) mix(k), mix(v);
    mix("tags");
    for (const auto& [k, v] : env.tags) mix(k), mix(v);
    if (const WorkloadRecord* w = env.workload ? &*env.workload : nullptr) {
        // Only when there is one: environments without keep their ids.
        const auto list = [&](const char* what, const std::vector<std::string>& items) {
            mix(what);
            mix(std::to_string(items.size()));
            for (const auto& i : items) mix(i);
        };
        const auto map = [&](const char* what, const std::map<std::string, std::string>& m) {
            mix(what);
            mix(std::to_string(m.size()));
            for (const auto& [k, v] : m) mix(k), mix(v);
        };
        mix("workload");
        list("argv", w->argv);
        mix(w->builtin);
        map("options", w->options);
        mix(w->parser);
        map("parser_options", w->parser_options);
        list("metrics", w->metrics);
        map("env", w->env);
        for (const auto& [k, raw] : w->unknown) mix(k), mix(raw);
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "env-%016llx", static_cast<unsigned long long>(h));
    return buf;
}

namespace {

// An argument as a shell would need it to mean the same word.
std::string shell_word(const std::string& a) {
    const bool plain = !a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                         "0123456789-_./=:,+%@") == std::string::npos;
    if (plain) return a;
    std::string q = "'";
    for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

}  // namespace

std::string workload_text(const WorkloadRecord& w) {
    std::string s;
    for (const auto& [k, v] : w.env) s += shell_word(k + "=" + v) + " ";
    if (!w.builtin.empty()) {
        s += w.builtin;
        for (const auto& [k, v] : w.options) s += " --" + k + " " + shell_word(v);
    } else {
        for (size_t i = 0; i < w.argv.size(); ++i) s += (i ? " " : "") + shell_word(w.argv[i]);
        if (w.argv.empty()) s += "(no command)";
    }
    std::string parser = w.parser.empty() ? "unknown" : w.parser;
    std::string settings;
    for (const auto& m : w.metrics) settings += (settings.empty() ? "" : ", ") + shell_word(m);
    for (const auto& [k, v] : w.parser_options) settings += (settings.empty() ? "" : ", ") + k + " " + shell_word(v);
    return s + " (parser " + parser + (settings.empty() ? "" : ": " + settings) + ")";
}

const MetricValues* RunRecord::metric(std::string_view name) const {
    for (const auto& m : metrics)
        if (m.name == name) return &m;
    return nullptr;
}

const MetricInfo* ResultsFile::find_metric(std::string_view name) const {
    auto it = metric_index_.find(std::string(name));
    return it == metric_index_.end() ? nullptr : &metrics_[it->second];
}

const Environment* ResultsFile::find_environment(std::string_view id) const {
    auto it = environment_index_.find(std::string(id));
    return it == environment_index_.end() ? nullptr : &environments_[it->second];
}

std::string ResultsFile::declare_metric(const MetricInfo& m) {
    if (m.name.empty()) return "a metric needs a non-empty name";
    if (const auto it = metric_index_.find(m.name); it != metric_index_.end()) {
        MetricInfo& old = metrics_[it->second];
        if (old.same_declaration(m)) {
            // The first word on `primary` counts; a later one only fills
            // it in where nothing was said (a file written before gfxstat
            // recorded it, appended to by one that does).
            if (!old.primary) old.primary = m.primary;
            return {};
        }
        const auto describe = [](const MetricInfo& x) {
            return "unit '" + x.unit + "', " + direction_name(x.direction) + " is better" +
                   (x.exact ? ", exact" : "") + (x.per.empty() ? "" : ", one value per " + x.per);
        };
        return "metric '" + m.name + "' was declared with " + describe(old) + "; now " + describe(m);
    }
    metric_index_.emplace(m.name, metrics_.size());
    metrics_.push_back(m);
    return {};
}

const DesignRecord* ResultsFile::find_design(std::string_view id) const {
    auto it = design_index_.find(std::string(id));
    return it == design_index_.end() ? nullptr : &designs_[it->second];
}

std::string ResultsFile::add_design(const DesignRecord& d) {
    if (d.id.empty()) return "a design needs a non-empty id";
    if (const DesignRecord* old = find_design(d.id)) {
        if (*old == d) return {};
        return "design '" + d.id + "' was recorded before with different content";
    }
    design_index_.emplace(d.id, designs_.size());
    designs_.push_back(d);
    return {};
}

std::string ResultsFile::add_environment(Environment& env) {
    // These names are the record's own members on disk.
    for (const char* reserved : {"id", "type", "tags", "workload"})
        if (env.fields.count(reserved))
            return std::string("an environment field may not be called '") + reserved + "'";
    if (env.id.empty()) env.id = environment_id(env);
    if (const Environment* old = find_environment(env.id)) {
        if (old->same_content(env)) return {};
        return "environment '" + env.id + "' was recorded before with different content";
    }
    environment_index_.emplace(env.id, environments_.size());
    environments_.push_back(env);
    return {};
}

std::optional<size_t> ResultsFile::find_run(const std::string& origin, const std::string& variant,
                                            uint64_t run) const {
    return run_index_.find(origin, variant, run);
}

namespace {

// Runs of a file repeat their variant, boot, environment, origin, design,
// exit reason and metric names: each text is kept once for the whole file,
// not once a run (StringTable).
void share_repeated_strings(RunRecord& run, StringTable& strings) {
    for (SharedString* s : {&run.variant, &run.boot, &run.environment, &run.origin, &run.design, &run.exit_reason})
        strings.share(*s);
    for (MetricValues& m : run.metrics) strings.share(m.name);
}

}  // namespace

std::string ResultsFile::add_run(RunRecord run) {
    if (std::string conflict = run_conflict(*this, run); !conflict.empty()) return conflict;
    share_repeated_strings(run, strings_);
    if (!run_index_.add(run.origin, run.variant, run.run, runs_.size())) return run_recorded_twice(run);
    // A set beside the ordered list: a projection (--col name) can make
    // thousands of variants, and a scan per run would be quadratic.
    if (variant_set_.insert(run.variant).second) variants_.push_back(run.variant);
    if (run.origin.empty()) {
        uint64_t& next = next_run_[run.variant];
        if (run.run >= next) next = run.run + 1;
    }
    runs_.push_back(std::move(run));
    return {};
}

ResultsFile::ResultsFile() = default;
ResultsFile::~ResultsFile() = default;
ResultsFile::ResultsFile(const ResultsFile&) = default;
ResultsFile::ResultsFile(ResultsFile&&) noexcept = default;
ResultsFile& ResultsFile::operator=(const ResultsFile&) = default;
ResultsFile& ResultsFile::operator=(ResultsFile&&) noexcept = default;

size_t checksum_hex_digits(std::string_view method) {
    if (method == "md5") return 32;
    if (method == "sha256-file") return 64;
    return 0;
}

std::string image_check_conflict(const ResultsFile& file, const ImageCheck& c) {
    if (c.variant.empty()) return "an image check needs a non-empty variant label";
    const std::string who = "image check " + std::to_string(c.check) + " of variant '" + c.variant + "'";
    if (c.check > kMaxRunIndex) return who + ": the check index is beyond 2^63-1";
    if (c.tool.empty()) return who + " needs the \"tool\" that replayed the frames";
    if (c.method.empty()) return who + " needs the \"method\" that checksummed them";
    if (c.exit_class != ExitClass::ok && !c.frames.empty())
        return who + " did not end ok (" + exit_class_name(c.exit_class) +
               ") but holds frame checksums; a failed check holds none";
    const size_t digits = checksum_hex_digits(c.method);
    for (const auto& [frame, sum] : c.frames) {
        bool hex = !sum.empty();
        for (char ch : sum) hex &= (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f');
        const bool length_ok = digits ? sum.size() == digits : sum.size() == 32 || sum.size() == 64;
        if (!hex || !length_ok)
            return who + ": frame " + std::to_string(frame) + "'s checksum must be " +
                   (digits ? std::to_string(digits) : std::string("32 or 64")) +
                   " lowercase hex digits" + (digits ? " (method " + c.method + ")" : "") + ", not '" + sum + "'";
    }
    if (std::string e = reference_conflict(file, c.variant, c.environment, c.design); !e.empty()) return e;
    if (c.design.empty() && c.block) return who + " has a \"block\" but not the \"design\" it belongs to";
    return {};
}

std::string ResultsFile::add_image_check(ImageCheck check) {
    if (std::string conflict = image_check_conflict(*this, check); !conflict.empty()) return conflict;
    auto key = std::make_tuple(check.origin, check.variant, check.check);
    if (image_check_index_.count(key)) {
        std::string who = "image check " + std::to_string(check.check) + " of variant '" + check.variant + "'";
        if (!check.origin.empty()) who += " from file " + check.origin;
        return who + " is recorded twice";
    }
    image_check_index_.emplace(std::move(key), image_checks_.size());
    image_checks_.push_back(std::move(check));
    return {};
}

std::optional<size_t> ResultsFile::find_image_check(const std::string& origin, const std::string& variant,
                                                    uint64_t check) const {
    const auto it = image_check_index_.find(std::make_tuple(origin, variant, check));
    if (it == image_check_index_.end()) return std::nullopt;
    return it->second;
}

uint64_t ResultsFile::next_run_index(std::string_view variant) const {
    auto it = next_run_.find(std::string(variant));
    return it == next_run_.end() ? 0 : it->second;
}

std::vector<std::string> ResultsFile::variants() const { return variants_; }

}  // namespace gfxstat::data
