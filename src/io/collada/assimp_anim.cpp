// Assimp's animations into clips: node channels (composed over folded helper nodes) and morph weights.
#include <assimp/anim.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "io/collada/assimp_scene.h"
#include "io/fbx/fbx_common.h"

namespace rigscope::assimp {

namespace {

template <class Key>
std::size_t key_before(const Key* keys, unsigned n, double t) {
    // Last key at or before t (0 when t precedes every key).
    std::size_t lo = 0, hi = n;
    while (hi - lo > 1) {
        const std::size_t mid = (lo + hi) / 2;
        if (keys[mid].mTime <= t) lo = mid;
        else hi = mid;
    }
    return lo;
}

Eigen::Vector3d sample(const aiVectorKey* keys, unsigned n, double t) {
    const std::size_t i = key_before(keys, n, t);
    const aiVector3D& a = keys[i].mValue;
    if (i + 1 >= n || t <= keys[i].mTime) return Eigen::Vector3d(a.x, a.y, a.z);
    const aiVector3D& b = keys[i + 1].mValue;
    const double u = (t - keys[i].mTime) / (keys[i + 1].mTime - keys[i].mTime);
    return Eigen::Vector3d(a.x, a.y, a.z) * (1 - u) + Eigen::Vector3d(b.x, b.y, b.z) * u;
}

Eigen::Quaterniond quat(const aiQuaternion& q) { return Eigen::Quaterniond(q.w, q.x, q.y, q.z).normalized(); }

Eigen::Quaterniond sample(const aiQuatKey* keys, unsigned n, double t) {
    const std::size_t i = key_before(keys, n, t);
    if (i + 1 >= n || t <= keys[i].mTime) return quat(keys[i].mValue);
    const double u = (t - keys[i].mTime) / (keys[i + 1].mTime - keys[i].mTime);
    return quat(keys[i].mValue).slerp(u, quat(keys[i + 1].mValue));
}

// The local matrix of one Assimp node at tick t: its keys where it has them, else its own rest.
Eigen::Matrix4d local_at(const aiNode* node, const aiNodeAnim* ch, double t) {
    if (!ch) return to_eigen(&node->mTransformation);
    Transform tr = decompose(to_eigen(&node->mTransformation));
    if (ch->mNumPositionKeys && ch->mPositionKeys) tr.translation = sample(ch->mPositionKeys, ch->mNumPositionKeys, t);
    if (ch->mNumRotationKeys && ch->mRotationKeys) tr.rotation = sample(ch->mRotationKeys, ch->mNumRotationKeys, t);
    if (ch->mNumScalingKeys && ch->mScalingKeys) tr.scale = sample(ch->mScalingKeys, ch->mNumScalingKeys, t);
    return tr.matrix();
}

struct ChannelBuilder {
    Channel ch;
    double last = -INFINITY;
    Eigen::Quaterniond prev = Eigen::Quaterniond::Identity();
    bool have_prev = false;

    ChannelBuilder(int node, ChannelPath path, int width) {
        ch.node = node;
        ch.path = path;
        ch.width = width;
        ch.interpolation = Interpolation::Linear;
    }
    bool accept(double seconds) {
        // Keys must increase; a repeated time keeps its first value.
        if (!std::isfinite(seconds) || seconds <= last) return false;
        last = seconds;
        ch.times.push_back(static_cast<float>(seconds));
        return true;
    }
    void vec(double seconds, const Eigen::Vector3d& v) {
        if (accept(seconds))
            for (int i = 0; i < 3; ++i) ch.values.push_back(static_cast<float>(v[i]));
    }
    void rot(double seconds, Eigen::Quaterniond q) {
        if (!accept(seconds)) return;
        // Same hemisphere as the previous key, so interpolation takes the short way.
        if (have_prev && prev.dot(q) < 0) q.coeffs() = -q.coeffs();
        prev = q;
        have_prev = true;
        ch.values.insert(ch.values.end(), {float(q.x()), float(q.y()), float(q.z()), float(q.w())});
    }
};

void push(Clip& clip, ChannelBuilder& b) {
    if (!b.ch.times.empty()) clip.channels.push_back(std::move(b.ch));
}

// An animation's node channels by the name of the node they animate.
std::unordered_map<std::string, const aiNodeAnim*> channels_by_node(const aiAnimation& anim) {
    std::unordered_map<std::string, const aiNodeAnim*> by_node;
    for (unsigned c = 0; c < anim.mNumChannels && anim.mChannels; ++c)
        if (anim.mChannels[c]) by_node[anim.mChannels[c]->mNodeName.C_Str()] = anim.mChannels[c];
    return by_node;
}

// A channel on the node itself is a whole local transform: in pivot-preserving mode Assimp still
// keys pre-rotation-only nodes on the node (its "simple" animation) while their rest sits in
// helper nodes, so the helpers are overridden, not composed.
void key_node_channel(const aiNodeAnim& only, double tps, ChannelBuilder& t, ChannelBuilder& r, ChannelBuilder& s) {
    for (unsigned k = 0; k < only.mNumPositionKeys && only.mPositionKeys; ++k) {
        const aiVectorKey& key = only.mPositionKeys[k];
        t.vec(key.mTime / tps, Eigen::Vector3d(key.mValue.x, key.mValue.y, key.mValue.z));
    }
    for (unsigned k = 0; k < only.mNumRotationKeys && only.mRotationKeys; ++k)
        r.rot(only.mRotationKeys[k].mTime / tps, quat(only.mRotationKeys[k].mValue));
    for (unsigned k = 0; k < only.mNumScalingKeys && only.mScalingKeys; ++k) {
        const aiVectorKey& key = only.mScalingKeys[k];
        s.vec(key.mTime / tps, Eigen::Vector3d(key.mValue.x, key.mValue.y, key.mValue.z));
    }
}

// Helpers folded into this node: compose their animated transforms at every key time of any of
// them and decompose, exact at the keys.
void key_composed_helpers(const std::vector<const aiNode*>& path, const std::vector<const aiNodeAnim*>& chans, double tps,
                          ChannelBuilder& t, ChannelBuilder& r, ChannelBuilder& s) {
    std::set<double> ticks;
    for (const aiNodeAnim* c : chans) {
        if (!c) continue;
        for (unsigned k = 0; k < c->mNumPositionKeys && c->mPositionKeys; ++k) ticks.insert(c->mPositionKeys[k].mTime);
        for (unsigned k = 0; k < c->mNumRotationKeys && c->mRotationKeys; ++k) ticks.insert(c->mRotationKeys[k].mTime);
        for (unsigned k = 0; k < c->mNumScalingKeys && c->mScalingKeys; ++k) ticks.insert(c->mScalingKeys[k].mTime);
    }
    for (double tick : ticks) {
        Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
        for (std::size_t k = 0; k < path.size(); ++k) m = m * local_at(path[k], chans[k], tick);
        const Transform tr = decompose(m);
        t.vec(tick / tps, tr.translation);
        r.rot(tick / tps, tr.rotation);
        s.vec(tick / tps, tr.scale);
    }
}

// Translation, rotation and scale channels for every scene node an Assimp channel animates;
// returns the names of the channels used.
std::set<std::string> add_transform_channels(const NodeMap& map, const std::unordered_map<std::string, const aiNodeAnim*>& by_node,
                                             double tps, Clip& clip) {
    std::set<std::string> used;
    for (std::size_t ni = 0; ni < map.path.size(); ++ni) {
        const auto& path = map.path[ni];
        std::vector<const aiNodeAnim*> chans(path.size(), nullptr);
        bool any = false;
        for (std::size_t k = 0; k < path.size(); ++k) {
            auto it = by_node.find(path[k]->mName.C_Str());
            if (it == by_node.end()) continue;
            chans[k] = it->second;
            used.insert(it->first);
            any = true;
        }
        if (!any) continue;
        const int node = static_cast<int>(ni);
        ChannelBuilder t(node, ChannelPath::Translation, 3), r(node, ChannelPath::Rotation, 4), s(node, ChannelPath::Scale, 3);
        if (const aiNodeAnim* only = chans.back()) key_node_channel(*only, tps, t, r, s);
        else key_composed_helpers(path, chans, tps, t, r, s);
        push(clip, t);
        push(clip, r);
        push(clip, s);
    }
    return used;
}

// One target's weight at a tick: linear between the keys that list it, held beyond them, the
// mesh's default where none does.
double weight_at(const std::vector<std::pair<double, double>>& cv, double default_weight, double tick) {
    if (cv.empty()) return default_weight;
    auto hi = std::lower_bound(cv.begin(), cv.end(), std::make_pair(tick, -double(INFINITY)));
    if (hi == cv.begin()) return cv.front().second;
    if (hi == cv.end()) return cv.back().second;
    auto lo = hi - 1;
    const double u = hi->first > lo->first ? (tick - lo->first) / (hi->first - lo->first) : 1.0;
    return lo->second * (1 - u) + hi->second * u;
}

// A morph channel's weights for `mesh` (width targets) on scene node `node`.
void add_weight_channel(const aiMeshMorphAnim& mc, const Mesh& mesh, int node, std::size_t width, double tps, Clip& clip) {
    // Per target: the keys that list it, then sampled at every key time.
    std::vector<std::vector<std::pair<double, double>>> curves(width);
    std::set<double> ticks;
    for (unsigned k = 0; k < mc.mNumKeys; ++k) {
        const aiMeshMorphKey& key = mc.mKeys[k];
        ticks.insert(key.mTime);
        if (!key.mValues || !key.mWeights) continue;
        for (unsigned v = 0; v < key.mNumValuesAndWeights; ++v)
            if (key.mValues[v] < width) curves[key.mValues[v]].push_back({key.mTime, key.mWeights[v]});
    }
    ChannelBuilder w(node, ChannelPath::Weights, static_cast<int>(width));
    for (double tick : ticks) {
        if (!w.accept(tick / tps)) continue;
        for (std::size_t tg = 0; tg < width; ++tg) {
            const double value = weight_at(curves[tg], tg < mesh.default_weights.size() ? mesh.default_weights[tg] : 0.0, tick);
            w.ch.values.push_back(static_cast<float>(value));
        }
    }
    push(clip, w);
}

// Morph weights: Assimp names the channel "<node>*<geometry index>"; the node's meshes take the
// weights (one per blend-shape channel, in target order).
void add_weight_channels(const aiAnimation& anim, const NodeMap& map, double tps, Scene& scene, Clip& clip) {
    for (unsigned c = 0; c < anim.mNumMorphMeshChannels && anim.mMorphMeshChannels; ++c) {
        const aiMeshMorphAnim* mc = anim.mMorphMeshChannels[c];
        if (!mc || !mc->mNumKeys || !mc->mKeys) continue;
        const std::string full = mc->mName.C_Str();
        const std::string name = full.substr(0, full.rfind('*'));
        auto it = map.by_name.find(name);
        const Mesh* mesh = nullptr;
        std::size_t width = 0;
        if (it != map.by_name.end())
            for (const Mesh& m : scene.meshes)
                if (m.node == it->second && m.targets.size() > width) {
                    width = m.targets.size();
                    mesh = &m;
                }
        if (!mesh) {
            scene.warnings.push_back({WarningKind::Skipped, "animation '" + clip.name + "' has morph weights for '" + full + "', which holds no morph targets; ignored"});
            continue;
        }
        add_weight_channel(*mc, *mesh, it->second, width, tps, clip);
    }
}

// The clip's span: from its earliest key to its latest.
void set_clip_span(Clip& clip) {
    clip.start = INFINITY;
    clip.end = -INFINITY;
    for (const Channel& ch : clip.channels) {
        clip.start = std::min<double>(clip.start, ch.times.front());
        clip.end = std::max<double>(clip.end, ch.times.back());
    }
}

}  // namespace

void build_clips(const aiScene& ai, const NodeMap& map, double fallback_tps, Scene& scene) {
    if (ai.mNumAnimations && !ai.mAnimations) return;
    for (unsigned a = 0; a < ai.mNumAnimations; ++a) {
        const aiAnimation* anim = ai.mAnimations[a];
        if (!anim) continue;
        const double tps = anim->mTicksPerSecond > 0 ? anim->mTicksPerSecond : fallback_tps;
        Clip clip;
        clip.name = anim->mName.C_Str();
        const auto by_node = channels_by_node(*anim);
        const std::set<std::string> used = add_transform_channels(map, by_node, tps, clip);
        for (const auto& [name, ch] : by_node)
            if (!used.count(name))
                scene.warnings.push_back({WarningKind::Skipped, "animation '" + clip.name + "' animates '" + name + "', which is no node; ignored"});
        add_weight_channels(*anim, map, tps, scene, clip);
        if (clip.channels.empty()) continue;
        set_clip_span(clip);
        scene.clips.push_back(std::move(clip));
    }
}

}  // namespace rigscope::assimp
