// What a `diff` run found (the run layer's result, rigscope/run/diff_job.h) and the formats it
// is written in: CSV rows per frame and compared vertex, JSON with per-frame maxima and the
// summary, and NEW's scene as glTF coloured by each vertex's largest displacement.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "rigscope/core/frames.h"
#include "rigscope/core/scene.h"
#include "rigscope/io/diff_report.h"
#include "rigscope/io/output.h"

namespace rigscope {

// One OLD mesh and its NEW counterpart, per compared vertex c (a welded vertex of OLD; with
// --weld off a file vertex): vertex[c] and new_vertex[c] are the first OLD and NEW file vertices
// it stands for, and per evaluated frame f the displacement and change in T at
// [f * vertex.size() + c] (the largest over the file vertex pairs it stands for).
struct DiffMeshResult {
    std::string name, new_name;
    int old_mesh = -1, new_mesh = -1;  // indices into the scenes
    std::vector<std::uint32_t> vertex, new_vertex;
    std::vector<std::uint32_t> compared_of_new;  // per NEW file vertex, its compared vertex
    std::vector<float> displacement, t_change;   // frames x compared vertices, row-major
    // The seams NEW tears (DiffMesh::seams, in its order): (OLD's first file vertex, the other),
    // and per evaluated frame f their gap in NEW at [f * torn.size() + s].
    std::vector<std::pair<std::uint32_t, std::uint32_t>> torn;
    std::vector<float> torn_gap;
};

struct DiffResult {
    std::string version;  // rigscope's, for the JSON
    std::string old_file, new_file, match;
    std::string clip;  // OLD's clip name (empty: none)
    bool has_clip = false;
    double fps = 24;
    long frame_offset = 0;      // NEW frame = OLD frame + frame_offset
    std::vector<Frame> frames;  // OLD's evaluated frames
    std::vector<DiffMeshResult> meshes;
    // The summary's inputs: per mesh the extremes over the frames, per frame the maxima.
    std::vector<DiffMesh> extremes;
    std::vector<DiffFrame> frame_maxima;
    DiffLimits limits;
    CheckRunInfo run;
    std::vector<ReadFile> paths;    // every input file, so outputs never overwrite one
    Scene new_scene;                 // NEW, for the glTF
    DiffVerdict judged;              // judged once by run_diff (judge_diff)
    CheckOutcome verdict;            // what the text, JUnit and Python say of it (diff_outcome)
};

// frame,time,mesh,vertex,new_vertex,displacement,relative,t_change,seam_vertex,seam_gap rows; the
// last two are set on the rows of a file vertex whose seam NEW tears: OLD's vertex it was welded
// to and their gap in NEW at that frame (empty elsewhere).
void write_diff_csv(const DiffResult& result, OutputFile& out);
// {"command":"diff", ..., "meshes":[...], "frames":[per-frame maxima], "summary":{...}}.
void write_diff_json(const DiffResult& result, OutputFile& out);
// NEW's scene with _DISPLACEMENT (largest over the frames) and COLOR_0 (white at none, red at the
// run's largest) on every paired vertex. A scene the writer refuses is NEW's fault (exit 3), a
// file past GLB's size limit the output's (exit 4).
void write_diff_gltf(const DiffResult& result, OutputFile& out);

}  // namespace rigscope
