// Vertex-coloured glTF output of a tension run: a file per frame, or one baked file of the rest
// mesh coloured by each vertex's maximum over the frames.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "rigscope/run/input.h"
#include "rigscope/run/progress.h"
#include "rigscope/core/tension_map.h"
#include "rigscope/io/tension_output.h"

namespace rigscope {

// What COLOR_0 shows. kMaps: R = compress, G = stretch, B = 0 (the node group's maps). kT: a
// diverging heat map of T, log2 T over [-1, 1] (T from 0.5 to 2) from blue through white to red,
// clamped beyond: for importers that keep only colours (Blender's glTF import drops _TENSION).
enum class TensionColor { kMaps, kT };

// One vertex's colour (linear RGB, as glTF's COLOR_0 and USD's displayColor are) from its T and
// maps: the glTF output's and the .usda output's.
void tension_colour(TensionColor color, float t, float compress, float stretch, float* rgb);

// The node group's maps per welded vertex from the measure's T (compress_t and stretch_t: one T
// for edge and area), remapped by the run's range: the CSV's compress and stretch columns.
void tension_maps(const MeshTension& mt, const TensionRunInfo& run, std::vector<float>& compress, std::vector<float>& stretch);

// A mesh's maps at its file vertices, every copy of a welded vertex with its values (the CSV's
// rows): T, compress, stretch and the colour `color` makes of them (3 a vertex). The USD layer's
// primvars and the Alembic archive's arbGeomParams; reused frame to frame.
struct FileVertexMaps {
    std::vector<float> t, compress, stretch, rgb;
    void take(const MeshTension& mt, const TensionRunInfo& run, TensionColor color);

private:
    std::vector<float> welded_compress_, welded_stretch_;
};

// Throws Error (exit 2) when `pattern` has no '#' but several frames are selected.
void check_tension_gltf_path(const std::string& pattern, std::size_t frames, bool bake_max);

// Evaluates the frames and writes the files; none is renamed into place until all are written.
// `each(fi)`, when given, sees every frame once it is evaluated (the tension job's extremes).
void write_tension_gltf(const Input& in, std::vector<MeshTension>& meshes, const TensionRunInfo& run, const std::string& pattern,
                        bool bake_max, TensionColor color = TensionColor::kMaps, const FrameProgress& progress = {},
                        const std::function<void(std::size_t)>& each = {});

// out_####.glb with frame 7 -> out_0007.glb (the run of '#' sets the width).
std::string frame_file_name(const std::string& pattern, const Frame& f);

}  // namespace rigscope
