// The summaries of a batch's --task slices joined into the batch's (docs/farm.md): read back
// from the JSON summary, which carries its task and the batch's file count, so that a missing or
// doubled task is caught rather than merged into a short table.
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "rigscope/core/error.h"
#include "rigscope/run/batch.h"

namespace rigscope {

namespace {

nlohmann::json read_json(const std::string& path) {
    std::ifstream f(path);
    if (!f) throw bad_input(path, "cannot read");
    std::stringstream text;
    text << f.rdbuf();
    try {
        return nlohmann::json::parse(text.str());
    } catch (const nlohmann::json::exception&) {
        throw bad_input(path, "not a batch summary (not valid JSON)");
    }
}

bool looks_like_summary(const nlohmann::json& d) {
    return d.is_object() && d.contains("files") && d.contains("task") && d.contains("batch_files") && d.contains("command");
}

// A row as batch_summary_json wrote it.
BatchRow row_of(const nlohmann::json& f) {
    BatchRow w;
    w.relpath = f.at("file").get<std::string>();
    w.path = f.at("path").get<std::string>();
    w.partner = f.value("new", std::string());
    w.status = f.at("status").get<std::string>();
    w.exit_code = f.at("exit_code").get<int>();
    w.frames = f.value("frames", std::size_t{0});
    w.meshes = f.value("meshes", std::size_t{0});
    w.vertices = f.value("vertices", std::size_t{0});
    if (f.contains("min_t")) {
        w.has_t = true;
        for (int side = 0; side < 2; ++side) {
            const auto& e = f.at(side ? "max_t" : "min_t");
            (side ? w.max_t : w.min_t) = e.at("value").get<double>();
            (side ? w.max_mesh : w.min_mesh) = e.at("mesh").get<std::string>();
            (side ? w.max_vertex : w.min_vertex) = e.at("vertex").get<std::size_t>();
            (side ? w.max_frame : w.min_frame) = e.at("frame").is_string() ? e.at("frame").get<std::string>() : e.at("frame").dump();
        }
    }
    if (f.contains("past"))
        for (const auto& [limit, n] : f.at("past").items()) w.past.emplace_back(limit, n.get<std::size_t>());
    // JSON objects keep no order: check's order of limits, as the summary's columns have it.
    static const char* const kOrder[] = {"max_stretch", "max_compress", "max_lambda", "min_lambda"};
    std::vector<std::pair<std::string, std::size_t>> ordered;
    for (const char* l : kOrder)
        for (const auto& p : w.past)
            if (p.first == l) ordered.push_back(p);
    w.past = ordered;
    if (f.contains("lint")) {
        w.has_lint = true;
        w.lint_errors = f.at("lint").at("errors").get<std::size_t>();
        w.lint_warnings = f.at("lint").at("warnings").get<std::size_t>();
    }
    w.clip = f.value("clip", std::string());
    if (f.contains("clips"))
        for (const auto& c : f.at("clips")) w.clips.push_back(row_of(c));
    if (f.contains("not_judged"))
        for (const auto& n : f.at("not_judged")) w.not_judged.push_back(n.get<std::string>());
    w.message = f.value("message", std::string());
    w.seconds = f.value("seconds", 0.0);
    w.peak_mib = f.value("peak_mib", 0.0);
    return w;
}

}  // namespace

bool is_batch_summary(const std::string& path) {
    const auto dot = path.find_last_of('.');
    if (dot == std::string::npos || path.substr(dot) != ".json") return false;
    try {
        return looks_like_summary(read_json(path));
    } catch (const Error&) {
        return false;
    }
}

BatchResult merge_batch_summaries(const std::vector<std::string>& paths) {
    std::map<int, std::pair<std::string, nlohmann::json>> tasks;
    BatchResult r;
    std::string first, version;
    int count = 0;
    BatchIdentity identity;  // the first part's: every other part must record the same
    for (const std::string& p : paths) {
        nlohmann::json d = read_json(p);
        if (!looks_like_summary(d)) throw bad_input(p, "not a batch summary (no task and files)");
        // The library the part saw: a part of several without one was not written by --task.
        BatchIdentity seen;
        const bool has = d.contains("identity");
        if (has) {
            try {
                seen = read_batch_identity(d.at("identity"));
            } catch (const nlohmann::json::exception& e) {
                throw bad_input(p, std::string("the batch identity is malformed: ") + e.what());
            }
        }
        const int index = d.at("task").at("index").get<int>();
        const int n = d.at("task").at("count").get<int>();
        const std::string command = d.at("command").get<std::string>(), v = d.at("rigscope").get<std::string>();
        const std::size_t files = d.at("batch_files").get<std::size_t>();
        if (n > 1 && !has) throw Error(kExitMismatch, p + ": no batch identity (not written by a --task run of this rigscope): cannot tell its library");
        // The library and options first: a file added between tasks also changes the file
        // count, and the identity names which file.
        if (!first.empty() && has && r.has_identity && v == version) {
            const std::string diff = batch_identity_difference(identity, seen);
            if (!diff.empty())
                throw Error(kExitMismatch, p + " and " + first + " are tasks of different batches (the library or the options changed between tasks): " + diff);
        }
        if (first.empty()) {
            first = p;
            r.verb = command;
            version = v;
            count = n;
            r.batch_files = files;
            identity = seen;
            r.has_identity = has;
        } else if (command != r.verb || n != count || files != r.batch_files || v != version || has != r.has_identity) {
            throw Error(kExitMismatch, first + " and " + p + " are not tasks of one batch (command " + r.verb + " / " + command + ", tasks " +
                                           std::to_string(count) + " / " + std::to_string(n) + ", files " + std::to_string(r.batch_files) +
                                           " / " + std::to_string(files) + ", rigscope " + version + " / " + v + ")");
        }
        if (index < 0 || index >= n) throw bad_input(p, "task " + std::to_string(index) + " of " + std::to_string(n) + " is out of range");
        if (tasks.count(index))
            throw Error(kExitMismatch, "task " + std::to_string(index) + "/" + std::to_string(n) + " is given twice: " + tasks[index].first + " and " + p);
        tasks.emplace(index, std::pair{p, std::move(d)});
    }
    for (int i = 0; i < count; ++i)
        if (!tasks.count(i)) throw Error(kExitMismatch, "task " + std::to_string(i) + "/" + std::to_string(count) + " is missing (it failed or did not run)");
    if (r.has_identity && identity.files.size() != r.batch_files)
        throw Error(kExitMismatch, first + ": its identity lists " + std::to_string(identity.files.size()) + " files of the batch's " +
                                       std::to_string(r.batch_files));
    std::map<std::string, std::string> judged_by;  // relpath -> the part whose row it is
    for (auto& [index, task] : tasks) {
        // The files this task owed by the identity every part shares, in order.
        const auto [begin, end] = batch_task_range(std::to_string(index) + "/" + std::to_string(count), r.batch_files);
        std::size_t k = begin;
        nlohmann::json task_identity;
        if (r.has_identity) task_identity = task.second.at("identity").at("files");
        for (const auto& f : task.second.at("files")) {
            BatchFileResult one;
            one.row = row_of(f);
            one.page = f.value("page", std::string());
            const auto [it, fresh] = judged_by.emplace(one.row.relpath, task.first);
            if (!fresh)
                throw Error(kExitMismatch, "merge: " + one.row.relpath + " is listed twice, in " + it->second + " and " + task.first +
                                               " (the library changed between tasks)");
            if (r.has_identity) {
                if (k >= end || identity.files[k].relpath != one.row.relpath)
                    throw Error(kExitMismatch, task.first + ": holds " + one.row.relpath + " where its part of the batch is " +
                                                   (k < end ? identity.files[k].relpath : std::string("at its end")));
                // Each file's content hash from the task that judged it: the merged identity
                // says what every row judged.
                identity.files[k].file.fnv1a64 = task_identity.at(k).at("stamp").value("fnv1a64", std::string());
                if (task_identity.at(k).contains("new"))
                    identity.files[k].partner.fnv1a64 = task_identity.at(k).at("new").value("fnv1a64", std::string());
            }
            ++k;
            r.inputs.push_back({one.row.path, one.row.relpath, one.row.partner});
            r.files.push_back(std::move(one));
        }
        if (r.has_identity && k != end)
            throw Error(kExitMismatch, task.first + ": " + identity.files[k].relpath + " was never checked (its task holds " +
                                           std::to_string(k - begin) + " of its " + std::to_string(end - begin) + " files)");
    }
    if (r.files.size() != r.batch_files)
        throw Error(kExitMismatch, "the tasks hold " + std::to_string(r.files.size()) + " files of the batch's " + std::to_string(r.batch_files));
    if (r.has_identity) r.identity = std::move(identity);
    set_batch_counts(r);
    return r;
}

}  // namespace rigscope
