// A batch's inputs: the files its arguments name (files, folders, @lists), the root their
// relative paths are taken from, output names by placeholder, and a --task's slice.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <spdlog/spdlog.h>
#include <system_error>

#include "rigscope/core/error.h"
#include "rigscope/farm/chunk.h"
#include "rigscope/run/batch.h"

namespace rigscope {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// A path made absolute and lexically normal: how inputs are compared and the root found
// (symlinks are not resolved, so a library of links keeps its own names).
fs::path absolute_normal(const std::string& p) {
    std::error_code ec;
    fs::path a = fs::absolute(fs::path(p), ec);
    if (ec) a = fs::path(p);
    return a.lexically_normal();
}

// Lines of a list: one path a line, blank lines and # comments skipped, a CR (Windows) dropped.
void read_list(std::istream& in, std::vector<std::string>& out) {
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const auto first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line[first] == '#') continue;
        const auto last = line.find_last_not_of(" \t");
        out.push_back(line.substr(first, last - first + 1));
    }
}

// The rig files below `dir`, sorted byte-wise by their path below it, so the order never
// depends on the file system's.
std::vector<std::string> files_below(const std::string& dir) {
    std::vector<std::string> rel;
    std::error_code ec;
    fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
    if (ec) throw bad_input(dir, "cannot read the folder (" + ec.message() + ")");
    for (; it != end; it.increment(ec)) {
        if (ec) throw bad_input(dir, "cannot read the folder (" + ec.message() + ")");
        std::error_code type_ec;
        if (!is_batch_extension(it->path().filename().string())) continue;
        if (!it->is_regular_file(type_ec)) {
            // A rig's name whose link leads nowhere is a file of the library the batch cannot
            // judge: said, so that a library that lost a file does not look complete.
            std::error_code link_ec;
            if (it->is_symlink(link_ec) && !fs::exists(it->path(), link_ec)) {
                const fs::path target = fs::read_symlink(it->path(), link_ec);
                spdlog::warn("{}: skipped: a symbolic link to '{}', which does not exist", it->path().generic_string(), target.string());
            }
            continue;
        }
        rel.push_back(it->path().lexically_relative(dir).generic_string());
    }
    std::sort(rel.begin(), rel.end());
    return rel;
}

// An argument's path with `rel` below it, in the form the argument was given ("lib" + "a.glb"
// is "lib/a.glb", never an absolute path the user did not write).
std::string join(const std::string& dir, const std::string& rel) {
    if (dir.empty()) return rel;
    return dir.back() == '/' ? dir + rel : dir + "/" + rel;
}

// The deepest folder holding every path of `folders` (absolute, normal).
fs::path common_folder(const std::vector<fs::path>& folders) {
    fs::path root = folders.front();
    for (const fs::path& f : folders) {
        fs::path common;
        auto a = root.begin(), b = f.begin();
        for (; a != root.end() && b != f.end() && *a == *b; ++a, ++b) common /= *a;
        root = common;
    }
    return root;
}

}  // namespace

bool is_batch_extension(const std::string& path) {
    static const char* const kExtensions[] = {".fbx", ".gltf", ".glb", ".dae", ".usd", ".usda", ".usdc", ".usdz"};
    const std::string ext = lower(fs::path(path).extension().string());
    return std::find(std::begin(kExtensions), std::end(kExtensions), ext) != std::end(kExtensions);
}

std::vector<BatchInput> expand_batch_inputs(const std::vector<std::string>& args, std::istream* stdin_lines) {
    // Each named file, and per file the folder its argument anchors the root at: a folder
    // argument itself, a file's (or a listed file's) own folder.
    std::vector<std::string> paths;
    std::vector<fs::path> anchors;  // per argument: the folder it sits in (a folder: itself)
    bool stdin_read = false;
    for (const std::string& arg : args) {
        if (arg.empty()) throw Error(kExitUsage, "an input is an empty path (an unset variable?)");
        if (arg[0] == '@') {
            std::vector<std::string> listed;
            const std::string list = arg.substr(1);
            if (list == "-") {
                if (stdin_read) throw Error(kExitUsage, "@- is given twice: standard input is read once");
                stdin_read = true;
                if (stdin_lines) read_list(*stdin_lines, listed);
            } else {
                std::ifstream f(list);
                if (list.empty() || !f) throw bad_input(list.empty() ? arg : list, "cannot read the list of inputs");
                read_list(f, listed);
            }
            for (const std::string& p : listed) {
                paths.push_back(p);
                anchors.push_back(absolute_normal(p).parent_path());
            }
            continue;
        }
        std::error_code ec;
        if (fs::is_directory(arg, ec)) {
            const std::vector<std::string> found = files_below(arg);
            if (found.empty())
                throw Error(kExitUsage, arg + ": no rig file in this folder (a folder is searched for .fbx, .gltf, .glb, .dae, .usd, .usda, .usdc "
                                              "and .usdz; name OBJ and PLY files one by one)");
            for (const std::string& rel : found) {
                paths.push_back(join(arg, rel));
                anchors.push_back(absolute_normal(arg));
            }
            continue;
        }
        // A file, or a name that does not exist: its run says so, as an error of that file.
        paths.push_back(arg);
        anchors.push_back(absolute_normal(arg).parent_path());
    }
    if (paths.empty()) throw Error(kExitUsage, "no input: the arguments name no file");
    const fs::path root = common_folder(anchors);
    std::vector<BatchInput> out;
    std::set<std::string> seen;
    for (const std::string& p : paths) {
        const fs::path abs = absolute_normal(p);
        if (!seen.insert(abs.string()).second) continue;  // named twice: taken once, at its first place
        std::string rel = abs.lexically_relative(root).generic_string();
        if (rel.empty() || rel == ".") rel = abs.filename().generic_string();
        out.push_back({p, rel, ""});
    }
    return out;
}

std::vector<BatchInput> expand_diff_pairs(const std::vector<std::string>& args, const std::string& against, std::istream* stdin_lines) {
    if (!against.empty()) {
        std::error_code ec;
        if (!fs::is_directory(against, ec)) throw Error(kExitUsage, "--against " + against + ": not a folder (it holds the NEW files, by OLD's relative path)");
        std::vector<BatchInput> out = expand_batch_inputs(args, stdin_lines);
        for (BatchInput& in : out) in.partner = join(against, in.relpath);
        return out;
    }
    if (args.size() != 1 || args[0].empty() || args[0][0] != '@')
        throw Error(kExitUsage, "diff of several pairs: give --against DIR with the OLD files, or one @pairs.txt of 'OLD NEW' lines");
    const std::string list = args[0].substr(1);
    std::vector<std::string> lines;
    if (list == "-") {
        if (stdin_lines) read_list(*stdin_lines, lines);
    } else {
        std::ifstream f(list);
        if (list.empty() || !f) throw bad_input(list.empty() ? args[0] : list, "cannot read the list of pairs");
        read_list(f, lines);
    }
    std::vector<std::string> olds, news;
    for (const std::string& line : lines) {
        // A tab splits paths that hold spaces; else the two fields between white space.
        std::vector<std::string> fields;
        if (const auto tab = line.find('\t'); tab != std::string::npos) {
            fields = {line.substr(0, line.find_last_not_of(" \t", tab) + 1), line.substr(line.find_first_not_of(" \t", tab))};
        } else {
            std::istringstream words(line);
            for (std::string w; words >> w;) fields.push_back(w);
        }
        if (fields.size() != 2 || fields[0].empty() || fields[1].empty())
            throw Error(kExitUsage, (list == "-" ? std::string("@-") : list) + ": '" + line +
                                        "' is not a pair: a line is 'OLD NEW' (a tab between them when a path holds spaces)");
        std::error_code ec;
        if (fs::is_directory(fields[0], ec)) throw Error(kExitUsage, list + ": " + fields[0] + " is a folder: a pair names two files (or use --against DIR)");
        olds.push_back(fields[0]);
        news.push_back(fields[1]);
    }
    if (olds.empty()) throw Error(kExitUsage, "no input: " + list + " names no pair");
    std::vector<BatchInput> out = expand_batch_inputs(olds, nullptr);
    if (out.size() != olds.size()) throw Error(kExitUsage, list + ": an OLD file is named twice (each pair's OLD names its report)");
    for (std::size_t i = 0; i < out.size(); ++i) out[i].partner = news[i];
    return out;
}

bool has_placeholder(const std::string& pattern) {
    for (const char* p : {"{stem}", "{name}", "{ext}", "{relpath}", "{dir}"})
        if (pattern.find(p) != std::string::npos) return true;
    return false;
}

std::string expand_placeholders(const std::string& pattern, const BatchInput& in, const char* job_words) {
    const fs::path p(in.path);
    const std::string name = p.filename().string();
    std::string ext = p.extension().string();
    if (!ext.empty()) ext.erase(0, 1);
    std::string dir = p.parent_path().string();
    if (dir.empty()) dir = ".";
    const std::pair<const char*, std::string> values[] = {
        {"stem", p.stem().string()}, {"name", name}, {"ext", ext}, {"relpath", in.relpath}, {"dir", dir}};
    std::string out;
    for (std::size_t i = 0; i < pattern.size();) {
        if (pattern[i] != '{') {
            out += pattern[i++];
            continue;
        }
        const auto close = pattern.find('}', i);
        const std::string word = close == std::string::npos ? "" : pattern.substr(i + 1, close - i - 1);
        const auto* v = std::find_if(std::begin(values), std::end(values), [&](const auto& kv) { return word == kv.first; });
        // {clip} is each file's own (--clip all, clip_select.h), and so are the job's own words
        // (bake's {mesh}, {frame}, {udim}): left for its job to fill.
        if (word == "clip" || (!word.empty() && job_words && (" " + std::string(job_words) + " ").find(" " + word + " ") != std::string::npos)) {
            out += "{" + word + "}";
            i = close + 1;
            continue;
        }
        if (v == std::end(values))
            throw Error(kExitUsage, pattern + ": '" + pattern.substr(i, close == std::string::npos ? std::string::npos : close - i + 1) +
                                        "' is not a placeholder ({stem}, {name}, {ext}, {relpath}, {dir}, and with --clip all {clip})");
        out += v->second;
        i = close + 1;
    }
    return out;
}

std::pair<std::size_t, std::size_t> batch_task_range(const std::string& task, std::size_t n) {
    int index = 0, count = 1;
    try {
        parse_chunk_spec(task, index, count);
    } catch (const Error& e) {
        throw Error(kExitUsage, std::string("--task: ") + e.what());
    }
    const auto i = static_cast<std::size_t>(index), c = static_cast<std::size_t>(count);
    return {n * i / c, n * (i + 1) / c};
}

}  // namespace rigscope
