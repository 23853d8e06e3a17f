// SPDX-License-Identifier: MIT
// gfxstat devices' renderings: the DRM devices libdrm finds, as a table or JSON.
#include "report/devices_render.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "report/json_version.h"
#include "text/text_escape.h"
#include "text/text_width.h"

namespace gfxstat::report {

using text::escape_message;
using text::escape_text;

namespace {

std::string bus_text(const drivers::DrmBusInfo& b) {
    std::string s = b.type.empty() ? "unknown" : b.type;
    if (!b.vendor.empty()) s += " " + b.vendor + ":" + b.device;
    if (!b.subsystem_vendor.empty()) s += " sub " + b.subsystem_vendor + ":" + b.subsystem_device;
    if (!b.revision.empty()) s += " rev " + b.revision;
    if (!b.address.empty()) s += " (" + b.address + ")";
    return s;
}

std::string or_dash(const std::string& s) { return s.empty() ? "-" : s; }

}  // namespace

std::string lines_of(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& l : lines) out += l + "\n";
    return out;
}

// Driver names, versions, descriptions and bus ids come from the kernel
// and sysfs: escaped before they are laid out.
std::string devices_text(const std::vector<drivers::DrmDeviceInfo>& devices, size_t width) {
    if (devices.empty()) return "no DRM devices found (no /dev/dri)\n";
    // One row per device, then its workloads indented below it; when the
    // rows are wider than `width`, each device's cells on lines of their
    // own ("driver ...", "bus ..."), wrapped, nothing cut.
    std::vector<std::vector<std::string>> rows{{"PRIMARY", "RENDER", "DRIVER", "VERSION", "DATE", "BUS"}};
    for (const auto& d : devices)
        rows.push_back({or_dash(d.primary), or_dash(d.render), d.driver ? d.driver->name : "?",
                        d.driver ? d.driver->version : "?", d.driver ? or_dash(d.driver->date) : "?",
                        bus_text(d.bus)});
    std::vector<size_t> w(rows[0].size(), 0);
    for (auto& r : rows)
        for (auto& cell : r) cell = escape_text(cell);
    for (const auto& r : rows)
        for (size_t i = 0; i < r.size(); ++i) w[i] = std::max(w[i], text::display_width(r[i]));
    const auto line = [&](const std::vector<std::string>& r) {
        std::string s;
        for (size_t i = 0; i < r.size(); ++i) s += i + 1 < r.size() ? text::pad_right(r[i], w[i] + 2) : r[i];
        return s;
    };
    std::vector<std::string> table;
    for (const auto& r : rows) table.push_back(line(r));
    const bool as_table = text::widest(table) <= width;
    std::string out = as_table ? table[0] + "\n" : "";
    const auto wrapped = [&](const std::string& s, size_t first, size_t rest) {
        out += lines_of(text::wrap_text(s, width, first, rest));
    };
    for (size_t k = 0; k < devices.size(); ++k) {
        const auto& d = devices[k];
        const auto& r = rows[k + 1];
        if (as_table) {
            out += table[k + 1] + "\n";
        } else {
            wrapped("primary " + r[0] + ", render " + r[1], 0, 4);
            wrapped("driver " + r[2] + " " + r[3] + " (" + r[4] + ")", 2, 4);
            wrapped("bus " + r[5], 2, 4);
        }
        if (d.driver && !d.driver->description.empty()) wrapped(escape_text(d.driver->description), 2, 4);
        for (const std::string& e : {d.render_error, d.primary_error})
            if (!e.empty()) wrapped(escape_message(e), 2, 4);
        for (const auto& wl : d.workloads) {
            // The name in a column of 14, what follows wrapped beside it.
            auto lines = text::wrap_text(wl.runnable ? "runnable" : "not runnable: " + escape_message(wl.why), width,
                                         16, 16);
            const std::string name = "  " + text::pad_right(escape_text(wl.workload), 14);
            lines.front() = text::display_width(name) <= 16 ? name + lines.front().substr(16) : name + lines.front();
            out += lines_of(lines);
        }
    }
    return out;
}

std::string no_devices_text(size_t width) {
    return lines_of(text::wrap_text(
        "no DRM devices found (/dev/dri has no card or render node that libdrm or a scan recognises)", width, 0, 2));
}

std::string devices_json(const std::vector<drivers::DrmDeviceInfo>& devices) {
    using nlohmann::json;
    json list = json::array();
    for (const auto& d : devices) {
        json j;
        j["nodes"] = {{"primary", d.primary.empty() ? json(nullptr) : json(d.primary)},
                      {"render", d.render.empty() ? json(nullptr) : json(d.render)}};
        if (d.driver)
            j["driver"] = {{"name", d.driver->name},
                           {"version", d.driver->version},
                           {"date", d.driver->date},
                           {"description", d.driver->description}};
        else
            j["driver"] = nullptr;
        json errors = json::object();
        if (!d.primary_error.empty()) errors["primary"] = d.primary_error;
        if (!d.render_error.empty()) errors["render"] = d.render_error;
        if (!errors.empty()) j["open_errors"] = errors;
        j["dumb_buffers"] = d.dumb_buffers ? json(*d.dumb_buffers) : json(nullptr);
        json bus = {{"type", d.bus.type.empty() ? json(nullptr) : json(d.bus.type)}};
        const std::pair<const char*, const std::string*> fields[] = {
            {"vendor", &d.bus.vendor},
            {"device", &d.bus.device},
            {"subsystem_vendor", &d.bus.subsystem_vendor},
            {"subsystem_device", &d.bus.subsystem_device},
            {"revision", &d.bus.revision},
            {"address", &d.bus.address}};
        for (const auto& [key, value] : fields)
            if (!value->empty()) bus[key] = *value;
        j["bus"] = bus;
        json workloads = json::object();
        for (const auto& w : d.workloads) {
            json x = {{"runnable", w.runnable}};
            if (!w.runnable) x["why"] = w.why;
            workloads[w.workload] = x;
        }
        j["workloads"] = workloads;
        list.push_back(j);
    }
    json doc{{"devices", list}};
    cli::add_gfxstat_version(doc);
    return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace gfxstat::report
