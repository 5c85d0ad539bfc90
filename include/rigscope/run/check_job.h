// The `check` job (rig CI): per welded vertex, the lowest stretch-side and highest
// compress-side T over the frames, and the verdict against the limits. The CLI and the Python
// module run it alike; io/check_report.h writes what it returns, farm/check_chunk.h records it.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rigscope/io/check_report.h"
#include "rigscope/io/volume_output.h"
#include "rigscope/core/intersection_verdict.h"
#include "rigscope/run/clip_select.h"
#include "rigscope/run/lint_checks.h"
#include "rigscope/run/progress.h"
#include "rigscope/run/run_start.h"
#include "rigscope/run/report_page.h"
#include "rigscope/run/tension_run.h"

namespace rigscope {

struct CheckJobOptions {
    TensionOptions tension;
    // Limits on T (the chosen measure's) and, with --measure principal, on the principal
    // stretches themselves; a limit counts where it is given.
    std::optional<double> max_stretch, max_compress;  // fail where T < max_stretch, T > max_compress
    std::optional<double> max_lambda, min_lambda;     // fail where lambda_max > max_lambda, lambda_min < min_lambda
    // --max-volume-loss (issue 59): fail where a closed mesh's or joint region's volume loses more
    // than this share of its bind measure (1 - ratio, run/volume_job.h) at any frame.
    std::optional<double> max_volume_loss;
    int worst = 10;
    ReportOptions html;  // --html: out non-empty writes the report page with the verdict
    bool lint = false;   // --lint: the rig lint (run/lint_checks.h) on the same input, in the verdict
    LintOptions lint_options;
    // --max-intersections N (issue 59): fail where a frame has more than N face pairs that cross
    // (run/intersect_job.h on the same frames), a verdict of its own beside T's.
    std::optional<long> max_intersections;
    // The reports the caller writes from the result, judged with the rest ("" for none):
    // --junit's and --json's paths. run_check writes neither.
    std::string junit, json;
    // The file's path relative to a batch's root, in the JUnit class names ("" for a single run:
    // the file's name). tension.input.clip: "" or "all" judges every clip, NAME or INDEX one.
    std::string relpath;

    // Throws Error (exit 2) for options that cannot make a check, before any file is read.
    void validate() const;
    // Throws Error (exit 2) for limits every vertex fails at rest: swapped ones (--max-stretch
    // above --max-compress), a stretch limit above 1 or a compress limit below 1 (validate calls it).
    void refuse_contradicting_limits() const;
    CheckLimits limits() const;
};

// One clip's part of a check: each clip of a file is judged on its own frames (issue 57).
struct CheckClipResult {
    std::string clip;                       // its name ("rom" for --rom, "cache", "bind" for none)
    std::vector<CheckMeshExtremes> meshes;
    std::size_t frames = 0;
    bool has_rom = false;
    CheckRom rom;
    CheckVerdict verdict;                   // judge_check's on this clip's extremes
    std::optional<VolumeLossVerdict> volume;  // --max-volume-loss's on this clip's frames
    // With --html, what the page marks (issue 59): --max-intersections' pairs per frame and
    // --max-volume-loss's measures, of this clip. Empty without a page.
    std::vector<IntersectFrame> intersect_frames;
    std::optional<VolumeTable> volume_table;
    bool failed() const { return verdict.failed() || (volume && volume->failed()); }
};

struct CheckJobResult {
    CheckLimits limits;
    CheckRunInfo info;                      // start, host, wall time of the evaluation
    std::vector<CheckClipResult> clips;     // every clip judged, in the file's order
    std::size_t worst_clip = 0;             // the first clip that fails, else 0
    std::vector<std::string> not_judged;    // the file's clips --clip left out
    // The worst clip's (clips[worst_clip]), as a run of one clip has them:
    std::vector<CheckMeshExtremes> meshes;  // the selected meshes, in order
    bool has_rom = false;
    CheckRom rom;                           // --rom: the sweeps and which frames failed
    std::size_t frames = 0;                 // frames evaluated, over every clip
    std::vector<ReadFile> paths;            // every input file: no report may replace one
    int chunk_index = 0, chunk_count = 1;
    CheckVerdict verdict;                   // the worst clip's (judge_check): who passed which limit
    CheckOutcome outcome;                   // text, JUnit, JSON; outcome.failed is the file's verdict (a chunk's: partial)
    bool has_html = false;
    ReportResult html;                      // --html: the page written (of the worst clip)
    bool has_lint = false;
    LintResult lint;                        // --lint: its findings (in outcome too)
    bool has_intersections = false;
    IntersectionVerdict intersections;      // --max-intersections: over every clip judged (in outcome too)

    // What a chunk record keeps so that merge reports over all chunks (farm/check_chunk.h).
    std::vector<std::pair<std::string, std::string>> chunk_state() const;
};

// What check loads: opt.tension.input's file with every clip at hand (clip_load_options).
Input load_check_input(const CheckJobOptions& opt);

// Validates, evaluates every selected frame of every clip judged once and judges each clip; the
// file's verdict is the worst clip's. A verdict covers what was evaluated: a file without
// animation is refused unless frames are named (require_animation). `in` is load_check_input's,
// or a Python session's with its frames and chunk selected; every clip judged is selected on
// `in` in turn, and its loaded clip and frames are restored after. The run's time (its reports')
// counts from `start`. Writes only the --html page: the caller writes --junit and --json from
// the outcome.
CheckJobResult run_check(const CheckJobOptions& opt, Input& in, const FrameProgress& progress = {}, const RunStart& start = {});

// Validates, loads (load_check_input) and runs; the time counts the loading too: the CLI's and
// a batch's entry.
CheckJobResult load_and_run_check(const CheckJobOptions& opt, const FrameProgress& progress = {});

// The rule `check` and `report` share: a file without animation, run without --rom,
// --animation or --frames, would be judged on its bind pose alone, where T is 1 by definition:
// Error (exit 2) "nothing to check". With --frames naming the bind pose, a warning.
void require_animation(const Input& in, const InputOptions& opt);

// For the verbs whose output is per vertex (report, tension): a file without a mesh would give a
// blank page or a header-only table. Error (exit 2) "nothing to <verb>", naming the file.
void require_meshes(const Input& in, const std::string& file, const char* verb);

}  // namespace rigscope
