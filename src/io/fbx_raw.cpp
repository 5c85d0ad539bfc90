#include "io/fbx_raw.h"

#include <cmath>
#include <unordered_map>

#include "io/fbx_records.h"

namespace rigscope::fbx {

RawFbx read_raw_fbx(const std::string& path, std::uint64_t max_memory) {
    RawFbx out;
    try {
        const RecordFile file = read_records(path, max_memory);
        if (!file.binary) {
            out.ascii = true;
            out.problem = "not a binary FBX (ASCII FBX is read by Assimp only)";
            return out;
        }
        const std::vector<Record>& top = file.top;

        const Record* objects = nullptr;
        const Record* connections = nullptr;
        for (const Record& r : top) {
            if (r.name == "Objects") objects = &r;
            if (r.name == "Connections") connections = &r;
        }
        if (!objects || !connections) throw Malformed("no Objects or Connections section");

        struct Obj {
            const Record* rec;
            std::string kind, cls, name;
        };
        std::unordered_map<std::int64_t, Obj> objs;
        for (const Record& r : objects->children)
            if (r.props.size() >= 2 && r.props[0].type == 'L' && r.props[1].type == 'S')
                objs[r.props[0].integer] = Obj{&r, r.name, object_class(r), object_name(r.props[1])};

        std::unordered_multimap<std::int64_t, std::int64_t> src_to_dst, dst_to_src;
        for (const Record& c : connections->children) {
            if (c.name != "C" || c.props.size() < 3 || c.props[0].type != 'S' || c.props[0].str() != "OO") continue;
            src_to_dst.emplace(c.props[1].integer, c.props[2].integer);
            dst_to_src.emplace(c.props[2].integer, c.props[1].integer);
        }
        auto is = [&](std::int64_t id, const char* kind, const char* cls) {
            auto it = objs.find(id);
            return it != objs.end() && it->second.kind == kind && (!cls || it->second.cls == cls);
        };

        for (const auto& [id, o] : objs) {
            if (o.kind == "Deformer" && o.cls == "Cluster") {
                RawCluster cl;
                cl.has_transform = matrix_of(o.rec->child("Transform"), max_memory, cl.transform);
                cl.has_link = matrix_of(o.rec->child("TransformLink"), max_memory, cl.transform_link);
                auto bones = dst_to_src.equal_range(id);
                for (auto b = bones.first; b != bones.second; ++b)
                    if (is(b->second, "Model", nullptr)) cl.bone = objs[b->second].name;
                auto skins = src_to_dst.equal_range(id);
                for (auto s = skins.first; s != skins.second; ++s) {
                    if (!is(s->second, "Deformer", "Skin")) continue;
                    auto geos = src_to_dst.equal_range(s->second);
                    for (auto g = geos.first; g != geos.second; ++g) {
                        if (!is(g->second, "Geometry", nullptr)) continue;
                        auto models = src_to_dst.equal_range(g->second);
                        for (auto m = models.first; m != models.second; ++m)
                            if (is(m->second, "Model", nullptr)) cl.meshes.push_back(objs[m->second].name);
                    }
                }
                if (!cl.bone.empty()) out.clusters.push_back(std::move(cl));
            } else if (o.kind == "Pose" && o.cls == "BindPose") {
                for (const Record& pn : o.rec->children) {
                    if (pn.name != "PoseNode") continue;
                    const Record* node = pn.child("Node");
                    Eigen::Matrix4d m;
                    if (!node || node->props.empty() || !matrix_of(pn.child("Matrix"), max_memory, m)) continue;
                    auto it = objs.find(node->props[0].integer);
                    if (it != objs.end() && it->second.kind == "Model") out.bind_pose[it->second.name] = m;
                }
            } else if (o.kind == "AnimationCurve") {
                const Record* values = o.rec->child("KeyValueFloat");
                if (!values || values->props.empty()) continue;
                std::vector<double> v;
                try {
                    v = as_doubles(values->props[0], max_memory);
                } catch (const Malformed&) {
                    continue;  // Assimp reads the array itself and refuses it
                }
                for (std::size_t k = 0; k < v.size(); ++k) {
                    if (!std::isfinite(v[k])) {
                        if (out.nonfinite_curve.empty()) out.nonfinite_curve = o.name.empty() ? "id " + std::to_string(id) : "'" + o.name + "'";
                        break;
                    }
                    // Counted in doubles: a jump of 1e300 degrees must not overflow the count.
                    const double split = k ? std::ceil(std::fabs(v[k] - v[k - 1]) / 180.0) : 1.0;
                    out.split_keys += split > 1e15 ? std::uint64_t(1e15) : std::uint64_t(split);
                }
            } else if (o.kind == "Deformer" && o.cls == "BlendShapeChannel") {
                RawShapeChannel ch;
                ch.name = o.name;
                if (const Record* dp = o.rec->child("DeformPercent"); dp && !dp->props.empty())
                    ch.deform_percent = dp->props[0].number;
                if (const Record* p70 = o.rec->child("Properties70"))
                    for (const Record& p : p70->children)
                        if (p.props.size() >= 5 && p.props[0].type == 'S' && p.props[0].str() == "DeformPercent")
                            ch.deform_percent = p.props[4].number;
                auto shapes = dst_to_src.equal_range(id);
                for (auto s = shapes.first; s != shapes.second; ++s)
                    if (is(s->second, "Geometry", "Shape")) out.shape_channels[objs[s->second].name] = ch;
            }
        }
        out.parsed = true;
    } catch (const Malformed& e) {
        out = RawFbx{};
        out.problem = e.what();
    } catch (const std::bad_alloc&) {
        out = RawFbx{};
        out.problem = "out of memory";
    }
    return out;
}

}  // namespace rigscope::fbx
