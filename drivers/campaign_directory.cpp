// SPDX-License-Identifier: MIT
#include "drivers/campaign_directory.h"

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data/input_error.h"
#include "data/results_reader.h"
#include "data/results_writer.h"
#include "data/safe_files.h"
#include "drivers/campaign_commands.h"
#include "drivers/campaign_journal.h"
#include "drivers/environment_probe.h"

namespace gfxstat::drivers {

void fsync_directory(const std::string& dir) {
    const int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

// A campaign runs as root (at boot, from its unit) and creates files in
// its directory and hooks/ by name (the lock, the journal, each command's
// log, init's staging directory): if another user could write there, a link
// planted with one of those names would make root write where it points.
// Such directories are refused (owned by another user, or writable by group
// or others); hooks/ must be a directory, not a link.
void check_campaign_directory(const std::string& dir) {
    {
        // The directory as the user named it (a link to it is fine: the
        // user chose it); what it holds is checked.
        data::UniqueFd fd(open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
        if (!fd) throw data::input_error(dir, 0, std::string("cannot open the directory: ") + std::strerror(errno));
        data::check_private_directory(fd.get(), dir, "the campaign directory");
    }
    const std::string hooks = campaign_files(dir).hooks;
    struct stat st {};
    if (lstat(hooks.c_str(), &st) != 0) return;  // made by resume
    data::UniqueFd fd = data::open_directory_nofollow(hooks);
    data::check_private_directory(fd.get(), hooks, "the campaign's hooks directory");
}

CampaignFiles campaign_files(const std::string& dir) {
    CampaignFiles f;
    f.dir = dir;
    f.plan = dir + "/plan.json";
    f.journal = dir + "/journal.jsonl";
    f.results = dir + "/results.json";
    f.lock = dir + "/lock";
    f.hooks = dir + "/hooks";
    return f;
}

namespace {

// What DIR holds, when it holds nothing but what an init that never
// finished leaves: its staging directory, or some of the files it moves
// into place before plan.json (the results file without a run, the
// journal, hooks/). Such leftovers are removed and init starts again;
// anything else makes init refuse.
bool only_init_leftovers(const std::string& dir, std::vector<std::string>& leftovers) {
    DIR* d = opendir(dir.c_str());
    if (!d) return false;
    bool ok = true;
    while (dirent* e = readdir(d)) {
        const std::string name = e->d_name;
        if (name == "." || name == "..") continue;
        if (name == "results.json") {
            try {
                if (!data::read_results_path(dir + "/" + name, name).runs().empty()) ok = false;
            } catch (const std::exception&) {
                ok = false;
            }
        } else if (name != "journal.jsonl" && name != "hooks" && name.rfind(".init-", 0) != 0) {
            ok = false;
        }
        leftovers.push_back(name);
    }
    closedir(d);
    return ok;
}

void remove_tree(const std::string& path) {
    struct stat st {};
    if (lstat(path.c_str(), &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
        if (DIR* d = opendir(path.c_str())) {
            std::vector<std::string> names;
            while (dirent* e = readdir(d))
                if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) names.push_back(e->d_name);
            closedir(d);
            for (const auto& n : names) remove_tree(path + "/" + n);
        }
        rmdir(path.c_str());
    } else {
        unlink(path.c_str());
    }
}

}  // namespace

void init_campaign(const std::string& dir, const CampaignPlan& plan) {
    const CampaignFiles f = campaign_files(dir);
    struct stat st {};
    if (stat(dir.c_str(), &st) == 0) {
        if (!S_ISDIR(st.st_mode)) throw data::input_error(dir, 0, "exists and is not a directory");
        std::vector<std::string> leftovers;
        if (stat(f.plan.c_str(), &st) == 0 || !only_init_leftovers(dir, leftovers))
            throw data::input_error(dir, 0, "exists and is not empty; a campaign directory is made by init "
                                            "(resume an existing campaign with `gfxstat campaign resume`)");
        // Before anything is removed or made in it (a new directory is
        // ours, 0755 at most).
        check_campaign_directory(dir);
        for (const auto& name : leftovers) remove_tree(dir + "/" + name);
    } else if (mkdir(dir.c_str(), 0755) != 0) {
        throw data::input_error(dir, 0, std::string("cannot create: ") + std::strerror(errno));
    }
    // Laid out in a staging directory inside DIR, then moved into place
    // with plan.json last: a directory with plan.json is a whole campaign,
    // and a crash before leaves only what the next init clears away.
    const CampaignFiles stage = campaign_files(dir + "/.init-" + std::to_string(getpid()));
    try {
        for (const std::string& d : {stage.dir, stage.hooks})
            if (mkdir(d.c_str(), 0755) != 0)
                throw data::input_error(d, 0, std::string("cannot create: ") + std::strerror(errno));
        {
            data::ResultsAppender results(stage.results);  // the header, durably
        }
        JournalWriter journal(stage.journal);
        JournalEvent e;
        e.type = "init";
        e.boot = current_boot_id();
        e.kernel = kernel_release();
        journal.append(e);
        // 0644 whatever the umask, never through a link, and a kill leaves
        // no half-written or temporary file.
        data::write_file_atomically(stage.plan, campaign_plan_json(plan), 0644, /*replace=*/false);
        for (const auto& [from, to] : {std::pair{stage.hooks, f.hooks}, std::pair{stage.results, f.results},
                                       std::pair{stage.journal, f.journal}, std::pair{stage.plan, f.plan}}) {
            if (rename(from.c_str(), to.c_str()) != 0)
                throw data::input_error(to, 0, std::string("cannot move into place: ") + std::strerror(errno));
            if (to == f.journal) fsync_directory(dir);  // the rest durable before plan.json appears
        }
        fsync_directory(dir);
        rmdir(stage.dir.c_str());
    } catch (...) {
        remove_tree(stage.dir);
        throw;
    }
    const size_t slash = dir.rfind('/');
    fsync_directory(slash == std::string::npos ? "." : dir.substr(0, slash == 0 ? 1 : slash));
}

}  // namespace gfxstat::drivers
