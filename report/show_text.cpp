// SPDX-License-Identifier: MIT
// gfxstat show's text: what a results file holds, in the order a reviewer
// asks: which variants and metrics, how many runs and which were left out,
// how runs spread over boots, and what differed between the machines'
// states; then the diagnostics in words.
#include "report/show_text.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "data/image_check.h"
#include "report/diagnostic_words.h"
#include "report/sample_keys.h"
#include "report/volatile_words.h"
#include "drivers/campaign_simulation.h"
#include "text/fit_table.h"
#include "text/text_escape.h"
#include "text/text_width.h"

namespace gfxstat::report {

using text::escape_message;
using text::escape_text;

namespace {

// Field names as a reviewer says them.
std::string field_label(const std::string& field) {
    static const std::pair<const char*, const char*> kLabels[] = {
        {"hostname", "host"},
        {"kernel_release", "kernel"},
        {"kernel_cmdline", "kernel command line"},
        {"cpu_model", "CPU"},
        {"cpu_governor", "CPU governor"},
        {"cpu_turbo", "CPU turbo"},
        {"gpu_driver", "GPU driver"},
        {"gpu_pci_id", "GPU PCI id"},
        {"gpu_min_freq_mhz", "GPU min frequency (MHz)"},
        {"gpu_max_freq_mhz", "GPU max frequency (MHz)"},
    };
    for (const auto& [k, label] : kLabels)
        if (field == k) return label;
    if (field.rfind("tag:", 0) == 0) return "tag " + field.substr(4);
    return field;
}

std::string shown_value(const std::string& v) { return v.empty() ? "(not recorded)" : v; }

data::SelectionCounts left_out(const data::VariantOverview& v) {
    data::SelectionCounts c;
    c.warmup = v.warmup;
    c.excluded_by_class = v.by_class;
    c.excluded_by_class[static_cast<size_t>(data::ExitClass::ok)] = 0;
    return c;
}

// The kernel's boot id (a UUID: 8 hex digits, then "-") cut to its first 8
// characters, and a simulated boot's number (campaign resume
// --simulate-reboots: "BOOTID:simulated:N"), which the cut would hide: they
// all share the real boot's id. Other ids (an importer's "lava-job-1234")
// are shown whole: their first 8 characters may be all they share.
std::string short_boot(const std::string& boot) {
    if (boot.empty()) return "(unknown)";
    const bool uuid = boot.size() > 8 && boot[8] == '-' &&
                      std::all_of(boot.begin(), boot.begin() + 8, [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
    if (!uuid && !drivers::simulated_boot_number(boot)) return boot;
    const std::string head = boot.size() > 8 ? boot.substr(0, 8) : boot;
    if (const auto n = drivers::simulated_boot_number(boot)) return head + ":sim:" + std::to_string(*n);
    return head;
}

// A table: columns of numbers right-aligned, columns of text left-aligned,
// no wider than `width` (text/fit_table.h: columns from `keyed_from` on
// are variants, headed by their keys when their labels do not fit). Cells
// come from data: escaped here, so that no row is split.
void print_table(FILE* out, size_t width, const std::vector<std::string>& raw_head,
                 const std::vector<std::vector<std::string>>& raw_rows, size_t keyed_from = static_cast<size_t>(-1)) {
    text::TextTable t;
    for (const auto& c : raw_head) t.head.push_back(escape_text(c));
    for (const auto& r : raw_rows) {
        t.rows.emplace_back();
        for (const auto& c : r) t.rows.back().push_back(escape_text(c));
    }
    t.keyed_from = keyed_from;
    if (keyed_from < raw_head.size()) {
        const cli::SampleKeys keys(raw_head.size() - keyed_from);
        for (size_t i = keyed_from; i < raw_head.size(); ++i) t.keys.push_back(keys.key(i - keyed_from));
    }
    for (const std::string& line : text::fit_table(t, width)) std::fprintf(out, "%s\n", line.c_str());
}

// A line of text (escaped), wrapped to `width` under an indent.
void print_wrapped(FILE* out, size_t width, const std::string& escaped, size_t first_indent, size_t indent) {
    for (const std::string& line : text::wrap_text(escaped, width, first_indent, indent))
        std::fprintf(out, "%s\n", line.c_str());
}

// Well-known fields first, in the order of the table above, then the rest.
size_t field_rank(const std::string& field) {
    static const char* kOrder[] = {"kernel_release", "kernel_cmdline", "gpu_driver",
                                   "gpu_pci_id", "gpu_min_freq_mhz", "gpu_max_freq_mhz",
                                   "cpu_model", "cpu_governor", "cpu_turbo", "hostname"};
    for (size_t i = 0; i < std::size(kOrder); ++i)
        if (field == kOrder[i]) return i;
    return std::size(kOrder) + (field.rfind("tag:", 0) == 0 ? 1 : 0);
}

// "3 boots", "boots unknown" (no run recorded one: imports, other tools),
// "2 boots, 4 runs of unknown boot": an unknown boot is not one boot.
std::string boots_text(const data::ResultsOverview& o) {
    if (o.known_boots == 0) return o.runs_of_unknown_boot ? "boots unknown" : "0 boots";
    std::string s = std::to_string(o.known_boots) + (o.known_boots == 1 ? " boot" : " boots");
    if (o.runs_of_unknown_boot)
        s += ", " + std::to_string(o.runs_of_unknown_boot) + (o.runs_of_unknown_boot == 1 ? " run" : " runs") +
             " of unknown boot";
    return s;
}

// Names, labels, boot ids and environment values come from data: each is
// escaped as it is printed (text/text_escape.h).
void print_text(FILE* out, size_t width, const std::string& name, const data::ResultsFile& f,
                const data::ResultsOverview& o, const findings::VolatileContext& context) {
    // The counts stay on one line: after the name, or under it when the
    // name (a long path) leaves no room.
    const std::string counts = cli::fmt("%zu variant%s, %zu metric%s, %zu run%s, %s", o.variants.size(),
                                   o.variants.size() == 1 ? "" : "s", f.metrics().size(),
                                   f.metrics().size() == 1 ? "" : "s", f.runs().size(), f.runs().size() == 1 ? "" : "s",
                                   boots_text(o).c_str());
    const std::string shown_name = escape_text(name);
    if (text::display_width(shown_name) + 2 + counts.size() <= width) {
        std::fprintf(out, "%s: %s\n", shown_name.c_str(), counts.c_str());
    } else {
        for (const std::string& piece : text::split_columns(shown_name + ":", width))
            std::fprintf(out, "%s\n", piece.c_str());
        print_wrapped(out, width, counts, 2, 4);
    }
    print_wrapped(out, width,
                  cli::fmt("results format version %d, created %s by %s", f.header.version,
                      f.header.created.empty() ? "(unknown)" : escape_text(f.header.created).c_str(),
                      f.header.generator.empty() ? "(unknown)" : escape_text(f.header.generator).c_str()),
                  2, 4);
    for (const auto& s : f.header.merged_from)
        print_wrapped(out, width, "merged from " + escape_text(s.path) + " (file " + escape_text(s.id) + ")", 2, 4);

    std::fprintf(out, "\nmetrics\n");
    std::vector<std::vector<std::string>> rows;
    bool any_within = false;
    for (const auto& m : f.metrics()) {
        const char* dir = m.direction == data::Direction::lower_is_better    ? "lower is better"
                          : m.direction == data::Direction::higher_is_better ? "higher is better"
                                                                             : "direction unknown";
        rows.push_back({m.name, m.unit.empty() ? "-" : m.unit, dir, m.within_run() ? m.per : "run"});
        any_within |= m.within_run();
    }
    // The column only where it says something: a file of within-run data.
    if (!any_within)
        for (auto& r : rows) r.pop_back();
    print_table(out, width, any_within ? std::vector<std::string>{"name", "unit", "direction", "one value per"}
                                : std::vector<std::string>{"name", "unit", "direction"},
                rows);

    std::fprintf(out, "\nruns\n");
    rows.clear();
    for (const auto& v : o.variants) {
        const size_t used = v.by_class[static_cast<size_t>(data::ExitClass::ok)];
        const std::string out = data::describe_exclusions(left_out(v));
        rows.push_back({v.variant, std::to_string(v.runs), std::to_string(used), out.empty() ? "-" : out});
    }
    print_table(out, width, {"variant", "runs", "used", "left out"}, rows);
    // Runs the GPU clock sampler saw throttled (compare --drop-throttled).
    for (const auto& v : o.variants)
        if (v.throttled)
            print_wrapped(out, width,
                          cli::fmt("%s: %zu throttled run%s of %zu used", escape_text(v.variant).c_str(), v.throttled,
                              v.throttled == 1 ? "" : "s", v.by_class[static_cast<size_t>(data::ExitClass::ok)]),
                          2, 4);
    // Checking runs (frame checksums): counted, never timed, no samples.
    if (!f.image_checks().empty()) {
        std::vector<std::pair<std::string, size_t>> checks;
        for (const data::ImageCheck& k : f.image_checks()) {
            auto it = std::find_if(checks.begin(), checks.end(), [&](const auto& c) { return c.first == k.variant; });
            if (it == checks.end()) checks.emplace_back(k.variant, 1);
            else ++it->second;
        }
        bool same = true;
        for (const auto& c : checks) same &= c.second == checks[0].second;
        std::string line = "image checks: ";
        if (same && checks.size() > 1) {
            line += std::to_string(checks[0].second) + " per variant";
        } else {
            for (size_t i = 0; i < checks.size(); ++i)
                line += (i ? ", " : "") + escape_text(checks[i].first) + " " + std::to_string(checks[i].second);
        }
        // As the checking pass says it: a count alone would hide checks
        // that timed out or crashed.
        size_t not_ok = 0;
        for (const data::ImageCheck& k : f.image_checks()) not_ok += k.exit_class != data::ExitClass::ok;
        const std::string failed =
            not_ok ? "; " + std::to_string(not_ok) + " did not end ok: their frames are not counted" : std::string();
        print_wrapped(out, width, line + " (checking runs, never timed" + failed + ")", 2, 4);
    }

    if (!f.designs().empty()) {
        // Blocked experiments (gfxstat ab): how the runs were laid out.
        std::fprintf(out, "\ndesigns\n");
        rows.clear();
        for (const data::DesignRecord& d : f.designs()) {
            size_t runs = 0, blocks = 0;
            std::vector<uint64_t> seen;
            for (const data::RunRecord& r : f.runs()) {
                if (r.design != d.id) continue;
                ++runs;
                if (r.block && std::find(seen.begin(), seen.end(), *r.block) == seen.end()) seen.push_back(*r.block);
            }
            blocks = seen.size();
            std::string variants;
            for (const auto& v : d.variants) variants += (variants.empty() ? "" : ", ") + v;
            std::string stop = d.stopping.empty() ? "-" : d.stopping;
            if (d.stopping == "sequential" && !d.metric.empty()) stop += " on " + d.metric;
            rows.push_back({d.id, d.kind, variants, std::to_string(blocks), std::to_string(runs), stop});
        }
        print_table(out, width, {"id", "kind", "variants", "blocks", "runs", "stopping"}, rows);
    }

    bool any_workload = false;
    for (const auto& v : o.variants) any_workload |= !v.workloads.empty();
    if (any_workload) {
        std::fprintf(out, "\nworkloads\n");
        for (const auto& v : o.variants) {
            const bool several = v.workloads.size() + (v.runs_without_workload ? 1 : 0) > 1;
            for (const auto& [w, n] : v.workloads)
                print_wrapped(out, width,
                              escape_text(v.variant) + ": " + escape_text(data::workload_text(w)) +
                                  (several ? " (" + std::to_string(n) + (n == 1 ? " run)" : " runs)") : ""),
                              2, 4);
            if (v.runs_without_workload && !v.workloads.empty())
                print_wrapped(out, width,
                              cli::fmt("%s: not recorded (%zu run%s)", escape_text(v.variant).c_str(), v.runs_without_workload,
                                  v.runs_without_workload == 1 ? "" : "s"),
                              2, 4);
        }
        for (const std::string& w : findings::workload_warnings(o, true))
            print_wrapped(out, width, "warning: " + escape_text(w), 2, 4);
    }

    if (!f.metrics().empty() && !o.variants.empty()) {
        std::fprintf(out, "\nsamples in the runs used\n");
        std::vector<std::string> head = {"metric"};
        for (const auto& v : o.variants) head.push_back(v.variant);
        rows.clear();
        for (const auto& m : f.metrics()) {
            std::vector<std::string> r = {m.name};
            for (const auto& v : o.variants) {
                auto it = v.samples.find(m.name);
                const size_t n = it == v.samples.end() ? 0 : it->second;
                if (m.within_run()) {
                    // Not samples of the build: how many, and from how many runs.
                    auto rt = v.runs_with_metric.find(m.name);
                    const size_t runs = rt == v.runs_with_metric.end() ? 0 : rt->second;
                    r.push_back(std::to_string(n) + " " + m.per + (n == 1 ? "" : "s") + " in " +
                                std::to_string(runs) + (runs == 1 ? " run" : " runs"));
                } else {
                    r.push_back(std::to_string(n));
                }
            }
            rows.push_back(r);
        }
        print_table(out, width, head, rows, 1);
    }

    if (o.machines.size() >= 2) {
        // A fleet: each machine's share of the runs, so that a machine that
        // ran one variant only, or few boots, shows before compare says so.
        std::fprintf(out, "\nruns per machine\n");
        std::vector<std::string> head = {"machine", "boots"};
        for (const auto& v : o.variants) head.push_back(v.variant);
        std::map<std::string, size_t> named;
        for (const auto& m : o.machines) ++named[m.name];
        rows.clear();
        for (const auto& m : o.machines) {
            // Two machines of one hostname (CI images) are told apart by key.
            std::vector<std::string> r = {named[m.name] > 1 ? m.name + " (" + m.key + ")" : m.name,
                                          std::to_string(m.boots)};
            for (const auto& v : o.variants) {
                auto it = m.runs.find(v.variant);
                r.push_back(std::to_string(it == m.runs.end() ? 0 : it->second));
            }
            rows.push_back(r);
        }
        print_table(out, width, head, rows, 2);
        if (o.runs_of_unknown_machine)
            print_wrapped(out, width,
                          cli::fmt("%zu run%s of unknown machine", o.runs_of_unknown_machine,
                              o.runs_of_unknown_machine == 1 ? "" : "s"),
                          2, 4);
    }

    if (!o.boots.empty()) {
        std::fprintf(out, "\nruns per boot\n");
        std::vector<std::string> head = {"boot"};
        for (const auto& v : o.variants) head.push_back(v.variant);
        rows.clear();
        for (const auto& [boot, counts] : o.boots) {
            std::vector<std::string> r = {short_boot(boot)};
            for (const auto& v : o.variants) {
                auto it = counts.find(v.variant);
                r.push_back(std::to_string(it == counts.end() ? 0 : it->second));
            }
            rows.push_back(r);
        }
        print_table(out, width, head, rows, 1);
    }

    std::vector<const data::EnvironmentField*> between, within;
    for (const auto& e : o.environment) {
        if (e.differs_between_variants) between.push_back(&e);
        if (e.varies_within_variant) within.push_back(&e);
    }
    const auto by_rank = [](const data::EnvironmentField* a, const data::EnvironmentField* b) {
        const size_t ra = field_rank(a->field), rb = field_rank(b->field);
        return ra != rb ? ra < rb : a->field < b->field;
    };
    std::stable_sort(between.begin(), between.end(), by_rank);
    std::stable_sort(within.begin(), within.end(), by_rank);
    if (!between.empty() || !context.shifts.empty()) {
        std::fprintf(out, "\nenvironment differences between variants\n");
        for (const auto* e : between) {
            std::string s;
            for (const auto& [variant, values] : e->values) {
                if (!s.empty()) s += " vs ";
                std::string vals;
                for (const auto& [value, n] : values) {
                    if (!vals.empty()) vals += ", ";
                    vals += shown_value(value);
                    if (values.size() > 1) vals += " (" + std::to_string(n) + " runs)";
                }
                s += vals + " (" + variant + ")";
            }
            print_wrapped(out, width, escape_text(field_label(e->field)) + " differs: " + escape_text(s), 2, 4);
        }
        // Facts of the moment only when they differ systematically
        // (findings/volatile_context.h): a finding, in words.
        for (const auto& shift : context.shifts) print_wrapped(out, width, escape_text(volatile_shift_line(shift)), 2, 4);
    }
    if (!within.empty()) {
        std::fprintf(out, "\nenvironment changes within a variant\n");
        for (const auto* e : within)
            for (const auto& [variant, values] : e->values) {
                if (values.size() < 2) continue;
                std::string vals;
                for (const auto& [value, n] : values)
                    vals += (vals.empty() ? "" : ", ") + shown_value(value) + " (" + std::to_string(n) +
                            (n == 1 ? " run)" : " runs)");
                print_wrapped(out, width,
                              escape_text(variant) + ": " + escape_text(field_label(e->field)) + ": " + escape_text(vals),
                              2, 4);
            }
    }
    if (!context.facts.empty()) {
        // The load, temperatures and clocks the runs met: their range, not
        // a difference (data/volatile_facts.h).
        std::fprintf(out, "\ncontext of the runs\n");
        for (const auto& fact : context.facts) print_wrapped(out, width, escape_text(volatile_context_line(fact)), 2, 4);
    }
    if (o.runs_without_environment > 0 && o.runs_without_environment < f.runs().size())
        std::fprintf(out, "\n%zu run%s recorded no environment\n", o.runs_without_environment,
                     o.runs_without_environment == 1 ? "" : "s");
}

// `mixed`: some variant mixes workloads (said above), so nothing is "usual".
void print_diagnostics(FILE* out, size_t width, const std::vector<findings::VariantDiagnostics>& all, bool mixed) {
    if (all.empty()) return;
    std::fprintf(out, "\ndiagnostics\n");
    std::vector<std::vector<std::string>> rows;
    for (const auto& d : all)
        if (d.diagnostics.boots && d.diagnostics.boots->defined) {
            const auto& b = *d.diagnostics.boots;
            char icc[32], deff[32], neff[32];
            std::snprintf(icc, sizeof icc, "%.2f", b.icc);
            std::snprintf(deff, sizeof deff, "%.2f", b.design_effect);
            std::snprintf(neff, sizeof neff, "%.1f", b.effective_n);
            rows.push_back({d.metric, d.variant, std::to_string(b.boots), std::to_string(b.n), icc, deff, neff});
        }
    if (!rows.empty())
        print_table(out, width, {"metric", "variant", "boots", "values", "ICC", "design effect", "effective n"}, rows);
    size_t said = 0;
    for (const auto& d : all)
        for (const std::string& s :
             cli::sample_findings("'" + d.variant + "' (" + d.metric + ")", d.diagnostics, d.unit, 0.95, 5, nullptr,
                             cli::AdviceVocabulary{}, &d.recorded)) {
            print_wrapped(out, width, escape_text(s), 2, 4);
            ++said;
        }
    if (said == 0 && mixed)
        print_wrapped(out, width, "no finding in the samples, but a variant mixes workloads (see workloads above)", 2, 4);
    if (said == 0 && !mixed)
        print_wrapped(out, width,
                      "nothing unusual: no bimodality, drift, change of level, first-run effect, outlier or boot "
                      "clustering found",
                      2, 4);
}

}  // namespace

void print_show_text(FILE* out, size_t width, const std::string& name, const data::ResultsFile& f,
                     const findings::ShowOverview& show) {
    print_text(out, width, name, f, show.overview, show.context);
    print_diagnostics(out, width, show.diagnostics, !show.workload_warnings.empty());
}

}  // namespace gfxstat::report
