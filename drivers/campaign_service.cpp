// SPDX-License-Identifier: MIT
#include "drivers/campaign_service.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "data/file_read.h"
#include "data/input_error.h"
#include "data/safe_files.h"
#include "drivers/process_runner.h"
#include "text/text_escape.h"

namespace gfxstat::drivers {

namespace {

constexpr const char* kHeader = "# Written by `gfxstat campaign install-service`: resumes the campaign at every\n";
constexpr size_t kUnitNameMax = 255;  // systemd's UNIT_NAME_MAX less its NUL

// Text in a unit file: systemd expands %-specifiers everywhere.
std::string unit_text(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '%') out += '%';
        out += c;
    }
    return out;
}

// An ExecStart argument: quoted, with specifiers and $ (variable
// expansion) escaped.
std::string unit_quote(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '%') out += '%';
        if (c == '$') out += '$';
        out += c;
    }
    return out + "\"";
}

// unit_quote read back: the quoted word at the start of `s`, undoing its
// escapes; nullopt when `s` does not start with one.
std::optional<std::string> unquote_first(const std::string& s, size_t& end) {
    if (s.empty() || s[0] != '"') return std::nullopt;
    std::string out;
    for (size_t i = 1; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '"') {
            end = i + 1;
            return out;
        }
        if (c == '\\' && i + 1 < s.size()) out += s[++i];
        else if ((c == '%' || c == '$') && i + 1 < s.size() && s[i + 1] == c) out += s[++i];
        else out += c;
    }
    return std::nullopt;
}

// `path` from the working directory, "./" dropped.
std::string absolute(const std::string& path) {
    if (!path.empty() && path[0] == '/') return path;
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd)) return path;
    std::string p = path;
    while (p.rfind("./", 0) == 0) p = p.substr(2);
    return std::string(cwd) + "/" + p;
}

}  // namespace

std::string systemd_escape_path(const std::string& path) {
    // Canonical form first: no empty components at the ends or inside.
    std::string simple;
    for (size_t i = 0; i < path.size(); ++i) {
        if (path[i] == '/' && (simple.empty() || simple.back() == '/')) continue;
        simple += path[i];
    }
    while (!simple.empty() && simple.back() == '/') simple.pop_back();
    if (simple.empty()) return "-";
    std::string out;
    for (size_t i = 0; i < simple.size(); ++i) {
        const auto c = static_cast<unsigned char>(simple[i]);
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == ':' ||
                           c == '_' || (c == '.' && i > 0);
        if (c == '/') {
            out += '-';
        } else if (plain) {
            out += static_cast<char>(c);
        } else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        }
    }
    return out;
}

std::optional<std::string> default_campaign_unit_name(const std::string& campaign_dir) {
    std::string name = "gfxstat-campaign-" + systemd_escape_path(campaign_dir) + ".service";
    if (name.size() > kUnitNameMax) return std::nullopt;
    return name;
}

std::string campaign_unit_text(const std::string& plan_name, const std::string& campaign_dir, const std::string& exe) {
    std::string unit = kHeader;
    unit += "# boot; each resume runs what the boot owes, then reboots or finishes.\n"
            "# A complete, stopped or halted campaign makes resume exit at once.\n"
            "[Unit]\n";
    // The directory closes the line: systemd joins a line that ends in a
    // backslash with the next, and a plan name or directory may end in one.
    unit += "Description=gfxstat campaign " + unit_text(plan_name) + " (" + unit_text(campaign_dir) + ")\n";
    unit += "After=multi-user.target\n";
    unit += "ConditionPathExists=" + unit_text(campaign_dir) + "/plan.json\n\n";
    unit += "[Service]\nType=exec\n";
    unit += "ExecStart=" + unit_quote(exe) + " campaign resume " + unit_quote(campaign_dir) + "\n";
    unit += "# The runs take as long as they take; the reboot stops this unit.\nTimeoutStartSec=infinity\n\n";
    unit += "[Install]\nWantedBy=multi-user.target\n";
    return unit;
}

std::string plan_named_unit_name(const std::string& plan_name) {
    std::string name = "gfxstat-campaign-";
    for (char c : plan_name) {
        const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                          c == '_' || c == '.';
        name += keep ? c : '_';
    }
    return name + ".service";
}

std::string shell_word_for_unit(const std::string& name) {
    bool plain = true, backslash = false;
    for (const char c : name) {
        backslash |= c == '\\';
        plain &= (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == ':' || c == '_' ||
                 c == '.' || c == '-' || c == '@' || c == '\\';
    }
    if (!plain) return text::escape_text(name);
    return backslash ? "'" + name + "'" : name;
}

ExistingUnit existing_unit(const std::string& path) {
    ExistingUnit u;
    const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        // A link (ELOOP) is left to the writer, which refuses it as one;
        // anything else that cannot be opened is something there.
        u.exists = errno != ENOENT && errno != ELOOP;
        return u;
    }
    u.exists = true;
    try {
        u.campaign_dir = campaign_dir_of_unit(data::read_all(fd, path));
    } catch (const data::InputError&) {
    }
    ::close(fd);
    return u;
}

std::string unit_path_taken(const std::string& path, const std::string& campaign_dir) {
    const ExistingUnit there = existing_unit(path);
    if (!there.exists || there.campaign_dir == campaign_dir) return "";
    return path + " already exists, " +
           (there.campaign_dir ? "the unit of the campaign in " + *there.campaign_dir
                               : std::string("a unit gfxstat did not write")) +
           "; give this campaign's unit another name with --name NAME.service";
}

std::string older_unit_warning(const std::string& unit_dir, const std::string& plan_name, const std::string& name,
                               const std::string& campaign_dir) {
    const std::string old = plan_named_unit_name(plan_name);
    if (old == name || existing_unit(unit_dir + "/" + old).campaign_dir != campaign_dir) return "";
    return unit_dir + "/" + old + ", written by an earlier gfxstat, resumes this campaign too: systemctl disable " +
           old + ", then remove it";
}

UnitPaths checked_unit_paths(const std::string& campaign_dir, const std::string& exe, const std::string& unit_dir) {
    UnitPaths p;
    p.campaign_dir = data::check_writable_only_by_root(absolute(campaign_dir), "the campaign directory");
    data::check_writable_only_by_root(p.campaign_dir + "/plan.json", "the campaign's plan");
    p.exe = data::check_writable_only_by_root(exe, "the gfxstat executable");
    // A sticky directory may be writable by others: a link they plant
    // with the unit's name is refused by the writer, and the unit, once
    // written, is root's.
    p.unit_dir = data::check_writable_only_by_root(unit_dir, "the unit directory", /*sticky_ok=*/true);
    for (unsigned char c : p.campaign_dir + p.exe)
        if (c < 0x20 || c == 0x7f)
            throw data::InputError("the directory or gfxstat's path holds a control character; a unit file cannot "
                                   "name it");
    return p;
}

std::optional<SystemctlFailure> enable_unit(const std::string& name, const std::string& log) {
    for (const std::vector<std::string>& argv :
         {std::vector<std::string>{"systemctl", "daemon-reload"}, std::vector<std::string>{"systemctl", "enable", name}}) {
        ProcessSpec spec;
        spec.argv = argv;
        spec.stdout_path = log;
        spec.stderr_path = log;
        const ProcessResult pr = run_process(spec);
        if (pr.ended == ProcessResult::Ended::exited && pr.exit_code == 0) continue;
        SystemctlFailure f;
        f.argv = argv;
        if (pr.ended == ProcessResult::Ended::not_started) f.not_started = pr.error;
        try {
            f.output = data::read_whole_file(log);
        } catch (const std::exception&) {
        }
        return f;
    }
    return std::nullopt;
}

std::optional<std::string> campaign_dir_of_unit(const std::string& text) {
    if (text.rfind(kHeader, 0) != 0) return std::nullopt;
    const std::string key = "\nExecStart=";
    const size_t at = text.find(key);
    if (at == std::string::npos) return std::nullopt;
    const size_t nl = text.find('\n', at + 1);
    const std::string line = text.substr(at + key.size(), nl == std::string::npos ? std::string::npos : nl - at - key.size());
    size_t end = 0;
    if (!unquote_first(line, end)) return std::nullopt;  // gfxstat's path
    const std::string middle = " campaign resume ";
    if (line.compare(end, middle.size(), middle) != 0) return std::nullopt;
    size_t end2 = 0;
    const std::string rest = line.substr(end + middle.size());
    const auto dir = unquote_first(rest, end2);
    if (!dir || end2 != rest.size()) return std::nullopt;
    return dir;
}

}  // namespace gfxstat::drivers
