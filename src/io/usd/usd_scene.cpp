#include "io/load_budget.h"
#include "io/usd/usd_scene.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "io/usd/usd_point_samples.h"
#include "io/usd/usd_transforms.h"
#include "io/usd/usd_values.h"
#include "rigscope/core/morph_channel.h"
#include "rigscope/core/error.h"

namespace rigscope::usd {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The binding properties of UsdSkelBindingAPI, each inherited down namespace from the nearest
// ancestor under the SkelRoot that authors it (UsdSkel's cache carries them the same way).
struct Binding {
    const PrimSpec* skeleton_owner = nullptr;  // prim whose skel:skeleton is in effect
    std::string skeleton;                      // its target, resolved
    std::string animation;                     // skel:animationSource in effect, resolved
    const PropertySpec* joint_indices = nullptr;
    const PropertySpec* joint_weights = nullptr;
    const PropertySpec* geom_bind = nullptr;
    const PropertySpec* joints = nullptr;
    const PropertySpec* method = nullptr;
    std::string missing_api;  // the first prim without SkelBindingAPI a property in effect comes from
};

bool has_api(const PrimSpec& p, const std::string& api) {
    const Value* v = p.meta("apiSchemas");
    if (!v) return false;
    for (const auto& s : strings_of(*v))
        if (s == api) return true;
    return false;
}

struct Builder {
    Builder(const Layer& l, std::uint64_t m) : layer(l), budget(l.path, m) {}
    const Layer& layer;
    LoadBudget budget;  // the scene's arrays (the layer's own were charged as it was parsed)
    Scene scene;
    double mpu = 0.01;
    double tcps = 24.0;
    std::map<std::string, const PrimSpec*> prims;  // defined prims by path
    std::map<const PrimSpec*, std::string> paths;
    std::map<const PrimSpec*, int> node_of;
    Clip clip;
    std::set<std::string> missing_api_prims;

    [[noreturn]] void fail(const std::string& what) const { throw bad_input(layer.path, what); }

    void charge(double bytes) {
        const std::string problem = budget.try_charge(bytes, "the scene's arrays");
        if (!problem.empty()) fail(problem);
    }

    // ---- the prim tree ----

    void index(const PrimSpec& p, const std::string& parent_path, int depth) {
        const std::string path = parent_path + "/" + p.name;
        // The layer is composed (usd_compose.cpp): arcs are resolved, each prim is one spec.
        // Usd's default traversal: over-only and class prims are not defined, inactive ones are pruned.
        if (p.specifier != PrimSpec::Specifier::Def) return;
        if (const Value* a = p.meta("active"); a && a->kind == Value::Kind::Number && a->number == 0) return;
        if (prims.count(path)) fail("prim " + path + " is declared twice");
        prims[path] = &p;
        paths[&p] = path;
        for (const auto& c : p.children) index(*c, path, depth + 1);
    }

    // A relationship target as written, made absolute against the prim that holds it.
    std::string resolve(const PrimSpec& owner, const std::string& target) const {
        if (!target.empty() && target[0] == '/') return target;
        std::string base = paths.at(&owner);
        std::string rest = target;
        while (rest.compare(0, 3, "../") == 0) {
            base = base.substr(0, base.find_last_of('/'));
            rest = rest.substr(3);
        }
        if (rest == "..") return base.substr(0, base.find_last_of('/'));
        if (rest == "." || rest.empty()) return base;
        return base + "/" + rest;
    }

    const PrimSpec* prim_at(const std::string& path) const {
        auto it = prims.find(path);
        return it == prims.end() ? nullptr : it->second;
    }

    // ---- transforms ----

    TransformPlace place(const std::string& prim) const { return {layer.path, prim}; }

    // The node's rest transform from a matrix: translate/rotate/scale, and the matrix itself
    // where those cannot hold it (a shear, a quaternion not of length 1).
    void set_rest(int node, const Eigen::Matrix4d& m) {
        Node& n = scene.nodes[std::size_t(node)];
        n.rest = decompose(m);
        n.rest_matrix = holds_as_trs(m, n.rest) ? nullptr : std::make_shared<const Eigen::Matrix4d>(m);
    }

    // Nodes whose transforms OpenUSD evaluates in ways channels cannot say (usd_transforms.h):
    // the clip's LocalMatrices.
    std::vector<int> stack_nodes;
    std::vector<std::vector<XformOp>> stacks;
    std::vector<TransformPlace> stack_places;

    // ---- animation keys ----

    double seconds(double time_code) const { return time_code / tcps; }

    void add_key_span(double t) {
        if (clip.channels.empty() && clip.start == 0 && clip.end == 0 && !have_keys) {
            clip.start = clip.end = t;
        }
        have_keys = true;
        clip.start = std::min(clip.start, t);
        clip.end = std::max(clip.end, t);
    }
    bool have_keys = false;

    void trs_channels(int node, const std::vector<double>& times, const std::vector<Transform>& values) {
        Channel ct{node, ChannelPath::Translation, Interpolation::Linear, 3, {}, {}};
        Channel cr{node, ChannelPath::Rotation, Interpolation::Linear, 4, {}, {}};
        Channel cs{node, ChannelPath::Scale, Interpolation::Linear, 3, {}, {}};
        charge(times.size() * 11 * sizeof(float));
        for (std::size_t i = 0; i < times.size(); ++i) {
            const float tt = float(seconds(times[i]));
            const Transform& x = values[i];
            ct.times.push_back(tt), cr.times.push_back(tt), cs.times.push_back(tt);
            for (int a = 0; a < 3; ++a) ct.values.push_back(float(x.translation[a])), cs.values.push_back(float(x.scale[a]));
            cr.values.insert(cr.values.end(), {float(x.rotation.x()), float(x.rotation.y()), float(x.rotation.z()), float(x.rotation.w())});
            add_key_span(seconds(times[i]));
        }
        clip.channels.push_back(std::move(ct));
        clip.channels.push_back(std::move(cr));
        clip.channels.push_back(std::move(cs));
    }

    // ---- nodes ----

    int add_node(const std::string& name, int parent, const Transform& rest) {
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

    void prim_node(const PrimSpec& p, int parent, Binding binding, bool in_skel_root, int depth) {
        const std::string& path = paths.at(&p);
        auto ops = xform_ops(p, place(path));
        const int node = add_node(p.name, parent, Transform{});
        set_rest(node, stack_matrix(ops, kNaN, mpu, place(path)));
        node_of[&p] = node;
        std::set<double> times;
        for (const auto& op : ops)
            for (double t : sample_times(op.prop)) times.insert(t);
        if (!times.empty()) {
            // Channels of the matrices at the samples, for what reads channels; poses take the
            // stack itself, each op interpolated as USD does (Clip::matrices).
            std::vector<double> ts(times.begin(), times.end());
            std::vector<Transform> xs;
            for (double t : ts) xs.push_back(decompose(stack_matrix(ops, t, mpu, place(path))));
            keep_quaternions_near(xs);
            trs_channels(node, ts, xs);
            charge(double(ops.size()) * sizeof(XformOp));
            stack_nodes.push_back(node);
            stacks.push_back(std::move(ops));
            stack_places.push_back(place(path));
        }

        if (p.type == "SkelRoot") in_skel_root = true;
        if (in_skel_root) inherit_binding(p, binding);
        if (p.type == "Skeleton" && in_skel_root) skeleton(p, node, binding);
        if (p.type == "Mesh") mesh(p, node, in_skel_root ? &binding : nullptr);
        else if (in_skel_root && binding.joint_indices && (p.type == "Sphere" || p.type == "Cube" || p.type == "Cylinder" ||
                                                          p.type == "Cone" || p.type == "Capsule" || p.type == "BasisCurves" ||
                                                          p.type == "Points" || p.type == "NurbsCurves"))
            scene.warnings.push_back("prim " + path + " is a " + p.type + ", not a Mesh: rigscope reads meshes only and skips it");
        for (const auto& c : p.children)
            if (prims.count(path + "/" + c->name) && prims.at(path + "/" + c->name) == c.get())
                prim_node(*c, node, binding, in_skel_root, depth + 1);
    }

    static void keep_quaternions_near(std::vector<Transform>& xs) {
        for (std::size_t i = 1; i < xs.size(); ++i)
            if (xs[i].rotation.dot(xs[i - 1].rotation) < 0) xs[i].rotation.coeffs() *= -1;
    }

    void inherit_binding(const PrimSpec& p, Binding& b) {
        const bool api = has_api(p, "SkelBindingAPI");
        auto no_api = [&] {
            if (api) return;
            if (b.missing_api.empty()) b.missing_api = paths.at(&p);
            missing_api_prims.insert(paths.at(&p));
        };
        auto take = [&](const char* name, const PropertySpec*& slot) {
            const PropertySpec* prop = p.property(name);
            if (!prop || (!prop->has_default && prop->samples.empty())) return;
            slot = prop;
            no_api();
        };
        if (const PropertySpec* rel = p.property("skel:skeleton"); rel && !rel->targets.empty()) {
            b.skeleton = resolve(p, rel->targets.front());
            no_api();
        }
        if (const PropertySpec* rel = p.property("skel:animationSource"); rel && !rel->targets.empty()) {
            b.animation = resolve(p, rel->targets.front());
            no_api();
        }
        take("primvars:skel:jointIndices", b.joint_indices);
        take("primvars:skel:jointWeights", b.joint_weights);
        take("primvars:skel:geomBindTransform", b.geom_bind);
        take("skel:joints", b.joints);
        take("primvars:skel:skinningMethod", b.method);
    }

    // ---- skeletons ----

    struct SkeletonInfo {
        std::vector<std::string> joints;   // the skeleton's joint paths
        std::vector<int> nodes;            // node per joint
        std::vector<Eigen::Matrix4d> bind;  // skeleton-space bind transforms, unit-scaled
        const PrimSpec* animation = nullptr;  // its SkelAnimation, whose blendShapeWeights drive blend shapes
        int node = -1;                      // the Skeleton prim's node: the space of `bind`
    };
    std::map<std::string, SkeletonInfo> skeletons;

    std::vector<Eigen::Matrix4d> matrices(const PropertySpec* prop, const std::string& what, std::size_t count) const {
        std::vector<double> n;
        int w = 1;
        if (!prop || !numbers_at(*prop, kNaN, n, w)) return {};
        if (w != 16 || n.size() != count * 16)
            fail(what + " holds " + std::to_string(n.size() / std::size_t(std::max(w, 1))) + " matrices for " + std::to_string(count) + " joints");
        std::vector<Eigen::Matrix4d> out;
        for (std::size_t j = 0; j < count; ++j) {
            Eigen::Matrix4d m = usd_matrix(&n[16 * j]);
            m.block<3, 1>(0, 3) *= mpu;
            out.push_back(m);
        }
        return out;
    }

    void skeleton(const PrimSpec& p, int node, const Binding& binding) {
        const std::string& path = paths.at(&p);
        SkeletonInfo info;
        info.node = node;
        // Unauthored, `joints` is its fallback, an empty list: a skeleton of no joints, which
        // UsdSkel takes as valid (a blend-shape-only character: Pixar's own blendshapes.usda binds
        // its mesh to such a skeleton, whose animation drives the shapes alone).
        const PropertySpec* jp = p.property("joints");
        if (jp && jp->has_default) info.joints = strings_of(jp->value);
        const std::size_t n = info.joints.size();
        charge(n * (sizeof(Eigen::Matrix4d) * 3 + 64));
        info.bind = matrices(p.property("bindTransforms"), "Skeleton " + path + "'s bindTransforms", n);
        if (info.bind.size() != n) fail("Skeleton " + path + " has no bindTransforms");
        std::vector<Eigen::Matrix4d> rest = matrices(p.property("restTransforms"), "Skeleton " + path + "'s restTransforms", n);
        std::map<std::string, int> index;
        for (std::size_t j = 0; j < n; ++j) {
            const std::string& jn = info.joints[j];
            if (index.count(jn)) fail("Skeleton " + path + " lists joint '" + jn + "' twice");
            index[jn] = int(j);
        }
        // Topology as UsdSkelTopology builds it: a joint's parent is its nearest ancestor path
        // that the list holds (`a/b/c` under `a` when `a/b` is not listed), else the skeleton.
        std::vector<int> parent(n, -1);
        for (std::size_t j = 0; j < n; ++j) {
            const std::string& jn = info.joints[j];
            for (auto slash = jn.find_last_of('/'); slash != std::string::npos && slash > 0;
                 slash = jn.find_last_of('/', slash - 1)) {
                auto it = index.find(jn.substr(0, slash));
                if (it == index.end()) continue;
                if (it->second >= int(j)) fail("Skeleton " + path + ": joint '" + jn + "' comes before its parent");
                parent[j] = it->second;
                break;
            }
        }
        // Local rest transforms: restTransforms; without them only an animation of every joint poses
        // the skeleton (UsdSkel's skeleton query fails otherwise, and BakeSkinning leaves the mesh).
        std::vector<Eigen::Matrix4d> local(n, Eigen::Matrix4d::Identity());
        if (!rest.empty()) local = rest;
        for (std::size_t j = 0; j < n; ++j) {
            const std::string& jn = info.joints[j];
            const std::string leaf = jn.substr(jn.find_last_of('/') + 1);
            info.nodes.push_back(add_node(leaf, parent[j] < 0 ? node : info.nodes[parent[j]], Transform{}));
            set_rest(info.nodes.back(), local[j]);
        }
        std::string anim = binding.animation;
        if (const PropertySpec* rel = p.property("skel:animationSource"); rel && !rel->targets.empty()) anim = resolve(p, rel->targets.front());
        const bool animated = !anim.empty() && animation(anim, path, info, index, !rest.empty());
        if (!anim.empty()) info.animation = prim_at(anim);
        if (!animated && rest.empty() && n > 0)
            fail("Skeleton " + path + " has no restTransforms and no animation that poses all its joints: UsdSkel cannot pose it");
        skeletons[path] = std::move(info);
    }

    // False when UsdSkel would ignore the animation (it then poses the skeleton at rest).
    bool animation(const std::string& anim_path, const std::string& skel_path, SkeletonInfo& info,
                   const std::map<std::string, int>& index, bool has_rest) {
        const PrimSpec* a = prim_at(anim_path);
        if (!a) fail("Skeleton " + skel_path + "'s skel:animationSource " + anim_path + " is not a defined prim");
        if (a->type != "SkelAnimation") fail("Skeleton " + skel_path + "'s skel:animationSource " + anim_path + " is a " + a->type + ", not a SkelAnimation");
        // Unauthored, `joints` is its fallback, an empty list, as UsdSkel reads it: an animation of
        // blend-shape weights alone, which Blender writes for a mesh with shape keys and no
        // armature. It poses no joint (the skeleton stays at rest), and its weights still drive
        // the mesh's shapes (blend_shapes below).
        const PropertySpec* jp = a->property("joints");
        const auto joints = jp && jp->has_default ? strings_of(jp->value) : std::vector<std::string>{};
        if (joints.empty()) return false;
        const PropertySpec* props[3] = {a->property("translations"), a->property("rotations"), a->property("scales")};
        const char* names[3] = {"translations", "rotations", "scales"};
        const int widths[3] = {3, 4, 3};
        std::set<double> times;
        for (int k = 0; k < 3; ++k) {
            if (!props[k] || ((!props[k]->has_default || props[k]->value.is_none()) && props[k]->samples.empty())) {
                // UsdSkel's animation query needs all three; without one it falls back to the rest pose.
                scene.warnings.push_back("SkelAnimation " + anim_path + " has no " + names[k] +
                                         ": UsdSkel ignores the animation and poses Skeleton " + skel_path + " at rest");
                return false;
            }
            for (double t : sample_times(*props[k])) times.insert(t);
        }
        std::vector<int> skel_index;
        for (const auto& j : joints) {
            auto it = index.find(j);
            skel_index.push_back(it == index.end() ? -1 : it->second);
        }
        bool sparse = false;
        for (std::size_t j = 0; j < info.joints.size(); ++j)
            if (std::find(skel_index.begin(), skel_index.end(), int(j)) == skel_index.end()) sparse = true;
        if (sparse && !has_rest)
            fail("SkelAnimation " + anim_path + " animates some of Skeleton " + skel_path + "'s joints and the skeleton has no restTransforms for the others");
        auto values_at = [&](double t, std::vector<Transform>& out) {
            std::vector<double> v[3];
            for (int k = 0; k < 3; ++k) {
                int w = 1;
                if (!numbers_at(*props[k], t, v[k], w) || w != widths[k] || v[k].size() != joints.size() * std::size_t(widths[k]))
                    fail("SkelAnimation " + anim_path + "'s " + names[k] + " do not hold one value per joint (" + std::to_string(joints.size()) + ")");
            }
            out.resize(joints.size());
            for (std::size_t j = 0; j < joints.size(); ++j) {
                out[j].translation = Eigen::Vector3d(v[0][3 * j], v[0][3 * j + 1], v[0][3 * j + 2]) * mpu;
                out[j].rotation = usd_quaternion(&v[1][4 * j]).normalized();
                out[j].scale = Eigen::Vector3d(v[2][3 * j], v[2][3 * j + 1], v[2][3 * j + 2]);
            }
        };
        // The default's matrices as UsdSkelMakeTransform makes them (the quaternions as stored).
        std::vector<double> v[3];
        for (int k = 0; k < 3; ++k) {
            int w = 1;
            numbers_at(*props[k], kNaN, v[k], w);
        }
        std::vector<Transform> base;
        values_at(kNaN, base);
        for (std::size_t j = 0; j < joints.size(); ++j)
            if (skel_index[j] >= 0) set_rest(info.nodes[skel_index[j]], skel_joint_matrix(&v[0][3 * j], &v[1][4 * j], &v[2][3 * j], mpu));
        if (times.empty()) return true;
        // Poses take the joints' matrices as UsdSkel computes them at the frame's time
        // (usd_transforms.h); the channels below hold them at the samples for what reads channels.
        std::vector<int> anim_nodes;
        for (std::size_t j = 0; j < joints.size(); ++j) anim_nodes.push_back(skel_index[j] >= 0 ? info.nodes[skel_index[j]] : -1);
        clip.matrices.push_back(skel_animation_matrices(std::move(anim_nodes), joints, *props[0], *props[1], *props[2], {layer.path, anim_path}, mpu, tcps));
        std::vector<double> ts(times.begin(), times.end());
        std::vector<std::vector<Transform>> per_joint(joints.size());
        charge(ts.size() * joints.size() * sizeof(Transform));
        for (double t : ts) {
            std::vector<Transform> x;
            values_at(t, x);
            for (std::size_t j = 0; j < joints.size(); ++j) per_joint[j].push_back(x[j]);
        }
        for (std::size_t j = 0; j < joints.size(); ++j) {
            if (skel_index[j] < 0) continue;
            keep_quaternions_near(per_joint[j]);
            trs_channels(info.nodes[skel_index[j]], ts, per_joint[j]);
        }
        return true;
    }

    // ---- meshes ----

    void mesh(const PrimSpec& p, int node, const Binding* binding) {
        const std::string& path = paths.at(&p);
        Mesh m;
        m.name = p.name;
        m.node = node;
        const PropertySpec* points = p.property("points");
        // The arrays as the layer holds them (stored_numbers): a mesh's are the bulk of a file.
        Numbers n;
        int w = 1;
        if (!points || !stored_numbers(*points, n, w)) {
            scene.warnings.push_back("Mesh " + path + " has no points: skipped");
            return;
        }
        if (w != 3) fail("Mesh " + path + "'s points are not 3-vectors");
        const std::size_t count = n.size() / 3;
        charge(count * sizeof(Eigen::Vector3f));
        m.positions = points_in_metres(n, mpu);
        Numbers counts, indices;
        int w1 = 1, w2 = 1;
        const PropertySpec* fc = p.property("faceVertexCounts");
        const PropertySpec* fi = p.property("faceVertexIndices");
        if (!fc || !fi || !stored_numbers(*fc, counts, w1) || !stored_numbers(*fi, indices, w2))
            fail("Mesh " + path + " has no faceVertexCounts or faceVertexIndices");
        // Time-sampled topology is read when every sample holds the one topology (exporters
        // write it per frame beside the points); a change is refused naming its time code.
        check_constant_topology(*fc, counts, layer.path, path);
        check_constant_topology(*fi, indices, layer.path, path);
        charge((counts.size() + indices.size()) * 4);
        std::size_t used = 0;
        m.face_offsets.reserve(counts.size());
        counts.visit([&](const auto* c, std::size_t faces) {
            for (std::size_t f = 0; f < faces; ++f) {
                const double k = double(c[f]);
                // Compared as a double: a count past size_t (a text layer's 4e54) must not be converted first.
                if (!(k >= 0) || k != std::floor(k) || k > double(indices.size() - used))
                    fail("Mesh " + path + "'s faceVertexCounts do not add up to its " + std::to_string(indices.size()) + " faceVertexIndices");
                used += std::size_t(k);
                m.face_offsets.push_back(std::uint32_t(used));
            }
        });
        if (used != indices.size()) fail("Mesh " + path + "'s faceVertexCounts do not add up to its " + std::to_string(indices.size()) + " faceVertexIndices");
        m.face_indices.resize(indices.size());
        indices.visit([&](const auto* x, std::size_t corners) {
            for (std::size_t k = 0; k < corners; ++k) {
                const double i = double(x[k]);
                if (!(i >= 0) || i >= double(count) || i != std::floor(i))
                    fail("Mesh " + path + "'s faceVertexIndices hold " + std::to_string(i) + ", past its " + std::to_string(count) + " points");
                m.face_indices[k] = std::uint32_t(i);
            }
        });
        uv_sets(p, path, m);
        scene.meshes.push_back(std::move(m));
        scene.nodes[node].mesh = int(scene.meshes.size()) - 1;
        if (!points->samples.empty()) point_cache(*points, path, count);
        // Skinned once every skeleton is read: a mesh may come before its skeleton in namespace.
        if (binding && !binding->skeleton.empty() && binding->joint_indices && binding->joint_weights)
            pending_skins.push_back({&p, int(scene.meshes.size()) - 1, *binding});
        // Blend shapes are read from the mesh's own skel:blendShapes, with the weights of its
        // skeleton's animation (UsdSkel's skinning query of the mesh).
        if (binding && !binding->skeleton.empty() && (p.property("skel:blendShapes") || p.property("skel:blendShapeTargets")))
            pending_shapes.push_back({&p, int(scene.meshes.size()) - 1, *binding});
    }

    // The mesh's texture-coordinate primvars (texCoord2f/2d/2h, or float2 named st), st first:
    // faceVarying (per corner, seams as the file has them) or vertex/varying (per point), through
    // the primvar's :indices when it has them. A primvar that breaks its counts is skipped with a
    // warning (the mesh deforms without it; bake names the missing set).
    void uv_sets(const PrimSpec& p, const std::string& path, Mesh& m) {
        std::vector<const PropertySpec*> found;
        for (const PropertySpec& prop : p.properties) {
            if (prop.name.rfind("primvars:", 0) != 0 || !prop.array || prop.name.find(':', 9) != std::string::npos) continue;
            const bool texcoord = prop.type.rfind("texCoord2", 0) == 0 || (prop.name == "primvars:st" && prop.type.rfind("float2", 0) == 0);
            if (!texcoord || p.property(prop.name) != &prop) continue;  // the last spec of a name only
            found.push_back(&prop);
        }
        std::stable_partition(found.begin(), found.end(), [](const PropertySpec* q) { return q->name == "primvars:st"; });
        const std::size_t corners = m.face_indices.size(), points = m.positions.size();
        for (const PropertySpec* prop : found) {
            UvSet set;
            set.name = prop->name.substr(9);
            auto skip = [&](const std::string& why) { scene.warnings.push_back("Mesh " + path + "'s primvar " + set.name + " " + why + ": not read as UVs"); };
            Numbers values;
            int w = 1;
            if (!stored_numbers(*prop, values, w) || w != 2) {
                skip("holds no 2-vectors");
                continue;
            }
            const std::string interp = interpolation(*prop);
            const bool per_corner = interp == "faceVarying";
            if (!per_corner && interp != "vertex" && interp != "varying") {
                skip("has interpolation '" + interp + "' (read: faceVarying, vertex, varying)");
                continue;
            }
            const std::size_t n = values.size() / 2, slots = per_corner ? corners : points;
            std::vector<double> slot;
            Numbers idx;
            int wi = 1;
            const PropertySpec* ip = p.property(prop->name + ":indices");
            if (ip && stored_numbers(*ip, idx, wi)) slot = idx.doubles();
            else {
                slot.resize(n);
                for (std::size_t k = 0; k < n; ++k) slot[k] = double(k);
            }
            if (slot.size() != slots) {
                skip("has " + std::to_string(slot.size()) + " values for " + std::to_string(slots) + (per_corner ? " face corners" : " points"));
                continue;
            }
            bool ok = true;
            for (double x : slot) ok = ok && x >= 0 && x < double(n) && x == std::floor(x);
            for (std::size_t k = 0; ok && k < values.size(); ++k) ok = std::isfinite(values[k]);
            if (!ok) {
                skip("has an index past its " + std::to_string(n) + " values or a value that is not finite");
                continue;
            }
            charge(n * sizeof(Eigen::Vector2f) + corners * 4);
            set.uv.resize(n);
            for (std::size_t k = 0; k < n; ++k) set.uv[k] = Eigen::Vector2f(float(values[2 * k]), float(values[2 * k + 1]));
            set.corners.resize(corners);
            for (std::size_t c = 0; c < corners; ++c) set.corners[c] = std::uint32_t(slot[per_corner ? c : m.face_indices[c]]);
            m.uv_sets.push_back(std::move(set));
        }
    }

    // Time-sampled points: the mesh is animated by them, as by a point cache file (--cache), and
    // their times span the clip. The positions above (the default, else the first sample) stay
    // the bind pose.
    void point_cache(const PropertySpec& points, const std::string& path, std::size_t count) {
        PointSamplesContext ctx;
        ctx.file = layer.path;
        ctx.mesh_path = path;
        ctx.points = count;
        ctx.meters_per_unit = mpu;
        ctx.time_codes_per_second = tcps;
        ctx.charge = [this](std::uint64_t bytes) { charge(bytes); };
        auto cache = point_samples(points, ctx);
        for (double t : cache->times()) add_key_span(t);
        for (auto& w : attach_point_cache(scene, int(scene.meshes.size()) - 1, std::move(cache))) scene.warnings.push_back(std::move(w));
    }

    struct PendingSkin {
        const PrimSpec* prim;
        int mesh;
        Binding binding;
    };
    std::vector<PendingSkin> pending_skins;
    std::vector<PendingSkin> pending_shapes;

    // ---- blend shapes ----

    // The offsets of a BlendShape or of one of its in-betweens, per point of the mesh (sparse
    // pointIndices spread out), in metres.
    std::vector<Eigen::Vector3f> shape_deltas(const PropertySpec* prop, const std::vector<std::size_t>* indices, std::size_t count,
                                              const std::string& what) {
        std::vector<double> n;
        int w = 1;
        if (!prop || !numbers_at(*prop, kNaN, n, w)) fail(what + " has no offsets");
        if (w != 3) fail(what + "'s offsets are not 3-vectors");
        const std::size_t k = n.size() / 3;
        if (indices ? k != indices->size() : k != count)
            fail(what + " has " + std::to_string(k) + " offsets for " +
                 (indices ? std::to_string(indices->size()) + " pointIndices" : "the mesh's " + std::to_string(count) + " points"));
        charge(std::uint64_t(count) * sizeof(Eigen::Vector3f));
        std::vector<Eigen::Vector3f> d(count, Eigen::Vector3f::Zero());
        for (std::size_t i = 0; i < k; ++i) {
            // UsdSkel adds every offset to its point: an index listed twice adds both.
            Eigen::Vector3f& out = d[indices ? (*indices)[i] : i];
            out += (Eigen::Vector3d(n[3 * i], n[3 * i + 1], n[3 * i + 2]) * mpu).cast<float>();
        }
        return d;
    }

    // The mesh's blend shapes as morph targets (a shape with in-betweens as a morph channel, whose
    // rule is UsdSkelBlendShapeQuery's: the sub-shapes, the base at 0 and the shape at 1 among
    // them, sorted by weight; a weight between two blends those two, one outside extrapolates the
    // two nearest), with the weights of the skeleton's SkelAnimation as a weights channel.
    void blend_shapes(const PrimSpec& p, int mesh_index, const Binding& b) {
        const std::string& path = paths.at(&p);
        Mesh& m = scene.meshes[std::size_t(mesh_index)];
        if (m.cache) fail("Mesh " + path + " has time-sampled points and blend shapes, which rigscope does not evaluate together");
        const PropertySpec* names_prop = p.property("skel:blendShapes");
        const PropertySpec* rel = p.property("skel:blendShapeTargets");
        const std::vector<std::string> names = names_prop && names_prop->has_default ? strings_of(names_prop->value) : std::vector<std::string>{};
        const std::size_t shapes = names.size();
        if (!rel || rel->targets.size() != shapes)
            fail("Mesh " + path + " has " + std::to_string(shapes) + " skel:blendShapes and " +
                 std::to_string(rel ? rel->targets.size() : 0) + " skel:blendShapeTargets (UsdSkel wants one target per name)");
        const std::size_t count = m.positions.size();
        std::vector<int> channel_of(shapes, -1), target_of(shapes, -1);
        for (std::size_t i = 0; i < shapes; ++i) {
            const std::string target = resolve(p, rel->targets[i]);
            const PrimSpec* bs = prim_at(target);
            if (!bs || bs->type != "BlendShape") fail("Mesh " + path + "'s skel:blendShapeTargets names " + target + ", which is not a BlendShape");
            const std::string what = "BlendShape " + target;
            std::vector<std::size_t> indices;
            const PropertySpec* ip = bs->property("pointIndices");
            std::vector<double> n;
            int w = 1;
            const bool sparse = ip && numbers_at(*ip, kNaN, n, w);
            if (sparse) {
                charge(n.size() * sizeof(std::size_t));
                for (double v : n) {
                    if (!(v >= 0) || v >= double(count) || v != std::floor(v))
                        fail(what + "'s pointIndices hold " + std::to_string(v) + ", past Mesh " + path + "'s " + std::to_string(count) + " points");
                    indices.push_back(std::size_t(v));
                }
            }
            MorphTarget primary{names[i], shape_deltas(bs->property("offsets"), sparse ? &indices : nullptr, count, what)};
            m.targets.push_back(std::move(primary));
            target_of[i] = int(m.targets.size()) - 1;
            MorphChannel ch;
            ch.name = names[i];
            ch.targets.push_back(target_of[i]);
            ch.full.push_back(1.0);
            for (const auto& prop : bs->properties) {
                if (prop.name.compare(0, 11, "inbetweens:") != 0) continue;
                auto wt = prop.metadata.find("weight");
                if (wt == prop.metadata.end() || wt->second.kind != Value::Kind::Number) continue;  // UsdSkel skips it too
                const double full = wt->second.number;
                if (!std::isfinite(full)) fail(what + "'s " + prop.name + " has weight " + std::to_string(full));
                if (std::abs(full) < 1e-6 || std::abs(full - 1) < 1e-6) {
                    scene.warnings.push_back(what + "'s " + prop.name + " has weight " + std::to_string(full) + ": UsdSkel skips it, and so does rigscope");
                    continue;
                }
                m.targets.push_back({names[i] + ":" + prop.name.substr(11), shape_deltas(&prop, sparse ? &indices : nullptr, count, what + "'s " + prop.name)});
                ch.targets.push_back(int(m.targets.size()) - 1);
                ch.full.push_back(float(full));  // UsdSkel holds the weight as a float
            }
            if (ch.targets.size() > 1) {
                m.channels.push_back(std::move(ch));
                channel_of[i] = int(m.channels.size()) - 1;
            }
        }
        m.default_weights.assign(m.targets.size(), 0.0f);
        const PrimSpec* anim = skeletons.count(b.skeleton) ? skeletons.at(b.skeleton).animation : nullptr;
        const PropertySpec* wp = anim ? anim->property("blendShapeWeights") : nullptr;
        const PropertySpec* ap = anim ? anim->property("blendShapes") : nullptr;
        if (!wp || !ap || !ap->has_default) return;  // no weights: UsdSkel leaves the shapes at 0
        // The animation's order onto the mesh's (a name the animation lacks weighs 0).
        const std::vector<std::string> anim_names = strings_of(ap->value);
        std::vector<int> from(shapes, -1);
        for (std::size_t i = 0; i < shapes; ++i) {
            auto f = std::find(anim_names.begin(), anim_names.end(), names[i]);
            if (f != anim_names.end()) from[i] = int(f - anim_names.begin());
        }
        const std::string anim_path = paths.at(anim);
        auto shape_weights = [&](double t) {
            std::vector<double> n;
            int w = 1;
            if (!numbers_at(*wp, t, n, w)) return std::vector<double>(shapes, 0.0);
            if (n.size() != anim_names.size())
                fail("SkelAnimation " + anim_path + " has " + std::to_string(n.size()) + " blendShapeWeights for " +
                     std::to_string(anim_names.size()) + " blendShapes");
            std::vector<double> out(shapes, 0.0);
            for (std::size_t i = 0; i < shapes; ++i)
                if (from[i] >= 0) out[i] = float(n[std::size_t(from[i])]);  // UsdSkel's weights are floats
            return out;
        };
        auto target_weights = [&](const std::vector<double>& sw, float* out) {
            for (std::size_t i = 0; i < shapes; ++i) {
                if (channel_of[i] < 0) out[target_of[i]] = float(sw[i]);
                else morph_channel_weights(m.channels[std::size_t(channel_of[i])], sw[i], out);
            }
        };
        target_weights(shape_weights(kNaN), m.default_weights.data());
        if (wp->samples.empty()) return;
        // Key times: the samples, and where a shape's weight crosses one of its sub-shapes' weights
        // between two samples. The in-between rule is linear between those, so the channel's
        // linear keys give UsdSkel's weights at every time, not only at the samples.
        std::set<double> times;
        const auto st = sample_times(*wp);
        times.insert(st.begin(), st.end());
        for (std::size_t k = 1; k < st.size(); ++k) {
            const auto w0 = shape_weights(st[k - 1]), w1 = shape_weights(st[k]);
            for (std::size_t i = 0; i < shapes; ++i) {
                if (channel_of[i] < 0 || w0[i] == w1[i]) continue;
                std::vector<double> breaks = m.channels[std::size_t(channel_of[i])].full;
                breaks.push_back(0.0);
                for (double x : breaks)
                    if ((x - w0[i]) * (x - w1[i]) < 0) times.insert(st[k - 1] + (x - w0[i]) / (w1[i] - w0[i]) * (st[k] - st[k - 1]));
            }
        }
        Channel cw{m.node, ChannelPath::Weights, Interpolation::Linear, int(m.targets.size()), {}, {}};
        charge(times.size() * (m.targets.size() + 1) * sizeof(float));
        std::vector<float> w(m.targets.size());
        for (double t : times) {
            std::fill(w.begin(), w.end(), 0.0f);
            target_weights(shape_weights(t), w.data());
            cw.times.push_back(float(seconds(t)));
            cw.values.insert(cw.values.end(), w.begin(), w.end());
            add_key_span(seconds(t));
        }
        clip.channels.push_back(std::move(cw));
    }

    static std::string interpolation(const PropertySpec& p) {
        auto it = p.metadata.find("interpolation");
        return it == p.metadata.end() ? "constant" : it->second.text;
    }
    static int element_size(const PropertySpec& p) {
        auto it = p.metadata.find("elementSize");
        return it == p.metadata.end() ? 1 : int(it->second.number);
    }

    void skin(const PrimSpec& p, Mesh& m, const Binding& b) {
        const std::string& path = paths.at(&p);
        const PrimSpec* sk = prim_at(b.skeleton);
        auto it = skeletons.find(b.skeleton);
        if (!sk || sk->type != "Skeleton" || it == skeletons.end())
            fail("Mesh " + path + "'s skel:skeleton " + b.skeleton + " is not a Skeleton under a SkelRoot");
        const SkeletonInfo& info = it->second;
        if (m.cache)
            fail("Mesh " + path + " has time-sampled points and a skin: UsdSkel skins each sample of the points, which rigscope "
                                  "does not evaluate (it reads time-sampled points of unskinned meshes)");
        // classicLinear (the fallback) or dualQuaternion, which is OpenUSD's own rule (core's
        // UsdDualQuaternion), not Blender's.
        SkinningMethod skinning = SkinningMethod::Linear;
        if (b.method) {
            const auto method = strings_of(b.method->value);
            if (!method.empty() && method[0] == "dualQuaternion") skinning = SkinningMethod::UsdDualQuaternion;
            else if (!method.empty() && method[0] != "classicLinear") fail("Mesh " + path + ": unknown skinning method '" + method[0] + "'");
        }
        // The mesh's joint order: its own skel:joints mapped onto the skeleton's, else the skeleton's.
        std::vector<int> map;
        if (b.joints && b.joints->has_default) {
            for (const auto& j : strings_of(b.joints->value)) {
                auto f = std::find(info.joints.begin(), info.joints.end(), j);
                if (f == info.joints.end()) fail("Mesh " + path + "'s skel:joints names '" + j + "', which Skeleton " + b.skeleton + " does not have");
                map.push_back(int(f - info.joints.begin()));
            }
        } else {
            for (std::size_t j = 0; j < info.joints.size(); ++j) map.push_back(int(j));
        }
        Eigen::Matrix4d geom = Eigen::Matrix4d::Identity();
        if (b.geom_bind) {
            std::vector<double> g;
            int w = 1;
            if (numbers_at(*b.geom_bind, kNaN, g, w)) {
                if (g.size() != 16) fail("Mesh " + path + "'s geomBindTransform is not a matrix");
                geom = usd_matrix(g.data());
                geom.block<3, 1>(0, 3) *= mpu;
            }
        }
        Skin s;
        s.name = p.name;
        s.method = skinning;
        if (!b.missing_api.empty())
            s.legacy_binding = "Mesh " + path + " is bound through UsdSkel properties on " + b.missing_api +
                               ", which has no SkelBindingAPI applied: rigscope and USD before 23.08 skin it, USD 23.08 and later ignore "
                               "the properties and leave the mesh unskinned (apply the schema: prepend apiSchemas = [\"SkelBindingAPI\"])";
        if (skinning == SkinningMethod::UsdDualQuaternion) {
            // The dual-quaternion rule factors world x bind^-1 apart from G (Skin::geom_bind), which
            // rigscope recovers as inverse_bind x G^-1.
            if (!(std::abs(geom.topLeftCorner<3, 3>().determinant()) > 1e-12))
                fail("Mesh " + path + "'s geomBindTransform is singular, which rigscope's dualQuaternion skinning cannot take apart");
        }
        s.geom_bind = geom;
        s.bind_space = info.node;
        for (int j : map) {
            s.joints.push_back(info.nodes[j]);
            s.inverse_bind.push_back(info.bind[j].inverse() * geom);
        }
        Numbers idx, wts;
        int wi = 1, ww = 1;
        if (!stored_numbers(*b.joint_indices, idx, wi) || !stored_numbers(*b.joint_weights, wts, ww))
            fail("Mesh " + path + "'s jointIndices or jointWeights have no value");
        const int k = element_size(*b.joint_indices);
        if (k != element_size(*b.joint_weights) || k < 1 || k > 4096)
            fail("Mesh " + path + "'s jointIndices and jointWeights have elementSize " + std::to_string(k) + " and " +
                 std::to_string(element_size(*b.joint_weights)));
        const std::string interp = interpolation(*b.joint_indices);
        if (interp != interpolation(*b.joint_weights)) fail("Mesh " + path + "'s jointIndices and jointWeights differ in interpolation");
        const std::size_t count = m.positions.size();
        const bool constant = interp == "constant";
        if (!constant && interp != "vertex") fail("Mesh " + path + "'s joint influences have interpolation '" + interp + "' (UsdSkel reads vertex and constant)");
        const std::size_t want = constant ? std::size_t(k) : count * std::size_t(k);
        if (idx.size() != want || wts.size() != want)
            fail("Mesh " + path + " has " + std::to_string(idx.size()) + " joint indices and " + std::to_string(wts.size()) +
                 " weights for " + std::to_string(count) + " points of " + std::to_string(k) + " influences");
        charge(count * std::size_t(k) * 6 + count * 8);
        Influences& inf = m.influences;
        std::size_t off_sums = 0;
        inf.offsets.reserve(count + 1);
        inf.stored_sums.reserve(count);
        inf.offsets.push_back(0);
        idx.visit([&](const auto* ji, std::size_t) {
            wts.visit([&](const auto* jw, std::size_t) {
                for (std::size_t v = 0; v < count; ++v) {
                    const std::size_t base = constant ? 0 : v * std::size_t(k);
                    double sum = 0;
                    for (int e = 0; e < k; ++e) {
                        const double j = double(ji[base + e]);
                        if (!(j >= 0) || j >= double(map.size()) || j != std::floor(j))
                            fail("Mesh " + path + "'s jointIndices hold " + std::to_string(j) + ", past its " + std::to_string(map.size()) + " joints");
                        sum += double(jw[base + e]);
                    }
                    inf.stored_sums.push_back(float(sum));
                    // UsdSkel skins with the weights as stored (its LBS sums w x M x p without normalising),
                    // so rigscope keeps them too; a sum away from 1 is reported below.
                    if (std::abs(sum - 1.0) > 1e-5) ++off_sums;
                    for (int e = 0; e < k; ++e) {
                        if (jw[base + e] == 0) continue;
                        inf.joints.push_back(std::uint16_t(ji[base + e]));
                        inf.weights.push_back(float(jw[base + e]));
                    }
                    inf.offsets.push_back(std::uint32_t(inf.joints.size()));
                }
            });
        });
        if (map.size() > 65535) fail("Mesh " + path + " is bound to more than 65535 joints");
        if (off_sums)
            scene.warnings.push_back("Mesh " + path + ": " + std::to_string(off_sums) +
                                     " points have joint weights that do not sum to 1; UsdSkel uses them as stored, and so does rigscope");
        scene.skins.push_back(std::move(s));
        m.skin = int(scene.skins.size()) - 1;
    }

    void build() {
        scene.source = layer.path;
        scene.format = "USD";
        auto number_meta = [&](const char* key, double& out) {
            auto it = layer.metadata.find(key);
            if (it == layer.metadata.end() || it->second.kind != Value::Kind::Number) return false;
            out = it->second.number;
            return true;
        };
        if (number_meta("metersPerUnit", mpu)) {
            if (!(mpu > 0) || !std::isfinite(mpu)) fail("metersPerUnit is " + std::to_string(mpu));
            scene.units_note = "USD metersPerUnit " + std::to_string(mpu);
        } else {
            scene.units_note = "USD metersPerUnit not authored: UsdGeom's fallback 0.01 (centimetres)";
        }
        scene.unit_scale = mpu;
        double fps = 0;
        if (number_meta("timeCodesPerSecond", tcps)) {
            scene.fps_note = "timeCodesPerSecond";
        } else if (number_meta("framesPerSecond", fps)) {
            tcps = fps;
            scene.fps_note = "framesPerSecond (no timeCodesPerSecond)";
        } else {
            scene.fps_note = "neither timeCodesPerSecond nor framesPerSecond: USD's 24";
        }
        if (!(tcps > 0) || !std::isfinite(tcps)) fail("timeCodesPerSecond is " + std::to_string(tcps));
        scene.fps = tcps;
        scene.fps_from_file = scene.fps_note.compare(0, 7, "neither") != 0;
        if (auto it = layer.metadata.find("upAxis"); it != layer.metadata.end()) {
            const std::string up = it->second.text;
            if (up != "Y" && up != "Z") fail("upAxis is '" + up + "' (USD knows Y and Z)");
            scene.up_axis = up;
        }
        scene.vertex_ids = "USD: vertex ids are a Mesh's points, in the layer's order";
        for (const auto& r : layer.roots) index(*r, "", 0);
        for (const auto& r : layer.roots)
            if (prims.count("/" + r->name) && prims.at("/" + r->name) == r.get()) prim_node(*r, -1, Binding{}, false, 0);
        for (const auto& ps : pending_skins) skin(*ps.prim, scene.meshes[std::size_t(ps.mesh)], ps.binding);
        for (const auto& ps : pending_shapes) blend_shapes(*ps.prim, ps.mesh, ps.binding);
        for (const auto& p : missing_api_prims)
            scene.warnings.push_back("prim " + p + " has UsdSkel binding properties without SkelBindingAPI applied: rigscope reads them, "
                                     "USD 23.08 and later ignore them");
        if (!stack_nodes.empty()) clip.matrices.push_back(xform_matrices(stack_nodes, stacks, stack_places, mpu, tcps));
        if (have_keys) {
            clip.name = "animation";
            double start = 0, end = 0;
            if (number_meta("startTimeCode", start) && number_meta("endTimeCode", end) && end >= start) {
                clip.has_take = true;
                clip.take_start = seconds(start);
                clip.take_end = seconds(end);
                clip.key_start = clip.start;
                clip.key_end = clip.end;
                clip.start = std::min(clip.start, clip.take_start);
                clip.end = std::max(clip.end, clip.take_end);
            }
            scene.clips.push_back(std::move(clip));
        }
    }
};

}  // namespace

Scene build_scene(const Layer& layer, std::uint64_t max_memory) {
    Builder b(layer, max_memory);
    b.build();
    return std::move(b.scene);
}

}  // namespace rigscope::usd
