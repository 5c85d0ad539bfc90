// Which chunks a merge joins: records resolved from the arguments, checked to be one run's and
// to cover it.
#include <algorithm>
#include <dirent.h>
#include <map>
#include <set>
#include <sys/stat.h>

#include "rigscope/core/error.h"
#include "rigscope/farm/merge.h"

namespace rigscope {

namespace {

bool exists(const std::string& path) {
    struct stat st {};
    return stat(path.c_str(), &st) == 0;
}

std::string name_of(const ChunkRecord& r) {
    const std::string what = r.output.find('#') == std::string::npos ? r.output : r.record_path;
    return what + " (chunk " + std::to_string(r.index) + "/" + std::to_string(r.count) + ")";
}

std::string join_values(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
    // No value: an option whose unset state means "none" (run/chunk_run.h, chunk_identity).
    return v.empty() ? "not given" : "'" + s + "'";
}

// Records of a per-frame pattern: PATTERN.chunk-I.json in its folder.
std::vector<std::string> pattern_records(const std::string& pattern) {
    const auto slash = pattern.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : pattern.substr(0, slash == 0 ? 1 : slash);
    const std::string prefix = (slash == std::string::npos ? pattern : pattern.substr(slash + 1)) + ".chunk-";
    std::vector<std::string> out;
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d)) {
            const std::string name = e->d_name;
            if (name.compare(0, prefix.size(), prefix) != 0) continue;
            const std::string full = slash == std::string::npos ? name : pattern.substr(0, slash + 1) + name;
            if (is_chunk_record_path(full)) out.push_back(full);
        }
        closedir(d);
    }
    std::sort(out.begin(), out.end());
    return out;
}

// Empty when a and b are chunks of one run; else what differs.
std::string difference(const ChunkRecord& a, const ChunkRecord& b) {
    if (a.command != b.command) return "command " + b.command + " vs " + a.command;
    if (a.version != b.version) return "rigscope " + b.version + " vs " + a.version;
    if (a.count != b.count) return "chunk count " + std::to_string(b.count) + " vs " + std::to_string(a.count);
    if ((a.output.find('#') == std::string::npos) != (b.output.find('#') == std::string::npos) ||
        (a.output.find('#') != std::string::npos && a.output != b.output))
        return "output " + b.output + " vs " + a.output;
    // --max-memory only decides whether a run may start, never what it writes.
    std::map<std::string, std::vector<std::string>> ao(a.options.begin(), a.options.end()),
        bo(b.options.begin(), b.options.end());
    ao.erase("--max-memory");
    bo.erase("--max-memory");
    for (const auto& [name, values] : bo) {
        auto it = ao.find(name);
        if (it == ao.end()) return "option " + name + " " + join_values(values) + " vs not given";
        if (it->second != values) return "option " + name + " " + join_values(values) + " vs " + join_values(it->second);
    }
    for (const auto& [name, values] : ao)
        if (!bo.count(name)) return "option " + name + " not given vs " + join_values(values);
    if (a.inputs.size() != b.inputs.size()) return "input files differ";
    for (std::size_t i = 0; i < a.inputs.size(); ++i) {
        const InputFingerprint &x = a.inputs[i], &y = b.inputs[i];
        if (x.path != y.path) return x.option + " " + y.path + " vs " + x.path;
        if (x.bytes != y.bytes || x.fnv1a64 != y.fnv1a64)
            return "content of " + x.path + " (" + std::to_string(y.bytes) + " bytes, fnv1a64 " + y.fnv1a64 + " vs " +
                   std::to_string(x.bytes) + " bytes, fnv1a64 " + x.fnv1a64 + ": the file changed between chunk runs)";
    }
    return "";
}

}  // namespace

bool per_frame_files(const std::vector<ChunkRecord>& chunks) {
    return !chunks.empty() && chunks.front().output.find('#') != std::string::npos;
}

std::vector<std::string> chunk_files(const std::vector<ChunkRecord>& chunks) {
    std::vector<std::string> out;
    for (const ChunkRecord& r : chunks) {
        out.push_back(r.record_path);
        if (r.output.find('#') == std::string::npos) out.push_back(r.output);
    }
    return out;
}

std::vector<ChunkRecord> gather_chunks(const std::vector<std::string>& args, const std::string& version) {
    std::vector<std::string> problems;
    std::vector<std::string> record_paths;
    for (const std::string& arg : args) {
        if (is_chunk_record_path(arg)) {
            if (!exists(arg)) problems.push_back(arg + ": no such chunk record (the chunk failed or has not run)");
            else record_paths.push_back(arg);
        } else if (arg.find('#') != std::string::npos) {
            const auto found = pattern_records(arg);
            if (found.empty()) problems.push_back(arg + ": no chunk records " + arg + ".chunk-I.json (no chunk has finished)");
            record_paths.insert(record_paths.end(), found.begin(), found.end());
        } else {
            const std::string rec = chunk_record_path(arg, 0);
            if (exists(rec)) record_paths.push_back(rec);
            else if (exists(arg))
                problems.push_back(arg + ": no chunk record " + rec + " beside it (not written by a --chunk run, or its run failed)");
            else
                problems.push_back(arg + ": missing (the chunk failed or has not run)");
        }
    }
    // A glob like t_*.json names both an output and its record: one chunk, not two.
    std::sort(record_paths.begin(), record_paths.end());
    record_paths.erase(std::unique(record_paths.begin(), record_paths.end()), record_paths.end());

    std::vector<ChunkRecord> records;
    for (const auto& p : record_paths) records.push_back(read_chunk_record(p));
    if (records.empty()) {
        if (problems.empty()) problems.push_back("no chunks given");
    } else {
        const ChunkRecord& ref = records.front();
        if (ref.version != version)
            throw Error(kExitMismatch, name_of(ref) + ": written by rigscope " + ref.version + ", this is " + version +
                                           ": merge with the rigscope that ran the chunks");
        for (const ChunkRecord& r : records) {
            const std::string d = difference(ref, r);
            if (!d.empty())
                throw Error(kExitMismatch, name_of(r) + " and " + name_of(ref) + " are chunks of different runs: " + d);
            if (r.output.find('#') == std::string::npos && !exists(r.output))
                problems.push_back(name_of(r) + ": output missing beside its record " + r.record_path);
        }
        std::map<int, std::vector<const ChunkRecord*>> by_index;
        for (const ChunkRecord& r : records) by_index[r.index].push_back(&r);
        for (const auto& [index, list] : by_index)
            if (list.size() > 1) {
                std::string names;
                for (const ChunkRecord* r : list) names += (names.empty() ? "" : ", ") + (r->output.find('#') == std::string::npos ? r->output : r->record_path);
                problems.push_back("chunk " + std::to_string(index) + "/" + std::to_string(ref.count) + " given " +
                                   std::to_string(list.size()) + " times: " + names);
            }
        // The first few missing chunks by number, then how many more: the message stays one line.
        constexpr int kListed = 20;
        std::string missing;
        int missing_count = 0;
        for (int i = 0; i < ref.count; ++i)
            if (!by_index.count(i) && ++missing_count <= kListed) missing += (missing.empty() ? "" : ", ") + std::to_string(i);
        if (missing_count > kListed) missing += " and " + std::to_string(missing_count - kListed) + " more";
        if (missing_count) problems.push_back(std::to_string(missing_count) + " chunks missing of " + std::to_string(ref.count) + ": " + missing);
    }
    if (!problems.empty()) {
        std::string msg = "merge: ";
        for (std::size_t i = 0; i < problems.size(); ++i) msg += (i ? "; " : "") + problems[i];
        throw Error(kExitMismatch, msg);
    }
    std::sort(records.begin(), records.end(), [](const ChunkRecord& a, const ChunkRecord& b) { return a.index < b.index; });
    return records;
}

}  // namespace rigscope
