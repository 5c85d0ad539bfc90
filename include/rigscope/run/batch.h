// Several inputs per command (issue 41): `rigscope check A B DIR @list.txt` (and tension, report,
// info, deform, lint; diff over pairs) and Python's rigscope.batch() run one job per file through the verbs' own run-layer jobs, with per-file
// outputs named by placeholders, one JUnit report and one summary for the batch, and the worst
// file's exit code. docs/rig_ci.md ("A whole library in one command") and docs/farm.md describe what a user sees.
//
// Inputs (batch_inputs.cpp), the run (each verb's in batch_run.cpp, over the one engine in
// batch_runner.cpp) and what is written (batch_report.cpp, batch_index.cpp) are kept apart so
// that the run itself never touches a file it does not read.
#pragma once

#include <cstddef>
#include <functional>
#include <istream>
#include <string>
#include <utility>
#include <vector>

#include "rigscope/farm/batch_identity.h"
#include "rigscope/run/check_job.h"
#include "rigscope/run/deform_job.h"
#include "rigscope/run/diff_job.h"
#include "rigscope/run/info_job.h"
#include "rigscope/run/intersect_job.h"
#include "rigscope/run/lint_job.h"
#include "rigscope/run/report_job.h"
#include "rigscope/run/tension_job.h"
#include "rigscope/run/volume_job.h"
#include "rigscope/run/bake_job.h"
#include "rigscope/run/regions_job.h"

namespace rigscope {

// One file of a batch: the path as it reaches the reader, and the path relative to the batch
// root (the deepest folder holding every argument), which names it in the JUnit report and the
// summary and is {relpath} in output names.
struct BatchInput {
    std::string path;
    std::string relpath;
    std::string partner;  // diff: NEW, compared with path (OLD); empty for the other verbs
};

// The extensions a folder is searched for: the formats that carry skins and animation (.fbx,
// .gltf, .glb, .dae, .usd, .usda, .usdc, .usdz). OBJ and PLY are read too, but in a rig library
// they are neutrals, references and cache frames: taken only when named.
bool is_batch_extension(const std::string& path);

// The files the arguments name, in order: a file as given; a folder, every file below it with a
// batch extension in sorted order (by path, byte-wise), recursively; `@FILE` each line of FILE
// (blank lines and lines starting with '#' skipped; relative lines are relative to the current
// folder), `@-` the lines of `stdin_lines`. A file named twice is taken once, at its first place.
// Throws Error (exit 3) for an argument that does not exist or an unreadable list, Error (exit 2)
// for an empty result or a folder holding no rig file; before any work.
std::vector<BatchInput> expand_batch_inputs(const std::vector<std::string>& args, std::istream* stdin_lines);

// diff over pairs. With `against` (a folder): every OLD the arguments name (files, folders,
// @lists, as above) is paired with the file of its relpath under `against`, whether or not it
// exists (a missing partner is that pair's error, not the batch's). Without: `args` is one
// @pairs.txt (or @-) whose lines are "OLD NEW" (two paths split at white space, or at a tab when
// a path holds spaces; blank lines and # comments skipped), relpaths taken from the OLDs. Throws
// Error (exit 2) for a malformed line, an OLD that is a folder or is named twice, a missing
// `against`; before any work.
std::vector<BatchInput> expand_diff_pairs(const std::vector<std::string>& args, const std::string& against, std::istream* stdin_lines);

// True when `pattern` holds one of the placeholders {stem} {name} {ext} {relpath} {dir}.
bool has_placeholder(const std::string& pattern);
// `pattern` with each placeholder replaced for `in`: {name} the file name (walk.fbx), {stem} it
// without its extension (walk), {ext} the extension without the dot (fbx), {relpath} the path
// relative to the batch root (chars/walk.fbx), {dir} the folder of the path as given (beside the
// input; "." for none). Throws Error (exit 2) for an unknown {word}; {clip} and the words of
// `job_words` (space-separated, e.g. bake's "mesh frame udim") are left for the file's job to fill.
std::string expand_placeholders(const std::string& pattern, const BatchInput& in, const char* job_words = nullptr);

// --task I/N: files [n·I/N, n·(I+1)/N) of the n, as --chunk splits frames (I counts from 0, like
// SLURM_ARRAY_TASK_ID). Throws Error (exit 2) for a malformed value.
std::pair<std::size_t, std::size_t> batch_task_range(const std::string& task, std::size_t n);

struct BatchResult;

// What a batch runs and writes besides each file's own job options.
struct BatchOptions {
    std::vector<std::string> inputs;  // files, folders, @lists
    unsigned jobs = 1;                // files at once
    std::string task;                 // --task I/N; empty: every file
    // Per file, by placeholder: check's --json and --html, lint's -o. --junit without a
    // placeholder is the batch's one report; with one, each file's own.
    std::string junit, json, html, output;
    std::string summary;              // .csv, .jsonl (written row by row as files finish) or .json: a row per file
    bool quiet_reports = false;       // the CLI's -q: no per-file text on stdout

    // Results as they happen (issue 57 item 3; docs/farm.md "Streaming"): called with file i's
    // result as soon as it and every file before it in input order are done, in input order,
    // one call at a time, with these options as the batch runs them (the CLI prints its text
    // and a progress line). Empty: nothing.
    std::function<void(const BatchOptions&, const BatchResult&, std::size_t)> on_file;
    // The CLI's: SIGINT, SIGTERM and SIGHUP during the files write the outputs of the files
    // judged so far (the rest rows "interrupted"), call on_interrupt with that result, remove
    // every temporary and end the process by the signal (exit 130, 143, 129). Python leaves
    // signals to the interpreter.
    bool handle_signals = false;
    std::function<void(const BatchResult&)> on_interrupt;

    // Throws Error (exit 2) for options no batch can run with (jobs 0, a summary of unknown
    // format, an empty value), before any file is read.
    void validate() const;
};

// A file's line in the summary and Python's rows. Numbers are 0 and places empty where the
// file was not evaluated (status error or not checked).
struct BatchRow {
    std::string path, relpath;
    std::string partner;         // diff: NEW (JSON summary "new"; OLD is path)
    std::string status;          // pass, fail (a verb that judges), ok (one that judges nothing: tension...), error, not checked, interrupted
    int exit_code = 0;           // what `rigscope VERB FILE` alone exits with
    std::string message;         // error and not checked: the one-line message
    std::size_t frames = 0, meshes = 0, vertices = 0;  // evaluated; vertices: file vertices
    bool has_t = false;          // min/max below hold a value
    double min_t = 0, max_t = 0;
    std::string min_mesh, max_mesh;
    std::size_t min_vertex = 0, max_vertex = 0;  // the file vertex (the welded vertex's first)
    std::string min_frame, max_frame;            // a frame number, or bind
    // Per limit given, in check's order: its name (max_stretch, ...) and the file vertices past it.
    std::vector<std::pair<std::string, std::size_t>> past;
    bool has_lint = false;       // lint ran (lint, check --lint)
    std::size_t lint_errors = 0, lint_warnings = 0;
    double seconds = 0;          // wall time of the file's job
    double peak_mib = 0;         // the process's peak resident memory over the job (see batch_runner.cpp)
    // check (issue 57): the clip the T columns and past counts are of (the worst clip judged), a
    // row per clip when several were judged (each its own status), and the file's clips --clip
    // left out.
    std::string clip;
    std::vector<BatchRow> clips;
    std::vector<std::string> not_judged;
};

// True when the row's file ran to the end (pass, fail or ok): its numbers and outputs exist.
bool batch_row_ran(const BatchRow& row);

// What differs between the verbs a batch runs, in one table (batch_report.cpp) rather than in
// copies of the batch: every verb goes through run_batch with its file's job and these.
struct BatchVerb {
    const char* verb;
    bool judges;             // a verdict (pass/fail); else a file that ran is ok
    // -o is written by the file's own job as it streams (tension, deform, report, diff), not
    // kept in memory for write_batch_outputs.
    bool job_writes_output;
    bool needs_output;       // over several files -o with a placeholder is required (what it writes is the point)
    const char* pages;       // the option naming each file's HTML page ("-o", "--html"): index.html beside them
    // Each file's text goes to stdout even with -o (diff's verdict; lint's and info's text is
    // what -o holds, tension's, report's and deform's -o is all they write).
    bool text_beside_output;
    // Placeholders of -o the file's job fills itself (bake's images: "mesh frame udim"), left by
    // the batch; folders are made up to the first component holding one.
    const char* job_words = nullptr;
};
// The verb's row of the table; throws internal_error for a verb that has none.
const BatchVerb& batch_verb(const std::string& verb);

// One file's result: its row, and what its own run would have printed and written.
struct BatchFileResult {
    BatchRow row;
    std::string report;      // the text `rigscope VERB FILE` prints
    std::string junit;       // its JUnit document (empty for error and not checked)
    std::string json;        // check --json, lint -o *.json: its document
    std::string output;      // lint -o: what is written there
    std::string package;     // JUnit package of the verb (rigscope.check, rigscope.lint)
    std::string page;        // report -o, check --html: the page written (for the index)
    CheckRunInfo run;        // when it ran, for the batch report's error suites
};

struct BatchResult {
    std::string verb;
    std::vector<BatchInput> inputs;        // this task's files, in order
    std::vector<BatchFileResult> files;    // in input order, whatever finished first
    int exit_code = 0;                     // the worst file's (batch_exit_rank)
    std::string counts;                    // "batch: 10 files: 7 pass, 2 fail, 1 error"
    int task_index = 0, task_count = 1;    // --task I/N (0/1 without)
    std::size_t batch_files = 0;           // the files of every task together
    std::string index;                     // index.html of the pages (batch_index_path), "" for none
    // --task: the whole batch's identity (farm/batch_identity.h), this task's files with their
    // content hashes; written in the JSON summary, compared by `merge`.
    bool has_identity = false;
    BatchIdentity identity;
    bool summary_streamed = false;         // the CSV or JSONL summary was written as files finished
    std::string interrupted;               // the signal that stopped the batch (SIGTERM), "" for none
};

// The counts line of a batch's rows and its exit code (the worst row's), set on r.
void set_batch_counts(BatchResult& r);

// The order files' exit codes are ranked in, best first; a batch exits with its worst file's:
// 0 pass, 1 fail, 2 not checked, 5 mismatch, 3 unreadable, 4 cannot write, 6 internal error.
int batch_exit_rank(int exit_code);

// The per-file output paths (by placeholder) and the batch's own, for every input, as
// (option, path); throws Error (exit 2) when two inputs would write one file, naming both
// inputs, or when a per-file output without placeholder is given several inputs (with the hint).
std::vector<std::pair<std::string, std::string>> batch_output_paths(const BatchOptions& opt, const std::string& verb,
                                                                    const std::vector<BatchInput>& inputs);

// The check job over every input: opt's outputs checked first (batch_output_paths), each file
// then run with `check` (its tension.input.file and html.out set per file; its junit, json and
// html.out are not the batch's, which BatchOptions names), `opt.jobs` at once.
// A file that fails to load or run is its row's error; the batch never stops at one.
BatchResult run_check_batch(const BatchOptions& opt, const CheckJobOptions& check);

// The tension job (run_tension, with its extremes kept for the row) over every input, each file
// writing -o by placeholder ({stem}.csv, {relpath}_####.glb) as it streams; its format from
// --format or each name's extension. Without -o, refused: one file's map can be large.
BatchResult run_tension_batch(const BatchOptions& opt, const TensionJobOptions& tension);

// The report job over every input, a page per file by -o's placeholder, and index.html beside
// the pages (in their deepest common folder) listing each file with its status and worst T.
BatchResult run_report_batch(const BatchOptions& opt, const ReportJobOptions& report);

// The info job over every input: each file's text (or JSON, by --json or -o's extension) on
// stdout under its name, or in -o by placeholder. The row: meshes and vertices (no frame is
// evaluated).
BatchResult run_info_batch(const BatchOptions& opt, const InfoJobOptions& info);

// The deform job over every input, each file writing -o by placeholder as it streams (its format
// from --format or the name's extension). The row: frames, meshes, vertices written.
BatchResult run_deform_batch(const BatchOptions& opt, const DeformJobOptions& deform);

// The bake job over every input: -o's batch placeholders ('maps/{relpath}/{mesh}.{frame}.png')
// filled per file, {mesh}, {frame} and {udim} left for each file's job. The row: frames and meshes.
BatchResult run_bake_batch(const BatchOptions& opt, const BakeJobOptions& bake);

// The regions job over every input, each file's curves in -o by placeholder (its format from
// --format or the name's extension); --by @'{dir}/{stem}.regions.json' takes each file's own
// region file. The row: frames and meshes.
BatchResult run_regions_batch(const BatchOptions& opt, const RegionsJobOptions& regions);

// The volume job over every input, each file's -o by placeholder (its format from --format or
// the name's extension). The row: frames and meshes measured.
BatchResult run_volume_batch(const BatchOptions& opt, const VolumeJobOptions& volume);

// The intersect job over every input, each file's -o by placeholder (its format from --format
// or the name's extension, else json). The row: frames and meshes tested.
BatchResult run_intersect_batch(const BatchOptions& opt, const IntersectJobOptions& intersect);

// The diff job over pairs (expand_diff_pairs): each pair runs run_diff (OLD the input, NEW its
// partner); its text on stdout under OLD's relpath, its JUnit suite in the batch's one report,
// its per-vertex output in -o by placeholder if given (csv, json or gltf by --format or name).
// The row: pass or fail by diff's verdict, frames, meshes and compared vertices.
struct DiffBatchOptions {
    DiffJobOptions diff;     // diff.out, diff.junit and diff.format: the CLI's as given (a batch writes its own)
    std::string against;  // --against DIR; empty: the inputs are one @pairs list
    std::string format;   // diff's --format ("" by -o's name)
};
BatchResult run_diff_batch(const BatchOptions& opt, const DiffBatchOptions& diff);

// The lint job (run/lint_job.h) over every input, as above: `lint` is the job's options but the
// file, -o (BatchOptions::output, expanded per file) and relpath, which are each file's.
BatchResult run_lint_batch(const BatchOptions& opt, const LintJobOptions& lint);

// The batch's documents: the summary as CSV or JSON (by `path`'s extension), and one JUnit
// report with a suite per file named by its relpath (a file not judged: an error case with its
// message).
std::string batch_summary(const BatchResult& r, const std::string& path);
// What `merge OUT SUMMARY...` writes of tasks' summaries joined: the summary (CSV or JSON by
// OUT's extension), or for OUT.html the index of every task's pages (refused if none wrote one).
std::string batch_merge_output(const BatchResult& r, const std::string& path);
std::string batch_summary_csv(const BatchResult& r);
// The pieces a summary is streamed in (batch_stream.cpp): the CSV header and a file's row; a
// file's JSONL line, and the JSONL summary's last line (counts, exit code, "interrupted", the
// --task identity), whose presence says the batch ended.
std::string batch_summary_csv_header();
std::string batch_summary_csv_row(const BatchFileResult& f);
std::string batch_summary_jsonl_row(const BatchFileResult& f);
std::string batch_summary_jsonl_end(const BatchResult& r);
std::string batch_summary_json(const BatchResult& r);
std::string batch_junit(const BatchResult& r);
// The index.html of a batch's pages (report -o, check --html; "" for none, and for a --task
// slice, whose index would list part of the batch): where it is
// written, and the page, a row per file linking its page (relative to the index) with its status,
// worst T (the extreme farthest from 1) and where, or its one-line message.
std::string batch_index_path(const BatchOptions& opt, const std::string& verb, const std::vector<BatchInput>& inputs);
std::string batch_index_html(const BatchResult& r, const std::string& index_path);
// The text for stdout: each file's report under a "==> relpath <==" line, as `head` names files.
std::string batch_report_text(const BatchResult& r);

// True for a JSON summary a batch wrote (`--summary s.json`: its "task" and "files" members).
bool is_batch_summary(const std::string& path);
// The JSON summaries of tasks 0 to N-1 of one batch (any order) as one batch's result: rows in
// task order, exit code and counts recomputed. Throws Error (exit 5) for a task missing or given
// twice, summaries of other batches (command, task count, file count, version, and the batch
// identity each --task records: its files' names, sizes and times and its options, naming the
// first difference), a file missing or listed twice; exit 3 for one that cannot be read.
BatchResult merge_batch_summaries(const std::vector<std::string>& paths);

// Writes every output opt names (per-file ones by placeholder, the batch JUnit, the summary),
// each complete before any is renamed into place. Throws Error (exit 4).
void write_batch_outputs(const BatchOptions& opt, const BatchResult& r);

}  // namespace rigscope
