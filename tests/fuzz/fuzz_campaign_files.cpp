// SPDX-License-Identifier: MIT
// The campaign's own files on arbitrary bytes: a plan (PLAN.json as the
// user writes it, or DIR/plan.json with its schedule) when the first byte
// is even, a journal when it is odd. Both must either be read or refused
// with an InputError (file, line or member, what was expected): no other
// exception, no crash. What is read must survive being written again: a
// plan's JSON parses back to the same JSON, a journal's lines to the same
// events.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "data/input_error.h"
#include "drivers/campaign_journal.h"
#include "drivers/campaign_plan.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace gfxstat;
    if (size == 0) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    if (data[0] % 2 == 0) {
        drivers::CampaignPlan plan;
        try {
            plan = drivers::parse_campaign_plan(text, "plan.json");
        } catch (const data::InputError&) {
            return 0;
        }
        if (plan.steps.size() > 20000) return 0;  // a round trip of a huge schedule only costs time
        const std::string json = drivers::campaign_plan_json(plan);
        try {
            const drivers::CampaignPlan again = drivers::parse_campaign_plan(json, "plan.json");
            if (drivers::campaign_plan_json(again) != json) std::abort();
        } catch (const data::InputError&) {
            std::abort();  // what gfxstat writes, it must read
        }
    } else {
        std::vector<drivers::JournalEvent> events;
        try {
            events = drivers::parse_journal(text, "journal.jsonl");
        } catch (const data::InputError&) {
            return 0;
        }
        std::string lines;
        for (const auto& e : events) lines += drivers::journal_line(e);
        try {
            const auto again = drivers::parse_journal(lines, "journal.jsonl");
            if (again.size() != events.size()) std::abort();
            for (size_t i = 0; i < events.size(); ++i)
                if (drivers::journal_line(again[i]) != drivers::journal_line(events[i])) std::abort();
        } catch (const data::InputError&) {
            std::abort();
        }
    }
    return 0;
}
