// SPDX-License-Identifier: MIT
#include "report/campaign_design.h"

#include "report/diagnostic_words.h"
#include "text/plural.h"
#include "text/text_escape.h"

namespace gfxstat::report {

namespace {

using findings::CampaignDesignFacts;
using text::plural;

std::string runs_line(const CampaignDesignFacts& f) {
    return std::to_string(f.runs_done) + " of " + plural(f.runs_total, "run") + " done; " +
           plural(f.boots_per_variant, "boot") + " per variant planned, " + plural(f.runs_per_boot, "run") + " + " +
           plural(f.warmup_runs, "warm-up") + " per boot";
}

const char* layout_words(const CampaignDesignFacts& f) {
    return f.reboot_variants ? "variants in separate boots (compared across boots)"
                             : "variants interleaved in each boot (paired by boot)";
}

// Only when it matters: a variant in one boot of its own.
std::string confounded(const CampaignDesignFacts& f, const CampaignDesignFacts::Variant& v) {
    return v.boots == 1 && f.reboot_variants
               ? "one boot; its boot-to-boot variation cannot be told from the variant's effect"
               : "";
}

std::string anomalies_line(const CampaignDesignFacts& f) {
    if (f.deploy_failed + f.unexpected_reboots + f.interrupted_runs + f.failed_runs == 0) return "";
    return plural(f.deploy_failed, "failed deploy") + ", " + plural(f.unexpected_reboots, "unexpected reboot") + ", " +
           plural(f.interrupted_runs, "interrupted run") + " re-run, " + plural(f.failed_runs, "failed run") +
           " (gfxstat campaign status for details)";
}

// Every line wrapped to 72 columns, to paste into mail like compare's
// report that follows.
void print_wrapped(FILE* out, const std::string& text, size_t first_indent, size_t indent) {
    for (const auto& line : cli::wrap_words(text, 72, first_indent, indent)) std::fprintf(out, "%s\n", line.c_str());
}

void print_text(const CampaignDesignFacts& f, FILE* out) {
    print_wrapped(out, "campaign " + text::escape_text(f.name) + ": " + runs_line(f) + ";", 0, 2);
    print_wrapped(out, layout_words(f), 2, 4);
    for (const auto& v : f.variants) {
        const std::string warn = confounded(f, v);
        print_wrapped(out,
                      text::escape_text(v.label) + ": measured in " + plural(v.boots, "boot") +
                          (warn.empty() ? "" : " (warning: " + warn + ")"),
                      2, 4);
    }
    if (const std::string a = anomalies_line(f); !a.empty()) print_wrapped(out, "anomalies: " + a, 2, 4);
    if (!f.complete) std::fprintf(out, "  the campaign is not complete: this is an interim analysis\n");
    if (!f.simulated_note.empty()) print_wrapped(out, "note: " + text::escape_message(f.simulated_note), 2, 8);
    std::fprintf(out, "\n");
}

// A heading, a list of facts, a table of the variants; compare's markdown
// follows after a blank line.
void print_markdown(const CampaignDesignFacts& f, FILE* out) {
    const auto md = [](const std::string& s) { return text::escape_markdown(s); };
    std::fprintf(out, "## Campaign %s\n\n", md(f.name).c_str());
    std::fprintf(out, "- %s\n", runs_line(f).c_str());
    std::fprintf(out, "- %s\n", layout_words(f));
    if (const std::string a = anomalies_line(f); !a.empty()) std::fprintf(out, "- anomalies: %s\n", a.c_str());
    std::fprintf(out, "- %s\n", f.complete ? "the campaign is complete"
                                           : "the campaign is not complete: this is an interim analysis");
    if (!f.simulated_note.empty()) std::fprintf(out, "- **note:** %s\n", md(f.simulated_note).c_str());
    std::fprintf(out, "\n| variant | measured in | warning |\n| --- | ---: | --- |\n");
    for (const auto& v : f.variants)
        std::fprintf(out, "| %s | %s | %s |\n", md(v.label).c_str(), plural(v.boots, "boot").c_str(),
                     confounded(f, v).c_str());
    std::fprintf(out, "\n");
}

}  // namespace

void print_campaign_design(const CampaignDesignFacts& facts, bool markdown, FILE* out) {
    if (markdown) print_markdown(facts, out);
    else print_text(facts, out);
}

}  // namespace gfxstat::report
