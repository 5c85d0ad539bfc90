// The rivet engine: constraint-only rivets fitted to vertices over the frames, or per-frame baked
// transforms, and the glTF output's nodes for them (the `rivet` job, run/rivet_job.h, runs it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rigscope/core/rivet.h"
#include "rigscope/io/rivet_report.h"
#include "rigscope/run/input.h"
#include "rigscope/run/progress.h"

namespace rigscope {

// Rivets pin to one surface, so one skinned mesh: `spec`'s (--mesh), else the file's only
// skinned one. Throws Error naming the candidates otherwise.
int rivet_mesh(const Input& in, const std::string& spec);

// Fits a rivet per vertex over every frame of in.frames. `joint` empty: each vertex's default
// joint (its heaviest influence whose parent is also one).
std::vector<RivetResult> fit_rivets(const Input& in, int mesh, const std::vector<std::uint32_t>& vertices, const std::string& joint,
                                    const FrameProgress& progress = {});

// Baked transforms per selected frame (outer) and vertex (inner), in the selection's order.
std::vector<std::vector<BakedTransform>> bake_rivets(const Input& in, int mesh, const std::vector<std::uint32_t>& vertices,
                                                     const FrameProgress& progress = {});

// The input as the glTF writer's scene, and the index of the selected clip in it (-1: none).
Scene output_scene(const Input& in, bool retargeted, int& clip_index);

// Adds a node per baked vertex, keyed at the selected frames' times, to clip `clip` of `scene`.
void add_baked_nodes(Scene& scene, int clip, const Input& in, const std::vector<std::uint32_t>& vertices,
                     const std::vector<std::vector<BakedTransform>>& frames);

}  // namespace rigscope
