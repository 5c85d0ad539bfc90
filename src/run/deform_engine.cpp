#include "rigscope/run/deform_engine.h"

#include "rigscope/core/skin.h"
#include "rigscope/run/frame_loop.h"

namespace rigscope {

DeformEngine::DeformEngine(const Input& in, AxesOption axes) : in_(in), pose_(bind_pose(in.scene)), positions_(in.meshes.size()) {
    if (axes == AxesOption::y_up && !is_y_up(in.scene.up_axis)) {
        turn_ = true;
        to_y_up_ = up_axis_to_y(in.scene.up_axis).toRotationMatrix().cast<float>();
    }
}

void DeformEngine::evaluate(std::size_t fi) {
    pose_at(in_, in_.frames[fi], pose_);
    for (std::size_t i = 0; i < in_.meshes.size(); ++i) {
        deform_mesh(in_.scene, in_.meshes[i], pose_, positions_[i]);
        if (turn_)
            for (Eigen::Vector3f& p : positions_[i]) p = to_y_up_ * p;
    }
}

void DeformEngine::for_each_frame(const std::function<void(std::size_t)>& each, const FrameProgress& progress) {
    for_each_selected_frame(in_, [this](std::size_t fi) { evaluate(fi); }, each, progress);
}

}  // namespace rigscope
