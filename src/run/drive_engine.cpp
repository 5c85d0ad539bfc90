#include "rigscope/run/drive_engine.h"

#include <algorithm>

#include "rigscope/core/joystick.h"
#include "rigscope/run/frame_loop.h"

namespace rigscope {

DriveEngine::DriveEngine(const Input& in) : in_(in), pose_(bind_pose(in.scene)), xy_(in.rig.controls.size()) {
    for (const DrivenTarget& d : in.rig.driven) {
        if (std::find(in.meshes.begin(), in.meshes.end(), d.mesh) == in.meshes.end()) continue;
        DriveSeriesName name;
        // Several controls may add into one target: their names joined by '+'.
        for (const ResolvedControl& c : in.rig.controls)
            for (const auto& m : c.meshes)
                if (m.mesh == d.mesh && std::find(m.targets.begin(), m.targets.end(), d.target) != m.targets.end()) {
                    name.controls += (name.controls.empty() ? "" : "+") + c.name;
                    break;
                }
        const Mesh& mesh = in.scene.meshes[d.mesh];
        name.mesh = mesh.name;
        name.target = mesh.targets[d.target].name;
        targets_.push_back(d);
        names_.push_back(std::move(name));
    }
    weights_.resize(targets_.size());
}

std::vector<DriveControlName> DriveEngine::controls() const {
    std::vector<DriveControlName> out;
    for (const ResolvedControl& c : in_.rig.controls) out.push_back({c.name, in_.scene.nodes[c.node].name});
    return out;
}

void DriveEngine::evaluate(std::size_t fi) {
    pose_at(in_, in_.frames[fi], pose_);
    for (std::size_t s = 0; s < targets_.size(); ++s) weights_[s] = pose_.morph_weights[targets_[s].mesh][targets_[s].target];
    for (std::size_t c = 0; c < in_.rig.controls.size(); ++c) {
        const auto v = control_xy(in_.rig.controls[c], in_.scene, pose_);
        xy_[c] = {static_cast<float>(v[0]), static_cast<float>(v[1])};
    }
}

void DriveEngine::for_each_frame(const std::function<void(std::size_t)>& each, const FrameProgress& progress) {
    for_each_selected_frame(in_, [this](std::size_t fi) { evaluate(fi); }, each, progress);
}

}  // namespace rigscope
