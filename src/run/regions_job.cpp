// The `regions` job: the regions --by names, the weighted mean of the map per frame and region,
// and the writer chosen by format (run/regions_job.h).
#include "rigscope/run/regions_job.h"

#include <cmath>
#include <filesystem>
#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>
#include <sstream>
#include <sys/stat.h>

#include "rigscope/core/error.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/region_sum.h"
#include "rigscope/core/simd.h"
#include "rigscope/core/tension.h"
#include "rigscope/io/gltf_writer.h"
#include "rigscope/io/json_keys.h"
#include "rigscope/io/json_writer.h"
#include "rigscope/io/image_input.h"
#include "rigscope/io/output.h"
#include "rigscope/run/check_job.h"
#include "rigscope/run/clip_select.h"
#include "rigscope/run/output_names.h"
#include "rigscope/run/run_budget.h"
#include "rigscope/run/usd_output_run.h"
#include "rigscope/run/output_formats.h"

namespace rigscope {

namespace {

// {name: [ids]} or {name: {"id": weight}} from the file after '@', on mesh `mesh` of `vertices`.
std::vector<Region> regions_from_file(const std::string& path, const Input& in, std::size_t mesh, std::size_t vertices) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) throw bad_input(path, "no such file (--by @FILE.json)");
    if (double(st.st_size) > double(in.max_memory ? in.max_memory : ~0ull) / 8)
        throw bad_input(path, "a region file of " + size_text(double(st.st_size)) + " is past the memory budget (--max-memory)");
    std::ifstream f(path);
    std::stringstream text;
    text << f.rdbuf();
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text.str());
    } catch (const std::exception& e) {
        throw bad_input(path, std::string("not JSON: ") + e.what());
    }
    if (!doc.is_object() || doc.empty()) throw bad_input(path, "expected {region: [vertex ids]} or {region: {\"id\": weight}}");
    std::vector<Region> out;
    auto id_of = [&](double x, const std::string& name) {
        if (!(x >= 0 && x < double(vertices) && x == std::floor(x)))
            throw bad_input(path, "region '" + name + "': vertex " + number_text(x) + " is not one of the mesh's " + std::to_string(vertices));
        return std::uint32_t(x);
    };
    for (auto it = doc.begin(); it != doc.end(); ++it) {
        Region r;
        r.mesh = mesh;
        r.name = it.key();
        if (it->is_array()) {
            for (const auto& v : *it) {
                if (!v.is_number()) throw bad_input(path, "region '" + r.name + "': a vertex id that is not a number");
                r.weights.push_back({id_of(v.get<double>(), r.name), 1.0f});
            }
        } else if (it->is_object()) {
            for (auto w = it->begin(); w != it->end(); ++w) {
                char* end = nullptr;
                const double id = std::strtod(w.key().c_str(), &end);
                if (w.key().empty() || *end) throw bad_input(path, "region '" + r.name + "': '" + w.key() + "' is not a vertex id");
                if (!w->is_number() || !std::isfinite(w->get<double>()) || w->get<double>() < 0)
                    throw bad_input(path, "region '" + r.name + "': vertex " + w.key() + "'s weight is not a number >= 0");
                if (w->get<double>() > 0) r.weights.push_back({id_of(id, r.name), float(w->get<double>())});
            }
        } else {
            throw bad_input(path, "region '" + r.name + "': expected a list of vertex ids or {\"id\": weight}");
        }
        for (const auto& w : r.weights) r.total += w.second;
        if (!(r.total > 0)) throw bad_input(path, "region '" + r.name + "' weights no vertex");
        out.push_back(std::move(r));
    }
    return out;
}

// A region's name as a USD property name's last part: letters, digits and '_' (others as '_'),
// not starting with a digit.
std::string usd_region_name(const std::string& name) {
    std::string s = name.empty() ? "_" : name;
    for (char& c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) && static_cast<unsigned char>(c) < 0x80) && c != '_') c = '_';
    if (std::isdigit(static_cast<unsigned char>(s[0]))) s.insert(0, "_");
    return s;
}

// The glTF output: the input scene with, per mesh that has regions, a morph target per region
// (zero deltas: the shape is unchanged, and the writer stores such a target with no data) named
// by the region in mesh.extras.targetNames, and a clip "rigscope_regions" whose weights channel
// on the mesh's node keys the curves, after the mesh's own targets at their default weights.
// Game engines import a glTF morph-weight animation as named blend-shape curves (Unity, Unreal,
// Godot, three.js), which is what a wrinkle-map material reads. The bind pose has no time: left out.
Scene regions_gltf_scene(const Input& in, const RegionsJobResult& r) {
    Scene scene = in.scene;
    std::vector<std::size_t> keys;  // frame indices, by time
    for (std::size_t fi = 0; fi < r.frames.size(); ++fi)
        if (!r.frames[fi].bind) keys.push_back(fi);
    if (keys.size() < r.frames.size()) spdlog::warn("regions --format gltf: the bind pose has no time on the timeline; left out of the curves");
    std::stable_sort(keys.begin(), keys.end(), [&](std::size_t a, std::size_t b) { return r.frames[a].time < r.frames[b].time; });
    keys.erase(std::unique(keys.begin(), keys.end(),
                           [&](std::size_t a, std::size_t b) { return float(r.frames[a].time) == float(r.frames[b].time); }),
               keys.end());
    if (keys.empty()) throw Error(kExitUsage, "regions --format gltf: no animation frame selected (the bind pose cannot be keyed)");
    Clip clip;
    clip.name = "rigscope_regions";
    clip.start = r.frames[keys.front()].time;
    clip.end = r.frames[keys.back()].time;
    for (std::size_t m = 0; m < in.meshes.size(); ++m) {
        std::vector<std::size_t> mine;
        for (std::size_t k = 0; k < r.regions.size(); ++k)
            if (r.regions[k].mesh == m) mine.push_back(k);
        if (mine.empty()) continue;
        Mesh& mesh = scene.meshes[std::size_t(in.meshes[m])];
        if (mesh.node < 0 || scene.nodes[std::size_t(mesh.node)].mesh != in.meshes[m]) {
            spdlog::warn("regions --format gltf: mesh '{}' is not its node's own mesh: its curves are not written", mesh.name);
            continue;
        }
        const std::vector<float> defaults = [&] {
            std::vector<float> d = mesh.default_weights;
            d.resize(mesh.targets.size(), 0.0f);
            return d;
        }();
        for (std::size_t k : mine) {
            mesh.targets.push_back(MorphTarget{r.regions[k].name, std::vector<Eigen::Vector3f>(mesh.vertex_count(), Eigen::Vector3f::Zero())});
            mesh.default_weights.resize(mesh.targets.size() - 1, 0.0f);
            mesh.default_weights.push_back(0.0f);
        }
        Channel ch;
        ch.node = mesh.node;
        ch.path = ChannelPath::Weights;
        ch.interpolation = Interpolation::Linear;
        ch.width = int(mesh.targets.size());
        for (std::size_t fi : keys) {
            ch.times.push_back(float(r.frames[fi].time));
            ch.values.insert(ch.values.end(), defaults.begin(), defaults.end());
            for (std::size_t k : mine) ch.values.push_back(float(r.values[fi][k]));
        }
        clip.channels.push_back(std::move(ch));
    }
    scene.clips.push_back(std::move(clip));
    return scene;
}

// --by DIR/PREFIX{region}SUFFIX.png: a region per file of that folder matching the pattern,
// named by what stands for {region}; on each selected mesh with UVs (its first set), a file
// vertex's weight is the mask at its UV: the UV of its first corner in face order, the pixel whose
// square holds it (rows in the file's convention, as bake's images: glTF row 0 is v = 0, others
// v = 1), 0 outside the image or for a vertex of no face.
// The region names of a mask pattern (what stands for {region} in each matching file), sorted,
// with the folder, prefix and suffix around them.
struct MaskFiles {
    std::string dir, prefix, suffix;
    std::vector<std::string> names;
    std::string path(const std::string& name, bool bare) const { return (bare ? "" : dir + "/") + prefix + name + suffix; }
    bool bare = false;  // a pattern without a folder: files named as found
};

MaskFiles mask_files(const std::string& pattern) {
    MaskFiles m;
    const auto slash = pattern.find_last_of('/');
    m.bare = slash == std::string::npos;
    m.dir = slash == std::string::npos ? "." : pattern.substr(0, slash == 0 ? 1 : slash);
    const std::string base = slash == std::string::npos ? pattern : pattern.substr(slash + 1);
    const auto key = base.find("{region}");
    if (key == std::string::npos || base.find("{region}", key + 1) != std::string::npos)
        throw Error(kExitUsage, "--by " + pattern + ": a mask pattern has {region} once, in the file name (masks/{region}.png)");
    m.prefix = base.substr(0, key);
    m.suffix = base.substr(key + 8);
    const std::string& dir = m.dir;
    const std::string& prefix = m.prefix;
    const std::string& suffix = m.suffix;
    std::vector<std::string>& names = m.names;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        const std::string n = entry.path().filename().string();
        if (n.size() > prefix.size() + suffix.size() && n.compare(0, prefix.size(), prefix) == 0 &&
            n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0 && entry.is_regular_file(ec))
            names.push_back(n.substr(prefix.size(), n.size() - prefix.size() - suffix.size()));
    }
    if (ec) throw Error(kExitUsage, "--by " + pattern + ": cannot list the folder '" + dir + "' (" + ec.message() + ")");
    if (names.empty()) throw Error(kExitUsage, "--by " + pattern + ": no file in '" + dir + "' matches " + base);
    std::sort(names.begin(), names.end());
    return m;
}

std::vector<Region> regions_from_masks(const std::string& pattern, const Input& in, const std::string& file) {
    const MaskFiles files = mask_files(pattern);
    // Each vertex's UV: its first corner's.
    std::vector<std::vector<Eigen::Vector2f>> uvs(in.meshes.size());
    for (std::size_t m = 0; m < in.meshes.size(); ++m) {
        const Mesh& mesh = in.scene.meshes[std::size_t(in.meshes[m])];
        if (mesh.uv_sets.empty()) {
            spdlog::warn("{}: mesh '{}' has no UVs: no mask region on it", file, mesh.name);
            continue;
        }
        const UvSet& set = mesh.uv_sets.front();
        uvs[m].assign(mesh.vertex_count(), Eigen::Vector2f(std::nanf(""), std::nanf("")));
        for (std::size_t c = mesh.face_indices.size(); c-- > 0;) uvs[m][mesh.face_indices[c]] = set.uv[set.corners[c]];
    }
    std::vector<Region> out;
    for (const std::string& name : files.names) {
        const std::string path = files.path(name, files.bare);
        const GreyImage mask = read_png_grey(path, in.max_memory ? in.max_memory : ~std::uint64_t(0));
        for (std::size_t m = 0; m < in.meshes.size(); ++m) {
            if (uvs[m].empty()) continue;
            const bool v_down = in.scene.meshes[std::size_t(in.meshes[m])].uv_v_down;
            Region r;
            r.mesh = m;
            r.name = name;
            for (std::size_t v = 0; v < uvs[m].size(); ++v) {
                const double u = uvs[m][v].x(), vv = uvs[m][v].y();
                const double x = std::floor(u * mask.width), y = std::floor((v_down ? vv : 1.0 - vv) * mask.height);
                if (!(x >= 0 && x < mask.width && y >= 0 && y < mask.height)) continue;  // NaN too
                const float w = mask.values[std::size_t(y) * std::size_t(mask.width) + std::size_t(x)];
                if (w > 0) r.weights.push_back({std::uint32_t(v), w});
            }
            for (const auto& w : r.weights) r.total += w.second;
            if (r.total > 0) out.push_back(std::move(r));  // a mask that weights nothing on a mesh has no row
        }
    }
    return out;
}

}  // namespace

std::vector<std::string> region_files(const std::string& by) {
    if (!by.empty() && by[0] == '@') return {by.substr(1)};
    if (by == "joints") return {};
    const MaskFiles m = mask_files(by);
    std::vector<std::string> out;
    for (const std::string& name : m.names) out.push_back(m.path(name, m.bare));
    return out;
}

void RegionsJobOptions::validate() const {
    check_tension_options(tension);
    if (tension.input.clip == kAllClips)
        throw Error(kExitUsage, "regions evaluates one clip: name it with --clip NAME (--clip all is check's, tension's, report's and rivet's)");
    if (map != "compress" && map != "stretch" && map != "tension") throw Error(kExitUsage, "--map is compress, stretch or tension, not " + map);
    if (by != "joints" && (by.size() < 2 || by[0] != '@') && by.find("{region}") == std::string::npos)
        throw Error(kExitUsage, "--by is joints, @FILE.json ({region: [vertex ids]}) or masks/{region}.png, not " + by);
    const std::string f = verb_output_format("regions", format, out);
    check_verb_format("regions", f);
    if (!out.empty()) refuse_other_format_extension("-o", out, f == "usda" ? "usd" : f);
    if (f == "usda") check_usda_output(tension.input, out);
    if (f == "gltf" && (out.empty() || is_stdout_path(out)))
        throw Error(kExitUsage, "regions --format gltf needs -o FILE.glb (binary output does not go to a terminal)");
    if (f == "gltf" && out.size() >= 5 && (out.substr(out.size() - 5) == ".gltf" || out.substr(out.size() - 5) == ".GLTF"))
        throw Error(kExitUsage, out + ": regions writes binary glTF: name the file .glb");
}

std::vector<Region> resolve_regions(const RegionsJobOptions& opt, const Input& in) {
    std::vector<Region> out;
    if (opt.by.find("{region}") != std::string::npos && opt.by[0] != '@') return regions_from_masks(opt.by, in, opt.tension.input.file);
    if (opt.by != "joints") {
        if (in.meshes.size() != 1)
            throw Error(kExitUsage, "--by " + opt.by + " names vertex ids of one mesh: " + std::to_string(in.meshes.size()) +
                                        " meshes are selected (choose one with --mesh)");
        return regions_from_file(opt.by.substr(1), in, 0, in.scene.meshes[std::size_t(in.meshes[0])].vertex_count());
    }
    for (std::size_t m = 0; m < in.meshes.size(); ++m) {
        const Mesh& mesh = in.scene.meshes[std::size_t(in.meshes[m])];
        if (mesh.skin < 0 || mesh.influences.empty()) {
            spdlog::warn("{}: mesh '{}' has no skin: no joint regions", opt.tension.input.file, mesh.name);
            continue;
        }
        const Skin& skin = in.scene.skins[std::size_t(mesh.skin)];
        std::vector<Region> joints(skin.joints.size());
        for (std::size_t j = 0; j < joints.size(); ++j) {
            joints[j].mesh = m;
            joints[j].name = in.scene.nodes[std::size_t(skin.joints[j])].name;
        }
        const Influences& inf = mesh.influences;
        for (std::size_t v = 0; v < inf.vertex_count(); ++v)
            for (std::uint32_t k = inf.offsets[v]; k < inf.offsets[v + 1]; ++k)
                if (inf.weights[k] > 0) joints[inf.joints[k]].weights.push_back({std::uint32_t(v), inf.weights[k]});
        // A joint that weights nothing has no region (no row).
        for (Region& r : joints) {
            for (const auto& w : r.weights) r.total += w.second;
            if (r.total > 0) out.push_back(std::move(r));
        }
    }
    return out;
}

RegionsJobResult run_regions(const RegionsJobOptions& opt, Input& in, const FrameProgress& progress) {
    opt.validate();  // every entry, not only the CLI's: Python and check call run_x directly
    require_meshes(in, opt.tension.input.file, "measure");
    if (opt.by != "joints" && opt.by[0] == '@') in.paths.push_back(ReadFile(opt.by.substr(1), "--by"));
    if (!opt.out.empty()) refuse_outputs_over_inputs(in, {opt.out});
    RegionsJobResult r;
    r.regions = resolve_regions(opt, in);
    if (r.regions.empty()) throw bad_input(opt.tension.input.file, "no region to measure: no selected mesh has a skin joint that weights a vertex");
    for (int m : in.meshes) r.mesh_names.push_back(in.scene.meshes[std::size_t(m)].name);
    r.frames = in.frames;
    std::vector<MeshTension> meshes = prepare_tension(in, opt.tension);
    const TensionRunInfo run = describe_run(in, opt.tension);
    const TensionRemap remap(run.range, run.params);
    r.values.reserve(in.frames.size());
    // Each region's welded vertices (the maps are per welded vertex) beside its weights, in the
    // region's order, found once: a frame then reads no file-to-welded table. The sum runs in
    // that order, which fixes its bits.
    struct Gather {
        std::vector<std::uint32_t> welded;
        std::vector<float> weights;
    };
    std::vector<Gather> gathers(r.regions.size());
    for (std::size_t k = 0; k < r.regions.size(); ++k) {
        const std::vector<std::uint32_t>& welded_of = meshes[r.regions[k].mesh].topo.welded_of;
        Gather& g = gathers[k];
        g.welded.reserve(r.regions[k].weights.size());
        g.weights.reserve(r.regions[k].weights.size());
        for (const auto& [v, w] : r.regions[k].weights) {
            g.welded.push_back(welded_of[v]);
            g.weights.push_back(w);
        }
    }
    const RegionMap kind = opt.map == "compress" ? RegionMap::Compress : opt.map == "stretch" ? RegionMap::Stretch : RegionMap::T;
    // Per frame: each region's weighted sum straight from the frame's T (region_sum), a region
    // per task. No map-sized array is written each frame, and the T map is read in place. The
    // sums run on the pool that evaluated the frame.
    const bool avx2 = avx2_default();
    for_each_tension_frame_on_pool(
        in, meshes,
        [&](std::size_t, ThreadPool& pool) {
            std::vector<double> row(r.regions.size());
            run_tasks(&pool, r.regions.size(), [&](std::size_t k) {
                const MeshTension& mt = meshes[r.regions[k].mesh];
                const float* t = (kind == RegionMap::Compress ? mt.compress_t() : kind == RegionMap::Stretch ? mt.stretch_t() : mt.t).data();
                const Gather& g = gathers[k];
                row[k] = region_sum(remap, kind, t, g.welded.data(), g.weights.data(), g.welded.size(), avx2) / r.regions[k].total;
            });
            r.values.push_back(std::move(row));
        },
        progress);
    return r;
}

RegionsJobResult load_and_run_regions(const RegionsJobOptions& opt, const FrameProgress& progress) {
    opt.validate();
    // As glTF, the input's scene is written back with every mesh in it.
    InputOptions input = opt.tension.input;
    input.read_every_mesh = verb_output_format("regions", opt.format, opt.out) == "gltf";
    Input in = load_input(input);
    RegionsJobResult r = run_regions(opt, in, progress);
    if (!opt.out.empty()) {
        OutputFile out(opt.out, in.paths);
        write_regions_output(opt, in, r, out);
        out.commit();
    }
    return r;
}

void write_regions_output(const RegionsJobOptions& opt, const Input& in, const RegionsJobResult& r, OutputFile& out) {
    const std::string f = verb_output_format("regions", opt.format, opt.out);
    if (f == "csv") {
        std::string& s = out.buffer();
        s += "frame,mesh,region,value\n";
        for (std::size_t fi = 0; fi < r.frames.size(); ++fi)
            for (std::size_t k = 0; k < r.regions.size(); ++k) {
                append_frame(s, r.frames[fi], false);
                s += ',';
                append_csv_field(s, r.mesh_names[r.regions[k].mesh]);
                s += ',';
                append_csv_field(s, r.regions[k].name);
                s += ',';
                append_number(s, r.values[fi][k]);
                s += '\n';
            }
        return;
    }
    if (f == "json") {
        // The JSON every verb writes (its header, compact): merge joins chunks' frames and each
        // region's values into the single run's bytes.
        JsonWriter w(out.buffer());
        w.begin_object();
        write_json_header(w, "regions", opt.tension.input.file);
        w.member("map", opt.map).key(json_keys::frames).begin_array();
        for (const Frame& frame : r.frames) w.frame(frame);
        w.end_array().key(json_keys::regions).begin_array();
        for (std::size_t k = 0; k < r.regions.size(); ++k) {
            const Region& reg = r.regions[k];
            w.begin_object().member(json_keys::mesh, r.mesh_names[reg.mesh]).member("region", reg.name);
            w.member(json_keys::vertices, static_cast<unsigned long>(reg.weights.size())).key(json_keys::values).begin_array();
            for (std::size_t fi = 0; fi < r.frames.size(); ++fi) w.value(r.values[fi][k]);
            w.end_array().end_object();
        }
        w.end_array().end_object();
        out.buffer() += '\n';
        return;
    }
    if (f == "gltf") {
        double targets = 0;  // the regions' zero-delta targets, held in the scene's copy until written
        for (const Region& reg : r.regions) targets += 12.0 * double(in.scene.meshes[std::size_t(in.meshes[reg.mesh])].vertex_count());
        check_job_budget(in, targets, "regions' glTF morph targets", "write CSV, JSON or USD, or raise --max-memory");
        write_glb(regions_gltf_scene(in, r), {}, out);
        return;
    }
    std::map<std::pair<std::size_t, std::string>, std::string> names;  // (mesh, USD name) -> region
    for (const Region& reg : r.regions) {
        const auto [it, fresh] = names.emplace(std::make_pair(reg.mesh, usd_region_name(reg.name)), reg.name);
        if (!fresh)
            throw Error(kExitUsage, "regions '" + it->second + "' and '" + reg.name + "' would both be the USD attribute rigscope:region:" +
                                        it->first.second + ": rename one (or write CSV or JSON)");
    }
    UsdaOutput usda(in, opt.tension.input.file, opt.out, false);
    for (std::size_t fi = 0; fi < r.frames.size(); ++fi)
        for (std::size_t k = 0; k < r.regions.size(); ++k)
            usda.scalar(fi, r.regions[k].mesh, "rigscope:region:" + usd_region_name(r.regions[k].name), float(r.values[fi][k]));
    usda.write(out);
}

}  // namespace rigscope
