// Xformable prims into nodes: the rest transform from the xformOp stack at its default, and a
// time-sampled stack both as TRS channels at its samples (for what reads channels) and as the
// stack itself (XformStacks), which poses evaluate op by op as USD does. Also the scene
// builder's shared node and clip bookkeeping (usd_scene_build.h).
#include <algorithm>
#include <set>

#include "io/usd/usd_scene_build.h"
#include "io/usd/usd_values.h"
#include "rigscope/core/error.h"

namespace rigscope::usd {

void SceneBuild::fail(const std::string& what) const { throw bad_input(layer.path, what); }

void SceneBuild::charge(double bytes) {
    const std::string problem = budget.try_charge(bytes, "the scene's arrays");
    if (!problem.empty()) fail(problem);
}

void SceneBuild::add_key_span(double t) {
    if (clip.channels.empty() && clip.start == 0 && clip.end == 0 && !have_keys) {
        clip.start = clip.end = t;
    }
    have_keys = true;
    clip.start = std::min(clip.start, t);
    clip.end = std::max(clip.end, t);
}

int SceneBuild::add_node(const std::string& name, int parent, const Transform& rest) {
    charge(sizeof(Node) + name.size());
    Node n;
    n.name = name;
    n.parent = parent;
    n.rest = rest;
    scene.nodes.push_back(std::move(n));
    const int index = int(scene.nodes.size()) - 1;
    if (parent >= 0) scene.nodes[parent].children.push_back(index);
    return index;
}

void set_rest(SceneBuild& b, int node, const Eigen::Matrix4d& m) {
    Node& n = b.scene.nodes[std::size_t(node)];
    n.rest = decompose(m);
    n.rest_matrix = holds_as_trs(m, n.rest) ? nullptr : std::make_shared<const Eigen::Matrix4d>(m);
}

void keep_quaternions_near(std::vector<Transform>& xs) {
    for (std::size_t i = 1; i < xs.size(); ++i)
        if (xs[i].rotation.dot(xs[i - 1].rotation) < 0) xs[i].rotation.coeffs() *= -1;
}

void trs_channels(SceneBuild& b, int node, const std::vector<double>& times, const std::vector<Transform>& values) {
    Channel ct{node, ChannelPath::Translation, Interpolation::Linear, 3, {}, {}};
    Channel cr{node, ChannelPath::Rotation, Interpolation::Linear, 4, {}, {}};
    Channel cs{node, ChannelPath::Scale, Interpolation::Linear, 3, {}, {}};
    b.charge(times.size() * 11 * sizeof(float));
    for (std::size_t i = 0; i < times.size(); ++i) {
        const float tt = float(b.seconds(times[i]));
        const Transform& x = values[i];
        ct.times.push_back(tt), cr.times.push_back(tt), cs.times.push_back(tt);
        for (int a = 0; a < 3; ++a) ct.values.push_back(float(x.translation[a])), cs.values.push_back(float(x.scale[a]));
        cr.values.insert(cr.values.end(), {float(x.rotation.x()), float(x.rotation.y()), float(x.rotation.z()), float(x.rotation.w())});
        b.add_key_span(b.seconds(times[i]));
    }
    b.clip.channels.push_back(std::move(ct));
    b.clip.channels.push_back(std::move(cr));
    b.clip.channels.push_back(std::move(cs));
}

int xform_node(SceneBuild& b, const PrimSpec& p, int parent, XformStacks& stacks) {
    const std::string& path = b.stage.path_of(p);
    auto ops = xform_ops(p, b.place(path));
    const int node = b.add_node(p.name, parent, Transform{});
    set_rest(b, node, stack_matrix(ops, kDefaultTime, b.mpu, b.place(path)));
    std::set<double> times;
    for (const auto& op : ops)
        for (double t : sample_times(op.prop)) times.insert(t);
    if (!times.empty()) {
        // Channels of the matrices at the samples, for what reads channels; poses take the
        // stack itself, each op interpolated as USD does (Clip::matrices).
        std::vector<double> ts(times.begin(), times.end());
        std::vector<Transform> xs;
        for (double t : ts) xs.push_back(decompose(stack_matrix(ops, t, b.mpu, b.place(path))));
        keep_quaternions_near(xs);
        trs_channels(b, node, ts, xs);
        b.charge(double(ops.size()) * sizeof(XformOp));
        stacks.nodes.push_back(node);
        stacks.stacks.push_back(std::move(ops));
        stacks.places.push_back(b.place(path));
    }
    return node;
}

}  // namespace rigscope::usd
