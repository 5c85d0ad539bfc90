// What `check` reports (the text on stdout and the JUnit XML) from each welded vertex's lowest
// and highest T over the frames, and those extremes as a chunk records them so `merge` can
// report over all chunks exactly as one run would (docs/farm.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rigscope/core/frames.h"
#include "rigscope/core/rom.h"
#include "rigscope/core/tension_map.h"
#include "rigscope/io/junit_report.h"
#include "rigscope/io/lint_report.h"

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
};

// A --rom run's sweeps and, per evaluated frame in order, whether any vertex passed a limit
// there: the report names the joint, axis and angle of the failing frames.
struct CheckRom {
    RomPlan plan;  // its sweeps (joint names), angle and frames per sweep; the clip is not needed
    std::vector<Frame> frames;
    std::vector<char> failed;
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

// With `rom` (a --rom run), each offender's frame names its sweep's joint, axis and angle, and
// the report ends with the failing frames grouped by sweep.
// With `lint` (check --lint), the rig lint's findings join the verdict: its text comes before the
// PASS/FAIL line, its checks are test cases of the same JUnit suite, and the JSON has a "lint" key
// holding what `rigscope lint --format json` writes.
CheckOutcome check_outcome(const CheckLimits& limits, const CheckRunInfo& run, const std::vector<CheckMeshExtremes>& meshes,
                           const CheckRom* rom = nullptr, const LintResult* lint = nullptr);

// `rigscope.check.<file stem>.<mesh>`: dots and white space in the stem and the mesh name become
// '_' so that CI servers, which split class names on dots, group by input file and mesh.
std::string junit_class_name(const std::string& file, const std::string& mesh, std::size_t mesh_index);

}  // namespace rigscope
