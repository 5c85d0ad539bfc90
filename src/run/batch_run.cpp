// Each verb's batch: each file through its verb's own job (load_and_run_check, load_and_run_lint,
// load_and_run_tension, load_and_run_report, load_and_run_info, load_and_run_deform, load_and_run_diff),
// run by the one batch engine (batch_runner.h), N at once, each result kept at its input's place
// so the outputs never depend on which finished first.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <spdlog/spdlog.h>

#include "rigscope/core/error.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/run_timer.h"
#include "rigscope/io/json_writer.h"
#include "rigscope/io/lint_report.h"
#include "rigscope/io/output.h"
#include "rigscope/io/report_html.h"
#include "rigscope/run/batch.h"
#include "rigscope/run/chunk_run.h"
#include "rigscope/run/output_formats.h"
#include "batch_runner.h"

namespace rigscope {

namespace {

// The file vertex a welded vertex stands for first, as check's reports list it.
std::size_t first_file_vertex(const CheckMeshExtremes& m, std::size_t w) { return m.file_ids[m.file_offsets[w]]; }

std::string frame_text(const Frame& f) {
    std::string s;
    append_frame(s, f, false);
    return s;
}

// The row's numbers from a job's extremes (check's, tension's, report's): what was evaluated,
// where T was lowest and highest (first in mesh and vertex order on ties).
void extremes_row(BatchRow& row, const std::vector<CheckMeshExtremes>& meshes, std::size_t frames) {
    row.frames = frames;
    row.meshes = meshes.size();
    for (const CheckMeshExtremes& m : meshes) {
        row.vertices += m.file_ids.size();
        for (std::size_t w = 0; w < m.lo_t.size(); ++w) {
            if (!row.has_t || m.lo_t[w] < row.min_t) {
                row.min_t = m.lo_t[w];
                row.min_mesh = m.name;
                row.min_vertex = first_file_vertex(m, w);
                row.min_frame = frame_text(m.lo_frame[w]);
            }
            if (!row.has_t || m.hi_t[w] > row.max_t) {
                row.max_t = m.hi_t[w];
                row.max_mesh = m.name;
                row.max_vertex = first_file_vertex(m, w);
                row.max_frame = frame_text(m.hi_frame[w]);
            }
            row.has_t = true;
        }
    }
}

// The file vertices past each limit, from a verdict: the batch counts what check judged, it
// does not judge again.
void past_limits(BatchRow& row, const CheckVerdict& v) {
    for (const CheckLimitVerdict& l : v.limits) row.past.emplace_back(check_limit_key(l.kind), l.file_vertices);
}

// A check's row: its extremes and its verdict's counts.
void check_row(BatchRow& row, const CheckJobResult& r) {
    extremes_row(row, r.meshes, r.frames);
    past_limits(row, r.verdict);
    // Each clip judged is a row of its own when there are several (issue 57): the file's row is
    // the worst clip's numbers with the file's status.
    row.clip = r.clips[r.worst_clip].clip;
    row.not_judged = r.not_judged;
    if (r.clips.size() > 1)
        for (std::size_t k = 0; k < r.clips.size(); ++k) {
            const CheckClipResult& c = r.clips[k];
            BatchRow one;
            one.path = row.path;
            one.relpath = row.relpath;
            one.clip = c.clip;
            one.exit_code = c.verdict.failed() ? kExitCheckFailed : kExitOk;
            one.status = one.exit_code == kExitOk ? "pass" : "fail";
            extremes_row(one, c.meshes, c.frames);
            past_limits(one, c.verdict);
            row.clips.push_back(std::move(one));
        }
    if (r.has_lint) {
        row.has_lint = true;
        row.lint_errors = r.lint.count(Severity::Error);
        row.lint_warnings = r.lint.count(Severity::Warning);
    }
}

// --reference with a placeholder ('{dir}/{stem}.obj'): each file's own neutral.
void expand_reference(TensionOptions& t, const TensionOptions& given, const BatchInput& in) {
    if (has_placeholder(given.reference)) t.reference = expand_placeholders(given.reference, in);
}

// With several files at once, each file's frames get a share of the cores (unless --threads
// says otherwise): the same results, since they never depend on the thread count.
unsigned threads_per_file(const BatchOptions& opt, unsigned asked) {
    if (asked != 0 || opt.jobs <= 1) return asked;
    return std::max(1u, ThreadPool::default_threads() / opt.jobs);
}

}  // namespace

void set_batch_counts(BatchResult& r) {
    std::map<std::string, std::size_t> counts;
    r.exit_code = kExitOk;
    for (const BatchFileResult& f : r.files) {
        ++counts[f.row.status];
        if (batch_exit_rank(f.row.exit_code) > batch_exit_rank(r.exit_code)) r.exit_code = f.row.exit_code;
    }
    r.counts = "batch: " + std::to_string(r.files.size()) + (r.files.size() == 1 ? " file" : " files") + ":";
    bool first = true;
    for (const char* s : {"pass", "fail", "ok", "not checked", "error", "interrupted"})
        if (counts[s]) {
            r.counts += std::string(first ? " " : ", ") + std::to_string(counts[s]) + " " + s;
            first = false;
        }
}

bool batch_row_ran(const BatchRow& row) { return row.status == "pass" || row.status == "fail" || row.status == "ok"; }

int batch_exit_rank(int exit_code) {
    switch (exit_code) {
        case kExitOk: return 0;
        case kExitCheckFailed: return 1;
        case kExitUsage: return 2;
        case kExitMismatch: return 3;
        case kExitBadInput: return 4;
        case kExitCannotWrite: return 5;
        default: return 6;  // kExitInternal, and any code rigscope does not document
    }
}

void BatchOptions::validate() const {
    if (inputs.empty()) throw Error(kExitUsage, "no input: give files, folders or @list.txt");
    if (jobs < 1 || jobs > kMaxThreads) throw Error(kExitUsage, "--jobs: must be from 1 to " + std::to_string(kMaxThreads));
    // An empty option value is "not given" here: the CLI (check_parsed_paths) and the Python
    // module refuse an empty path before it reaches a batch.
    if (!summary.empty()) {
        if (has_placeholder(summary)) throw Error(kExitUsage, "--summary " + summary + ": the summary is one file for the batch (no placeholder)");
        const auto dot = summary.find_last_of('.');
        std::string ext = dot == std::string::npos ? "" : summary.substr(dot);
        for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (ext != ".csv" && ext != ".json" && ext != ".jsonl")
            throw Error(kExitUsage, "--summary " + summary + ": name it .csv, .jsonl or .json (the extension says which)");
    }
    if (!task.empty()) batch_task_range(task, 1);
}

BatchResult run_check_batch(const BatchOptions& opt, const CheckJobOptions& given) {
    // A batch writes its own reports (BatchOptions: one per file or one for the batch), not the
    // job's --html, --junit and --json.
    CheckJobOptions check = given;
    check.html.out.clear();
    check.junit.clear();
    check.json.clear();
    if (!check.tension.input.chunk.empty())
        throw Error(kExitUsage, "--chunk splits one file's frames: a batch splits its files with --task I/N");
    // The options are checked once, before any file: a bad limit is the command line's, not a file's.
    {
        CheckJobOptions probe = check;
        if (!opt.html.empty()) probe.html.out = opt.html;
        probe.validate();
        // A missing viewer is the installation's fault, not each file's.
        if (!opt.html.empty()) load_report_viewer(check.html.viewer);
    }
    return run_batch(opt, "check", chunk_identity(check), [&](BatchFileResult& f, const BatchInput& in) {
        f.package = "rigscope.check";
        CheckJobOptions job = check;
        job.tension.input.file = in.path;
        job.relpath = in.relpath;  // the JUnit class names carry it: unique in the batch
        job.tension.input.threads = threads_per_file(opt, check.tension.input.threads);
        expand_reference(job.tension, check.tension, in);
        if (!opt.html.empty()) job.html.out = expand_placeholders(opt.html, in);
        const CheckJobResult result = load_and_run_check(job);
        f.report = result.outcome.report;
        f.junit = result.outcome.junit;
        f.json = result.outcome.json;
        f.row.exit_code = result.outcome.failed ? kExitCheckFailed : kExitOk;
        if (result.has_html) f.page = result.html.path;
        check_row(f.row, result);
    });
}

BatchResult run_tension_batch(const BatchOptions& opt, const TensionJobOptions& tension) {
    if (!tension.tension.input.chunk.empty())
        throw Error(kExitUsage, "--chunk splits one file's frames: a batch splits its files with --task I/N");
    // The job's options for one file: its -o by placeholder and the format that name (or
    // --format) says, by the rule of `rigscope tension FILE -o NAME`.
    auto file_job = [&](const BatchInput& in) {
        TensionJobOptions job = tension;
        job.tension.input.file = in.path;
        job.tension.input.threads = threads_per_file(opt, tension.tension.input.threads);
        expand_reference(job.tension, tension.tension, in);
        job.out = expand_placeholders(opt.output, in);
        job.format = verb_output_format("tension", tension.format, job.out);
        job.extremes = true;
        return job;
    };
    return run_batch(
        opt, "tension", chunk_identity(tension),
        [&](BatchFileResult& f, const BatchInput& in) {
            const TensionJobOptions job = file_job(in);
            const TensionJobResult result = load_and_run_tension(job);
            f.row.exit_code = kExitOk;
            extremes_row(f.row, result.meshes, result.frames);
        },
        [&](const BatchInput& in) { file_job(in).validate(); });
}

BatchResult run_report_batch(const BatchOptions& opt, const ReportJobOptions& report) {
    // A missing viewer is the installation's fault, not each file's: refused once, before any work.
    load_report_viewer(report.report.viewer);
    auto file_job = [&](const BatchInput& in) {
        ReportJobOptions job = report;
        job.tension.input.file = in.path;
        job.tension.input.threads = threads_per_file(opt, report.tension.input.threads);
        expand_reference(job.tension, report.tension, in);
        job.report.out = expand_placeholders(opt.output, in);
        return job;
    };
    return run_batch(
        opt, "report", chunk_identity(report),
        [&](BatchFileResult& f, const BatchInput& in) {
            const ReportJobResult result = load_and_run_report(file_job(in));
            f.row.exit_code = kExitOk;
            f.page = result.path;
            extremes_row(f.row, result.meshes, result.frames);
        },
        [&](const BatchInput& in) { file_job(in).validate(); });
}

BatchResult run_info_batch(const BatchOptions& opt, const InfoJobOptions& info) {
    auto file_job = [&](const BatchInput& in) {
        InfoJobOptions job = info;
        job.input.file = in.path;
        job.out = opt.output.empty() ? "-" : expand_placeholders(opt.output, in);
        return job;
    };
    return run_batch(
        opt, "info", chunk_identity(info),
        [&](BatchFileResult& f, const BatchInput& in) {
            const InfoJobResult result = load_and_run_info(file_job(in));
            f.output = result.text;
            f.report = opt.output.empty() ? result.text : "";
            f.row.exit_code = kExitOk;
            f.row.meshes = result.meshes;
            f.row.vertices = result.vertices;
        },
        [&](const BatchInput& in) { file_job(in).validate(); });
}

BatchResult run_deform_batch(const BatchOptions& opt, const DeformJobOptions& deform) {
    if (!deform.input.chunk.empty()) throw Error(kExitUsage, "--chunk splits one file's frames: a batch splits its files with --task I/N");
    auto file_job = [&](const BatchInput& in) {
        DeformJobOptions job = deform;
        job.input.file = in.path;
        job.input.threads = threads_per_file(opt, deform.input.threads);
        job.out = expand_placeholders(opt.output, in);
        job.format = verb_output_format("deform", deform.format, job.out);
        return job;
    };
    return run_batch(
        opt, "deform", chunk_identity(deform),
        [&](BatchFileResult& f, const BatchInput& in) {
            const DeformJobResult result = load_and_run_deform(file_job(in));
            f.row.exit_code = kExitOk;
            f.row.frames = result.frames;
            f.row.meshes = result.meshes;
            f.row.vertices = result.vertices;
        },
        [&](const BatchInput& in) { file_job(in).validate(); });
}

BatchResult run_volume_batch(const BatchOptions& opt, const VolumeJobOptions& volume) {
    if (!volume.input.chunk.empty()) throw Error(kExitUsage, "--chunk splits one file's frames: a batch splits its files with --task I/N");
    auto file_job = [&](const BatchInput& in) {
        VolumeJobOptions job = volume;
        job.input.file = in.path;
        job.input.threads = threads_per_file(opt, volume.input.threads);
        job.out = expand_placeholders(opt.output, in);
        job.format = verb_output_format("volume", volume.format, job.out);
        return job;
    };
    return run_batch(
        opt, "volume", chunk_identity(volume),
        [&](BatchFileResult& f, const BatchInput& in) {
            const VolumeJobOptions job = file_job(in);
            const VolumeJobLoaded l = load_and_run_volume(job);
            // The notes (an open mesh, skipped faces) as a single run says them, under the file.
            for (const std::string& note : l.result.notes) spdlog::warn("{}: {}", in.path, note);
            OutputFile out(job.out, l.input.paths);
            write_volume_output(job, l.input, l.result, out);
            out.commit();
            f.row.exit_code = kExitOk;
            f.row.frames = l.result.frames;
            f.row.meshes = l.result.meshes.size();
        },
        [&](const BatchInput& in) { file_job(in).validate(); });
}

BatchResult run_bake_batch(const BatchOptions& opt, const BakeJobOptions& bake) {
    if (!bake.tension.input.chunk.empty()) throw Error(kExitUsage, "--chunk splits one file's frames: a batch splits its files with --task I/N");
    const char* words = batch_verb("bake").job_words;
    auto file_job = [&](const BatchInput& in) {
        BakeJobOptions job = bake;
        job.tension.input.file = in.path;
        job.tension.input.threads = threads_per_file(opt, bake.tension.input.threads);
        expand_reference(job.tension, bake.tension, in);
        job.out = expand_placeholders(opt.output, in, words);
        return job;
    };
    return run_batch(
        opt, "bake", chunk_identity(bake),
        [&](BatchFileResult& f, const BatchInput& in) {
            const BakeJobResult result = load_and_run_bake(file_job(in));
            f.row.exit_code = kExitOk;
            f.row.frames = result.frames;
            f.row.meshes = result.meshes.size();
        },
        [&](const BatchInput& in) { file_job(in).validate(); });
}

BatchResult run_regions_batch(const BatchOptions& opt, const RegionsJobOptions& regions) {
    if (!regions.tension.input.chunk.empty()) throw Error(kExitUsage, "--chunk splits one file's frames: a batch splits its files with --task I/N");
    auto file_job = [&](const BatchInput& in) {
        RegionsJobOptions job = regions;
        job.tension.input.file = in.path;
        job.tension.input.threads = threads_per_file(opt, regions.tension.input.threads);
        expand_reference(job.tension, regions.tension, in);
        // Each file's own region file or masks ('@{dir}/{stem}.regions.json'); {region} is the job's.
        if (has_placeholder(regions.by)) job.by = expand_placeholders(regions.by, in, "region");
        job.out = expand_placeholders(opt.output, in);
        return job;
    };
    return run_batch(
        opt, "regions", chunk_identity(regions),
        [&](BatchFileResult& f, const BatchInput& in) {
            const RegionsJobResult result = load_and_run_regions(file_job(in));
            f.row.exit_code = kExitOk;
            f.row.frames = result.frames.size();
            f.row.meshes = result.mesh_names.size();
        },
        [&](const BatchInput& in) { file_job(in).validate(); });
}

BatchResult run_intersect_batch(const BatchOptions& opt, const IntersectJobOptions& intersect) {
    if (!intersect.input.chunk.empty()) throw Error(kExitUsage, "--chunk splits one file's frames: a batch splits its files with --task I/N");
    auto file_job = [&](const BatchInput& in) {
        IntersectJobOptions job = intersect;
        job.input.file = in.path;
        job.input.threads = threads_per_file(opt, intersect.input.threads);
        job.out = expand_placeholders(opt.output, in);
        job.format = verb_output_format("intersect", intersect.format, job.out);
        return job;
    };
    return run_batch(
        opt, "intersect", chunk_identity(intersect),
        [&](BatchFileResult& f, const BatchInput& in) {
            const IntersectJobOptions job = file_job(in);
            const IntersectJobLoaded l = load_and_run_intersect(job);
            OutputFile out(job.out, l.input.paths);
            write_intersect_output(job, l.input, l.result, out);
            out.commit();
            f.row.exit_code = kExitOk;
            f.row.frames = l.result.frames.size();
            f.row.meshes = l.result.meshes.size();
        },
        [&](const BatchInput& in) { file_job(in).validate(); });
}

BatchResult run_diff_batch(const BatchOptions& opt, const DiffBatchOptions& diff) {
    // diff.diff.out is -o as given (the CLI's; the batch writes opt.output, its pattern).
    if (diff.diff.out == "-" || is_stdout_path(diff.diff.out))
        throw Error(kExitUsage, "diff of several pairs: -o " + diff.diff.out + " cannot hold one output per pair; name a file with a placeholder");
    if (!diff.diff.input.chunk.empty()) throw Error(kExitUsage, "--chunk splits one pair's frames: a batch splits its pairs with --task I/N");
    // The format of each pair's -o, by the rule of `rigscope diff OLD NEW -o NAME`.
    auto format_of = [&](const std::string& out) {
        const std::string format = verb_output_format("diff", diff.format, out);
        check_verb_format("diff", format);
        return format;
    };
    // A pair's job: a batch's outputs are its own (BatchOptions), each pair's by its placeholders.
    auto pair_job = [&](const BatchInput& in) {
        DiffJobOptions job = diff.diff;
        job.out.clear();
        job.junit.clear();
        job.format.clear();
        job.input.file = in.path;
        job.new_file = in.partner;
        job.relpath = in.relpath;  // the JUnit class names carry it: unique in the batch
        return job;
    };
    ChunkOptions identity = chunk_identity(diff.diff);
    identity.emplace_back("--against", diff.against.empty() ? std::vector<std::string>{} : std::vector<std::string>{diff.against});
    return run_batch(
        opt, "diff", std::move(identity),
        [&](BatchFileResult& f, const BatchInput& in) {
            f.package = "rigscope.diff";
            std::error_code ec;
            if (!diff.against.empty() && !std::filesystem::exists(in.partner, ec))
                throw bad_input(in.path, "no partner under " + diff.against + " (" + in.partner + " does not exist)");
            DiffJobOptions job = pair_job(in);
            job.input.threads = threads_per_file(opt, diff.diff.input.threads);
            // The pair's -o, written by the job (which refuses several clips for it: one clip's frames).
            if (!opt.output.empty()) {
                job.out = expand_placeholders(opt.output, in);
                job.format = format_of(job.out);
            }
            const DiffJobResult result = load_and_run_diff(job);
            f.report = result.verdict.report;
            f.junit = result.verdict.junit;
            f.row.exit_code = result.verdict.failed ? kExitCheckFailed : kExitOk;
            f.row.frames = result.frames.size();
            f.row.meshes = result.meshes.size();
            for (const DiffMeshResult& m : result.meshes) f.row.vertices += m.vertex.size();
        },
        [&](const BatchInput& in) {
            pair_job(in).validate();
            if (!opt.output.empty()) format_of(expand_placeholders(opt.output, in));
        },
        [&] { return expand_diff_pairs(opt.inputs, diff.against, &std::cin); });
}

BatchResult run_lint_batch(const BatchOptions& opt, const LintJobOptions& lint) {
    // The options and the -o pattern's name against the format, before any file: every expanded
    // name ends alike.
    LintJobOptions probe = lint;
    probe.out = opt.output;
    probe.validate();
    return run_batch(opt, "lint", lint_identity(lint.input, lint.lint), [&](BatchFileResult& f, const BatchInput& in) {
        f.package = "rigscope.lint";
        LintJobOptions job = lint;
        job.input.file = in.path;
        job.out = opt.output.empty() ? "" : expand_placeholders(opt.output, in);
        job.relpath = f.row.relpath;
        // The JUnit suite's timestamp and host are the batch's for this file (f.run).
        const LintJobResult result = load_and_run_lint(job, {}, RunStart{f.run, RunTimer{}});
        f.output = result.output;
        // Without -o, each file's lint goes to stdout as `rigscope lint FILE` prints it.
        f.report = job.out.empty() ? f.output : result.text;
        f.junit = result.junit;
        f.row.exit_code = result.lint.failed() ? kExitCheckFailed : kExitOk;
        f.row.meshes = result.meshes;
        f.row.vertices = result.vertices;
        f.row.has_lint = true;
        f.row.lint_errors = result.lint.count(Severity::Error);
        f.row.lint_warnings = result.lint.count(Severity::Warning);
    });
}

}  // namespace rigscope
