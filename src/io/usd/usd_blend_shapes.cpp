// A mesh's UsdSkel blend shapes as morph targets: a shape with in-betweens as a morph channel,
// whose rule is UsdSkelBlendShapeQuery's (the sub-shapes, the base at 0 and the shape at 1 among
// them, sorted by weight; a weight between two blends those two, one outside extrapolates the
// two nearest), with the weights of the bound skeleton's SkelAnimation as a weights channel.
#include <algorithm>
#include <cmath>
#include <set>

#include "io/usd/usd_scene_build.h"
#include "io/usd/usd_values.h"
#include "rigscope/core/morph_channel.h"

namespace rigscope::usd {

namespace {

// The mesh's shapes as read: per skel:blendShapes name, its morph target and, when it has
// in-betweens, its morph channel (-1 otherwise).
struct MeshShapes {
    std::vector<std::string> names;
    std::vector<int> target_of, channel_of;
};

// The offsets of a BlendShape or of one of its in-betweens, per point of the mesh (sparse
// pointIndices spread out), in metres.
std::vector<Eigen::Vector3f> shape_deltas(SceneBuild& b, const PropertySpec* prop, const std::vector<std::size_t>* indices, std::size_t count,
                                          const std::string& what) {
    std::vector<double> n;
    int w = 1;
    if (!prop || !numbers_at(*prop, kDefaultTime, n, w)) b.fail(what + " has no offsets");
    if (w != 3) b.fail(what + "'s offsets are not 3-vectors");
    const std::size_t k = n.size() / 3;
    if (indices ? k != indices->size() : k != count)
        b.fail(what + " has " + std::to_string(k) + " offsets for " +
               (indices ? std::to_string(indices->size()) + " pointIndices" : "the mesh's " + std::to_string(count) + " points"));
    b.charge(std::uint64_t(count) * sizeof(Eigen::Vector3f));
    std::vector<Eigen::Vector3f> d(count, Eigen::Vector3f::Zero());
    for (std::size_t i = 0; i < k; ++i) {
        // UsdSkel adds every offset to its point: an index listed twice adds both.
        Eigen::Vector3f& out = d[indices ? (*indices)[i] : i];
        out += (Eigen::Vector3d(n[3 * i], n[3 * i + 1], n[3 * i + 2]) * b.mpu).cast<float>();
    }
    return d;
}

// One BlendShape prim into the mesh's targets (the shape, then its in-betweens); its channel
// when it has in-betweens.
void read_shape(SceneBuild& b, const std::string& path, const std::string& name, const PrimSpec& bs, const std::string& target, Mesh& m,
                MeshShapes& out) {
    const std::size_t count = m.positions.size();
    const std::string what = "BlendShape " + target;
    std::vector<std::size_t> indices;
    const PropertySpec* ip = bs.property("pointIndices");
    std::vector<double> n;
    int w = 1;
    const bool sparse = ip && numbers_at(*ip, kDefaultTime, n, w);
    if (sparse) {
        b.charge(n.size() * sizeof(std::size_t));
        for (double v : n) {
            if (!(v >= 0) || v >= double(count) || v != std::floor(v))
                b.fail(what + "'s pointIndices hold " + std::to_string(v) + ", past Mesh " + path + "'s " + std::to_string(count) + " points");
            indices.push_back(std::size_t(v));
        }
    }
    MorphTarget primary{name, shape_deltas(b, bs.property("offsets"), sparse ? &indices : nullptr, count, what)};
    m.targets.push_back(std::move(primary));
    out.target_of.push_back(int(m.targets.size()) - 1);
    MorphChannel ch;
    ch.name = name;
    ch.targets.push_back(out.target_of.back());
    ch.full.push_back(1.0);
    for (const auto& prop : bs.properties) {
        if (prop.name.compare(0, 11, "inbetweens:") != 0) continue;
        auto wt = prop.metadata.find("weight");
        if (wt == prop.metadata.end() || wt->second.kind != Value::Kind::Number) continue;  // UsdSkel skips it too
        const double full = wt->second.number;
        if (!std::isfinite(full)) b.fail(what + "'s " + prop.name + " has weight " + std::to_string(full));
        if (std::abs(full) < 1e-6 || std::abs(full - 1) < 1e-6) {
            b.scene.warnings.push_back({WarningKind::Skipped, what + "'s " + prop.name + " has weight " + std::to_string(full) + ": UsdSkel skips it, and so does rigscope"});
            continue;
        }
        m.targets.push_back({name + ":" + prop.name.substr(11), shape_deltas(b, &prop, sparse ? &indices : nullptr, count, what + "'s " + prop.name)});
        ch.targets.push_back(int(m.targets.size()) - 1);
        ch.full.push_back(float(full));  // UsdSkel holds the weight as a float
    }
    out.channel_of.push_back(-1);
    if (ch.targets.size() > 1) {
        m.channels.push_back(std::move(ch));
        out.channel_of.back() = int(m.channels.size()) - 1;
    }
}

// The mesh's skel:blendShapes, each with its skel:blendShapeTargets prim.
MeshShapes read_shapes(SceneBuild& b, const PrimSpec& p, Mesh& m) {
    const std::string& path = b.stage.path_of(p);
    if (m.cache) b.fail("Mesh " + path + " has time-sampled points and blend shapes, which rigscope does not evaluate together");
    const PropertySpec* names_prop = p.property("skel:blendShapes");
    const PropertySpec* rel = p.property("skel:blendShapeTargets");
    MeshShapes shapes;
    shapes.names = names_prop && names_prop->has_default ? strings_of(names_prop->value) : std::vector<std::string>{};
    if (!rel || rel->targets.size() != shapes.names.size())
        b.fail("Mesh " + path + " has " + std::to_string(shapes.names.size()) + " skel:blendShapes and " +
               std::to_string(rel ? rel->targets.size() : 0) + " skel:blendShapeTargets (UsdSkel wants one target per name)");
    for (std::size_t i = 0; i < shapes.names.size(); ++i) {
        const std::string target = b.stage.resolve(p, rel->targets[i]);
        const PrimSpec* bs = b.stage.prim_at(target);
        if (!bs || bs->type != "BlendShape") b.fail("Mesh " + path + "'s skel:blendShapeTargets names " + target + ", which is not a BlendShape");
        read_shape(b, path, shapes.names[i], *bs, target, m, shapes);
    }
    return shapes;
}

// The animation's weights for the mesh's shapes at a time, and the targets' weights they give.
struct ShapeWeights {
    const PropertySpec* weights;
    std::vector<std::string> anim_names;
    std::vector<int> from;  // per mesh shape, its index in the animation's blendShapes (-1: weighs 0)
    std::string anim_path;

    std::vector<double> at(const SceneBuild& b, double t) const {
        const std::size_t shapes = from.size();
        std::vector<double> n;
        int w = 1;
        if (!numbers_at(*weights, t, n, w)) return std::vector<double>(shapes, 0.0);
        if (n.size() != anim_names.size())
            b.fail("SkelAnimation " + anim_path + " has " + std::to_string(n.size()) + " blendShapeWeights for " +
                   std::to_string(anim_names.size()) + " blendShapes");
        std::vector<double> out(shapes, 0.0);
        for (std::size_t i = 0; i < shapes; ++i)
            if (from[i] >= 0) out[i] = float(n[std::size_t(from[i])]);  // UsdSkel's weights are floats
        return out;
    }
};

void target_weights(const MeshShapes& shapes, const Mesh& m, const std::vector<double>& sw, float* out) {
    for (std::size_t i = 0; i < shapes.names.size(); ++i) {
        if (shapes.channel_of[i] < 0) out[shapes.target_of[i]] = float(sw[i]);
        else morph_channel_weights(m.channels[std::size_t(shapes.channel_of[i])], sw[i], out);
    }
}

// Key times: the samples, and where a shape's weight crosses one of its sub-shapes' weights
// between two samples. The in-between rule is linear between those, so the channel's
// linear keys give UsdSkel's weights at every time, not only at the samples.
std::set<double> weight_key_times(const SceneBuild& b, const MeshShapes& shapes, const Mesh& m, const ShapeWeights& sw) {
    std::set<double> times;
    const auto st = sample_times(*sw.weights);
    times.insert(st.begin(), st.end());
    for (std::size_t k = 1; k < st.size(); ++k) {
        const auto w0 = sw.at(b, st[k - 1]), w1 = sw.at(b, st[k]);
        for (std::size_t i = 0; i < shapes.names.size(); ++i) {
            if (shapes.channel_of[i] < 0 || w0[i] == w1[i]) continue;
            std::vector<double> breaks = m.channels[std::size_t(shapes.channel_of[i])].full;
            breaks.push_back(0.0);
            for (double x : breaks)
                if ((x - w0[i]) * (x - w1[i]) < 0) times.insert(st[k - 1] + (x - w0[i]) / (w1[i] - w0[i]) * (st[k] - st[k - 1]));
        }
    }
    return times;
}

}  // namespace

void blend_shapes(SceneBuild& b, const PrimSpec& p, int mesh_index, const Binding& binding, const std::map<std::string, SkeletonInfo>& skeletons) {
    Mesh& m = b.scene.meshes[std::size_t(mesh_index)];
    const MeshShapes shapes = read_shapes(b, p, m);
    m.default_weights.assign(m.targets.size(), 0.0f);
    const PrimSpec* anim = skeletons.count(binding.skeleton) ? skeletons.at(binding.skeleton).animation : nullptr;
    const PropertySpec* wp = anim ? anim->property("blendShapeWeights") : nullptr;
    const PropertySpec* ap = anim ? anim->property("blendShapes") : nullptr;
    if (!wp || !ap || !ap->has_default) return;  // no weights: UsdSkel leaves the shapes at 0
    // The animation's order onto the mesh's (a name the animation lacks weighs 0).
    ShapeWeights sw{wp, strings_of(ap->value), std::vector<int>(shapes.names.size(), -1), b.stage.path_of(*anim)};
    for (std::size_t i = 0; i < shapes.names.size(); ++i) {
        auto f = std::find(sw.anim_names.begin(), sw.anim_names.end(), shapes.names[i]);
        if (f != sw.anim_names.end()) sw.from[i] = int(f - sw.anim_names.begin());
    }
    target_weights(shapes, m, sw.at(b, kDefaultTime), m.default_weights.data());
    if (wp->samples.empty()) return;
    const std::set<double> times = weight_key_times(b, shapes, m, sw);
    Channel cw{m.node, ChannelPath::Weights, Interpolation::Linear, int(m.targets.size()), {}, {}};
    b.charge(times.size() * (m.targets.size() + 1) * sizeof(float));
    std::vector<float> w(m.targets.size());
    for (double t : times) {
        std::fill(w.begin(), w.end(), 0.0f);
        target_weights(shapes, m, sw.at(b, t), w.data());
        cw.times.push_back(float(b.seconds(t)));
        cw.values.insert(cw.values.end(), w.begin(), w.end());
        b.add_key_span(b.seconds(t));
    }
    b.clip.channels.push_back(std::move(cw));
}

}  // namespace rigscope::usd
