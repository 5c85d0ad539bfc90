// The tension evaluation that `tension`, `check`, `report` and the Python module share: the
// reference options and the node group's parameters, the rest lengths, and a loop that
// evaluates every selected mesh's T frame by frame.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "rigscope/core/tension_map.h"
#include "rigscope/io/tension_output.h"
#include "rigscope/run/input.h"
#include "rigscope/run/progress.h"

namespace rigscope {

struct TensionOptions {
    InputOptions input;
    std::string reference;          // --reference FILE
    // --reference-match index|position (reference_rest.h); unset: index, and a suspect vertex
    // order is refused; given (index too): the user chose it, and it is a warning.
    std::optional<std::string> reference_match;
    std::optional<double> reference_scale;  // --reference-scale S: the reference's positions times S
    double reference_tolerance = 1e-4;      // --reference-tolerance F: position pairing, of the diagonal
    std::optional<long> reference_frame;    // --reference-frame N
    // The pairing in force: --reference-match's, else index.
    std::string match() const { return reference_match.value_or("index"); }
    TensionParams params;
    std::string measure = "edge";           // --measure edge|area|principal
    int smooth = 0;                         // --smooth N
    std::string smooth_weights = "uniform";  // --smooth-weights uniform|cotan

    MeasureOptions measure_options() const;
};

// Throws Error (bad value) naming the option whose value is out of its range: the CLI's
// validators see the command line, this sees what the Python module and chunk records pass.
void check_tension_options(const TensionOptions& opt);

// One MeshTension per selected mesh, rest lengths from the chosen reference. Throws Error
// (mismatch) when a reference file's mesh has another vertex count.
// The reference file, if any, joins in.paths: an output may not overwrite it either.
std::vector<MeshTension> prepare_tension(Input& in, const TensionOptions& opt);

// Evaluates frame `fi` of in.frames for every mesh. `pool` may be null (one thread).
void evaluate_tension_frame(const Input& in, std::vector<MeshTension>& meshes, std::size_t fi, Pose& pose, ThreadPool* pool);

// The same at any frame, one of in.frames or not: f.time may lie outside the clip, where
// sampling holds the first or last key (the fuzz targets go there); f.number is only a label.
void evaluate_tension_at(const Input& in, std::vector<MeshTension>& meshes, const Frame& f, Pose& pose, ThreadPool* pool);

// Evaluates every frame of in.frames in order on in.threads threads, calling `each(frame_index)`
// after all meshes are done.
void for_each_tension_frame(const Input& in, std::vector<MeshTension>& meshes, const std::function<void(std::size_t)>& each,
                            const FrameProgress& progress = {});
// The same, `each` given the pool that evaluated the frame for its own per-frame work (one pool:
// a second one's idle thread would wait for work while the first one's ran).
void for_each_tension_frame_on_pool(const Input& in, std::vector<MeshTension>& meshes,
                                    const std::function<void(std::size_t, ThreadPool&)>& each, const FrameProgress& progress = {});

// --auto-range's first pass: every frame once more, then t_s and t_c set in `run` from the
// per-vertex extremes at `percentile`.
void apply_auto_range(const Input& in, std::vector<MeshTension>& meshes, double percentile, TensionRunInfo& run,
                      const FrameProgress& progress = {});

// The run record for outputs.
TensionRunInfo describe_run(const Input& in, const TensionOptions& opt);

// The selected meshes' names, in the order of `meshes`.
std::vector<std::string> mesh_names(const Input& in, const std::vector<MeshTension>& meshes);

}  // namespace rigscope
