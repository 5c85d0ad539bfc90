// What makes the --task parts of a batch one library's (farm/batch_identity.h).
#include "rigscope/farm/batch_identity.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <map>
#include <nlohmann/json.hpp>
#include <sys/stat.h>

#include "rigscope/io/json_writer.h"

namespace rigscope {

namespace {

// A modification time as people read it (UTC, to the nanosecond: a rewrite within a second shows).
std::string time_text(std::int64_t ns) {
    const std::time_t s = static_cast<std::time_t>(ns / 1000000000);
    std::tm tm {};
    gmtime_r(&s, &tm);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%09lldZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
                  tm.tm_sec, static_cast<long long>(ns % 1000000000));
    return buf;
}

std::string values_text(const std::vector<std::string>& v) {
    if (v.empty()) return "not given";
    std::string s;
    for (const std::string& x : v) s += (s.empty() ? "" : " ") + x;
    return "'" + s + "'";
}

// Empty when one file; else how b's stamp differs from a's.
std::string stamp_difference(const FileStamp& a, const FileStamp& b) {
    if (a.path != b.path) return b.path + " vs " + a.path;
    if (a.present != b.present) return b.path + (b.present ? " exists vs missing" : " missing vs exists");
    if (a.bytes != b.bytes)
        return b.path + ": " + std::to_string(b.bytes) + " bytes vs " + std::to_string(a.bytes) + " (rewritten between tasks)";
    if (a.mtime_ns != b.mtime_ns)
        return b.path + ": modified " + time_text(b.mtime_ns) + " vs " + time_text(a.mtime_ns) + " (rewritten between tasks)";
    return "";
}

void write_stamp(JsonWriter& w, const FileStamp& s) {
    w.begin_object().member("path", s.path).member("present", s.present);
    if (s.present) w.member("bytes", static_cast<unsigned long>(s.bytes)).member("mtime_ns", static_cast<long>(s.mtime_ns));
    if (!s.fnv1a64.empty()) w.member("fnv1a64", s.fnv1a64);
    w.end_object();
}

FileStamp read_stamp(const nlohmann::json& j) {
    FileStamp s;
    s.path = j.at("path").get<std::string>();
    s.present = j.at("present").get<bool>();
    if (s.present) {
        s.bytes = j.at("bytes").get<std::uint64_t>();
        s.mtime_ns = j.at("mtime_ns").get<std::int64_t>();
    }
    s.fnv1a64 = j.value("fnv1a64", std::string());
    return s;
}

}  // namespace

FileStamp stamp_file(const std::string& path) {
    FileStamp s;
    s.path = path;
    struct stat st {};
    if (path.empty() || stat(path.c_str(), &st) != 0) return s;
    s.present = true;
    s.bytes = static_cast<std::uint64_t>(st.st_size);
    s.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    return s;
}

std::string batch_identity_difference(const BatchIdentity& a, const BatchIdentity& b) {
    if (a.command != b.command) return "command " + b.command + " vs " + a.command;
    std::map<std::string, std::vector<std::string>> ao(a.options.begin(), a.options.end()), bo(b.options.begin(), b.options.end());
    // --max-memory only decides whether a file may start, never what its row says.
    ao.erase("--max-memory");
    bo.erase("--max-memory");
    for (const auto& [name, values] : bo) {
        const auto it = ao.find(name);
        if (it == ao.end()) return "option " + name + " " + values_text(values) + " vs not given";
        if (it->second != values) return "option " + name + " " + values_text(values) + " vs " + values_text(it->second);
    }
    for (const auto& [name, values] : ao)
        if (!bo.count(name)) return "option " + name + " not given vs " + values_text(values);
    const std::size_t n = std::min(a.files.size(), b.files.size());
    const std::string of = " of " + std::to_string(b.files.size()) + " vs " + std::to_string(a.files.size());
    for (std::size_t i = 0; i < n; ++i) {
        const BatchIdentityFile &x = a.files[i], &y = b.files[i];
        const std::string at = "file " + std::to_string(i + 1) + of + ": ";
        if (x.relpath != y.relpath || x.file.path != y.file.path)
            return at + y.file.path + " vs " + x.file.path + " (a file renamed, added or removed between tasks)";
        std::string d = stamp_difference(x.file, y.file);
        if (d.empty()) d = stamp_difference(x.partner, y.partner);
        if (!d.empty()) return at + d;
    }
    if (a.files.size() != b.files.size()) {
        const bool more = b.files.size() > a.files.size();
        const BatchIdentityFile& extra = more ? b.files[n] : a.files[n];
        return std::to_string(b.files.size()) + " files vs " + std::to_string(a.files.size()) + ": " + extra.file.path + " only in " +
               (more ? "the one" : "the other") + " (added or removed between tasks)";
    }
    return "";
}

void write_batch_identity(JsonWriter& w, const BatchIdentity& id) {
    w.begin_object().member("command", id.command).key("options").begin_array();
    for (const auto& [name, values] : id.options) {
        w.begin_array().value(name);
        for (const std::string& v : values) w.value(v);
        w.end_array();
    }
    w.end_array().key("files").begin_array();
    for (const BatchIdentityFile& f : id.files) {
        w.begin_object().member("file", f.relpath).key("stamp");
        write_stamp(w, f.file);
        if (!f.partner.path.empty()) {
            w.key("new");
            write_stamp(w, f.partner);
        }
        w.end_object();
    }
    w.end_array().end_object();
}

BatchIdentity read_batch_identity(const nlohmann::json& j) {
    BatchIdentity id;
    id.command = j.at("command").get<std::string>();
    for (const auto& o : j.at("options")) {
        std::vector<std::string> values;
        for (std::size_t k = 1; k < o.size(); ++k) values.push_back(o.at(k).get<std::string>());
        id.options.emplace_back(o.at(0).get<std::string>(), std::move(values));
    }
    for (const auto& f : j.at("files")) {
        BatchIdentityFile e;
        e.relpath = f.at("file").get<std::string>();
        e.file = read_stamp(f.at("stamp"));
        if (f.contains("new")) e.partner = read_stamp(f.at("new"));
        id.files.push_back(std::move(e));
    }
    return id;
}

}  // namespace rigscope
