#include "rigscope/run/usd_output_run.h"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "rigscope/core/error.h"
#include "rigscope/run/run_budget.h"
#include "rigscope/run/tension_run.h"

namespace rigscope {

void check_usda_output(const InputOptions& input, const std::string& out) {
    if (!is_usd_path(input.file))
        throw Error(kExitUsage, "-o " + out + ": a .usda output is a layer of over-specs on a USD input's prims, and " + input.file +
                                    " is not USD (.usd, .usda, .usdc, .usdz); write .glb, .csv or .json");
    const char* option = !input.animation.empty() ? "--animation" : !input.cache.empty() ? "--cache" : input.rom ? "--rom"
                         : !input.rig.empty() ? "--rig" : !input.chunk.empty() ? "--chunk" : nullptr;
    if (option)
        throw Error(kExitUsage, std::string("-o ") + out + ": " + option +
                                    (std::string(option) == "--chunk"
                                         ? " writes part of a run for merge, which a .usda layer is not"
                                         : " poses the rig otherwise than the stage does, and the layer's values would not belong to the "
                                           "animation a USD viewer plays; write .glb, .csv or .json"));
}

void check_usda_budget(const Input& in, std::size_t numbers_per_vertex) {
    // The shortest text that reads back as the same float is at most 15 characters
    // ("-1.17549435e-38"), and ", " separates it from the next: 17 bytes a number at most.
    constexpr double kNumberBytes = 17;
    double vertices = 0;
    for (int m : in.meshes) vertices += double(in.scene.meshes[std::size_t(m)].vertex_count());
    check_job_budget(in, vertices * double(in.frames.size()) * double(numbers_per_vertex) * kNumberBytes, "the .usda layer's values",
                     "a layer holds every time sample until it is written: write fewer --frames or meshes (--mesh) per layer, or raise --max-memory");
}

namespace {

// The prim path, refused (exit 2) when it is not one: a mesh whose node chain does not name
// prims (the input is USD, so it always does; the check keeps a broken invariant from writing
// a layer that names nothing).
std::string prim_path_of(const Scene& scene, int mesh) {
    const std::string p = usd_prim_path(scene, mesh);
    if (p.size() < 2) throw internal_error("mesh " + scene.meshes[std::size_t(mesh)].name + " has no USD prim path");
    return p;
}

bool under(const std::string& path, const std::string& root) {
    return path.size() > root.size() && path.compare(0, root.size(), root) == 0 && path[root.size()] == '/';
}

}  // namespace

UsdaOutput::UsdaOutput(const Input& in, const std::string& input_file, const std::string& out, bool points)
    : in_(in), series_(in.meshes.size()), pose_(bind_pose(in.scene)) {
    const UsdStageFacts facts = read_usd_stage_facts(input_file, in.max_memory, in.allow_outside_uris);
    indexed_ = facts.indexed_primvars;
    layer_.sublayer = usd_relative_asset_path(input_file, out);
    layer_.default_prim = facts.default_prim;
    layer_.up_axis = in.scene.up_axis;
    layer_.meters_per_unit = in.scene.unit_scale;
    layer_.time_codes_per_second = in.scene.fps;
    if (in.has_clip && in.clip.has_take) layer_.time_code_range = {in.clip.take_start * in.scene.fps, in.clip.take_end * in.scene.fps};
    for (int m : in.meshes) prim_paths_.push_back(prim_path_of(in.scene, m));
    // USD ignores every opinion below an instance (its prims are the prototype's, shared): an
    // instanced character's outputs would be dropped without a word. The layer makes each
    // instance above a written prim an ordinary prim again (instanceable = false), which
    // composes the same prims where the overs reach them.
    const auto uninstance_above = [&](const std::string& path) {
        for (const std::string& inst : facts.instances)
            if ((path == inst || under(path, inst)) && std::find(uninstanced_.begin(), uninstanced_.end(), inst) == uninstanced_.end()) {
                // Its own layers' opinions below it, ignored while it is an instance, would apply
                // once it is not: the stage would change, so the run is refused instead.
                if (facts.instances_with_local_opinions.count(inst))
                    throw Error(kExitUsage, "-o " + out + ": " + path + " is below the instance " + inst +
                                                ", whose prims take no opinion of a stronger layer, and making it an ordinary prim would apply "
                                                "the opinions its own layers hold below it, which USD now ignores: write .csv, .json or .glb, or "
                                                "remove those opinions");
                uninstanced_.push_back(inst);
                spdlog::warn("-o {}: {} is an instance, whose prims take no opinion of a stronger layer; the layer makes it an ordinary prim "
                             "(instanceable = false) so that {} takes the outputs", out, inst, path);
            }
    };
    for (const std::string& path : prim_paths_) uninstance_above(path);
    if (!points) return;
    // The SkelRoots above the selected deformed meshes, whose every deformed mesh must be baked.
    auto deformed = [&](int m) { return in.scene.meshes[std::size_t(m)].skin >= 0 || !in.scene.meshes[std::size_t(m)].targets.empty(); };
    auto root_of = [&](const std::string& path) {
        std::string best;
        for (const std::string& r : facts.skel_roots)
            if (under(path, r) && r.size() > best.size()) best = r;
        return best;
    };
    for (std::size_t i = 0; i < in.meshes.size(); ++i) {
        if (!deformed(in.meshes[i])) continue;
        const std::string r = root_of(prim_paths_[i]);
        if (!r.empty() && std::find(retyped_.begin(), retyped_.end(), r) == retyped_.end()) retyped_.push_back(r);
    }
    for (const std::string& r : retyped_) uninstance_above(r);
    for (const std::string& p : facts.unread_skinned)
        for (const std::string& r : retyped_)
            if (under(p, r))
                throw Error(kExitUsage, "-o " + out + ": baking the points retypes SkelRoot " + r + " as an Xform (as UsdSkel.BakeSkinning does), and " +
                                            p + ", which UsdSkel skins there and rigscope does not read, would stop moving (tension without --bake-points keeps the skinning live; deform writes .csv or .json too)");
    for (std::size_t m = 0; m < in.scene.meshes.size(); ++m) {
        if (!deformed(int(m)) || std::find(in.meshes.begin(), in.meshes.end(), int(m)) != in.meshes.end()) continue;
        const std::string path = prim_path_of(in.scene, int(m));
        const std::string r = root_of(path);
        if (std::find(retyped_.begin(), retyped_.end(), r) != retyped_.end())
            throw Error(kExitUsage, "-o " + out + ": baking the points retypes SkelRoot " + r + " as an Xform (as UsdSkel.BakeSkinning does), and its mesh " +
                                        path + " is not selected, so it would stop moving: select it too (--mesh), or write tension without --bake-points");
    }
}

double UsdaOutput::time_code(std::size_t fi) const {
    // Frame n is at n / fps seconds, and a time code is tcps of a second: the frame number itself
    // at the file's own rate.
    const Frame& f = in_.frames[fi];
    return in_.fps == in_.scene.fps ? double(f.number) : double(f.number) * (in_.scene.fps / in_.fps);
}

void UsdaOutput::add(Series& s, std::size_t fi, std::string value) {
    if (in_.frames[fi].bind) {
        s.default_value = std::move(value);
        s.has_default = true;
    } else {
        s.samples[time_code(fi)] = std::move(value);  // a frame listed twice is one sample
    }
}

void UsdaOutput::primvars(std::size_t fi, std::size_t i, const std::vector<float>& t, const std::vector<float>& compress,
                          const std::vector<float>& stretch, const std::vector<float>& rgb) {
    auto& s = series_[i];
    std::string v;
    append_usda_array(v, t.data(), t.size(), 1);
    add(s["primvars:rigscope:tension"], fi, std::move(v));
    v.clear();
    append_usda_array(v, compress.data(), compress.size(), 1);
    add(s["primvars:rigscope:compress"], fi, std::move(v));
    v.clear();
    append_usda_array(v, stretch.data(), stretch.size(), 1);
    add(s["primvars:rigscope:stretch"], fi, std::move(v));
    v.clear();
    append_usda_array(v, rgb.data(), rgb.size() / 3, 3);
    add(s["primvars:displayColor"], fi, std::move(v));
}

void UsdaOutput::points(std::size_t fi, std::size_t i, const std::vector<Eigen::Vector3f>& world) {
    if (in_.frames[fi].bind) return;
    pose_at(in_, in_.frames[fi], pose_);
    const Mesh& mesh = in_.scene.meshes[std::size_t(in_.meshes[i])];
    // world = W p_local (W the mesh prim's world matrix in metres, as deform places the points),
    // and the stage holds p_local in its own units.
    const Eigen::Matrix4d to_local = mesh.node >= 0 ? Eigen::Matrix4d(pose_.world[std::size_t(mesh.node)].inverse()) : Eigen::Matrix4d::Identity();
    const double units = 1.0 / in_.scene.unit_scale;
    std::vector<float> local(3 * world.size());
    for (std::size_t v = 0; v < world.size(); ++v) {
        const Eigen::Vector3d p = (to_local * world[v].cast<double>().homogeneous()).head<3>() * units;
        for (int c = 0; c < 3; ++c) local[3 * v + std::size_t(c)] = float(p[c]);
    }
    std::string text;
    append_usda_array(text, local.data(), world.size(), 3);
    add(series_[i]["points"], fi, std::move(text));
}

void UsdaOutput::scalar(std::size_t fi, std::size_t i, const std::string& name, float value) {
    std::string v;
    append_number(v, value);
    add(series_[i][name], fi, std::move(v));
}

void UsdaOutput::write(OutputFile& out) const {
    UsdaLayer layer = layer_;
    for (const std::string& r : retyped_) layer.overs.push_back(UsdaOver{r, "Xform", {}, false});
    // The attributes in a fixed order: the three maps, the colour, then the points.
    static const std::pair<const char*, const char*> kOrder[] = {{"primvars:rigscope:tension", "float[]"},
                                                                 {"primvars:rigscope:compress", "float[]"},
                                                                 {"primvars:rigscope:stretch", "float[]"},
                                                                 {"primvars:displayColor", "color3f[]"},
                                                                 {"points", "point3f[]"}};
    for (std::size_t i = 0; i < series_.size(); ++i) {
        UsdaOver o{prim_paths_[i], "", {}, false};
        for (const auto& [name, type] : kOrder) {
            auto it = series_[i].find(name);
            if (it == series_[i].end() || (!it->second.has_default && it->second.samples.empty())) continue;
            UsdaAttribute a;
            a.type = type;
            a.name = name;
            if (std::string(name) != "points") a.interpolation = "vertex";
            if (it->second.has_default) a.default_value = it->second.default_value;
            a.samples.assign(it->second.samples.begin(), it->second.samples.end());
            o.attributes.push_back(std::move(a));
            // An index array the input authors would pick among the written values (a DCC's
            // constant colour is one value and an index per point): blocked, so the primvar
            // resolves to exactly the values written.
            if (auto ix = indexed_.find(prim_paths_[i]); ix != indexed_.end() && ix->second.count(name))
                o.attributes.push_back(UsdaAttribute{"int[]", std::string(name) + ":indices", "", std::string("None"), {}});
        }
        // Single floats (UsdaOutput::scalar), by name after the primvars.
        for (const auto& [name, series] : series_[i]) {
            if (name.rfind("rigscope:", 0) != 0) continue;
            UsdaAttribute a;
            a.type = "float";
            a.name = name;
            if (series.has_default) a.default_value = series.default_value;
            a.samples.assign(series.samples.begin(), series.samples.end());
            o.attributes.push_back(std::move(a));
        }
        layer.overs.push_back(std::move(o));
    }
    for (const std::string& inst : uninstanced_) {
        auto same = std::find_if(layer.overs.begin(), layer.overs.end(), [&](const UsdaOver& o) { return o.path == inst; });
        if (same == layer.overs.end()) layer.overs.push_back(UsdaOver{inst, "", {}, true});
        else same->uninstance = true;
    }
    write_usda_layer(layer, out);
}

void write_tension_usda(const Input& in, const std::string& input_file, std::vector<MeshTension>& meshes, const TensionRunInfo& run,
                        const std::string& out, bool bake_points, TensionColor color, const FrameProgress& progress) {
    // Per vertex T, compress, stretch and the colour's three, and the points' three when baked.
    check_usda_budget(in, bake_points ? 9 : 6);
    UsdaOutput usda(in, input_file, out, bake_points);
    OutputFile file(out, in.paths);
    FileVertexMaps maps;
    for_each_tension_frame(in, meshes, [&](std::size_t fi) {
        for (const MeshTension& mt : meshes) {
            const std::size_t i = std::size_t(std::find(in.meshes.begin(), in.meshes.end(), mt.mesh) - in.meshes.begin());
            if (i == in.meshes.size()) throw internal_error("tension of a mesh that is not selected");
            maps.take(mt, run, color);
            usda.primvars(fi, i, maps.t, maps.compress, maps.stretch, maps.rgb);
            if (bake_points) usda.points(fi, i, mt.deformed);
        }
    }, progress);
    usda.write(file);
    file.commit();
}

}  // namespace rigscope
