// Running a batch: each file through its verb's own job (load_and_run_check, load_and_run_lint,
// load_and_run_tension, load_and_run_report, load_and_run_info, load_and_run_deform, load_and_run_diff), N
// at once, each result kept at its input's place so the outputs never depend on which finished first.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <new>
#include <spdlog/spdlog.h>
#include <stdexcept>
#include <memory>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "rigscope/core/error.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/run_timer.h"
#include "rigscope/farm/chunk.h"
#include "rigscope/io/json_writer.h"
#include "rigscope/io/lint_report.h"
#include "rigscope/io/output.h"
#include "rigscope/io/report_html.h"
#include "rigscope/run/batch.h"
#include "rigscope/run/chunk_run.h"
#include "rigscope/run/output_formats.h"
#include "batch_stream.h"

namespace rigscope {

namespace {

// Peak resident memory: VmHWM of /proc/self/status in MiB (0 where it cannot be read).
double peak_rss_mib() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::strtod(line.c_str() + 6, nullptr) / 1024.0;
    return 0;
}

// Linux resets the peak to the current size on "5" to clear_refs (since 4.0), so one file's
// peak is its own when files run one at a time. Where it fails the peak is the process's so far.
void reset_peak_rss() {
    if (std::FILE* f = std::fopen("/proc/self/clear_refs", "w")) {
        std::fputs("5", f);
        std::fclose(f);
    }
}

// status by the exit code `rigscope VERB FILE` alone gives: 2 is a file the options find nothing
// to judge in (no animation, no mesh, a --mesh it lacks), 3 and above a file that could not be
// read or run. A verb that judges nothing never says pass: its file ran, ok.
const char* status_of(int code, bool judges) {
    if (code == kExitOk) return judges ? "pass" : "ok";
    return code == kExitCheckFailed ? "fail" : code == kExitUsage ? "not checked" : "error";
}

// The lines of a failed file's text that say why it failed, joined with "; ": a limit with
// vertices past it, a torn seam, nothing judged, lint's counts. A summary row that says fail
// says why, as an error row does, without the text that went to stdout.
std::string fail_reason(const std::string& report) {
    std::string out;
    std::size_t start = 0;
    while (start < report.size()) {
        std::size_t end = report.find('\n', start);
        if (end == std::string::npos) end = report.size();
        const std::string line = report.substr(start, end - start);
        start = end + 1;
        if (line.empty() || line[0] == ' ') continue;  // the listed vertices under a limit
        auto count_after = [&line](std::size_t colon) { return colon == std::string::npos ? std::string() : line.substr(colon + 2); };
        bool why = false;
        if (line.find("past the limit") != std::string::npos || line.compare(0, 16, "limit seam torn:") == 0) {
            why = count_after(line.find(": ")).compare(0, 2, "0 ") != 0;
        } else if (line.compare(0, 8, "nothing ") == 0 || line.compare(0, 12, "not checked:") == 0 || line.compare(0, 11, "not fitted ") == 0) {
            why = true;
        } else if (const std::size_t checks = line.rfind(" (checks: "); checks != std::string::npos) {
            why = count_after(line.rfind(": ", checks)).compare(0, 21, "0 errors, 0 warnings,") != 0;  // lint's counts
        }
        if (why) out += (out.empty() ? "" : "; ") + line;
    }
    return out;
}

// Runs job(), turning what ends a single run into the row's exit code and message, as main()
// maps them: the batch goes on.
void guarded(BatchFileResult& f, bool judges, const std::function<void()>& job) {
    auto fail = [&f](int code, const std::string& what) {
        // In a batch a message must say which file it is about: an option's refusal (--frames
        // past a clip, --vertices past a mesh) names no file when one file runs alone.
        const bool named = what.find(f.row.path) != std::string::npos ||
                           (!f.row.partner.empty() && what.find(f.row.partner) != std::string::npos);
        const std::string message = named ? what : f.row.path + ": " + what;
        f.row.exit_code = code;
        f.row.message = message;
        f.report = (code == kExitInternal ? "internal error: " : "error: ") + message + "\n";
        f.junit.clear();
        f.json.clear();
        f.output.clear();
    };
    try {
        job();
    } catch (const Error& e) {
        fail(e.code(), e.what());
    } catch (const std::bad_alloc&) {
        fail(kExitBadInput, f.row.path + ": out of memory");
    } catch (const std::length_error& e) {
        fail(kExitBadInput, e.what());
    } catch (const std::logic_error& e) {
        fail(kExitInternal, std::string(e.what()) + " (please report it)");
    } catch (const std::exception& e) {
        fail(kExitBadInput, e.what());
    }
    f.row.status = status_of(f.row.exit_code, judges);
    if (f.row.status == std::string("fail") && f.row.message.empty()) f.row.message = fail_reason(f.report);
}

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

// The batch's files (this task's slice), outputs checked, each file's options checked by
// `precheck` (if given: what the verb's job would refuse for that file's names, e.g. an
// extension that disagrees with the format), all before any work; then each file's job `one`
// run by `jobs` threads (input order, or largest first with several); results kept by index.
// `expand`, if given, is the verb's own reading of the arguments (diff's pairs). With --task the
// batch's identity (farm/batch_identity.h) is taken before any work: every file stamped, the
// verb's `options` (its job's chunk identity), and each of this task's files hashed just before
// its job reads it.
using BatchFileJob = std::function<void(BatchFileResult&, const BatchInput&)>;
BatchResult run_batch(const BatchOptions& opt, const char* verb, ChunkOptions options, const BatchFileJob& one,
                      const std::function<void(const BatchInput&)>& precheck = {},
                      const std::function<std::vector<BatchInput>()>& expand = {}) {
    opt.validate();
    const BatchVerb& traits = batch_verb(verb);
    if (traits.needs_output && opt.output.empty())
        throw Error(kExitUsage, std::string(verb) + " over several inputs writes a file per input: give -o with a placeholder, e.g. -o out/{relpath}" +
                                    (std::string(verb) == "report" ? ".html" : ".csv"));
    BatchResult r;
    r.verb = verb;
    // The verb's own expansion (diff's pairs), else files, folders and @lists.
    std::vector<BatchInput> all = expand ? expand() : expand_batch_inputs(opt.inputs, &std::cin);
    r.batch_files = all.size();
    std::size_t first_file = 0;  // this task's first file in the batch
    if (!opt.task.empty()) {
        parse_chunk_spec(opt.task, r.task_index, r.task_count);
        r.has_identity = true;
        r.identity.command = verb;
        // The file's name is each row's, not an option of the batch.
        for (const auto& o : options)
            if (o.first != "FILE" && o.first != "NEW") r.identity.options.push_back(o);
        for (const BatchInput& in : all)
            r.identity.files.push_back({in.relpath, stamp_file(in.path), in.partner.empty() ? FileStamp{} : stamp_file(in.partner)});
        const auto [begin, end] = batch_task_range(opt.task, all.size());
        first_file = begin;
        r.inputs.assign(all.begin() + static_cast<std::ptrdiff_t>(begin), all.begin() + static_cast<std::ptrdiff_t>(end));
    } else {
        r.inputs = std::move(all);
    }
    // Each file's options first: a pattern its job refuses makes no folder.
    if (precheck)
        for (const BatchInput& in : r.inputs) precheck(in);
    batch_output_paths(opt, verb, r.inputs);
    r.index = batch_index_path(opt, verb, r.inputs);
    r.files.resize(r.inputs.size());
    const std::size_t n = r.inputs.size();
    const unsigned jobs = std::max(1u, std::min<unsigned>(opt.jobs, static_cast<unsigned>(std::max<std::size_t>(1, n))));
    std::vector<ReadFile> input_paths;
    for (const BatchInput& in : r.inputs) {
        input_paths.push_back(in.path);
        if (!in.partner.empty()) input_paths.push_back(in.partner);
    }
    // Results as they happen: a CSV or JSONL summary grows a row per file, and on_file gets each
    // file, in input order, as soon as it and every file before it are done: outputs are the
    // same bytes for any --jobs. With --jobs 1 files start in input order, so each row comes as
    // its file ends; with several at once the largest files start first (by bytes, a stand-in
    // for their work: the longest job then starts at once instead of running alone at the end
    // while the other workers idle), so a row may wait for a larger file before it.
    std::unique_ptr<LiveSummary> live;
    if (!opt.summary.empty() && LiveSummary::streams(opt.summary)) {
        live = std::make_unique<LiveSummary>(opt.summary, input_paths);
        r.summary_streamed = true;
    }
    std::mutex emit;                  // done, frontier, the streams and the hashes below
    std::vector<char> done(n, 0);
    std::size_t frontier = 0;         // the first file not yet streamed
    std::condition_variable streamed; // frontier moved (the test hold point waits for it)
    std::size_t hold_at = 0;
    const bool hold = test_hold_file(hold_at);
    std::exception_ptr stream_error;  // a stream that failed (disk full): rethrown after the files
    // A file's result enters r only here, under the lock: the interrupt below, holding it, can
    // copy r whole while other files still run.
    auto finished = [&](std::size_t i, BatchFileResult&& f, const std::string (&hash)[2]) {
        std::lock_guard<std::mutex> lock(emit);
        r.files[i] = std::move(f);
        if (r.has_identity) {
            BatchIdentityFile& id = r.identity.files[first_file + i];
            id.file.fnv1a64 = hash[0];
            id.partner.fnv1a64 = hash[1];
        }
        done[i] = 1;
        for (; frontier < n && done[frontier]; ++frontier) {
            if (stream_error) continue;
            try {
                if (live) live->row(r.files[frontier]);
                if (opt.on_file) opt.on_file(opt, r, frontier);
            } catch (...) {
                stream_error = std::current_exception();
            }
        }
        if (hold) streamed.notify_all();
    };
    // A signal: the files done so far are the batch's result, the rest "interrupted"; their
    // outputs written as at the end, then the process ends by the signal.
    auto interrupted = [&](int sig) {
        std::lock_guard<std::mutex> lock(emit);  // no file is streamed or marked done from here on
        // The batch as it stands: the files done hold their results, the rest are still empty.
        BatchResult part = r;
        part.interrupted = signal_name(sig);
        for (std::size_t i = 0; i < n; ++i) {
            if (done[i]) continue;
            BatchRow& w = part.files[i].row;
            w.path = r.inputs[i].path;
            w.relpath = r.inputs[i].relpath;
            w.partner = r.inputs[i].partner;
            w.status = "interrupted";
            w.exit_code = 128 + sig;
            w.message = w.path + ": interrupted by " + part.interrupted + " before it was judged";
            part.files[i].run = start_run_info();  // the JUnit suite's timestamp and host: when it was stopped
        }
        set_batch_counts(part);
        part.exit_code = 128 + sig;
        try {
            // The files past the frontier: judged ones reported too (--jobs N), the rest as interrupted.
            for (std::size_t i = frontier; i < n; ++i) {
                if (live) live->row(part.files[i]);
                if (done[i] && opt.on_file) opt.on_file(opt, part, i);
            }
            if (live) live->end(part);
            write_batch_outputs(opt, part);
            if (opt.on_interrupt) opt.on_interrupt(part);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "rigscope: error: %s\n", e.what());
        }
        end_by_signal(sig);
    };
    std::unique_ptr<BatchSignals> signals;
    if (opt.handle_signals) signals = std::make_unique<BatchSignals>(interrupted);
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    if (jobs > 1) {
        std::vector<std::uintmax_t> bytes(n, 0);
        for (std::size_t i = 0; i < n; ++i) {
            std::error_code ec;
            const std::uintmax_t size = std::filesystem::file_size(r.inputs[i].path, ec);
            bytes[i] = ec ? 0 : size;
        }
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return bytes[a] > bytes[b]; });
    }
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
        for (std::size_t k; (k = next++) < n;) {
            const std::size_t i = order[k];
            if (hold && i == hold_at) {
                {
                    std::unique_lock<std::mutex> lock(emit);
                    streamed.wait(lock, [&] { return frontier >= i; });
                }
                hold_for_test();
            }
            BatchFileResult f;
            f.row.path = r.inputs[i].path;
            f.row.relpath = r.inputs[i].relpath;
            f.row.partner = r.inputs[i].partner;
            f.run = start_run_info();
            if (jobs == 1) reset_peak_rss();
            const RunTimer timer;
            // --task: the bytes the job is about to read (then in the page cache for its
            // reader); a file that cannot be read is the job's error to name, not the hash's.
            std::string hash[2];
            if (r.has_identity) {
                const std::string* paths[2] = {&r.inputs[i].path, &r.inputs[i].partner};
                for (int k = 0; k < 2; ++k) {
                    if (paths[k]->empty()) continue;
                    try {
                        hash[k] = fingerprint_file("FILE", *paths[k]).fnv1a64;
                    } catch (const Error&) {
                    }
                }
            }
            guarded(f, traits.judges, [&] { one(f, r.inputs[i]); });
            f.row.seconds = timer.seconds();
            f.run.seconds = f.row.seconds;
            f.row.peak_mib = peak_rss_mib();
            finished(i, std::move(f), hash);
        }
    };
    std::vector<std::thread> threads;
    for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(worker);
    worker();
    for (std::thread& t : threads) t.join();
    signals.reset();
    if (stream_error) std::rethrow_exception(stream_error);

    set_batch_counts(r);
    if (live) live->end(r);
    return r;
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
