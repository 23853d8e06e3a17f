// SPDX-License-Identifier: MIT
// A campaign's journal (DIR/journal.jsonl): one JSON object per line, each
// appended under a lock and fdatasync'd before the step it announces (an
// intent) or after the step it confirms (done, boot, reboot). A power cut
// can tear only the last line; readers skip a torn last line and the next
// writer cuts it off. Which runs are done is not taken from here but from
// the results file (a run is done when its record is there); the journal
// says what was attempted, which boot belongs to which slot, and why the
// campaign stopped.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gfxstat::drivers {

struct JournalEvent {
    // init, resume, boot, unexpected_reboot, deploy_failed, reboot,
    // reboot_failed, intent, done, given_up, halt, stop, continue, complete
    std::string type;
    std::string time;   // RFC 3339 UTC
    double t = 0;       // seconds since the epoch, for durations
    std::string boot;   // the boot it happened in (reboot: the boot left)
    std::optional<uint64_t> step, slot, attempt, progress;
    std::optional<long> pid;
    std::string kernel;      // boot: the kernel release
    std::string exit_class;  // done: how the run ended
    std::string detail;      // why (deploy_failed, halt, reboot_failed, given_up)
};

// The events of `path`, from byte `offset`. A torn last line is skipped
// (`torn` set); a bad line elsewhere is an InputError naming the line.
// `end` receives the size read, for reading on from there later.
std::vector<JournalEvent> read_journal(const std::string& path, uint64_t offset = 0, bool* torn = nullptr,
                                       uint64_t* end = nullptr);
// The same on text already read (`path` for messages).
std::vector<JournalEvent> parse_journal(std::string_view text, const std::string& path, uint64_t offset = 0,
                                        bool* torn = nullptr, uint64_t* end = nullptr);

class JournalWriter {
public:
    // Opens (creating) the journal for appending. A torn last line is cut
    // by the first append, under the lock.
    explicit JournalWriter(const std::string& path);
    ~JournalWriter();
    JournalWriter(const JournalWriter&) = delete;
    JournalWriter& operator=(const JournalWriter&) = delete;
    // Fills time and t when unset, writes one line, fdatasync. Throws
    // std::runtime_error on an I/O error (the line is cut off again).
    void append(JournalEvent event);

private:
    std::string path_;
    int fd_ = -1;
};

std::string journal_line(const JournalEvent& e);

}  // namespace gfxstat::drivers
