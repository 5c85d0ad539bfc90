// Running a batch's files (batch_runner.h), as steps: the task's files and identity, the outputs
// checked, the start order, then the workers, whose results enter the batch in input order
// through one stream (rows as they happen, a signal's partial result).
#include "batch_runner.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>

#include "batch_stream.h"
#include "rigscope/core/error.h"
#include "rigscope/core/run_timer.h"
#include "rigscope/farm/chunk.h"
#include "rigscope/io/junit_report.h"
#include "rigscope/io/output.h"

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

// Step 1: this task's files into r.inputs (all of them without --task). With --task, the whole
// batch's identity is taken first, every file stamped, so that `merge` can tell the tasks ran
// over the same files with the same options. Returns the index of the task's first file in the
// whole batch (where its identity rows are).
std::size_t take_task_files(const BatchOptions& opt, const ChunkOptions& options, std::vector<BatchInput> all, BatchResult& r) {
    r.batch_files = all.size();
    if (opt.task.empty()) {
        r.inputs = std::move(all);
        return 0;
    }
    parse_chunk_spec(opt.task, r.task_index, r.task_count);
    r.has_identity = true;
    r.identity.command = r.verb;
    // The file's name is each row's, not an option of the batch.
    for (const auto& o : options)
        if (o.first != "FILE" && o.first != "NEW") r.identity.options.push_back(o);
    for (const BatchInput& in : all)
        r.identity.files.push_back({in.relpath, stamp_file(in.path), in.partner.empty() ? FileStamp{} : stamp_file(in.partner)});
    const auto [begin, end] = batch_task_range(opt.task, all.size());
    r.inputs.assign(all.begin() + static_cast<std::ptrdiff_t>(begin), all.begin() + static_cast<std::ptrdiff_t>(end));
    return begin;
}

// Step 2: everything a file's job or the batch's outputs would refuse, before any work: each
// file's options first (a pattern its job refuses makes no folder), then the output paths.
void check_before_work(const BatchOptions& opt, const std::function<void(const BatchInput&)>& precheck, BatchResult& r) {
    if (precheck)
        for (const BatchInput& in : r.inputs) precheck(in);
    batch_output_paths(opt, r.verb, r.inputs);
    r.index = batch_index_path(opt, r.verb, r.inputs);
    r.files.resize(r.inputs.size());
}

// Step 3: the order files start in. With --jobs 1 input order, so each row comes as its file
// ends; with several at once the largest files first (by bytes, a stand-in for their work: the
// longest job then starts at once instead of running alone at the end while the other workers
// idle). Outputs do not depend on it: results are kept by input index.
std::vector<std::size_t> start_order(const std::vector<BatchInput>& inputs, unsigned jobs) {
    const std::size_t n = inputs.size();
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    if (jobs <= 1) return order;
    std::vector<std::uintmax_t> bytes(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        std::error_code ec;
        const std::uintmax_t size = std::filesystem::file_size(inputs[i].path, ec);
        bytes[i] = ec ? 0 : size;
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return bytes[a] > bytes[b]; });
    return order;
}

// The content hashes (FNV-1a) of a file and its partner, taken just before its job reads them
// (then in the page cache for its reader); a file that cannot be read is the job's error to
// name, not the hash's, so its hash stays empty.
struct FileHashes {
    std::string hash[2];
};

FileHashes hash_inputs(const BatchInput& in) {
    FileHashes h;
    const std::string* paths[2] = {&in.path, &in.partner};
    for (int k = 0; k < 2; ++k) {
        if (paths[k]->empty()) continue;
        try {
            h.hash[k] = fingerprint_file("FILE", *paths[k]).fnv1a64;
        } catch (const Error&) {
        }
    }
    return h;
}

// One file's run: its row named, its inputs hashed (`hashes`: with --task, counted in its
// time), its job guarded (an error is the row's, the batch goes on), its time and peak memory.
// `alone`: no other file runs meanwhile, so the peak is this file's.
BatchFileResult run_file(const BatchInput& in, bool judges, bool alone, const BatchFileJob& one, FileHashes* hashes) {
    BatchFileResult f;
    f.row.path = in.path;
    f.row.relpath = in.relpath;
    f.row.partner = in.partner;
    f.run = start_run_info();
    if (alone) reset_peak_rss();
    const RunTimer timer;
    if (hashes) *hashes = hash_inputs(in);
    guarded(f, judges, [&] { one(f, in); });
    f.row.seconds = timer.seconds();
    f.run.seconds = f.row.seconds;
    f.row.peak_mib = peak_rss_mib();
    return f;
}

// Where the workers' results meet: each file's result enters the batch here, under one lock,
// and is streamed (a CSV or JSONL summary row, on_file) as soon as it and every file before it
// are done, so streamed outputs are the same bytes for any --jobs. A signal's handler takes the
// same lock and writes the batch as it stands.
class BatchStream {
public:
    BatchStream(const BatchOptions& opt, BatchResult& r, std::size_t first_file) : opt_(opt), r_(r), first_file_(first_file) {
        n_ = r.inputs.size();
        done_.assign(n_, 0);
        hold_ = test_hold_file(hold_at_);
        if (!opt.summary.empty() && LiveSummary::streams(opt.summary)) {
            live_ = std::make_unique<LiveSummary>(opt.summary, read_files(r.inputs));
            r.summary_streamed = true;
        }
    }

    // File i's result (and the hashes of what it read, with --task) into the batch.
    void finished(std::size_t i, BatchFileResult&& f, const FileHashes& h) {
        std::lock_guard<std::mutex> lock(emit_);
        r_.files[i] = std::move(f);
        if (r_.has_identity) {
            BatchIdentityFile& id = r_.identity.files[first_file_ + i];
            id.file.fnv1a64 = h.hash[0];
            id.partner.fnv1a64 = h.hash[1];
        }
        done_[i] = 1;
        for (; frontier_ < n_ && done_[frontier_]; ++frontier_) {
            if (stream_error_) continue;
            try {
                if (live_) live_->row(r_.files[frontier_]);
                if (opt_.on_file) opt_.on_file(opt_, r_, frontier_);
            } catch (...) {
                stream_error_ = std::current_exception();
            }
        }
        if (hold_) streamed_.notify_all();
    }

    // The test hold point (batch_stream.h): before file i starts, wait until every file before
    // it is streamed, then hold there for the test's signal.
    void hold_before(std::size_t i) {
        if (!hold_ || i != hold_at_) return;
        {
            std::unique_lock<std::mutex> lock(emit_);
            streamed_.wait(lock, [&] { return frontier_ >= i; });
        }
        hold_for_test();
    }

    // A signal: the files done so far are the batch's result, the rest "interrupted"; their
    // outputs written as at the end, then the process ends by the signal.
    [[noreturn]] void interrupted(int sig) {
        std::lock_guard<std::mutex> lock(emit_);  // no file is streamed or marked done from here on
        BatchResult part = partial_result(sig);
        try {
            // The files past the frontier: judged ones reported too (--jobs N), the rest as interrupted.
            for (std::size_t i = frontier_; i < n_; ++i) {
                if (live_) live_->row(part.files[i]);
                if (done_[i] && opt_.on_file) opt_.on_file(opt_, part, i);
            }
            if (live_) live_->end(part);
            write_batch_outputs(opt_, part);
            if (opt_.on_interrupt) opt_.on_interrupt(part);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "rigscope: error: %s\n", e.what());
        }
        end_by_signal(sig);
    }

    // After the workers: a stream's failure (disk full) is the batch's, else the counts and the
    // summary's end.
    void end() {
        if (stream_error_) std::rethrow_exception(stream_error_);
        set_batch_counts(r_);
        if (live_) live_->end(r_);
    }

private:
    static std::vector<ReadFile> read_files(const std::vector<BatchInput>& inputs) {
        std::vector<ReadFile> paths;
        for (const BatchInput& in : inputs) {
            paths.push_back(in.path);
            if (!in.partner.empty()) paths.push_back(in.partner);
        }
        return paths;
    }

    // The batch as it stands (copied whole, so no field is left out): the files done hold their
    // results, the rest rows "interrupted". Called under the lock.
    BatchResult partial_result(int sig) const {
        BatchResult part = r_;
        part.interrupted = signal_name(sig);
        for (std::size_t i = 0; i < n_; ++i) {
            if (done_[i]) continue;
            BatchRow& w = part.files[i].row;
            w.path = r_.inputs[i].path;
            w.relpath = r_.inputs[i].relpath;
            w.partner = r_.inputs[i].partner;
            w.status = "interrupted";
            w.exit_code = 128 + sig;
            w.message = w.path + ": interrupted by " + part.interrupted + " before it was judged";
            part.files[i].run = start_run_info();  // the JUnit suite's timestamp and host: when it was stopped
        }
        set_batch_counts(part);
        part.exit_code = 128 + sig;
        return part;
    }

    const BatchOptions& opt_;
    BatchResult& r_;
    std::size_t first_file_;
    std::size_t n_ = 0;
    std::unique_ptr<LiveSummary> live_;
    std::mutex emit_;                 // done_, frontier_, the streams and the hashes
    std::vector<char> done_;
    std::size_t frontier_ = 0;        // the first file not yet streamed
    std::condition_variable streamed_;  // frontier_ moved (the test hold point waits for it)
    std::size_t hold_at_ = 0;
    bool hold_ = false;
    std::exception_ptr stream_error_;  // a stream that failed (disk full): rethrown after the files
};

// Step 4: the files run by `jobs` threads taking the next of `order`; each result to the stream.
void run_files(const BatchResult& r, const std::vector<std::size_t>& order, unsigned jobs, bool judges, const BatchFileJob& one,
               BatchStream& stream) {
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
        for (std::size_t k; (k = next++) < order.size();) {
            const std::size_t i = order[k];
            stream.hold_before(i);
            FileHashes hashes;
            BatchFileResult f = run_file(r.inputs[i], judges, jobs == 1, one, r.has_identity ? &hashes : nullptr);
            stream.finished(i, std::move(f), hashes);
        }
    };
    std::vector<std::thread> threads;
    for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(worker);
    worker();
    for (std::thread& t : threads) t.join();
}

}  // namespace

BatchResult run_batch(const BatchOptions& opt, const char* verb, ChunkOptions options, const BatchFileJob& one,
                      const std::function<void(const BatchInput&)>& precheck, const std::function<std::vector<BatchInput>()>& expand) {
    opt.validate();
    const BatchVerb& traits = batch_verb(verb);
    if (traits.needs_output && opt.output.empty())
        throw Error(kExitUsage, std::string(verb) + " over several inputs writes a file per input: give -o with a placeholder, e.g. -o out/{relpath}" +
                                    (std::string(verb) == "report" ? ".html" : ".csv"));
    BatchResult r;
    r.verb = verb;
    // The verb's own expansion (diff's pairs), else files, folders and @lists.
    const std::size_t first_file = take_task_files(opt, options, expand ? expand() : expand_batch_inputs(opt.inputs, &std::cin), r);
    check_before_work(opt, precheck, r);
    const std::size_t n = r.inputs.size();
    const unsigned jobs = std::max(1u, std::min<unsigned>(opt.jobs, static_cast<unsigned>(std::max<std::size_t>(1, n))));
    BatchStream stream(opt, r, first_file);
    {
        std::unique_ptr<BatchSignals> signals;
        if (opt.handle_signals) signals = std::make_unique<BatchSignals>([&stream](int sig) { stream.interrupted(sig); });
        run_files(r, start_order(r.inputs, jobs), jobs, traits.judges, one, stream);
    }
    stream.end();
    return r;
}

}  // namespace rigscope
