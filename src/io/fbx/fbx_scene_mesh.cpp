// FBX geometries -> the scene's meshes: control points placed at bind, polygons, the first Skin's
// clusters as joints and normalised influences, BlendShape channels as dense morph targets.
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "io/fbx/fbx_common.h"
#include "io/fbx/fbx_scene_builder.h"
#include "io/fbx/fbx_skinning.h"
#include "rigscope/core/morph_channel.h"
#include "rigscope/core/error.h"

namespace rigscope::fbx {

void channel_weights(const ShapeChannel& ch, double percent, float* out) { morph_channel_weights(ch.channel, percent / 100.0, out); }

void Builder::meshes() {
    for (std::size_t ni = 0; ni < scene_.nodes.size(); ++ni) {
        const Model& model = models_[model_of_node_[ni]];
        for (const auto& [geo, link] : doc_.sources(model.obj->id, "Geometry")) {
            if (geo->cls != "Mesh" || !link->prop.empty()) continue;
            mesh(static_cast<int>(ni), model, *geo);
        }
    }
}

// Polygons: a negative index (bitwise not) closes one. fbx_records.cpp checked the range.
void Builder::polygons(const Object& geo, Mesh& mesh) {
    const std::vector<double> pvi = array_of(*geo.rec, "PolygonVertexIndex", max_memory_);
    for (double x : pvi) {
        const auto k = static_cast<std::int64_t>(x);
        mesh.face_indices.push_back(static_cast<std::uint32_t>(k < 0 ? ~k : k));
        if (k < 0) mesh.face_offsets.push_back(static_cast<std::uint32_t>(mesh.face_indices.size()));
    }
    if (mesh.face_offsets.back() != mesh.face_indices.size())
        mesh.face_offsets.push_back(static_cast<std::uint32_t>(mesh.face_indices.size()));
}

namespace {

std::string child_text(const Record& r, const char* name) {
    const Record* c = r.child(name);
    return c && !c->props.empty() && c->props[0].is_string() ? c->props[0].str() : "";
}

// A record's numbers: its array (FBX 7.x, binary or ASCII), or its scalar properties one by one
// (FBX 6.x writes UV and UVIndex as plain lists, which fbx_v6.cpp leaves as they are).
std::vector<double> numbers_of(const Record& rec, const char* name, std::uint64_t max_memory) {
    const Record* r = rec.child(name);
    if (!r || r->props.empty()) return {};
    if (element_size(r->props[0].type)) return as_doubles(r->props[0], max_memory);
    std::vector<double> out;
    out.reserve(r->props.size());
    for (const Prop& p : r->props) {
        if (p.is_string() || element_size(p.type)) throw Malformed(std::string(name) + " mixes numbers with other values");
        out.push_back(p.number);
    }
    return out;
}

// The geometry's LayerElementUV records, lowest layer index first (the first is the one FBX
// tools call the mesh's UVs), as per-corner UV sets. ByPolygonVertex maps a value to each
// polygon corner (a seam is two corners of one control point with two values); ByVertice /
// ByControlPoint one per control point; IndexToDirect goes through UVIndex. A set that breaks
// these rules (an index past UV, a count other than the corners') is skipped with a warning:
// the mesh deforms without it, and bake says the set is missing.
void read_uv_sets(const Record& geo, Mesh& mesh, std::uint64_t max_memory, const std::string& what,
                  std::vector<Warning>& warnings) {
    std::vector<std::pair<std::int64_t, const Record*>> layers;
    for (const Record& c : geo.children)
        if (c.name == "LayerElementUV") layers.push_back({c.props.empty() ? 0 : c.props[0].integer, &c});
    std::stable_sort(layers.begin(), layers.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    const std::size_t corners = mesh.face_indices.size();
    for (const auto& [index, rec] : layers) {
        UvSet set;
        set.name = child_text(*rec, "Name");
        if (set.name.empty()) set.name = "UVSet" + std::to_string(index);
        const std::string mapping = child_text(*rec, "MappingInformationType");
        const std::string reference = child_text(*rec, "ReferenceInformationType");
        auto skip = [&](const std::string& why) { warnings.push_back({WarningKind::AttributeDropped, what + ": UV set '" + set.name + "' " + why + ": not read"}); };
        std::vector<double> uv, uv_index;
        try {
            uv = numbers_of(*rec, "UV", max_memory);
            uv_index = numbers_of(*rec, "UVIndex", max_memory);
        } catch (const Malformed& e) {
            // UVs never stop a mesh from loading: the deformation does not need them.
            skip(std::string("cannot be read (") + e.what() + ")");
            continue;
        }
        if (uv.size() % 2) {
            skip("has an odd count of UV numbers");
            continue;
        }
        bool finite = true;
        for (double x : uv) finite = finite && std::isfinite(x);
        if (!finite) {
            skip("holds a NaN or infinite UV");
            continue;
        }
        const bool by_corner = mapping == "ByPolygonVertex";
        const bool by_point = mapping == "ByVertice" || mapping == "ByVertex" || mapping == "ByControlPoint";
        if (!by_corner && !by_point) {
            skip("has mapping '" + mapping + "' (read: ByPolygonVertex, ByVertice, ByControlPoint)");
            continue;
        }
        const bool indexed = reference == "IndexToDirect" || reference == "Index";
        const std::size_t values = uv.size() / 2;
        // The index each corner reads in UV, before IndexToDirect's table.
        std::vector<double> slot;
        const std::size_t slots = by_corner ? corners : mesh.positions.size();
        if (indexed) slot = uv_index;
        else {
            slot.resize(slots);
            for (std::size_t k = 0; k < slots; ++k) slot[k] = double(k);
        }
        if (slot.size() != slots) {
            skip("has " + std::to_string(slot.size()) + (by_corner ? " corner" : " control point") + " entries, the mesh " +
                 std::to_string(slots));
            continue;
        }
        bool in_range = true;
        for (double x : slot) in_range = in_range && x >= 0 && x < double(values) && x == std::floor(x);
        if (!in_range) {
            skip("indexes past its " + std::to_string(values) + " UVs");
            continue;
        }
        set.uv.resize(values);
        for (std::size_t k = 0; k < values; ++k) set.uv[k] = Eigen::Vector2f(float(uv[2 * k]), float(uv[2 * k + 1]));
        set.corners.resize(corners);
        for (std::size_t c = 0; c < corners; ++c) set.corners[c] = std::uint32_t(slot[by_corner ? c : mesh.face_indices[c]]);
        mesh.uv_sets.push_back(std::move(set));
    }
}

}  // namespace

const Object* Builder::first_skin(const Object& geo) const {
    for (const auto& [d, link] : doc_.sources(geo.id, "Deformer"))
        if (d->cls == "Skin" && link->prop.empty()) return d;
    return nullptr;
}

void Builder::mesh(int node, const Model& model, const Object& geo) {
    Mesh mesh;
    mesh.name = model.obj->name;
    mesh.node = node;
    const std::string what = "mesh '" + mesh.name + "'";
    const std::vector<double> v = array_of(*geo.rec, "Vertices", max_memory_);
    const std::size_t n = v.size() / 3;
    for (double x : v)
        if (!std::isfinite(x)) throw Malformed(what + " has a NaN or infinite control point");
    polygons(geo, mesh);

    // Skin: the geometry's first Skin deformer and its clusters.
    const Eigen::Matrix4d geometric = geometric_matrix(model.props);
    Eigen::Matrix4d place = geometric;  // file control point -> stored position
    const Object* skin_obj = first_skin(geo);
    Skin skin;
    std::vector<std::vector<std::pair<std::uint16_t, float>>> rows;
    if (skin_obj) skin_from(*skin_obj, n, node, geometric, what, skin, rows, place);
    if (skin_obj) read_skinning(*skin_obj->rec, n, max_memory_, what, skin, scene_.warnings);

    spend(12.0 * double(n) + 8.0 * double(mesh.face_indices.size()), what);
    mesh.positions.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        mesh.positions.push_back((place * Eigen::Vector4d(v[3 * i], v[3 * i + 1], v[3 * i + 2], 1.0)).head<3>().cast<float>());
    if (skin_obj && !skin.joints.empty()) {
        influences_from(rows, what, mesh.influences);
        mesh.skin = static_cast<int>(scene_.skins.size());
        scene_.skins.push_back(std::move(skin));
    }

    spend(8.0 * double(mesh.face_indices.size()), what + "'s UVs");
    read_uv_sets(*geo.rec, mesh, max_memory_, what, scene_.warnings);

    MeshChannels mc = shapes(geo, place, what, mesh);
    mesh.default_weights.assign(mesh.targets.size(), 0.0f);
    for (const ShapeChannel& sc : mc.channels) channel_weights(sc, sc.percent, mesh.default_weights.data());
    if (!mc.channels.empty()) morphs_.push_back(std::move(mc));
    if (scene_.nodes[node].mesh < 0) scene_.nodes[node].mesh = static_cast<int>(scene_.meshes.size());
    scene_.meshes.push_back(std::move(mesh));
}

// Per-control-point rows of (joint, weight) -> the mesh's influences: weights summed per joint,
// zero, negative and non-finite ones dropped, each row normalised (its stored sum kept for lint).
void Builder::influences_from(std::vector<std::vector<std::pair<std::uint16_t, float>>>& rows, const std::string& what,
                              Influences& out) {
    std::size_t unweighted = 0, dropped = 0;
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
        scene_.warnings.push_back({WarningKind::SkinWeights, what + ": " + std::to_string(unweighted) + " vertices have no skin weight and stay where they are stored"});
    if (dropped) scene_.warnings.push_back({WarningKind::SkinWeights, what + ": ignored " + std::to_string(dropped) + " zero, negative or non-finite skin weights"});
}

// The geometry's BlendShape channels -> dense morph targets, one per shape (in-between shapes
// named channel@percent), their offsets turned by the placement's linear part.
MeshChannels Builder::shapes(const Object& geo, const Eigen::Matrix4d& place, const std::string& what, Mesh& mesh) {
    MeshChannels mc;
    mc.mesh = static_cast<int>(scene_.meshes.size());
    const Eigen::Matrix3d linear = place.topLeftCorner<3, 3>();
    const std::size_t n = mesh.vertex_count();
    for (const auto& [bs, l1] : doc_.sources(geo.id, "Deformer")) {
        if (bs->cls != "BlendShape") continue;
        for (const auto& [chan, l2] : doc_.sources(bs->id, "Deformer")) {
            if (chan->cls != "BlendShapeChannel") continue;
            ShapeChannel sc;
            sc.id = chan->id;
            sc.percent = doc_.number(*chan, "DeformPercent", 0.0);
            if (const Record* dp = chan->rec->child("DeformPercent"); dp && !dp->props.empty()) sc.percent = dp->props[0].number;
            std::vector<const Object*> shapes;
            for (const auto& [shape, l3] : doc_.sources(chan->id, "Geometry"))
                if (shape->cls == "Shape") shapes.push_back(shape);
            if (shapes.empty()) continue;
            // FullWeights: the channel weight (percent) at which each shape is whole, in any order,
            // negative and past 100 included (Maya's in-betweens). Blender's exporter writes
            // there instead the shape key's per-vertex weights (its vertex group), one per
            // offset, as ufbx reads them: its channels hold one shape each.
            std::vector<double> full = array_of(*chan->rec, "FullWeights", max_memory_);
            for (double f : full)
                if (!std::isfinite(f)) throw Malformed("blend-shape channel '" + chan->name + "' has a NaN or infinite FullWeights value");
            std::vector<double> vertex_weights;
            if (blender_ && shapes.size() == 1 && !full.empty()) {
                vertex_weights = std::move(full);
                full = {100.0};
            }
            if (full.size() != shapes.size()) {
                full.clear();
                for (std::size_t k = 0; k < shapes.size(); ++k) full.push_back(100.0 * double(k + 1) / double(shapes.size()));
            }
            // Targets are dense (one offset per control point) while shapes list only the
            // points they move: a few small shapes on a large mesh must not outgrow the budget.
            spend(12.0 * double(n) * double(shapes.size()), "the morph targets of " + what);
            for (std::size_t k = 0; k < shapes.size(); ++k) {
                MorphTarget t;
                t.name = shapes.size() == 1 ? chan->name : chan->name + "@" + format_number(full[k], 6);
                t.deltas.assign(n, Eigen::Vector3f::Zero());
                const std::vector<double> idx = array_of(*shapes[k]->rec, "Indexes", max_memory_);
                const std::vector<double> d = array_of(*shapes[k]->rec, "Vertices", max_memory_);
                if (d.size() != 3 * idx.size())
                    throw Malformed("shape '" + shapes[k]->name + "' has " + std::to_string(idx.size()) + " indexes and " +
                                    std::to_string(d.size()) + " coordinates");
                if (!vertex_weights.empty() && vertex_weights.size() != idx.size())
                    throw Malformed("blend-shape channel '" + chan->name + "' (Blender) has " + std::to_string(vertex_weights.size()) +
                                    " per-vertex weights for the " + std::to_string(idx.size()) + " points of shape '" + shapes[k]->name + "'");
                for (std::size_t i = 0; i < idx.size(); ++i) {
                    if (!(idx[i] >= 0 && idx[i] < double(n)))
                        throw Malformed("shape '" + shapes[k]->name + "' moves control point " + format_number(idx[i], 12) +
                                        ", past the mesh's " + std::to_string(n));
                    Eigen::Vector3d delta(d[3 * i], d[3 * i + 1], d[3 * i + 2]);
                    if (!delta.allFinite()) throw Malformed("shape '" + shapes[k]->name + "' has a NaN or infinite offset");
                    if (!vertex_weights.empty()) delta *= vertex_weights[i] / 100.0;
                    t.deltas[std::size_t(idx[i])] = (linear * delta).cast<float>();
                }
                sc.channel.targets.push_back(int(mesh.targets.size()));
                sc.channel.full.push_back(full[k] / 100.0);
                mesh.targets.push_back(std::move(t));
            }
            sc.channel.name = chan->name;
            if (shapes.size() > 1) mesh.channels.push_back(sc.channel);
            mc.channels.push_back(std::move(sc));
        }
    }
    return mc;
}

// Clusters -> joints, inverse binds and per-control-point rows. The stored positions are the
// mesh at bind (TransformLink x Transform of the first complete cluster, times the geometric
// transform), so that world(joint) x inverse_bind is the identity at bind, glTF's rule.
void Builder::skin_from(const Object& skin_obj, std::size_t n, int node, const Eigen::Matrix4d& geometric, const std::string& what, Skin& skin,
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

}  // namespace rigscope::fbx
