// The `merge` job (run/merge_job.h).
#include "rigscope/run/merge_job.h"

#include <algorithm>

#include "rigscope/run/batch.h"

#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include "rigscope/core/error.h"
#include "rigscope/farm/check_chunk.h"
#include "rigscope/farm/diff_chunk.h"
#include "rigscope/farm/merge.h"
#include "rigscope/run/input.h"
#include "rigscope/run/output_names.h"
#include "rigscope/run/tension_gltf.h"

namespace rigscope {

namespace {

const std::vector<std::string>* option(const ChunkRecord& r, const std::string& name) {
    for (const auto& [n, values] : r.options)
        if (n == name && !values.empty()) return &values;
    return nullptr;
}

// Per-frame files go straight to their final names, so there is nothing to join: the merge
// checks that every frame of the run's selection has its file, naming the chunk that owed it.
void check_frame_files(const std::vector<ChunkRecord>& chunks) {
    const ChunkRecord& r = chunks.front();
    InputOptions opt;
    auto text = [&](const char* name, std::string& field) {
        if (const auto* v = option(r, name)) field = v->front();
    };
    text("FILE", opt.file);
    text("--animation", opt.animation);
    text("--retarget", opt.retarget);
    text("--clip", opt.clip);
    text("--frames", opt.frames);
    text("--mesh", opt.mesh);
    text("--weld", opt.weld);
    text("--rig", opt.rig);
    text("--abc-unit", opt.abc_unit);
    text("--joints", opt.joints);
    // The record's identity (run/chunk_identity.cpp): flags true or false, "none" without a value.
    opt.rom = option(r, "--rom") && option(r, "--rom")->front() == "true";
    if (const auto* v = option(r, "--rom-angle")) opt.rom_options.angle_deg = std::stod(v->front());
    if (const auto* v = option(r, "--rom-frames")) opt.rom_options.frames_per_sweep = std::stoi(v->front());
    if (const auto* v = option(r, "--fps")) opt.fps = std::stod(v->front());
    if (const auto* v = option(r, "--max-memory")) opt.max_memory_mib = std::stod(v->front());
    if (const auto* v = option(r, "--allow-outside-uris")) opt.allow_outside_uris = v->front() != "false" && v->front() != "0";
    const Input in = load_input(opt);
    std::string missing;
    std::size_t count = 0, absent = 0;
    for (int i = 0; i < r.count; ++i)
        for (const Frame& f : chunk_frames(in.frames, i, r.count)) {
            const std::string name = frame_file_name(r.output, f);
            struct stat st {};
            ++count;
            if (stat(name.c_str(), &st) == 0 && S_ISREG(st.st_mode)) continue;
            if (++absent <= 3) missing += (missing.empty() ? "" : ", ") + name + " (chunk " + std::to_string(i) + ")";
        }
    if (absent)
        throw Error(kExitMismatch, "merge: " + std::to_string(absent) + " of " + std::to_string(count) + " frame files missing: " + missing +
                                       (absent > 3 ? ", ..." : ""));
    spdlog::info("merge: {} frame files of {} chunks complete ({})", count, r.count, r.output);
}

// OUT whose extension names the other format than the chunks hold (m.json from CSV chunks) is a
// slip, refused before anything is written, as an output extension that contradicts --format is.
// Any extension that names a format (m.xml, m.html) counts, not only the two merge joins.
void refuse_contradicting_extension(const std::string& out, const std::vector<ChunkRecord>& chunks) {
    const std::string named = out == "-" ? "" : named_format(out);
    if (named.empty()) return;  // no extension, or one that names no format
    const std::string held = chunk_output_format(chunks);
    if (named != held)
        throw Error(kExitUsage, out + ": the extension says " + named + " but the chunks hold " + held + " (" + chunks.front().output +
                                    "): name OUT ." + held);
}

}  // namespace

void MergeJobOptions::validate() const {
    if (out.empty()) throw Error(kExitUsage, "merge needs OUT");
    if (chunks.empty()) throw Error(kExitUsage, "merge needs the chunks (their outputs or records)");
    refuse_misnamed_output("--junit", junit);
}

MergeJobInput load_merge_input(const MergeJobOptions& opt) {
    MergeJobInput in;
    // A batch's --task summaries carry their task in themselves (no chunk record).
    if (std::all_of(opt.chunks.begin(), opt.chunks.end(), is_batch_summary)) {
        if (!opt.junit.empty()) throw Error(kExitUsage, "merge --junit: batch tasks' JUnit reports are each complete; a CI server reads them all");
        // What batch_merge_output writes: the summary as CSV or JSON, or the pages' index.
        const std::string named = opt.out == "-" ? "" : named_format(opt.out);
        if (!named.empty() && named != "csv" && named != "json" && named != "html")
            throw Error(kExitUsage, opt.out + ": the extension says " + named + " but merge of batch summaries writes a summary (.csv, .json) or the pages' index (.html)");
        in.batch = true;
        in.summaries = merge_batch_summaries(opt.chunks);
        return in;
    }
    in.chunks = gather_chunks(opt.chunks, RIGSCOPE_VERSION);
    return in;
}

MergeJobResult run_merge(const MergeJobOptions& opt, const MergeJobInput& in) {
    opt.validate();
    if (in.batch) {
        // The tasks' summaries joined into the batch's summary (CSV or JSON by OUT's extension)
        // or index.html, exit code the worst file's.
        const BatchResult& batch = in.summaries;
        // OUT.html: the index of every task's pages; else the summary.
        const std::string text = batch_merge_output(batch, opt.out);
        OutputFile out(opt.out, opt.chunks);
        out.write(text);
        out.commit();
        MergeJobResult r;
        r.command = batch.verb;
        r.chunks = opt.chunks.size();
        r.batch = true;
        r.exit_code = batch.exit_code;
        r.report = batch.counts + "\n";
        return r;
    }
    const std::vector<ChunkRecord>& chunks = in.chunks;
    MergeJobResult r;
    r.command = chunks.front().command;
    r.chunks = chunks.size();
    if (per_frame_files(chunks)) {
        if (opt.out != chunks.front().output)
            throw Error(kExitUsage, opt.out + ": the chunks wrote per-frame files " + chunks.front().output +
                                        ": give that pattern as OUT (there is nothing to join, merge checks they are all there)");
        check_frame_files(chunks);
        return r;
    }
    if (r.command == "check") {
        // check's chunks are JUnit reports: OUT gets the run's report, stdout its text, and the
        // verdict is the run's.
        refuse_other_format_extension("OUT", opt.out, "xml");
        const CheckOutcome outcome = merge_check_chunks(chunks);
        OutputFile junit(opt.out, chunk_files(chunks));
        junit.write(outcome.junit);
        junit.commit();
        r.verdict = true;
        r.failed = outcome.failed;
        r.report = outcome.report;
        r.report_on_stdout = true;
        return r;
    }
    if (r.command == "diff") {
        // The rows or frames joined as for other commands; the summary, verdict and JUnit
        // report from the chunks' per-vertex extremes.
        DiffLimits limits;
        std::vector<DiffMesh> meshes;
        std::vector<DiffFrame> frames;
        merge_diff_chunks(chunks, limits, meshes, frames);
        const DiffVerdict judged = judge_diff(limits, meshes, frames);
        const CheckOutcome outcome = diff_outcome(DiffClipReport{&limits, &meshes, &frames, &judged}, merged_run_info(chunks));
        refuse_contradicting_extension(opt.out, chunks);
        OutputSet files(chunk_files(chunks));
        OutputFile& out = files.open(opt.out);
        OutputFile* junit = files.open_if(opt.junit);
        merge_chunk_outputs(chunks, out);
        if (junit) junit->write(outcome.junit);
        files.commit();
        r.verdict = true;
        r.failed = outcome.failed;
        r.report = outcome.report;
        r.report_on_stdout = opt.out != "-";
        return r;
    }
    if (!opt.junit.empty()) throw Error(kExitUsage, "merge --junit is for diff chunks (check chunks' OUT is the JUnit report)");
    double t_s = 0, t_c = 0;
    if (merged_auto_range(chunks, t_s, t_c))
        spdlog::info("merge: auto range over the frames of all {} chunks: t_s = {}, t_c = {} (each chunk's log shows its own)",
                     chunks.size(), t_s, t_c);
    refuse_contradicting_extension(opt.out, chunks);
    OutputFile out(opt.out, chunk_files(chunks));
    merge_chunk_outputs(chunks, out);
    out.commit();
    return r;
}

MergeJobResult load_and_run_merge(const MergeJobOptions& opt) {
    opt.validate();  // before any chunk is read
    return run_merge(opt, load_merge_input(opt));
}

}  // namespace rigscope
