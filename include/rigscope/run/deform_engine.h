// The deform engine: each selected mesh's skinned, morphed positions, frame by frame (the
// `deform` job, run/deform_job.h, and the Alembic and USD outputs run it).
#pragma once

#include <Eigen/Core>
#include <functional>
#include <vector>

#include "rigscope/core/axes.h"
#include "rigscope/run/input.h"
#include "rigscope/run/progress.h"

namespace rigscope {

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
