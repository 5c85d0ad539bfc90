#include "rigscope/core/inherit.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "rigscope/core/error.h"
#include "rigscope/core/pose.h"

namespace rigscope {

namespace {

const char* inherit_name(InheritScale i) { return i == InheritScale::IgnoreParentScale ? "Rrs" : "RrSs"; }

// Node n's local transform that gives its world under a Full parent: parent world^-1 x world,
// refused where it shears (no TRS equals it within float precision).
Transform relative_local(const Scene& scene, const std::vector<Eigen::Matrix4d>& world, int n, const std::string& when) {
    const int p = scene.nodes[n].parent;
    const Eigen::Matrix4d m = p >= 0 ? Eigen::Matrix4d(world[p].inverse() * world[n]) : world[n];
    const Transform t = decompose(m);
    const Eigen::Matrix3d a = m.topLeftCorner<3, 3>(), b = t.matrix().topLeftCorner<3, 3>();
    if (!((a - b).norm() <= 1e-6 * std::max(1.0, a.norm()))) {
        std::ostringstream s;
        s << scene.source << ": glTF cannot hold node '" << scene.nodes[n].name << "': it inherits scale as FBX's "
          << inherit_name(scene.nodes[n].inherit) << " does, and under '" << (p >= 0 ? scene.nodes[p].name : std::string("?"))
          << "', scaled unevenly, it shears " << when
          << ", which a glTF node cannot (write JSON or CSV instead, or tension's glTF, which bakes the positions)";
        throw Error(kExitMismatch, s.str());
    }
    return t;
}

}  // namespace

bool has_scale_inheritance(const Scene& scene) {
    return std::any_of(scene.nodes.begin(), scene.nodes.end(), [](const Node& n) { return n.inherit != InheritScale::Full; });
}

Scene with_full_inheritance(const Scene& scene) {
    Scene out = scene;
    std::vector<int> changed;
    for (std::size_t n = 0; n < scene.nodes.size(); ++n)
        if (scene.nodes[n].inherit != InheritScale::Full && scene.nodes[n].parent >= 0) changed.push_back(int(n));
    for (Node& n : out.nodes) n.inherit = InheritScale::Full;
    if (changed.empty()) return out;

    const Pose rest = rest_pose(scene);
    for (int n : changed) out.nodes[n].rest = relative_local(scene, rest.world, n, "at rest");

    for (std::size_t c = 0; c < scene.clips.size(); ++c) {
        const Clip& clip = scene.clips[c];
        std::set<float> times;
        for (const Channel& ch : clip.channels)
            if (ch.path != ChannelPath::Weights) times.insert(ch.times.begin(), ch.times.end());
        if (times.empty()) continue;
        Clip& to = out.clips[c];
        to.channels.erase(std::remove_if(to.channels.begin(), to.channels.end(),
                                         [&](const Channel& ch) {
                                             return ch.path != ChannelPath::Weights &&
                                                    std::find(changed.begin(), changed.end(), ch.node) != changed.end();
                                         }),
                          to.channels.end());
        std::vector<Channel> made;
        for (int n : changed)
            for (ChannelPath path : {ChannelPath::Translation, ChannelPath::Rotation, ChannelPath::Scale}) {
                Channel ch;
                ch.node = n;
                ch.path = path;
                ch.interpolation = Interpolation::Linear;
                ch.width = path == ChannelPath::Rotation ? 4 : 3;
                made.push_back(std::move(ch));
            }
        Pose pose = rest_pose(scene);
        std::vector<Eigen::Quaterniond> previous(changed.size());
        bool first = true;
        for (const float t : times) {
            sample_pose(scene, &clip, double(t), pose);
            for (std::size_t k = 0; k < changed.size(); ++k) {
                const Transform l = relative_local(scene, pose.world, changed[k], "in clip '" + clip.name + "' at " + std::to_string(t) + " s");
                Eigen::Quaterniond q = l.rotation;
                if (!first && previous[k].dot(q) < 0) q.coeffs() = -q.coeffs();  // the short way, as the reader keeps them
                previous[k] = q;
                Channel* ch = &made[3 * k];
                for (int i = 0; i < 3; ++i) ch[0].values.push_back(float(l.translation[i]));
                ch[1].values.insert(ch[1].values.end(), {float(q.x()), float(q.y()), float(q.z()), float(q.w())});
                for (int i = 0; i < 3; ++i) ch[2].values.push_back(float(l.scale[i]));
                for (int i = 0; i < 3; ++i) ch[i].times.push_back(t);
            }
            first = false;
        }
        for (Channel& ch : made) to.channels.push_back(std::move(ch));
    }
    return out;
}

}  // namespace rigscope
