// What a batch writes: output names checked before any work, the summary (CSV, JSON), the one
// JUnit report, the text on stdout, and the files written all or none.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "rigscope/core/error.h"
#include "rigscope/io/json_writer.h"
#include "rigscope/io/junit_report.h"
#include "rigscope/io/output.h"
#include "rigscope/run/batch.h"
#include "rigscope/run/output_names.h"

namespace rigscope {

namespace {

// The limits a check counts, in its order (the summary's columns are fixed, so the summaries of
// tasks with one command line have one header).
const char* const kLimits[] = {"max_stretch", "max_compress", "max_lambda", "min_lambda"};

std::string lower_extension(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}

// Per-file outputs of a batch, by option: only those given.
struct PerFileOutput {
    const char* option;
    const std::string* pattern;
};

std::vector<PerFileOutput> per_file_outputs(const BatchOptions& opt) {
    std::vector<PerFileOutput> out;
    if (!opt.output.empty()) out.push_back({"-o", &opt.output});
    if (!opt.json.empty()) out.push_back({"--json", &opt.json});
    if (!opt.html.empty()) out.push_back({"--html", &opt.html});
    if (!opt.junit.empty() && has_placeholder(opt.junit)) out.push_back({"--junit", &opt.junit});
    return out;
}

// Every verb a batch runs, and what differs between them (run/batch.h BatchVerb).
const BatchVerb kVerbs[] = {
    // verb      judges writes -o needs -o pages   text beside -o
    {"check", true, false, false, "--html", false},
    {"lint", true, false, false, nullptr, false},
    {"tension", false, true, true, nullptr, false},
    {"report", false, true, true, "-o", false},
    {"info", false, false, false, nullptr, false},
    {"deform", false, true, true, nullptr, false},
    {"volume", false, true, true, nullptr, false},
    {"intersect", false, true, true, nullptr, false},
    {"diff", true, true, false, nullptr, true},
    {"bake", false, true, true, nullptr, false, "mesh frame udim"},
    {"regions", false, true, true, nullptr, false},
};

// The folder part of a per-file output the batch can make and probe: all of it, or with job
// words (bake's {mesh}/{frame}) the components before the first that holds one.
std::string batch_made_part(const std::string& path, const char* job_words) {
    if (!job_words) return path;
    std::filesystem::path kept;
    for (const auto& part : std::filesystem::path(path)) {
        const std::string s = part.string();
        if (s.find('{') != std::string::npos) return (kept / "x").string();  // "x": a file in the last made folder
        kept /= part;
    }
    return path;
}

std::string comparable(const std::string& path) {
    std::error_code ec;
    std::filesystem::path a = std::filesystem::absolute(path, ec);
    return (ec ? std::filesystem::path(path) : a).lexically_normal().string();
}

void csv_number(std::string& out, bool present, float v) {
    if (present) append_number(out, v);
    out += ',';
}

}  // namespace

const BatchVerb& batch_verb(const std::string& verb) {
    for (const BatchVerb& v : kVerbs)
        if (verb == v.verb) return v;
    throw internal_error("batch: no table row for the verb '" + verb + "'");
}

std::string batch_index_path(const BatchOptions& opt, const std::string& verb, const std::vector<BatchInput>& inputs) {
    const BatchVerb& v = batch_verb(verb);
    // A --task slice lists only its own files: its index would be overwritten by the next task's.
    if (!v.pages || inputs.empty() || !opt.task.empty()) return "";
    const std::string& pattern = std::string(v.pages) == "-o" ? opt.output : opt.html;
    if (pattern.empty()) return "";
    // The deepest folder holding every page, by the pages' absolute normal paths, so that each
    // link is a plain relative path below it.
    std::filesystem::path root;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const std::filesystem::path folder =
            std::filesystem::path(comparable(expand_placeholders(pattern, inputs[i], v.job_words))).parent_path();
        if (i == 0) {
            root = folder;
            continue;
        }
        std::filesystem::path common;
        for (auto a = root.begin(), b = folder.begin(); a != root.end() && b != folder.end() && *a == *b; ++a, ++b) common /= *a;
        root = common;
    }
    return (root / "index.html").string();
}

std::vector<std::pair<std::string, std::string>> batch_output_paths(const BatchOptions& opt, const std::string& verb,
                                                                    const std::vector<BatchInput>& inputs) {
    std::vector<ReadFile> input_paths;
    for (const BatchInput& in : inputs) {
        input_paths.push_back(in.path);
        if (!in.partner.empty()) input_paths.push_back(in.partner);
    }
    std::vector<std::pair<std::string, std::string>> outputs;
    // Where each output goes, and which option and input put it there: two inputs writing one
    // file are named both.
    std::map<std::string, std::pair<std::string, const BatchInput*>> taken;
    // Each folder is probed once (a library of thousands of files writes into a few folders).
    std::set<std::string> probed;
    auto take = [&](const std::string& option, const std::string& path, const BatchInput* in) {
        // The name against the format the option writes (report's pages are HTML).
        refuse_misnamed_output(option, path);
        if (option == "-o" && verb == "report") refuse_other_format_extension("-o", path, "html");
        if (path == "-" || is_stdout_path(path)) {
            if (inputs.size() > 1 || in == nullptr)
                throw Error(kExitUsage, option + " " + path + ": stdout cannot hold one file per input; name a file with a placeholder");
        } else {
            refuse_input_as_output(path, input_paths);
            const auto [it, fresh] = taken.emplace(comparable(path), std::pair{option, in});
            if (!fresh) {
                const auto& [other_option, other] = it->second;
                if (in && other && in != other)
                    throw Error(kExitUsage, option + ": " + other->path + " and " + in->path + " would both write " + path +
                                                " (use {relpath} to keep files of one name apart)");
                throw Error(kExitUsage, other_option + " and " + option + " both write " + path);
            }
        }
        outputs.emplace_back(option, path);
    };
    // Every output can be made, before the first file: its folder exists (a placeholder's folders
    // were made by then) and takes a new file. Else a batch would judge every file and then fail.
    auto writable = [&](const std::string& option, const std::string& path) {
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec)) throw Error(kExitCannotWrite, option + " " + path + ": is a directory");
        if (probed.insert(comparable(std::filesystem::path(path).parent_path().string())).second) refuse_unwritable_output(option, path);
    };
    for (const PerFileOutput& o : per_file_outputs(opt)) {
        if (!has_placeholder(*o.pattern) && inputs.size() > 1) {
            const std::string ext = lower_extension(*o.pattern);
            throw Error(kExitUsage, std::string(o.option) + " " + *o.pattern + " names one file for " + std::to_string(inputs.size()) +
                                        " inputs: give a placeholder, e.g. " + o.option + " out/{relpath}" + (ext.empty() ? "" : ext) +
                                        (std::string(o.option) == "--junit" || std::string(o.option) == "-o" ? ""
                                                                                                              : " (the batch's own reports: --junit FILE, --summary FILE)"));
        }
        const char* job_words = batch_verb(verb).job_words;
        for (const BatchInput& in : inputs) {
            const std::string path = expand_placeholders(*o.pattern, in, job_words);
            take(o.option, path, &in);
            // {relpath} and {dir} name folders the user cannot make one by one beforehand: made
            // here, before any work, so that a folder that cannot be made fails the batch first.
            const std::filesystem::path parent = std::filesystem::path(batch_made_part(path, job_words)).parent_path();
            std::error_code ec;
            if (has_placeholder(*o.pattern) && !parent.empty() && !std::filesystem::is_directory(parent, ec) &&
                !std::filesystem::create_directories(parent, ec))
                throw Error(kExitCannotWrite, path + ": cannot make the folder '" + parent.string() + "' (" + ec.message() + ")");
        }
    }
    if (!opt.junit.empty() && !has_placeholder(opt.junit)) take("--junit", opt.junit, nullptr);
    if (!opt.summary.empty()) take("--summary", opt.summary, nullptr);
    // The index beside the pages: a page named index.html there is refused like any collision.
    if (const std::string index = batch_index_path(opt, verb, inputs); !index.empty()) take("the index", index, nullptr);
    for (const auto& [option, path] : outputs)
        if (path != "-" && !is_stdout_path(path)) writable(option, batch_made_part(path, batch_verb(verb).job_words));
    return outputs;
}

std::string batch_summary_csv_header() {
    // `new`: a diff pair's NEW file (empty for the other verbs), as the JSON's "new" member.
    // `clip` (check), after the counts so that the columns before it keep their places: the clip
    // the T columns are of; a file of several clips judged is followed by a row per clip (issue 57).
    std::string out = "file,path,new,status,exit_code,frames,meshes,vertices,min_t,min_t_mesh,min_t_vertex,min_t_frame,max_t,max_t_mesh,"
                      "max_t_vertex,max_t_frame";
    for (const char* l : kLimits) out += std::string(",past_") + l;
    out += ",lint_errors,lint_warnings,clip,message,seconds,peak_mib\n";
    return out;
}

std::string batch_summary_csv_row(const BatchFileResult& f) {
    std::string out;
    std::vector<const BatchRow*> rows{&f.row};
    for (const BatchRow& c : f.row.clips) rows.push_back(&c);
    for (const BatchRow* row : rows) {
        const BatchRow& w = *row;
        append_csv_field(out, w.relpath);
        out += ',';
        append_csv_field(out, w.path);
        out += ',';
        append_csv_field(out, w.partner);
        out += ',' + w.status + ',' + std::to_string(w.exit_code) + ',';
        const bool ran = batch_row_ran(w);
        for (std::size_t n : {w.frames, w.meshes, w.vertices}) {
            if (ran) append_number(out, static_cast<unsigned long>(n));
            out += ',';
        }
        for (int side = 0; side < 2; ++side) {
            csv_number(out, w.has_t, static_cast<float>(side ? w.max_t : w.min_t));
            if (w.has_t) append_csv_field(out, side ? w.max_mesh : w.min_mesh);
            out += ',';
            if (w.has_t) append_number(out, static_cast<unsigned long>(side ? w.max_vertex : w.min_vertex));
            out += ',';
            if (w.has_t) out += side ? w.max_frame : w.min_frame;
            out += ',';
        }
        for (const char* l : kLimits) {
            const auto it = std::find_if(w.past.begin(), w.past.end(), [l](const auto& p) { return p.first == l; });
            if (it != w.past.end()) append_number(out, static_cast<unsigned long>(it->second));
            out += ',';
        }
        for (std::size_t n : {w.lint_errors, w.lint_warnings}) {
            if (w.has_lint) append_number(out, static_cast<unsigned long>(n));
            out += ',';
        }
        append_csv_field(out, w.clip);
        out += ',';
        append_csv_field(out, w.message);
        out += ',' + junit_seconds(w.seconds) + ',';
        append_number(out, static_cast<double>(static_cast<long>(w.peak_mib * 10 + 0.5)) / 10);
        out += '\n';
    }
    return out;
}

std::string batch_summary_csv(const BatchResult& r) {
    std::string out = batch_summary_csv_header();
    for (const BatchFileResult& f : r.files) out += batch_summary_csv_row(f);
    return out;
}

namespace {

// A file's row, and (check, several clips judged) a row per clip in its "clips".
void json_row(JsonWriter& j, const BatchRow& w, const std::string& page) {
    const bool ran = batch_row_ran(w);
    j.begin_object().member("file", w.relpath).member("path", w.path);
    if (!w.partner.empty()) j.member("new", w.partner);
    if (!w.clip.empty()) j.member("clip", w.clip);
    j.member("status", w.status).member("exit_code", w.exit_code);
    if (ran) j.member("frames", w.frames).member("meshes", w.meshes).member("vertices", w.vertices);
    if (w.has_t) {
        for (int side = 0; side < 2; ++side) {
            j.key(side ? "max_t" : "min_t").begin_object().member("value", static_cast<float>(side ? w.max_t : w.min_t));
            j.member("mesh", side ? w.max_mesh : w.min_mesh).member("vertex", side ? w.max_vertex : w.min_vertex);
            const std::string& frame = side ? w.max_frame : w.min_frame;
            j.key("frame");
            if (frame == "bind") j.value(frame);
            else j.raw(frame);
            j.end_object();
        }
    }
    if (!w.past.empty()) {
        j.key("past").begin_object();
        for (const auto& [limit, n] : w.past) j.member(limit, n);
        j.end_object();
    }
    if (w.has_lint) j.key("lint").begin_object().member("errors", w.lint_errors).member("warnings", w.lint_warnings).end_object();
    if (!w.message.empty()) j.member("message", w.message);
    // The page this file wrote (report -o, check --html): what `merge index.html` of the
    // tasks' summaries links, since no --task writes an index of its own part.
    if (ran && !page.empty()) j.member("page", page);
    if (!w.clips.empty()) {
        j.key("clips").begin_array();
        for (const BatchRow& c : w.clips) json_row(j, c, "");
        j.end_array();
    }
    if (!w.not_judged.empty()) {
        j.key("not_judged").begin_array();
        for (const std::string& n : w.not_judged) j.value(n);
        j.end_array();
    }
    j.member("seconds", w.seconds).member("peak_mib", w.peak_mib).end_object();
}

// What the batch was and how it ended: the JSON summary's head, the JSONL summary's last line.
void json_head(JsonWriter& j, const BatchResult& r) {
    j.member("rigscope", RIGSCOPE_VERSION).member("command", r.verb).member("exit_code", r.exit_code);
    j.member("counts", r.counts);
    if (!r.interrupted.empty()) j.member("interrupted", r.interrupted);
    j.key("task").begin_object().member("index", r.task_index).member("count", r.task_count).end_object();
    j.member("batch_files", r.batch_files);
}

// --task: what merge checks the parts against each other by (farm/batch_identity.h).
void json_identity(JsonWriter& j, const BatchResult& r) {
    if (!r.has_identity) return;
    j.key("identity");
    write_batch_identity(j, r.identity);
}

}  // namespace

std::string batch_summary_jsonl_row(const BatchFileResult& f) {
    std::string out;
    JsonWriter j(out);
    json_row(j, f.row, f.page);
    out += '\n';
    return out;
}

std::string batch_summary_jsonl_end(const BatchResult& r) {
    std::string out;
    JsonWriter j(out);
    j.begin_object().member("end", true);
    json_head(j, r);
    json_identity(j, r);
    j.end_object();
    out += '\n';
    return out;
}

std::string batch_summary_json(const BatchResult& r) {
    std::string out;
    JsonWriter j(out);
    j.begin_object();
    json_head(j, r);
    j.key("files").begin_array();
    for (const BatchFileResult& f : r.files) json_row(j, f.row, f.page);
    j.end_array();
    json_identity(j, r);
    j.end_object();
    out += '\n';
    return out;
}

std::string batch_summary(const BatchResult& r, const std::string& path) {
    const std::string ext = lower_extension(path);
    if (ext == ".jsonl") {
        std::string out;
        for (const BatchFileResult& f : r.files) out += batch_summary_jsonl_row(f);
        return out + batch_summary_jsonl_end(r);
    }
    return ext == ".json" ? batch_summary_json(r) : batch_summary_csv(r);
}

std::string batch_merge_output(const BatchResult& r, const std::string& path) {
    if (lower_extension(path) != ".html") return batch_summary(r, path);
    // The index of the whole library's pages, which no --task can write alone.
    if (std::none_of(r.files.begin(), r.files.end(), [](const BatchFileResult& f) { return !f.page.empty(); }))
        throw Error(kExitUsage, path + ": the tasks wrote no pages to index (an index lists the pages of report -o or check --html)");
    return batch_index_html(r, path);
}

std::string batch_junit(const BatchResult& r) {
    std::vector<JUnitBatchSuite> suites;
    for (const BatchFileResult& f : r.files) {
        JUnitBatchSuite s;
        s.name = f.row.relpath;
        s.document = f.junit;
        s.package = f.package.empty() ? "rigscope." + r.verb : f.package;
        // Unique in the batch, as each judged file's class names are (io/junit_report.h).
        s.classname = s.package + "." + junit_path_key(f.row.relpath);
        s.input = f.row.path;
        s.error_type = s.package + (f.row.status == "not checked" ? ".not_checked" : f.row.status == "interrupted" ? ".interrupted" : ".error");
        s.error_message = f.row.message;
        s.run = f.run;
        suites.push_back(std::move(s));
    }
    return junit_batch_xml(suites);
}

std::string batch_report_text(const BatchResult& r) {
    std::string out;
    for (std::size_t i = 0; i < r.files.size(); ++i) {
        if (i) out += '\n';
        out += "==> " + r.files[i].row.relpath + " <==\n" + r.files[i].report;
    }
    return out;
}

void write_batch_outputs(const BatchOptions& opt, const BatchResult& r) {
    std::vector<std::string> inputs;
    for (const BatchInput& in : r.inputs) {
        inputs.push_back(in.path);
        if (!in.partner.empty()) inputs.push_back(in.partner);
    }
    OutputSet files(inputs);
    auto write = [&](const std::string& path, const std::string& text) { files.add(path, text); };
    for (std::size_t i = 0; i < r.files.size(); ++i) {
        const BatchFileResult& f = r.files[i];
        // A file that was not judged has no report of its own: its row and the batch JUnit say why.
        if (!batch_row_ran(f.row)) continue;
        if (!opt.output.empty() && !is_stdout_path(opt.output) && !batch_verb(r.verb).job_writes_output) write(expand_placeholders(opt.output, r.inputs[i]), f.output);
        if (!opt.json.empty()) write(expand_placeholders(opt.json, r.inputs[i]), f.json);
        if (!opt.junit.empty() && has_placeholder(opt.junit)) write(expand_placeholders(opt.junit, r.inputs[i]), f.junit);
    }
    if (!opt.junit.empty() && !has_placeholder(opt.junit)) write(opt.junit, batch_junit(r));
    // A CSV or JSONL summary was written row by row as the files finished (batch_stream.cpp).
    if (!opt.summary.empty() && !r.summary_streamed) write(opt.summary, batch_summary(r, opt.summary));
    if (!r.index.empty()) write(r.index, batch_index_html(r, r.index));
    files.commit();
}

}  // namespace rigscope
