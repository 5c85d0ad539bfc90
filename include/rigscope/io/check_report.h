// What `check` reports (the text on stdout and the JUnit XML) from each welded vertex's lowest
// and highest T over the frames, and those extremes as a chunk records them so `merge` can
// report over all chunks exactly as one run would (docs/farm.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rigscope/core/check_verdict.h"
#include "rigscope/core/frames.h"
#include "rigscope/core/rom.h"
#include "rigscope/core/tension_map.h"
#include "rigscope/io/junit_report.h"
#include "rigscope/io/lint_report.h"
#include "rigscope/core/intersection_verdict.h"

namespace rigscope {

// A --rom run's sweeps and, per evaluated frame in order, whether any vertex passed a limit
// there: the report names the joint, axis and angle of the failing frames.
struct CheckRom {
    RomPlan plan;  // its sweeps (joint names), angle and frames per sweep; the clip is not needed
    std::vector<Frame> frames;
    std::vector<char> failed;
};

// A limit's key: "max_stretch", "max_compress", "max_lambda", "min_lambda" (the option's name),
// as the JSON's "limit", the JUnit properties and a batch's summary name it.
const char* check_limit_key(CheckLimitKind kind);

struct CheckOutcome {
    std::string report;  // stdout
    std::string junit;
    std::string json;    // check --json: the verdict, the limits' counts and worst vertices
    bool failed = false;
};

// Mesh m of `extremes` over `frames` (the frames its indices point into), named `name`, for the
// file vertices of `welded_of`.
CheckMeshExtremes check_mesh_extremes(const std::string& name, const VertexTensionExtremes& extremes, std::size_t m,
                                      const std::vector<std::uint32_t>& welded_of, const std::vector<Frame>& frames);

// Fills file_offsets / file_ids from a weld (file vertex -> welded vertex, welded < `welded`).
void set_file_ids(CheckMeshExtremes& mesh, const std::vector<std::uint32_t>& welded_of, std::size_t welded);

// The verdict's text, JUnit and JSON. `meshes` are those judge_check judged (names, file ids).
// With `rom` (a --rom run), each offender's frame names its sweep's joint, axis and angle, and
// the report ends with the failing frames grouped by sweep.
// With `lint` (check --lint), the rig lint's findings join the verdict: its text comes before the
// PASS/FAIL line, its checks are test cases of the same JUnit suite, and the JSON has a "lint" key
// holding what `rigscope lint --format json` writes.
CheckOutcome check_outcome(const CheckVerdict& verdict, const CheckRunInfo& run, const std::vector<CheckMeshExtremes>& meshes,
                           const CheckRom* rom = nullptr, const LintResult* lint = nullptr);

// One clip's verdict as the reports list it (issue 57: each clip of a file judged on its own):
// the clip's name is verdict->given.clip.
struct CheckClipReport {
    const CheckVerdict* verdict = nullptr;
    const std::vector<CheckMeshExtremes>* meshes = nullptr;
    const CheckRom* rom = nullptr;  // a --rom run's
    const VolumeLossVerdict* volume = nullptr;  // --max-volume-loss's (issue 59)
    bool failed() const { return verdict->failed() || (volume && volume->failed()); }
};

// The file's reports over its judged clips, whose verdicts the run layer gave (run/check_job.h);
// `failed` is the file's verdict (any clip failed, or lint). One clip and none left out: exactly
// check_outcome's. Several: the text has each clip's lines under "clip 'NAME':" and its own
// PASS/FAIL, then a line counting the clips, then the file's PASS/FAIL; the JUnit report a case
// per clip, mesh and limit (class names by junit_case_class); the JSON the worst clip's members
// at the top and every clip's in "clips". `not_judged` (the file's clips a --clip left out) is
// said on the verdict line, in the JSON ("not_judged") and as a skipped JUnit case per clip.
// With `intersections` (check --max-intersections), its line comes before the PASS/FAIL line, its
// case joins the suite and the JSON has an "intersections" key (io/intersection_report.h).
CheckOutcome check_clips_outcome(const std::vector<CheckClipReport>& clips, std::size_t worst_clip, bool failed,
                                 const std::vector<std::string>& not_judged, const CheckRunInfo& run, const LintResult* lint = nullptr,
                                 const IntersectionVerdict* intersections = nullptr);

// One listed offender (the worst `worst` of each limit), as check --json lists it and Python's
// CheckResult.failures holds it.
struct CheckListedFailure {
    const char* limit;   // "max_stretch", "max_compress", "max_lambda", "min_lambda"
    const char* measure; // what `value` is: "T", "lambda_max", "lambda_min"
    const CheckFailure* failure;
    const CheckMeshExtremes* mesh;
    const std::uint32_t* ids;  // the file vertices the welded vertex stands for
    std::size_t id_count;
    const RomSweep* sweep;     // a --rom run's: the sweep its frame bends, else null
    double angle_deg;          // with sweep: the angle there
};

// Per limit given, in order, its worst `verdict.given.worst` failures.
std::vector<CheckListedFailure> check_listed_failures(const CheckVerdict& verdict, const std::vector<CheckMeshExtremes>& meshes,
                                                      const CheckRom* rom = nullptr);

// `rigscope.check.<path>.<clip>.<mesh>` of a check's limits (io/junit_report.h junit_case_class):
// unique per file, clip and mesh in any batch, so that CI servers trace a failure to its file.
std::string junit_class_name(const CheckLimits& limits, const std::string& mesh, std::size_t mesh_index);

}  // namespace rigscope
