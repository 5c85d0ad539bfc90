// Binary FBX 7.x -> the plain scene model, read from the file itself (no Assimp): control points
// as vertices, skin clusters, blend shapes with in-between shapes, the full FBX transform chain,
// every animation stack on the file's own timeline. See docs/fbx_notes.md.
#include "io/fbx_binary_scene.h"

#include <Eigen/Geometry>
#include <Eigen/LU>
#include <algorithm>
#include <array>
#include <deque>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>

#include "io/fbx_binary_document.h"
#include "io/fbx_binary_model.h"
#include "io/fbx_common.h"
#include "io/fbx_skinning.h"
#include "rigscope/core/error.h"

namespace rigscope::fbx {

namespace {

// Longest stretch of frames a take (with its keys) may span.
constexpr double kMaxClipFrames = 1e6;

// How many samples (frames x animated models) a stack's keys buy: every frame of the span while
// the total stays within kSamplesPerKey per key, or within kMinSamples, whichever is more. Past
// that, a stretch between keys gets at most kStretchSamples frames.
constexpr double kSamplesPerKey = 16;
constexpr double kMinSamples = 1 << 14;
constexpr long kStretchSamples = 64;

// The whole frames at which a stack is sampled, f0..f1 in order, and how it was thinned.
//
// Why a bound at all: between two consecutive keys each curve is a single segment (constant,
// linear or one cubic), so the frames there hold nothing the keys do not; yet how many frames lie
// between two keys is one number the file states (a key time), not data it holds. One fuzzed key
// time stretched a 21-frame take to 73,001 frames, and the reader, which sampled and decomposed
// every frame for every moving model, spent 1.5 s on a small file, and over 60 s under the
// fuzzer's sanitizers (where one sample costs some 170 us against 0.45 us). So the work follows
// what the file holds. The frames at and beside every key, the take's start and stop and the
// span's ends are always sampled (their number follows the keys; the memory check bounds it).
// The frames between are all sampled while the total stays within `budget`, which files with a
// key on each model every few frames (the corpus, the crafted cases: tests/test_fbx_sampling.cpp)
// never reach, so their every frame stays exact. Over it, the stretches between keys longer than
// the budget allows are sampled at evenly spaced frames, at most kStretchSamples of them, and
// interpolated between: each curve is one smooth segment there, so a fixed number of samples
// keeps its shape whatever the stretch's length, and a warning says the frames are approximate.
struct FramePlan {
    std::vector<long> frames;
    long longest = 0;        // the longest stretch between sampled key frames, in frames
    std::size_t thinned = 0; // stretches sampled at a stride rather than at every frame
    long kept = 0;           // frames sampled inside each thinned stretch
};

FramePlan plan_frames(const std::deque<Curve>& curves, std::int64_t take_start, std::int64_t take_stop, double frames_per_tick, long f0,
                      long f1, double rows, double budget) {
    // Breakpoints: the ends, and the whole frames at or on either side of each key and of the
    // take's start and stop.
    std::vector<long> at = {f0, f1};
    auto mark = [&](std::int64_t t) {
        const double k = double(t) * frames_per_tick;
        for (long f : {long(std::floor(k + 1e-6)), long(std::ceil(k - 1e-6))})
            if (f >= f0 && f <= f1) at.push_back(f);
    };
    mark(take_start);
    mark(take_stop);
    for (const Curve& c : curves)
        for (std::int64_t t : c.times) mark(t);
    std::sort(at.begin(), at.end());
    at.erase(std::unique(at.begin(), at.end()), at.end());
    FramePlan plan;
    std::vector<long> gaps(at.size() - 1);  // whole frames strictly between two breakpoints
    for (std::size_t i = 0; i + 1 < at.size(); ++i) plan.longest = std::max(plan.longest, gaps[i] = at[i + 1] - at[i] - 1);
    auto samples = [&](long cap) {
        double n = double(at.size());
        for (long g : gaps) n += double(std::min(g, cap));
        return n * rows;
    };
    // The most frames per stretch that fit the budget (all of them when the whole span fits).
    long cap = plan.longest;
    if (samples(cap) > budget) {
        long lo = 0, hi = cap;  // samples(lo) fits or is the least possible; samples(hi) does not fit
        while (hi - lo > 1) {
            const long mid = lo + (hi - lo) / 2;
            (samples(mid) <= budget ? lo : hi) = mid;
        }
        cap = std::min(lo, kStretchSamples);
        plan.kept = cap;
    }
    for (std::size_t i = 0; i < at.size(); ++i) {
        plan.frames.push_back(at[i]);
        if (i + 1 == at.size()) break;
        const long g = gaps[i];
        if (g <= cap) {
            for (long f = at[i] + 1; f < at[i + 1]; ++f) plan.frames.push_back(f);
        } else {
            ++plan.thinned;
            // cap frames evenly inside the g: the step (g + 1) / (cap + 1) exceeds 1, so they differ.
            for (long j = 1; j <= cap; ++j) plan.frames.push_back(at[i] + std::lround(double(j) * double(g + 1) / double(cap + 1)));
        }
    }
    return plan;
}

struct Model {
    const Object* obj = nullptr;
    int parent = -1;  // index into models
    ModelProps props;
};

// An enumeration property as an int; a number no int holds (a fuzzed 1e33) gives the fallback.
int enum_value(double v, int fallback) { return v >= -2147483648.0 && v <= 2147483647.0 ? static_cast<int>(v) : fallback; }

ModelProps model_props(const Document& doc, const Object& o) {
    ModelProps m;
    const Eigen::Vector3d zero = Eigen::Vector3d::Zero(), one = Eigen::Vector3d::Ones();
    m.t = doc.vec3(o, "Lcl Translation", zero);
    m.r = doc.vec3(o, "Lcl Rotation", zero);
    m.s = doc.vec3(o, "Lcl Scaling", one);
    m.roff = doc.vec3(o, "RotationOffset", zero);
    m.rp = doc.vec3(o, "RotationPivot", zero);
    m.rpre = doc.vec3(o, "PreRotation", zero);
    m.rpost = doc.vec3(o, "PostRotation", zero);
    m.soff = doc.vec3(o, "ScalingOffset", zero);
    m.sp = doc.vec3(o, "ScalingPivot", zero);
    m.gt = doc.vec3(o, "GeometricTranslation", zero);
    m.gr = doc.vec3(o, "GeometricRotation", zero);
    m.gs = doc.vec3(o, "GeometricScaling", one);
    m.order = enum_value(doc.number(o, "RotationOrder", 0), 0);
    m.inherit = enum_value(doc.number(o, "InheritType", 1), 1);
    for (const Eigen::Vector3d* v : {&m.t, &m.r, &m.s, &m.roff, &m.rp, &m.rpre, &m.rpost, &m.soff, &m.sp, &m.gt, &m.gr, &m.gs})
        if (!v->allFinite()) throw Malformed("model '" + o.name + "' has a NaN or infinite transform property");
    if (m.order < 0 || m.order > 5) m.order = 0;
    return m;
}

// The model's local matrix as the scene model composes it (world = parent world x local). Inherit
// type Rrs (Maya's segment scale compensation) leaves out the parent's own scaling.
Eigen::Matrix4d scene_local(const ModelProps& m, const ModelProps* parent) {
    Eigen::Matrix4d l = local_matrix(m);
    if (m.inherit == 2 && parent) {
        Eigen::Matrix4d undo = Eigen::Matrix4d::Identity();
        for (int i = 0; i < 3; ++i) undo(i, i) = parent->s[i] != 0.0 ? 1.0 / parent->s[i] : 1.0;
        l = undo * l;
    }
    return l;
}

std::vector<double> array_of(const Record& rec, const char* child, std::uint64_t max_memory) {
    const Record* r = rec.child(child);
    if (!r || r->props.empty()) return {};
    return as_doubles(r->props[0], max_memory);
}

std::int64_t ktime_property(const Document& doc, const Object& o, const char* name, std::int64_t fallback) {
    const Record* p = doc.property(o, name);
    if (!p || p->props.size() < 5 || p->props[4].type != 'L') return fallback;
    return p->props[4].integer;
}

// One blend-shape channel of a mesh: its shapes are consecutive targets from `first`.
struct ShapeChannel {
    std::int64_t id = 0;
    std::size_t first = 0;
    std::vector<double> full;  // FullWeights, percent, increasing
    double percent = 0.0;      // DeformPercent without animation
};

// Target weights of a channel at `percent`: below the first shape that shape scaled, between two
// in-between shapes a linear blend of them, past the last shape that one extrapolated.
void channel_weights(const ShapeChannel& ch, double w, float* out) {
    const std::vector<double>& f = ch.full;
    for (std::size_t k = 0; k < f.size(); ++k) out[ch.first + k] = 0.0f;
    if (f.empty() || w <= 0) return;
    if (w <= f[0]) {
        out[ch.first] = float(w / f[0]);
        return;
    }
    for (std::size_t k = 0; k + 1 < f.size(); ++k)
        if (w <= f[k + 1]) {
            const double u = (w - f[k]) / (f[k + 1] - f[k]);
            out[ch.first + k] = float(1 - u);
            out[ch.first + k + 1] = float(u);
            return;
        }
    out[ch.first + f.size() - 1] = float(w / f.back());
}

struct MeshChannels {
    int mesh = -1;
    std::vector<ShapeChannel> channels;
};

class Builder {
public:
    Builder(const Document& doc, const std::string& path, const LoadOptions& options, Scene& scene)
        : doc_(doc), path_(path), max_memory_(options.max_memory), scene_(scene) {}

    void build() {
        nodes();
        meshes();
        clips();
    }

private:
    void nodes() {
        std::unordered_map<std::int64_t, int> index;
        for (const Object& o : doc_.objects())
            if (o.kind == "Model") {
                index.emplace(o.id, static_cast<int>(models_.size()));
                Model m;
                m.obj = &o;
                m.props = model_props(doc_, o);
                models_.push_back(m);
            }
        std::vector<std::vector<int>> children(models_.size());
        std::vector<int> roots;
        for (std::size_t i = 0; i < models_.size(); ++i) {
            for (const auto& [dst, link] : doc_.destinations(models_[i].obj->id, "Model")) {
                if (!link->prop.empty()) continue;
                models_[i].parent = index.at(dst->id);
                break;
            }
            if (models_[i].parent >= 0) children[models_[i].parent].push_back(static_cast<int>(i));
            else roots.push_back(static_cast<int>(i));
        }
        // Parents before children (the scene model's order), depth first in file order.
        node_of_.assign(models_.size(), -1);
        std::vector<int> stack(roots.rbegin(), roots.rend());
        while (!stack.empty()) {
            const int m = stack.back();
            stack.pop_back();
            Node n;
            n.name = models_[m].obj->name;
            const Model* parent = models_[m].parent >= 0 ? &models_[models_[m].parent] : nullptr;
            n.parent = parent ? node_of_[models_[m].parent] : -1;
            // RrSs differs from RSrs only under a parent with non-uniform scaling.
            if (models_[m].props.inherit == 0 && parent && (parent->props.s.y() != parent->props.s.x() || parent->props.s.z() != parent->props.s.x()))
                rrss_.push_back(n.name);
            n.rest = decompose(scene_local(models_[m].props, parent ? &parent->props : nullptr));
            node_of_[m] = static_cast<int>(scene_.nodes.size());
            if (n.parent >= 0) scene_.nodes[n.parent].children.push_back(node_of_[m]);
            scene_.nodes.push_back(std::move(n));
            model_of_node_.push_back(m);
            for (auto c = children[m].rbegin(); c != children[m].rend(); ++c) stack.push_back(*c);
        }
        for (std::size_t i = 0; i < models_.size(); ++i)
            if (node_of_[i] < 0) throw Malformed("model '" + models_[i].obj->name + "' is part of a cycle of parents");
        model_index_ = std::move(index);
        if (!rrss_.empty())
            scene_.warnings.push_back("inherit type RrSs (parent scale applied after the child's rotation) is read as RSrs for " +
                                      std::to_string(rrss_.size()) + " models, first '" + rrss_.front() + "'");
        // Rest world matrices (file units), parents first.
        world_.resize(scene_.nodes.size());
        for (std::size_t i = 0; i < scene_.nodes.size(); ++i) {
            const Node& n = scene_.nodes[i];
            world_[i] = n.parent >= 0 ? Eigen::Matrix4d(world_[n.parent] * n.rest.matrix()) : n.rest.matrix();
        }
    }

    void meshes() {
        for (std::size_t ni = 0; ni < scene_.nodes.size(); ++ni) {
            const Model& model = models_[model_of_node_[ni]];
            for (const auto& [geo, link] : doc_.sources(model.obj->id, "Geometry")) {
                if (geo->cls != "Mesh" || !link->prop.empty()) continue;
                mesh(static_cast<int>(ni), model, *geo);
            }
        }
    }

    void mesh(int node, const Model& model, const Object& geo) {
        Mesh mesh;
        mesh.name = model.obj->name;
        mesh.node = node;
        const std::string what = "mesh '" + mesh.name + "'";
        const std::vector<double> v = array_of(*geo.rec, "Vertices", max_memory_);
        const std::vector<double> pvi = array_of(*geo.rec, "PolygonVertexIndex", max_memory_);
        const std::size_t n = v.size() / 3;
        for (double x : v)
            if (!std::isfinite(x)) throw Malformed(what + " has a NaN or infinite control point");
        // Polygons: a negative index (bitwise not) closes one. fbx_records.cpp checked the range.
        for (double x : pvi) {
            const auto k = static_cast<std::int64_t>(x);
            mesh.face_indices.push_back(static_cast<std::uint32_t>(k < 0 ? ~k : k));
            if (k < 0) mesh.face_offsets.push_back(static_cast<std::uint32_t>(mesh.face_indices.size()));
        }
        if (mesh.face_offsets.back() != mesh.face_indices.size())
            mesh.face_offsets.push_back(static_cast<std::uint32_t>(mesh.face_indices.size()));

        // Skin: the geometry's first Skin deformer and its clusters.
        const Eigen::Matrix4d geometric = geometric_matrix(model.props);
        Eigen::Matrix4d place = geometric;  // file control point -> stored position
        const Object* skin_obj = nullptr;
        for (const auto& [d, link] : doc_.sources(geo.id, "Deformer"))
            if (d->cls == "Skin" && link->prop.empty()) {
                skin_obj = d;
                break;
            }
        Skin skin;
        std::vector<std::vector<std::pair<std::uint16_t, float>>> rows;
        if (skin_obj) skin_from(*skin_obj, n, node, geometric, what, skin, rows, place);
        if (skin_obj) read_skinning(*skin_obj->rec, n, max_memory_, what, skin, scene_.warnings);

        spend(12.0 * double(n) + 8.0 * double(mesh.face_indices.size()), what);
        mesh.positions.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            mesh.positions.push_back((place * Eigen::Vector4d(v[3 * i], v[3 * i + 1], v[3 * i + 2], 1.0)).head<3>().cast<float>());
        if (skin_obj && !skin.joints.empty()) {
            std::size_t unweighted = 0, dropped = 0;
            Influences& out = mesh.influences;
            out.offsets.assign(1, 0);
            for (auto& row : rows) {
                std::sort(row.begin(), row.end());
                std::vector<std::pair<std::uint16_t, float>> kept;
                for (const auto& r : row) {
                    if (!(r.second > 0.0f) || !std::isfinite(r.second)) {
                        ++dropped;
                        continue;
                    }
                    if (!kept.empty() && kept.back().first == r.first) kept.back().second += r.second;
                    else kept.push_back(r);
                }
                float sum = 0.0f;
                for (const auto& r : kept) sum += r.second;
                out.stored_sums.push_back(sum);  // lint's weights_sum: the sum before normalising
                if (kept.empty() || !(sum > 0.0f)) ++unweighted;
                else
                    for (const auto& r : kept) {
                        out.joints.push_back(r.first);
                        out.weights.push_back(sum == 1.0f ? r.second : r.second / sum);
                    }
                out.offsets.push_back(static_cast<std::uint32_t>(out.joints.size()));
            }
            if (unweighted)
                scene_.warnings.push_back(what + ": " + std::to_string(unweighted) + " vertices have no skin weight and stay where they are stored");
            if (dropped) scene_.warnings.push_back(what + ": ignored " + std::to_string(dropped) + " zero, negative or non-finite skin weights");
            mesh.skin = static_cast<int>(scene_.skins.size());
            scene_.skins.push_back(std::move(skin));
        }

        MeshChannels mc;
        mc.mesh = static_cast<int>(scene_.meshes.size());
        const Eigen::Matrix3d linear = place.topLeftCorner<3, 3>();
        for (const auto& [bs, l1] : doc_.sources(geo.id, "Deformer")) {
            if (bs->cls != "BlendShape") continue;
            for (const auto& [chan, l2] : doc_.sources(bs->id, "Deformer")) {
                if (chan->cls != "BlendShapeChannel") continue;
                ShapeChannel sc;
                sc.id = chan->id;
                sc.first = mesh.targets.size();
                sc.percent = doc_.number(*chan, "DeformPercent", 0.0);
                if (const Record* dp = chan->rec->child("DeformPercent"); dp && !dp->props.empty()) sc.percent = dp->props[0].number;
                std::vector<const Object*> shapes;
                for (const auto& [shape, l3] : doc_.sources(chan->id, "Geometry"))
                    if (shape->cls == "Shape") shapes.push_back(shape);
                if (shapes.empty()) continue;
                sc.full = array_of(*chan->rec, "FullWeights", max_memory_);
                if (sc.full.size() != shapes.size()) {
                    sc.full.clear();
                    for (std::size_t k = 0; k < shapes.size(); ++k) sc.full.push_back(100.0 * double(k + 1) / double(shapes.size()));
                }
                for (std::size_t k = 0; k < shapes.size(); ++k)
                    if (!(sc.full[k] > (k ? sc.full[k - 1] : 0.0)) || !std::isfinite(sc.full[k]))
                        throw Malformed("blend-shape channel '" + chan->name + "': FullWeights must increase from above 0");
                // Targets are dense (one offset per control point) while shapes list only the
                // points they move: a few small shapes on a large mesh must not outgrow the budget.
                spend(12.0 * double(n) * double(shapes.size()), what);
                for (std::size_t k = 0; k < shapes.size(); ++k) {
                    MorphTarget t;
                    t.name = shapes.size() == 1 ? chan->name : chan->name + "@" + format_number(sc.full[k], 6);
                    t.deltas.assign(n, Eigen::Vector3f::Zero());
                    const std::vector<double> idx = array_of(*shapes[k]->rec, "Indexes", max_memory_);
                    const std::vector<double> d = array_of(*shapes[k]->rec, "Vertices", max_memory_);
                    if (d.size() != 3 * idx.size())
                        throw Malformed("shape '" + shapes[k]->name + "' has " + std::to_string(idx.size()) + " indexes and " +
                                        std::to_string(d.size()) + " coordinates");
                    for (std::size_t i = 0; i < idx.size(); ++i) {
                        if (!(idx[i] >= 0 && idx[i] < double(n)))
                            throw Malformed("shape '" + shapes[k]->name + "' moves control point " + format_number(idx[i], 12) +
                                            ", past the mesh's " + std::to_string(n));
                        const Eigen::Vector3d delta(d[3 * i], d[3 * i + 1], d[3 * i + 2]);
                        if (!delta.allFinite()) throw Malformed("shape '" + shapes[k]->name + "' has a NaN or infinite offset");
                        t.deltas[std::size_t(idx[i])] = (linear * delta).cast<float>();
                    }
                    mesh.targets.push_back(std::move(t));
                }
                mc.channels.push_back(std::move(sc));
            }
        }
        mesh.default_weights.assign(mesh.targets.size(), 0.0f);
        for (const ShapeChannel& sc : mc.channels) channel_weights(sc, sc.percent, mesh.default_weights.data());
        if (!mc.channels.empty()) morphs_.push_back(std::move(mc));
        if (scene_.nodes[node].mesh < 0) scene_.nodes[node].mesh = static_cast<int>(scene_.meshes.size());
        scene_.meshes.push_back(std::move(mesh));
    }

    // Clusters -> joints, inverse binds and per-control-point rows. The stored positions are the
    // mesh at bind (TransformLink x Transform of the first complete cluster, times the geometric
    // transform), so that world(joint) x inverse_bind is the identity at bind, glTF's rule.
    void skin_from(const Object& skin_obj, std::size_t n, int node, const Eigen::Matrix4d& geometric, const std::string& what, Skin& skin,
                   std::vector<std::vector<std::pair<std::uint16_t, float>>>& rows, Eigen::Matrix4d& place) {
        struct ClusterData {
            int joint_node;
            Eigen::Matrix4d transform, link;
            bool has_transform, has_link;
            std::vector<double> idx, w;
        };
        std::vector<ClusterData> clusters;
        for (const auto& [cl, link] : doc_.sources(skin_obj.id, "Deformer")) {
            if (cl->cls != "Cluster") continue;
            int joint = -1;
            for (const auto& [m, l] : doc_.sources(cl->id, "Model"))
                if (l->prop.empty()) {
                    joint = node_of_[model_index_.at(m->id)];
                    break;
                }
            if (joint < 0) continue;  // a cluster without a bone moves nothing
            ClusterData c;
            c.joint_node = joint;
            c.has_transform = matrix_of(cl->rec->child("Transform"), max_memory_, c.transform);
            c.has_link = matrix_of(cl->rec->child("TransformLink"), max_memory_, c.link);
            c.idx = array_of(*cl->rec, "Indexes", max_memory_);
            c.w = array_of(*cl->rec, "Weights", max_memory_);
            if (c.idx.size() != c.w.size())
                throw Malformed(what + ": cluster '" + cl->name + "' has " + std::to_string(c.idx.size()) + " indexes and " +
                                std::to_string(c.w.size()) + " weights");
            if ((c.has_transform && !c.transform.allFinite()) || (c.has_link && !c.link.allFinite()))
                throw Malformed(what + ": cluster '" + cl->name + "' has a NaN or infinite bind matrix");
            clusters.push_back(std::move(c));
        }
        Eigen::Matrix4d bind = world_[node] * geometric;  // mesh global at bind x geometric
        for (const ClusterData& c : clusters)
            if (c.has_transform && c.has_link) {
                bind = c.link * c.transform * geometric;
                break;
            }
        place = bind;  // stored position = bind x control point
        const Eigen::Matrix4d unplace = bind.inverse();
        if (!unplace.allFinite()) throw Malformed(what + ": the mesh's bind matrix cannot be inverted");
        rows.assign(n, {});
        std::map<int, std::uint16_t> joint_of_node;
        for (const ClusterData& c : clusters) {
            auto found = joint_of_node.find(c.joint_node);
            if (found == joint_of_node.end()) {
                if (skin.joints.size() > std::numeric_limits<std::uint16_t>::max()) throw Malformed(what + " has more than 65536 joints");
                found = joint_of_node.emplace(c.joint_node, static_cast<std::uint16_t>(skin.joints.size())).first;
                skin.joints.push_back(c.joint_node);
                // Bone space from a stored position: Transform x geometric maps the control point.
                Eigen::Matrix4d ib;
                if (c.has_transform) ib = c.transform * geometric * unplace;
                else if (c.has_link) ib = c.link.inverse() * world_[node] * geometric * unplace;
                else ib = world_[c.joint_node].inverse();
                skin.inverse_bind.push_back(ib);
            }
            for (std::size_t i = 0; i < c.idx.size(); ++i) {
                if (!(c.idx[i] >= 0 && c.idx[i] < double(n)))
                    throw Malformed(what + ": a cluster of joint '" + scene_.nodes[c.joint_node].name + "' weights control point " +
                                    format_number(c.idx[i], 12) + ", past the mesh's " + std::to_string(n));
                rows[std::size_t(c.idx[i])].push_back({found->second, static_cast<float>(c.w[i])});
            }
        }
        skin.name = what.substr(6, what.size() - 7);
    }

    void clips();

    // The scene's own arrays (every mesh instance, dense morph targets) count against the budget.
    void spend(double bytes, const std::string& what) {
        spent_ += bytes;
        if (spent_ > double(max_memory_)) throw Malformed(what + ": meshes need more memory than the limit allows");
    }
    double spent_ = 0.0;

    const Document& doc_;
    std::string path_;
    std::uint64_t max_memory_;
    Scene& scene_;
    std::vector<Model> models_;
    std::unordered_map<std::int64_t, int> model_index_;
    std::vector<int> node_of_, model_of_node_;
    std::vector<std::string> rrss_;
    std::vector<Eigen::Matrix4d> world_;
    std::vector<MeshChannels> morphs_;
};


// One animated transform property of a model in one layer: three component curves (null where
// the component is not animated: the curve node's default holds it).
struct PropAnim {
    std::array<const Curve*, 3> c{};
    Eigen::Vector3d defaults = Eigen::Vector3d::Zero();
};

void Builder::clips() {
    const double fps = scene_.fps;
    const double kt = double(kKTimePerSecond);
    for (const Object& stack : doc_.objects()) {
        if (stack.kind != "AnimationStack") continue;
        std::deque<Curve> store;
        // (model, 0 T / 1 R / 2 S) -> per layer, in layer order; the first layer sets, later ones add.
        std::map<std::pair<int, int>, std::vector<PropAnim>> props;
        std::map<std::int64_t, const Curve*> shapes;  // blend-shape channel id -> DeformPercent curve
        std::int64_t first = std::numeric_limits<std::int64_t>::max(), last = std::numeric_limits<std::int64_t>::min();
        double keys = 0;
        auto read = [&](const Object& curve) -> const Curve* {
            store.push_back(read_curve(*curve.rec, curve.name.empty() ? "id " + std::to_string(curve.id) : curve.name, max_memory_));
            const Curve& c = store.back();
            if (c.times.empty()) return nullptr;
            keys += double(c.times.size());
            first = std::min(first, c.times.front());
            last = std::max(last, c.times.back());
            return &c;
        };
        for (const auto& [layer, l0] : doc_.sources(stack.id, "AnimationLayer")) {
            for (const auto& [cn, l1] : doc_.sources(layer->id, "AnimationCurveNode")) {
                for (const auto& [dst, link] : doc_.destinations(cn->id)) {
                    if (link->prop.empty()) continue;
                    if (dst->kind == "Model") {
                        const int which = link->prop == "Lcl Translation" ? 0 : link->prop == "Lcl Rotation" ? 1 : link->prop == "Lcl Scaling" ? 2 : -1;
                        if (which < 0) continue;
                        const int m = model_index_.at(dst->id);
                        const ModelProps& mp = models_[m].props;
                        PropAnim a;
                        const Eigen::Vector3d& fixed = which == 0 ? mp.t : which == 1 ? mp.r : mp.s;
                        const char* names[3] = {"d|X", "d|Y", "d|Z"};
                        for (int i = 0; i < 3; ++i) a.defaults[i] = doc_.number(*cn, names[i], fixed[i]);
                        for (const auto& [curve, l2] : doc_.sources(cn->id, "AnimationCurve"))
                            for (int i = 0; i < 3; ++i)
                                if (l2->prop == names[i]) a.c[i] = read(*curve);
                        props[{m, which}].push_back(a);
                    } else if (dst->kind == "Deformer" && dst->cls == "BlendShapeChannel" && link->prop == "DeformPercent") {
                        for (const auto& [curve, l2] : doc_.sources(cn->id, "AnimationCurve"))
                            if (l2->prop == "d|DeformPercent" && !shapes.count(dst->id))
                                if (const Curve* c = read(*curve)) shapes[dst->id] = c;
                    }
                }
            }
        }
        if (first > last) continue;  // a stack without keys is no animation

        // The stack's LocalStart/LocalStop, else the Takes section's LocalTime, else the keys.
        std::int64_t from_start = first, from_stop = last;
        doc_.take_time(stack.name, from_start, from_stop);
        const std::int64_t take_start = ktime_property(doc_, stack, "LocalStart", from_start);
        const std::int64_t take_stop = std::max(take_start, ktime_property(doc_, stack, "LocalStop", from_stop));
        const double lo = double(std::min(first, take_start)) * fps / kt, hi = double(std::max(last, take_stop)) * fps / kt;
        if (!(hi - lo <= kMaxClipFrames))
            throw Malformed("animation '" + stack.name + "' spans " + format_number(hi - lo) + " frames at " + format_number(fps) +
                            " fps (over a million)");
        long f0 = long(std::ceil(lo - 1e-6)), f1 = long(std::floor(hi + 1e-6));
        if (f1 < f0) f0 = f1 = std::lround(lo);

        // Models whose local transform moves: those with curves, and Rrs children of a model
        // whose scaling moves (their local undoes the parent's scale).
        std::set<int> moving;
        for (const auto& [key, anims] : props) moving.insert(key.first);
        for (std::size_t m = 0; m < models_.size(); ++m)
            if (models_[m].props.inherit == 2 && models_[m].parent >= 0 && props.count({models_[m].parent, 2})) moving.insert(int(m));
        std::vector<const MeshChannels*> animated_morphs;
        for (const MeshChannels& mc : morphs_)
            for (const ShapeChannel& sc : mc.channels)
                if (shapes.count(sc.id)) {
                    animated_morphs.push_back(&mc);
                    break;
                }
        const double rows = double(moving.size() + animated_morphs.size());
        if (rows == 0) continue;  // keys on nothing the scene moves
        const FramePlan plan = plan_frames(store, take_start, take_stop, fps / kt, f0, f1, rows, std::max(kMinSamples, kSamplesPerKey * keys));
        const std::vector<long>& frames = plan.frames;
        if (double(frames.size()) * rows * 48.0 > double(max_memory_))
            throw Malformed("animation '" + stack.name + "' needs more memory than the limit allows");
        if (plan.thinned)
            scene_.warnings.push_back("animation '" + stack.name + "': " + std::to_string(plan.thinned) +
                                      (plan.thinned == 1 ? " stretch" : " stretches") + " between keys (the longest " +
                                      std::to_string(plan.longest) + " frames) sampled " +
                                      (plan.kept ? "at " + std::to_string(plan.kept) + " evenly spaced frames each" : std::string("at their ends only")) +
                                      ", frames between interpolated: its " + format_number(keys) +
                                      " keys do not justify sampling all " + std::to_string(f1 - f0 + 1) + " frames for " +
                                      format_number(rows) + " animated models");

        auto at = [&](int m, std::int64_t t) {
            ModelProps p = models_[m].props;
            for (int which = 0; which < 3; ++which) {
                auto it = props.find({m, which});
                if (it == props.end()) continue;
                Eigen::Vector3d& v = which == 0 ? p.t : which == 1 ? p.r : p.s;
                for (std::size_t layer = 0; layer < it->second.size(); ++layer) {
                    const PropAnim& a = it->second[layer];
                    Eigen::Vector3d x;
                    for (int i = 0; i < 3; ++i) x[i] = a.c[i] ? a.c[i]->at(t) : a.defaults[i];
                    if (layer == 0) v = x;
                    else if (which == 2) v = v.cwiseProduct(x);
                    else v += x;
                }
            }
            return p;
        };

        Clip clip;
        clip.name = stack.name;
        for (int m : moving) {
            const int node = node_of_[m];
            Channel ct, cr, cs;
            ct.node = cr.node = cs.node = node;
            ct.path = ChannelPath::Translation;
            cr.path = ChannelPath::Rotation;
            cs.path = ChannelPath::Scale;
            cr.width = 4;
            Eigen::Quaterniond prev = Eigen::Quaterniond::Identity();
            // Only an Rrs child's local reads its parent (scene_local), so only it evaluates the parent.
            const bool reads_parent = models_[m].parent >= 0 && models_[m].props.inherit == 2;
            for (std::size_t i = 0; i < frames.size(); ++i) {
                const long f = frames[i];
                const std::int64_t t = std::llround(double(f) * kt / fps);
                const ModelProps p = at(m, t);
                ModelProps parent;
                if (reads_parent) parent = at(models_[m].parent, t);
                const Transform tr = decompose(scene_local(p, reads_parent ? &parent : nullptr));
                Eigen::Quaterniond q = tr.rotation;
                if (i > 0 && prev.dot(q) < 0) q.coeffs() = -q.coeffs();
                prev = q;
                const float time = float(double(f) / fps);
                for (Channel* c : {&ct, &cr, &cs}) c->times.push_back(time);
                for (int i = 0; i < 3; ++i) ct.values.push_back(float(tr.translation[i]));
                cr.values.insert(cr.values.end(), {float(q.x()), float(q.y()), float(q.z()), float(q.w())});
                for (int i = 0; i < 3; ++i) cs.values.push_back(float(tr.scale[i]));
            }
            clip.channels.push_back(std::move(ct));
            clip.channels.push_back(std::move(cr));
            clip.channels.push_back(std::move(cs));
        }
        for (const MeshChannels* mcp : animated_morphs) {
            const MeshChannels& mc = *mcp;
            const Mesh& mesh = scene_.meshes[mc.mesh];
            Channel cw;
            cw.node = mesh.node;
            cw.path = ChannelPath::Weights;
            cw.width = int(mesh.targets.size());
            std::vector<float> w(mesh.targets.size());
            for (const long f : frames) {
                const std::int64_t t = std::llround(double(f) * kt / fps);
                for (const ShapeChannel& sc : mc.channels) {
                    auto it = shapes.find(sc.id);
                    channel_weights(sc, it != shapes.end() ? it->second->at(t) : sc.percent, w.data());
                }
                cw.times.push_back(float(double(f) / fps));
                cw.values.insert(cw.values.end(), w.begin(), w.end());
            }
            clip.channels.push_back(std::move(cw));
        }
        if (clip.channels.empty()) continue;
        clip.start = double(f0) / fps;
        clip.end = double(f1) / fps;
        clip.has_take = true;
        clip.take_start = double(take_start) / kt;
        clip.take_end = double(take_stop) / kt;
        clip.key_start = double(first) / kt;
        clip.key_end = double(last) / kt;
        if (first < take_start || last > take_stop)
            scene_.warnings.push_back("animation '" + stack.name + "': keys run from frame " + format_number(double(first) * fps / kt, 9) +
                                      " to " + format_number(double(last) * fps / kt, 9) + ", outside its take (frames " +
                                      format_number(double(take_start) * fps / kt, 6) + ".." + format_number(double(take_stop) * fps / kt, 6) +
                                      "); every key is kept, default frames are the take's, --frames reaches the rest");
        scene_.clips.push_back(std::move(clip));
    }
}

}  // namespace

Scene read_fbx_binary(const RecordFile& file, const std::string& path, const LoadOptions& options) {
    const Document doc(file);
    Scene scene;
    scene.source = path;
    scene.format = "FBX";
    scene.vertex_ids = "FBX: vertex ids are control points, in the file's own order";

    const double unit = doc.global_number("UnitScaleFactor", std::nan(""));
    const bool has_unit = !std::isnan(unit);
    if (has_unit && (!(unit > 0) || !std::isfinite(unit)))
        throw Malformed("UnitScaleFactor " + format_number(unit) + " is not a positive number");
    const double s = 0.01 * (has_unit ? unit : 1.0);
    scene.unit_scale = s;
    scene.units_note = has_unit ? "FBX UnitScaleFactor " + format_number(unit, 6) +
                                      (unit == 1.0 ? " (centimetres)" : unit == 100.0 ? " (metres)" : "") + ": scaled by " +
                                      format_number(s, 6) + " to metres"
                                : "FBX without UnitScaleFactor: taken as centimetres, scaled by 0.01 to metres";
    const int up = enum_value(doc.global_number("UpAxis", 1), 1);
    const double sign = doc.global_number("UpAxisSign", 1);
    if (up >= 0 && up <= 2) scene.up_axis = std::string(sign < 0 ? "-" : "") + "XYZ"[up];
    const double fps = time_mode_fps(enum_value(doc.global_number("TimeMode", 0), 0), doc.global_number("CustomFrameRate", -1));
    if (fps > 0) {
        scene.fps = fps;
        scene.fps_from_file = true;
    }

    Builder(doc, path, options, scene).build();
    scale_lengths(scene, s);
    warn_rest_not_bind(scene);
    return scene;
}

}  // namespace rigscope::fbx
