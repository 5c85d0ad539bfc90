// How diff pairs OLD with NEW: meshes by name, frames by a frame offset, vertices by index or by
// welded rest position (internal to the diff run).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "rigscope/core/tension_map.h"
#include "rigscope/run/diff_job.h"

namespace rigscope {

// Per OLD selected mesh (in in.meshes' order), its NEW mesh: the one of the same name (the k-th
// OLD mesh of a name pairs with the k-th NEW mesh of it), or NEW's only mesh when OLD's
// selection is one mesh too (a warning names both when the names differ). Throws Error (exit 5) naming a mesh
// found in one file only; NEW's meshes are all considered unless --mesh chose OLD's.
std::vector<int> pair_meshes(const DiffJobOptions& opt, const Input& old_in, const Input& new_in);

// OLD's frames as NEW frames (number + offset, on NEW's frame rate), and the offset. Throws Error
// (exit 5) when NEW lacks one of them, or, without --frames, when NEW's clip spans other frames.
std::vector<Frame> new_frames(const DiffJobOptions& opt, const Input& old_in, const Input& new_in, long& offset);

// The compared vertices of one mesh pair: per compared vertex c, the (OLD, NEW) file vertex pairs
// pairs[offsets[c]] .. pairs[offsets[c + 1] - 1] whose largest displacement and change in T
// stand for it.
struct VertexPairing {
    std::vector<std::uint32_t> vertex, new_vertex, compared_of_new;
    std::vector<std::uint32_t> offsets;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
    // index: (a, b) file vertices OLD welds into one vertex and NEW does not (a seam NEW tears),
    // a being the first file vertex of OLD's welded vertex.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> torn;
};

// index: file vertex v with v, each its own compared vertex, and the seams NEW tears. position: OLD's welded vertices with NEW's
// within `tolerance` (metres) at their bind positions `old_rest` / `new_rest` (file vertices).
// Throws Error (exit 5) naming the counts, and for position the tolerance that would pair all.
VertexPairing pair_vertices(const DiffJobOptions& opt, const std::string& old_name, const std::string& new_name, const MeshTension& old_mesh,
                            const MeshTension& new_mesh, const std::vector<Eigen::Vector3f>& old_rest,
                            const std::vector<Eigen::Vector3f>& new_rest, double diagonal);

}  // namespace rigscope
