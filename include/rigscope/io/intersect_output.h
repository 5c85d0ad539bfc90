// What `rigscope intersect` writes (docs/methods.md "Interpenetration", docs/commands.md "intersect"):
// CSV a row per crossing face pair, JSON a summary per frame. Formats only: the pairs come
// from the run layer (run/intersect_job.h).
#pragma once

#include <string>
#include <vector>

#include "rigscope/core/intersect.h"
#include "rigscope/io/output.h"
#include "rigscope/io/run_info.h"

namespace rigscope {

// A pair's joint as the outputs name it: its node's name, "" for none.
std::string intersect_joint_name(const Scene& scene, int joint);

// `frame,mesh_a,face_a,mesh_b,face_b,joint`: a row per pair, frames in the run's order (a clear
// frame has none). frames[i] is (*run.frames)[i].
void write_intersect_csv(OutputFile& out, const RunInfo& run, const std::vector<IntersectFrame>& frames);

// {rigscope, command, input, meshes, clip, fps, weld, zero_area_triangles, frames: [{frame, time,
// pairs, by_joint: {joint: pairs}, length}]}: every frame, a clear one with pairs 0.
void write_intersect_json(OutputFile& out, const RunInfo& run, const std::vector<int>& meshes, bool weld,
                          std::size_t zero_area_triangles, const std::vector<IntersectFrame>& frames);

}  // namespace rigscope
