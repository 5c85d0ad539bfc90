// The deform run: each selected mesh's skinned, morphed positions, frame by frame.
#pragma once

#include <Eigen/Core>
#include <functional>
#include <string>
#include <vector>

#include "rigscope/core/axes.h"
#include "rigscope/run/input.h"
#include "rigscope/run/progress.h"

namespace rigscope {

// The `deform` job (the CLI's): every selected mesh's positions per frame, written to `out` as
// CSV or JSON as each frame is evaluated (memory does not grow with the frames).
struct DeformJobOptions {
    InputOptions input;
    std::string out = "-";
    std::string format = "csv";   // csv, json, usda or abc (the CLI resolves it from -o; usda: run/usd_output_run.h, abc: run/abc_output_run.h)
    std::string axes = "file";    // file, or y-up: turned from the file's up axis to glTF's +Y
    // Throws Error (exit 2) for options that cannot make the output, before any file is read.
    void validate() const;
};

struct DeformJobResult {
    std::size_t frames = 0, meshes = 0, vertices = 0;  // what was written
};

// Runs on a loaded input, writing opt.out; refused before a byte is written when the least the
// output takes is past the folder's free space.
DeformJobResult run_deform(const DeformJobOptions& opt, const Input& in, const FrameProgress& progress = {});
DeformJobResult load_and_run_deform(const DeformJobOptions& opt, const FrameProgress& progress = {});

class DeformEngine {
public:
    // Holds `in` (which must outlive the run) and its selected meshes' buffers. With
    // AxesOption::y_up the positions are turned from the file's up axis to glTF's +Y
    // (core/axes.h); by default they stay in the file's axes.
    explicit DeformEngine(const Input& in, AxesOption axes = AxesOption::file);

    // Poses frame `fi` of in.frames and deforms every selected mesh.
    void evaluate(std::size_t fi);
    // The i-th selected mesh (in.meshes[i]) at the last evaluated frame, in world space.
    const std::vector<Eigen::Vector3f>& positions(std::size_t i) const { return positions_[i]; }

    // Every frame in order, `each(fi)` after each.
    void for_each_frame(const std::function<void(std::size_t)>& each, const FrameProgress& progress = {});

private:
    const Input& in_;
    Pose pose_;
    std::vector<std::vector<Eigen::Vector3f>> positions_;
    bool turn_ = false;
    Eigen::Matrix3f to_y_up_ = Eigen::Matrix3f::Identity();
};

}  // namespace rigscope
