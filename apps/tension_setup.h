// What `tension` and `check` share: the reference options, the node group's parameters, and a
// loop that evaluates every selected mesh's T frame by frame.
#pragma once

#include <functional>
#include <optional>

#include "cli_common.h"
#include "rigscope/tension_map.h"
#include "rigscope/tension_output.h"

namespace rigscope::cli {

struct TensionOptions {
    InputOptions input;
    std::string reference;          // --reference FILE
    long reference_frame = 0;       // --reference-frame N
    bool has_reference_frame = false;
    TensionParams params;
    std::string measure = "edge";           // --measure edge|area|principal
    int smooth = 0;                         // --smooth N
    std::string smooth_weights = "uniform";  // --smooth-weights uniform|cotan

    MeasureOptions measure_options() const;
};

void add_tension_options(CLI::App* cmd, TensionOptions& opt);

// One MeshTension per selected mesh, rest lengths from the chosen reference. Throws Error
// (exit 5) when a reference file's mesh has another vertex count.
// The reference file, if any, joins in.paths: an output may not overwrite it either.
std::vector<MeshTension> prepare_tension(Input& in, const TensionOptions& opt);

// Evaluates every frame of in.frames, calling `each(frame_index)` after all meshes are done.
void for_each_tension_frame(const Input& in, std::vector<MeshTension>& meshes, const char* what,
                            const std::function<void(std::size_t)>& each);

// The run record for outputs.
TensionRun describe_run(const Input& in, const TensionOptions& opt);

}  // namespace rigscope::cli
