// SPDX-License-Identifier: MIT
#include "drivers/campaign_runner.h"

#include "drivers/image_check_pass.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <memory>
#include <stdexcept>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

#include "data/file_read.h"
#include "data/input_error.h"
#include "data/results_reader.h"
#include "data/results_writer.h"
#include "data/safe_files.h"
#include "drivers/campaign_commands.h"
#include "drivers/campaign_directory.h"
#include "drivers/campaign_simulation.h"
#include "drivers/campaign_step_words.h"
#include "drivers/environment_probe.h"
#include "drivers/process_runner.h"
#include "drivers/run_loop.h"
#include "formats/time_hint.h"

namespace gfxstat::drivers {

namespace {

std::atomic<bool> g_campaign_interrupted{false};

// "1 boot", "2 boots"; "1 run", "3 runs in a row": counts in messages
// (text/plural.h is the renderers'; drivers/ sits below them).
std::string counted(size_t n, const char* noun) { return std::to_string(n) + " " + noun + (n == 1 ? "" : "s"); }
std::string runs_in_a_row(size_t n) { return n == 1 ? "1 run" : std::to_string(n) + " runs in a row"; }

class DirectoryLock {
public:
    explicit DirectoryLock(const std::string& path) {
        // O_NOFOLLOW: a link planted as DIR/lock must not make a resume
        // (root, at boot) create or truncate the file it points to.
        fd_ = open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd_ < 0)
            throw data::input_error(path, 0, errno == ELOOP ? "is a symbolic link; a campaign's lock must be a file"
                                                            : std::string("cannot open the lock: ") + std::strerror(errno));
        // `status` and `stop` probe the lock with a brief shared lock; a
        // resume starting at that moment waits them out (2 s) rather than
        // mistaking them for another resume.
        int tries = 0;
        while (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
            if (++tries > 200) {
                close(fd_);
                fd_ = -1;
                return;
            }
            timespec ts{0, 10 * 1000 * 1000};
            nanosleep(&ts, nullptr);
        }
        const std::string pid = std::to_string(getpid()) + "\n";
        if (ftruncate(fd_, 0) == 0 && pwrite(fd_, pid.data(), pid.size(), 0) < 0) {
        }
    }
    ~DirectoryLock() {
        if (fd_ >= 0) close(fd_);
    }
    bool held() const { return fd_ >= 0; }

private:
    int fd_ = -1;
};

void sleep_seconds(double seconds) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (!g_campaign_interrupted.load() && std::chrono::steady_clock::now() < until) {
        timespec ts{0, 50 * 1000 * 1000};
        nanosleep(&ts, nullptr);
    }
}

}  // namespace

CampaignPlan load_campaign_plan(const std::string& dir) {
    const CampaignFiles f = campaign_files(dir);
    struct stat st {};
    if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        throw data::input_error(dir, 0, "not a campaign directory (no such directory)");
    if (stat(f.plan.c_str(), &st) != 0)
        throw data::input_error(dir, 0, "not a campaign directory (no plan.json; make one with `gfxstat campaign init`)");
    CampaignPlan plan = parse_campaign_plan(data::read_whole_file(f.plan), f.plan);
    if (plan.name.empty()) {
        std::string d = dir;
        while (d.size() > 1 && d.back() == '/') d.pop_back();
        const size_t slash = d.rfind('/');
        plan.name = slash == std::string::npos ? d : d.substr(slash + 1);
    }
    return plan;
}

CampaignState read_campaign_state(const std::string& dir, const CampaignPlan& plan) {
    const CampaignFiles f = campaign_files(dir);
    const std::vector<JournalEvent> events = read_journal(f.journal);
    const data::ResultsFile results = data::read_results_path(f.results, f.results);
    return fold_campaign(plan, events, results);
}

long running_resume_pid(const std::string& dir) {
    const std::string path = campaign_files(dir).lock;
    const int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return 0;
    long pid = 0;
    if (flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
        char buf[32] = {};
        if (pread(fd, buf, sizeof buf - 1, 0) > 0) pid = std::strtol(buf, nullptr, 10);
        if (pid <= 0) pid = -1;  // held, pid not yet written
    }
    close(fd);
    return pid;
}

void interrupt_campaign(int signal) {
    g_campaign_interrupted.store(true);
    interrupt_run_plan(signal);
}

std::string campaign_phase(const CampaignPlan& plan, const CampaignState& state, bool resume_running) {
    if (state.complete()) return "complete";
    if (state.halted) return "halted";
    if (state.stopped) return "stopped";
    if (resume_running) return "running";
    const auto slot = state.current_slot(plan);
    if (!state.waiting_boot.empty()) return "waiting for the reboot into slot " + std::to_string(*slot + 1) + "/" + std::to_string(plan.slots.size());
    bool started = state.done_count > 0 || state.reboots > 0;
    for (const auto& boots : state.slot_boots) started |= !boots.empty();
    if (!started) return "not started";
    return "waiting for the next resume";
}

ResumeReport resume_campaign(const std::string& dir, const CampaignPlan& plan, const ResumeOptions& opt) {
    const CampaignFiles f = campaign_files(dir);
    const auto say = [&](const std::string& s) {
        if (opt.say) opt.say(s);
    };
    ResumeReport report;
    check_campaign_directory(dir);
    DirectoryLock lock(f.lock);
    if (!lock.held()) {
        report.outcome = ResumeOutcome::busy;
        const long pid = running_resume_pid(dir);
        report.message = "another resume of this campaign is running" +
                         (pid > 0 ? " (pid " + std::to_string(pid) + ")" : std::string());
        return report;
    }
    // The boot the steps run in: this one, or with --simulate-reboots the
    // simulated boot the campaign is in (changed by each simulated reboot).
    std::string boot = current_boot_id();
    if (boot.empty())
        throw data::input_error(dir, 0, "cannot read this boot's id (/proc/sys/kernel/random/boot_id): a campaign "
                                        "tells boots apart by it");
    for (unsigned char c : boot)
        if (c < 0x21 || c > 0x7e)
            throw data::input_error(dir, 0, "this boot's id is not printable ASCII (a UUID is expected): a campaign "
                                            "records it in its journal and tells boots apart by it");
    if (simulated_boot_number(boot))
        throw data::input_error(dir, 0, "this boot's id (" + boot + ") has the form of a simulated one "
                                        "(ID:simulated:N), which --simulate-reboots makes; a real boot's id is a UUID");
    const std::string real_boot = boot;
    mkdir(f.hooks.c_str(), 0755);  // in DIR, checked above: no one else can have put a link there

    JournalWriter journal(f.journal);
    data::ResultsAppender results(f.results);
    // The journal and the results are folded once; then the fold is fed
    // only what is appended since (this resume's events and records, a
    // `campaign stop`), so that a step costs the same at the end of a long
    // campaign as at its start.
    CampaignFold fold(plan);
    const CampaignState& st = fold.state();
    for (const auto& r : results.file().runs()) fold.add_run(r);
    uint64_t journal_end = 0;
    const auto refold = [&] {
        uint64_t end = journal_end;
        for (const auto& e : read_journal(f.journal, journal_end, nullptr, &end)) fold.add_event(e);
        journal_end = end;
    };
    refold();
    const auto event = [&](const std::string& type) {
        JournalEvent e;
        e.type = type;
        e.boot = boot;
        return e;
    };
    const auto halt = [&](const std::string& why) {
        JournalEvent e = event("halt");
        e.detail = why;
        journal.append(e);
        report.outcome = ResumeOutcome::halted;
        report.message = why;
        return report;
    };
    // A campaign is simulated or real, never both; refused before anything
    // is written.
    if (const std::string why = simulation_conflict(st, opt.simulate_reboots, dir); !why.empty())
        throw data::input_error(f.journal, 0, why);
    if (opt.simulate_reboots && !st.simulated) {
        boot = simulated_boot_id(real_boot, 0);
        JournalEvent e = event("simulation");
        e.detail = "boots are simulated (resume --simulate-reboots): neither before_reboot nor the reboot command "
                   "runs, and every simulated boot is this real one";
        journal.append(e);
        refold();
    } else if (opt.simulate_reboots) {
        boot = simulated_boot_at_start(st, real_boot);
    }

    // Records whose "done" never reached the journal (a crash between the
    // two writes): the journal is completed from the results, and a run
    // that should have stopped the campaign stops it now.
    {
        std::string stop_why;
        std::vector<bool> logged = st.done_logged;
        for (const auto& r : results.file().runs()) {
            if (!r.campaign_step || *r.campaign_step >= plan.steps.size() || logged[*r.campaign_step]) continue;
            const uint64_t k = *r.campaign_step;
            if (!st.done[k] || plan.variants[plan.steps[k].variant].label != r.variant ||
                plan.steps[k].warmup != r.warmup)
                continue;
            logged[k] = true;  // one done per step, however many records
            JournalEvent d = event("done");
            d.step = k;
            d.exit_class = data::exit_class_name(r.exit_class);
            d.detail = "journalled after a crash" + (r.exit_reason.empty() ? "" : ": " + r.exit_reason);
            journal.append(d);
            const bool stops = r.exit_class == data::ExitClass::skip ||
                               (r.exit_code && (*r.exit_code == 79 || *r.exit_code == 112) &&
                                r.exit_class == data::ExitClass::fail);
            if (stops) stop_why = r.variant + ": " + (r.exit_reason.empty() ? "exit " + std::to_string(*r.exit_code) : r.exit_reason);
        }
        refold();
        if (!st.complete() && !st.halted && !st.stopped) {
            if (!stop_why.empty()) return halt(stop_why);
            if (st.consecutive_failures >= plan.max_consecutive_failures)
                return halt(runs_in_a_row(st.consecutive_failures) + " did not succeed (max_consecutive_failures)");
        }
    }

    // After the repair, so that failures journalled by it count before the
    // continue, not after it.
    if (opt.continue_after_halt && (st.halted || st.stopped)) {
        const std::string after = st.halted ? "the halt (" + st.halt_reason + ")" : "the stop";
        journal.append(event("continue"));
        refold();
        say("continuing after " + after);
    }
    if (st.complete()) {
        if (!st.complete_logged) journal.append(event("complete"));
        report.outcome = ResumeOutcome::complete;
        report.message = "the campaign is complete: " + std::to_string(plan.steps.size()) + " runs in " + f.results;
        return report;
    }
    if (st.stopped) {
        report.outcome = ResumeOutcome::stopped;
        report.message = "stopped by `gfxstat campaign stop` at " + st.stop_time +
                         "; `gfxstat campaign resume --continue " + dir + "` goes on";
        return report;
    }
    if (st.halted) {
        report.outcome = ResumeOutcome::halted;
        report.message = "halted: " + st.halt_reason + "; when fixed, `gfxstat campaign resume --continue " + dir +
                         "` goes on";
        return report;
    }
    // Messages count slots and steps from 1 ("slot 2/8"); files from 0.
    const auto slot_name = [&](size_t i) { return "slot " + std::to_string(i + 1) + "/" + std::to_string(plan.slots.size()); };
    const auto where = [&] {
        const auto slot = st.current_slot(plan);
        std::string s = slot_name(*slot);
        for (uint64_t k : plan.slots[*slot].steps)
            if (!st.done[k]) return s + ", step " + std::to_string(k + 1) + "/" + std::to_string(plan.steps.size());
        return s;
    };
    // A boot not seen before is progress too: the reboot before it worked.
    const uint64_t progress = st.progress() + (st.used_boots.count(boot) ? 0 : 1);
    const size_t here = st.resumes_at(progress) + 1;
    if (here >= plan.max_resumes_without_progress) {
        return halt("resumed " + std::to_string(here) + " times without progress, stuck at " + where() +
                    " (max_resumes_without_progress " + std::to_string(plan.max_resumes_without_progress) +
                    "): a crash loop; see " + f.journal + " and " + f.hooks);
    }
    {
        JournalEvent e = event("resume");
        e.progress = progress;
        e.pid = static_cast<long>(getpid());
        journal.append(e);
    }

    // The runs of each variant: the workload with the variant's environment,
    // setup and tags, checked once per resume.
    std::vector<std::unique_ptr<RunPlan>> run_plans(plan.variants.size());
    std::vector<std::unique_ptr<Execution>> executions(plan.variants.size());
    RunReport run_report;  // warnings and kept logs
    size_t warnings_said = 0;
    bool leftovers_said = false;
    // (The flag starts false and is never cleared: a signal that came
    // while the lock was awaited or the journal repaired still counts.)
    // What the resume is doing besides a run (a check, before_reboot, the
    // reboot command, a cooldown): named when a signal interrupts it.
    std::string doing;
    while (true) {
        if (g_campaign_interrupted.load()) {
            // Journalled, so that a resume the user stopped is not taken
            // for one that crashed (max_resumes_without_progress).
            JournalEvent i = event("interrupted");
            i.slot = st.current_slot(plan);
            const std::string when = !doing.empty() ? "during " + doing : i.slot ? "before " + where() : "";
            i.detail = when.empty() ? "stopped by a signal before the step or the reboot was done"
                                    : "stopped by a signal " + when;
            journal.append(i);
            report.outcome = ResumeOutcome::interrupted;
            report.message = "interrupted" + (when.empty() ? "" : " " + when) + "; the next resume goes on from here";
            return report;
        }
        doing.clear();
        // `campaign stop` from another process: seen between steps.
        refold();
        if (st.stopped) {
            report.outcome = ResumeOutcome::stopped;
            report.message = "stopped by `gfxstat campaign stop`; `gfxstat campaign resume --continue " + dir +
                             "` goes on";
            return report;
        }
        const auto current = st.current_slot(plan);
        if (!current) {
            journal.append(event("complete"));
            report.outcome = ResumeOutcome::complete;
            report.message = "the campaign is complete: " + std::to_string(plan.steps.size()) + " runs in " + f.results;
            return report;
        }
        const CampaignSlot& slot = plan.slots[*current];
        std::string slot_label;
        for (size_t v : slot.variants) slot_label += (slot_label.empty() ? "" : ", ") + plan.variants[v].label;
        const auto& bound = st.slot_boots[*current];
        const bool in_slot = std::find(bound.begin(), bound.end(), boot) != bound.end();

        if (!in_slot) {
            bool need_reboot = st.used_boots.count(boot) > 0;
            if (!need_reboot) {
                // A boot the campaign has not seen: is it the slot's variant?
                const auto simulated = simulated_boot_number(boot);
                const std::string tag = boot.substr(0, 8) + (simulated ? "-s" + std::to_string(*simulated) : "");
                doing = "the expect check of " + slot_name(*current) + " (" + slot_label + ")";
                std::string why = check_expect(plan, slot, f, tag + "-" + std::to_string(*current));
                if (g_campaign_interrupted.load()) continue;  // a stop, not a failed deploy
                // In a simulated boot nothing was deployed: a check that
                // fails says what a real boot would have to pass, and is
                // passed over (in simulated boot 0, the real boot the
                // simulation began in, it counts as it would for real).
                std::string not_met;
                if (!why.empty() && simulated.value_or(0) > 0) not_met = std::exchange(why, "");
                if (!why.empty() && boot == st.init_boot && st.reboots == 0) {
                    // reboot_first false, and init's boot is not the first
                    // slot's variant: nothing was deployed, nothing failed.
                    JournalEvent e = event("spent");
                    e.slot = *current;
                    e.detail = why;
                    journal.append(e);
                    refold();
                    say("this boot is not " + slot_name(*current) + "'s (" + why + "); rebooting into it");
                    need_reboot = true;
                } else if (!why.empty()) {
                    JournalEvent e = event("deploy_failed");
                    e.slot = *current;
                    e.kernel = kernel_release();
                    e.detail = why;
                    journal.append(e);
                    refold();
                    say(slot_name(*current) + " (" + slot_label + "): not deployed: " + why);
                    if (st.deploy_failures[*current] >= plan.max_deploy_attempts)
                        return halt(slot_name(*current) + " (" + slot_label + ") did not come up in " +
                                    counted(st.deploy_failures[*current], "boot") + " (max_deploy_attempts): " +
                                    why);
                    need_reboot = true;
                } else {
                    if (!bound.empty()) {
                        JournalEvent e = event("unexpected_reboot");
                        e.slot = *current;
                        e.detail = slot_name(*current) + " started in boot " + bound.back() +
                                   " and goes on in this one (a crash or power cut in between)";
                        journal.append(e);
                        say(e.detail);
                    }
                    JournalEvent e = event("boot");
                    e.slot = *current;
                    e.kernel = kernel_release();
                    if (!not_met.empty()) e.detail = "simulated: expect not met, as nothing was deployed: " + not_met;
                    journal.append(e);
                    refold();
                    if (simulated)
                        say(boot_words(boot) + " is " + slot_name(*current) + " (" + slot_label + ")" +
                            (not_met.empty() ? "" : "; its expect check does not pass here (" + not_met +
                                                        "): a real boot would have to pass it, but in a simulated "
                                                        "one nothing was deployed, so the simulation goes on"));
                    else
                        say("this boot (" + boot + ") is " + slot_name(*current) + " (" + slot_label + ")");
                    continue;
                }
            }
            // This boot is spent (an earlier slot's, init's, or a failed
            // deploy): arrange the slot's boot and reboot.
            const bool again = st.waiting_boot == boot;  // issued from this boot before, cut short
            if (!again && st.reboots_since_continue >= plan.max_reboots)
                return halt("max_reboots (" + std::to_string(plan.max_reboots) + ") reached before " + slot_name(*current));
            const uint64_t n = st.reboots;
            JournalEvent e = event("reboot");
            e.slot = *current;
            e.attempt = st.reboots_into[*current] + 1;
            if (opt.simulate_reboots) e.detail = "simulated";
            journal.append(e);
            if (opt.simulate_reboots) {
                // Nothing runs that would change the machine's next boot: the
                // campaign goes on in a new simulated boot, which begins
                // with a resume as a real one does.
                const CampaignVariant& var = plan.variants[slot.variants[0]];
                std::string not_run = plan.reboot_command.text();
                if (slot.deploy && !var.before_reboot.empty()) not_run = var.before_reboot.text() + "`, `" + not_run;
                boot = simulated_boot_id(real_boot, std::max(simulated_boot_number(boot).value_or(0),
                                                             simulated_boot_number(st.last_simulated_boot).value_or(0)) + 1);
                say("simulated reboot into " + slot_name(*current) + " (" + slot_label + "): `" + not_run +
                    "` not run; " + boot_words(boot) + " begins");
                JournalEvent r = event("resume");
                r.progress = st.progress() + 1;
                r.pid = static_cast<long>(getpid());
                r.detail = "a simulated boot begins";
                journal.append(r);
                refold();
                continue;
            }
            if (slot.deploy) {
                const CampaignVariant& var = plan.variants[slot.variants[0]];
                if (!var.before_reboot.empty()) {
                    say("preparing the boot of '" + var.label + "': " + var.before_reboot.text());
                    doing = "before_reboot of '" + var.label + "' (for " + slot_name(*current) + ")";
                    const std::string why = run_plan_command(
                        var.before_reboot, f.hooks + "/reboot-" + std::to_string(n) + "-before.log", 600);
                    if (g_campaign_interrupted.load()) continue;  // a stop: no reboot, no failure
                    if (!why.empty()) {
                        JournalEvent r = event("reboot_failed");
                        r.slot = *current;
                        r.detail = "before_reboot " + why;
                        journal.append(r);
                        return halt("cannot prepare the boot of '" + var.label + "': before_reboot " + why);
                    }
                }
            }
            // A `stop` that came while before_reboot ran: no reboot.
            refold();
            if (st.stopped || g_campaign_interrupted.load()) continue;
            say("rebooting into " + slot_name(*current) + " (" + slot_label + "): " +
                plan.reboot_command.text());
            doing = "the reboot command into " + slot_name(*current) + " (" + slot_label + ")";
            const std::string why = run_plan_command(plan.reboot_command, f.hooks + "/reboot-" + std::to_string(n) + ".log", 600);
            // Killed by the shutdown it started, or by stop --now: not a
            // failed reboot (the next resume in this boot issues it again).
            if (g_campaign_interrupted.load()) continue;
            if (!why.empty()) {
                JournalEvent r = event("reboot_failed");
                r.slot = *current;
                r.detail = why;
                journal.append(r);
                return halt("the reboot command " + why);
            }
            report.outcome = ResumeOutcome::rebooting;
            report.message = "the reboot command returned; the machine is going down (" + slot_name(*current) + " next)";
            return report;
        }

        // This boot is the slot's: its next step.
        uint64_t k = 0;
        for (uint64_t s : slot.steps)
            if (!st.done[s]) {
                k = s;
                break;
            }
        const CampaignStep& step = plan.steps[k];
        const CampaignVariant& var = plan.variants[step.variant];
        if (!run_plans[step.variant]) {
            auto rp = std::make_unique<RunPlan>();
            rp->command = opt.command;
            rp->workload = opt.workload;
            for (const auto& [name, value] : var.env) rp->env.push_back(name + "=" + value);
            rp->variant = var.label;
            rp->tags = opt.tags;
            for (const auto& [key, value] : var.tags) rp->tags[key] = value;
            rp->tags["campaign"] = plan.name;
            if (opt.simulate_reboots) rp->tags["campaign_reboots"] = "simulated";
            rp->timeout_s = plan.timeout_s;
            if (!var.setup.empty()) rp->prepare = shell_line(var.setup);
            rp->results_path = f.results;
            try {
                executions[step.variant] = std::make_unique<Execution>(prepare_execution(*rp, *opt.parser));
            } catch (const std::exception& e) {
                return halt(std::string("cannot run the workload for '") + var.label + "': " + e.what());
            }
            run_plans[step.variant] = std::move(rp);
        }
        const RunPlan& rp = *run_plans[step.variant];
        const std::string what = "step " + std::to_string(k + 1) + "/" + std::to_string(plan.steps.size()) + " (" +
                                 slot_name(*current) + ", " + var.label + (step.warmup ? ", warm-up" : "") + ")";

        if (st.attempts[k] >= plan.max_run_attempts) {
            // Interrupted every time: the run itself may be what takes the
            // machine down. Recorded as failed, not tried again.
            data::RunRecord rec;
            rec.variant = var.label;
            rec.run = results.file().next_run_index(var.label);
            rec.warmup = step.warmup;
            rec.boot = st.last_attempt_boot[k];
            rec.start = data::utc_now_rfc3339();
            rec.exit_class = data::ExitClass::fail;
            rec.exit_reason = "interrupted " + (st.attempts[k] == 1 ? std::string("once") : counted(st.attempts[k], "time")) +
                              " (the machine went down or gfxstat was killed during the run); not tried again "
                              "(max_run_attempts " + std::to_string(plan.max_run_attempts) + ")";
            rec.campaign_step = k;
            results.append_run(rec);
            fold.add_run(rec);
            JournalEvent g = event("given_up");
            g.step = k;
            g.slot = *current;
            g.detail = rec.exit_reason;
            journal.append(g);
            JournalEvent d = event("done");
            d.step = k;
            d.exit_class = "fail";
            journal.append(d);
            say(what + ": " + rec.exit_reason);
            refold();
        } else {
            JournalEvent in = event("intent");
            in.step = k;
            in.slot = *current;
            in.attempt = st.attempts[k] + 1;
            journal.append(in);
            RunAttempt a = run_once(rp, *executions[step.variant], *opt.parser, results, step.warmup, run_report);
            if (a.interrupted) {
                JournalEvent i = event("interrupted");
                i.step = k;
                i.slot = *current;
                i.detail = a.record.exit_reason;
                journal.append(i);
                report.outcome = ResumeOutcome::interrupted;
                report.message = "interrupted during " + what + "; it runs again at the next resume";
                return report;
            }
            a.record.campaign_step = k;
            a.record.exit_reason = formats::with_plan_time_hint(std::move(a.record.exit_reason));  // the plan sets the parser
            if (opt.simulate_reboots) a.record.boot = boot;  // run_once recorded the real one
            results.append_run(a.record);
            fold.add_run(a.record);
            ++report.runs;
            JournalEvent d = event("done");
            d.step = k;
            d.exit_class = data::exit_class_name(a.record.exit_class);
            d.detail = a.record.exit_reason;
            journal.append(d);
            say(what + ": " + step_result_words(a.record, results.file(), executions[step.variant]->tracked));
            // What run_once warned about (a log not kept, processes the
            // workload left behind): said as it happens, since a resume
            // may end in a reboot rather than a summary.
            for (size_t w = warnings_said; w < run_report.warnings.size(); ++w)
                say("warning: " + run_report.warnings[w]);
            warnings_said = run_report.warnings.size();
            if (run_report.runs_with_leftovers > 0 && !leftovers_said) {
                say("warning: " + what + " left processes running in the background when the workload ended; "
                    "they were stopped (SIGTERM, then SIGKILL) so that they could not run into the next run "
                    "(said once per resume)");
                leftovers_said = true;
            }
            refold();
            if (a.stop_now) return halt(var.label + ": " + a.message);
        }
        // check_images: once the boot's last run is done, its checking pass,
        // 2 checking runs of each of its variants, interleaved; counted in
        // the results file by boot, so that a resume in the same boot does
        // not make them again.
        if (plan.check_images &&
            std::all_of(slot.steps.begin(), slot.steps.end(), [&](uint64_t s) { return st.done[s]; })) {
            ImageCheckSettings checks;
            checks.enabled = true;
            checks.parser = plan.workload.parser;
            checks.callset = plan.check_frames;
            ImageCheckTally tally;
            for (bool more = true; more && !run_plan_interrupted();) {
                more = false;
                for (size_t v : slot.variants) {
                    if (!run_plans[v] || !executions[v] || run_plan_interrupted()) continue;
                    if (image_checks_in_boot(results.file(), plan.variants[v].label, boot) >= 2) continue;
                    run_image_check(*run_plans[v], *executions[v], checks, results, run_report, tally, "",
                                    std::nullopt, opt.simulate_reboots ? boot : "");
                    more = true;
                }
            }
            for (size_t w = warnings_said; w < run_report.warnings.size(); ++w) say("warning: " + run_report.warnings[w]);
            warnings_said = run_report.warnings.size();
            if (tally.runs) say(slot_name(*current) + ": " + image_check_pass_line(tally));
            if (run_plan_interrupted()) {
                report.outcome = ResumeOutcome::interrupted;
                report.message = "interrupted during the checking pass of " + slot_name(*current) +
                                 "; the checking runs made are in the results file";
                return report;
            }
        }
        if (st.consecutive_failures >= plan.max_consecutive_failures)
            return halt(runs_in_a_row(st.consecutive_failures) + " did not succeed (max_consecutive_failures); the last: " +
                        what);
        if (plan.cooldown_s > 0) {
            doing = "the cooldown after " + what;
            sleep_seconds(plan.cooldown_s);
        }
    }
}

}  // namespace gfxstat::drivers
