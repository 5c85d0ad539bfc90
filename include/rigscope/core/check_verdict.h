// The check's verdict, decided in one place: which vertices pass which limit. Every output of a
// check (its text, JUnit and JSON, the report page, Python's failure list, a merge of chunks)
// reads the CheckVerdict judge_check returns instead of comparing values with limits itself, so
// that they agree by construction, at a limit's boundary too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "rigscope/core/frames.h"

namespace rigscope {

struct CheckLimits {
    double max_stretch = 0, max_compress = 0;  // fail where T < max_stretch, T > max_compress
    bool has_stretch = false, has_compress = false;
    // Principal runs: fail where lambda_max > max_lambda, lambda_min < min_lambda. Judged on the
    // same extremes (stretch-side T = 1 / lambda_max, compress-side T = 1 / lambda_min) and
    // reported as lambda, as the user wrote them.
    double max_lambda = 0, min_lambda = 0;
    bool has_max_lambda = false, has_min_lambda = false;
    int worst = 10;
    std::string file;  // the input as named; its stem is part of the JUnit class names
    // The clip judged (issue 57: each clip of a file is judged on its own) and the file's path
    // relative to a batch's root ("" for a single run: the file's name); both are part of the
    // JUnit class names (io/junit_report.h junit_case_class).
    std::string clip, relpath;
};

// Per welded vertex of one mesh: the file vertices it stands for, lowest and highest T and the
// first frame each was reached in (core's VertexTensionExtremes with frames instead of frame
// indices, which a chunk record needs). Empty when no frame was evaluated: a check over meshes
// that are all empty has checked nothing, and never passes.
struct CheckMeshExtremes {
    std::string name;
    // Welded vertex w stands for file_ids[file_offsets[w]] .. file_ids[file_offsets[w + 1] - 1],
    // ascending, at least one (one flat list: a vector per vertex would cost a heap block each).
    std::vector<std::uint32_t> file_offsets, file_ids;
    std::vector<float> lo_t, hi_t;
    std::vector<Frame> lo_frame, hi_frame;
};

// The four limits, in the order every output lists them.
enum class CheckLimitKind { stretch, compress, max_lambda, min_lambda };

// The stretch side (lowest T: T and lambda_max limits) or the compress side (highest T).
bool stretch_side(CheckLimitKind kind);

// The value a limit compares and every output shows: T itself, or for a lambda limit the
// principal stretch lambda = 1 / T, rounded to float as T is (the one precision of the verdict:
// a value shown equal to its limit has not passed it).
float check_value(CheckLimitKind kind, float t);

// Whether `value` (check_value's) passes `limit`: T below a stretch limit, above a compress
// limit, lambda_max above its limit, lambda_min below its. The value, widened exactly to double,
// is compared with the limit as given.
bool check_fails(CheckLimitKind kind, double limit, float value);

// Whether a stretch-side (or compress-side) T passes any limit given on its side: the same rule
// per frame (--rom's failing frames) as judge_check applies to the extremes.
bool stretch_t_fails(const CheckLimits& limits, float t);
bool compress_t_fails(const CheckLimits& limits, float t);

// One welded vertex past one limit.
struct CheckFailure {
    std::size_t mesh = 0;      // index into the judged meshes
    std::uint32_t welded = 0;  // welded vertex of that mesh (CheckMeshExtremes' index)
    Frame frame;               // where its extreme was first reached
    float t = 1;               // the extreme T read (the side's lowest or highest)
    float value = 1;           // check_value(kind, t): what the limit compared
};

struct CheckLimitVerdict {
    CheckLimitKind kind = CheckLimitKind::stretch;
    double limit = 0;
    // Worst first (lowest value for stretch and lambda_min, highest for compress and
    // lambda_max); equal values keep the order of meshes and welded vertices.
    std::vector<CheckFailure> failures;
    std::size_t file_vertices = 0;  // the file vertices the failures stand for
};

struct CheckVerdict {
    CheckLimits given;
    std::vector<CheckLimitVerdict> limits;  // the limits given, in CheckLimitKind's order
    bool evaluated = false;                 // some frame of some mesh was: else nothing was checked
    // Nothing evaluated, or a vertex past a limit: a verdict never passes what it did not check.
    bool failed() const;
};

// --max-volume-loss (issue 59): each measured volume of a clip (a closed mesh's "*", a joint
// region's; run/volume_job.h) as its ratio to the bind measure per frame, judged on its loss,
// 1 - ratio: it fails where the loss is above the limit. Decided here, never by a writer.
struct VolumeSeries {
    std::string mesh, region;   // region "*": the closed mesh itself, else the joint's node name
    std::vector<double> ratios;  // per frame; NaN where the bind measure is too close to 0 to divide by
};
struct VolumeLossFailure {
    std::size_t series = 0;  // index into VolumeLossVerdict::series
    std::size_t frame = 0;   // index into VolumeLossVerdict::frames: its worst (first of equals)
    double ratio = 1, loss = 0;
};
struct VolumeLossVerdict {
    double limit = 0;
    std::vector<VolumeSeries> series;
    std::vector<Frame> frames;
    std::size_t unjudged = 0;                 // series without a ratio at any frame
    std::vector<VolumeLossFailure> failures;  // each failing series once, worst loss first (equal: series order)
    // A volume past the limit, or none judged: a verdict never passes what it did not check.
    bool failed() const { return !failures.empty() || unjudged == series.size() || frames.empty(); }
};
VolumeLossVerdict judge_volume_loss(double limit, std::vector<VolumeSeries> series, std::vector<Frame> frames);

// Judges every welded vertex's extremes against every limit given.
CheckVerdict judge_check(const CheckLimits& limits, const std::vector<CheckMeshExtremes>& meshes);

// The failures of every limit on one side, each welded vertex once, lowest T first for the
// stretch side and highest first for the compress side (equal T in mesh and vertex order): the
// report page, which plots T, lists and counts a side's offenders so.
std::vector<CheckFailure> side_failures(const CheckVerdict& verdict, bool stretch);

}  // namespace rigscope
