// Vertex-coloured glTF output of a tension run: a file per frame, or one baked file of the rest
// mesh coloured by each vertex's maximum over the frames.
#pragma once

#include <string>
#include <vector>

#include "cli_common.h"
#include "rigscope/tension_map.h"
#include "rigscope/tension_output.h"

namespace rigscope::cli {

// Throws Error (exit 2) when `pattern` has no '#' but several frames are selected.
void check_tension_gltf_path(const std::string& pattern, std::size_t frames, bool bake_max);

// Evaluates the frames and writes the files; none is renamed into place until all are written.
void write_tension_gltf(const Input& in, std::vector<MeshTension>& meshes, const TensionRun& run, const std::string& pattern,
                        bool bake_max);

// out_####.glb with frame 7 -> out_0007.glb (the run of '#' sets the width).
std::string frame_file_name(const std::string& pattern, const Frame& f);

}  // namespace rigscope::cli
