#include "rigscope/run/tension_gltf.h"

#include <algorithm>
#include <cmath>

#include "rigscope/core/error.h"
#include "rigscope/io/gltf_writer.h"
#include "rigscope/core/skin.h"
#include "rigscope/run/tension_run.h"

namespace rigscope {

void check_tension_gltf_path(const std::string& pattern, std::size_t frames, bool bake_max) {
    if (!bake_max && pattern.find('#') == std::string::npos && frames != 1)
        throw Error(kExitUsage, pattern + ": " + std::to_string(frames) +
                                    " frames selected but the name has no '#' (use out_####.glb for one file per frame, or --frames N)");
}

std::string frame_file_name(const std::string& pattern, const Frame& f) {
    const auto first = pattern.find('#');
    if (first == std::string::npos) return pattern;
    auto last = pattern.find_first_not_of('#', first);
    if (last == std::string::npos) last = pattern.size();
    std::string label = f.bind ? "bind" : std::to_string(f.number < 0 ? -f.number : f.number);
    if (!f.bind) {
        if (label.size() < last - first) label.insert(0, last - first - label.size(), '0');
        if (f.number < 0) label.insert(0, "-");
    }
    return pattern.substr(0, first) + label + pattern.substr(last);
}

void tension_colour(TensionColor color, float t, float compress, float stretch, float* rgb) {
    if (color == TensionColor::kMaps) {
        rgb[0] = compress;
        rgb[1] = stretch;
        rgb[2] = 0.0f;
        return;
    }
    // Stretch (T < 1) blue, compression (T > 1) red, T = 1 white.
    const double x = std::clamp(std::log2(std::max(static_cast<double>(t), 1e-30)), -1.0, 1.0);
    rgb[0] = static_cast<float>(x < 0 ? 1 + x : 1.0);
    rgb[1] = static_cast<float>(1 - std::abs(x));
    rgb[2] = static_cast<float>(x > 0 ? 1 - x : 1.0);
}

void tension_maps(const MeshTension& mt, const TensionRunInfo& run, std::vector<float>& compress, std::vector<float>& stretch) {
    const std::vector<float>& tc = mt.compress_t();
    const std::vector<float>& ts = mt.stretch_t();
    compress.resize(tc.size());
    stretch.resize(ts.size());
    const TensionRemap remap(run.range, run.params);
    remap.compress(tc.data(), tc.size(), compress.data());
    remap.stretch(ts.data(), ts.size(), stretch.data());
}

void FileVertexMaps::take(const MeshTension& mt, const TensionRunInfo& run, TensionColor color) {
    tension_maps(mt, run, welded_compress_, welded_stretch_);
    const auto& welded_of = mt.topo.welded_of;
    const std::size_t n = welded_of.size();
    t.resize(n), compress.resize(n), stretch.resize(n), rgb.resize(3 * n);
    for (std::size_t v = 0; v < n; ++v) {
        const std::uint32_t w = welded_of[v];
        t[v] = mt.t[w];
        compress[v] = welded_compress_[w];
        stretch[v] = welded_stretch_[w];
        tension_colour(color, t[v], compress[v], stretch[v], &rgb[3 * v]);
    }
}

namespace {

// A scene of static meshes at the given positions (world space), one root node each, carrying
// the colour and the three maps as vertex attributes.
void write_coloured(const Input& in, const std::vector<MeshTension>& meshes,
                    const std::vector<std::vector<Eigen::Vector3f>>& positions,
                    const std::vector<std::vector<float>>& t, const std::vector<std::vector<float>>& compress,
                    const std::vector<std::vector<float>>& stretch, TensionColor color, OutputFile& out,
                    const std::vector<std::vector<VertexAttribute>>& measure_attributes = {}) {
    Scene scene;
    scene.format = "glTF";
    scene.up_axis = in.scene.up_axis;  // positions stay in the file's axes; the writer turns them upright
    std::vector<MeshAttributes> extras;
    for (std::size_t m = 0; m < meshes.size(); ++m) {
        const Mesh& src = in.scene.meshes[meshes[m].mesh];
        Mesh mesh;
        mesh.name = src.name;
        mesh.positions = positions[m];
        mesh.face_offsets = src.face_offsets;
        mesh.face_indices = src.face_indices;
        mesh.node = static_cast<int>(scene.nodes.size());
        Node node;
        node.name = src.name;
        node.mesh = static_cast<int>(scene.meshes.size());
        scene.nodes.push_back(node);
        scene.meshes.push_back(std::move(mesh));

        // Every file copy of a welded vertex carries the welded vertex's values.
        const auto& welded_of = meshes[m].topo.welded_of;
        const std::size_t n = welded_of.size();
        VertexAttribute colour{"COLOR_0", 3, std::vector<float>(n * 3)};
        VertexAttribute tension{"_TENSION", 1, std::vector<float>(n)};
        VertexAttribute comp{"_COMPRESS", 1, std::vector<float>(n)};
        VertexAttribute str{"_STRETCH", 1, std::vector<float>(n)};
        for (std::size_t v = 0; v < n; ++v) {
            const std::uint32_t w = welded_of[v];
            tension_colour(color, t[m][w], compress[m][w], stretch[m][w], &colour.data[3 * v]);
            tension.data[v] = t[m][w];
            comp.data[v] = compress[m][w];
            str.data[v] = stretch[m][w];
        }
        extras.push_back(MeshAttributes{static_cast<int>(m), {colour, tension, comp, str}});
        if (m < measure_attributes.size())
            for (const VertexAttribute& a : measure_attributes[m]) extras.back().attributes.push_back(a);
    }
    write_glb(scene, extras, out);
}

// The measure's own values per file vertex (welded values on every copy): area _T_AREA;
// principal _LAMBDA_MAX, _LAMBDA_MIN and _COMPRESS_DIR (VEC3, unit or 0).
std::vector<VertexAttribute> measure_attributes(const MeshTension& mt, const std::vector<float>& t_area,
                                                const std::vector<float>& lmax, const std::vector<float>& lmin,
                                                const std::vector<float>& dir) {
    const auto& welded_of = mt.topo.welded_of;
    const std::size_t n = welded_of.size();
    std::vector<VertexAttribute> out;
    if (mt.measure.measure == Measure::area) {
        VertexAttribute a{"_T_AREA", 1, std::vector<float>(n)};
        for (std::size_t v = 0; v < n; ++v) a.data[v] = t_area[welded_of[v]];
        out.push_back(std::move(a));
    } else if (mt.measure.measure == Measure::principal) {
        VertexAttribute hi{"_LAMBDA_MAX", 1, std::vector<float>(n)}, lo{"_LAMBDA_MIN", 1, std::vector<float>(n)};
        VertexAttribute d{"_COMPRESS_DIR", 3, std::vector<float>(3 * n)};
        for (std::size_t v = 0; v < n; ++v) {
            const std::uint32_t w = welded_of[v];
            hi.data[v] = lmax[w];
            lo.data[v] = lmin[w];
            for (int k = 0; k < 3; ++k) d.data[3 * v + k] = dir[3 * w + k];
        }
        out.push_back(std::move(hi));
        out.push_back(std::move(lo));
        out.push_back(std::move(d));
    }
    return out;
}

}  // namespace

void write_tension_gltf(const Input& in, std::vector<MeshTension>& meshes, const TensionRunInfo& run, const std::string& pattern,
                        bool bake_max, TensionColor color, const FrameProgress& progress,
                        const std::function<void(std::size_t)>& each) {
    check_tension_gltf_path(pattern, in.frames.size(), bake_max);
    const std::size_t nm = meshes.size();
    std::vector<std::vector<Eigen::Vector3f>> positions(nm);
    std::vector<std::vector<float>> t(nm), compress(nm), stretch(nm);

    if (bake_max) {
        // The rest mesh (the reference) coloured by each vertex's worst compress and stretch.
        std::vector<std::vector<float>> max_c(nm), max_s(nm), t_at(nm);
        // The measure's extremes: T_area farthest from 1, highest lambda_max, lowest lambda_min
        // and the direction at the frame of that lowest lambda_min.
        std::vector<std::vector<float>> area_at(nm), hi_l(nm), lo_l(nm), lo_dir(nm);
        for (std::size_t m = 0; m < nm; ++m) {
            const std::size_t wn = meshes[m].topo.welded_count();
            max_c[m].assign(wn, 0.0f);
            max_s[m].assign(wn, 0.0f);
            t_at[m].assign(wn, 1.0f);
            area_at[m].assign(wn, 1.0f);
            hi_l[m].assign(wn, 1.0f);
            lo_l[m].assign(wn, 1.0f);
            lo_dir[m].assign(3 * wn, 0.0f);
        }
        bool first_frame = true;
        for_each_tension_frame(
            in, meshes, [&](std::size_t fi) {
            if (each) each(fi);
            for (std::size_t m = 0; m < nm; ++m) {
                const MeshTension& mt = meshes[m];
                for (std::size_t w = 0; w < mt.t_area.size(); ++w)
                    if (std::abs(std::log(mt.t_area[w])) > std::abs(std::log(area_at[m][w]))) area_at[m][w] = mt.t_area[w];
                for (std::size_t w = 0; w < mt.lambda_min.size(); ++w) {
                    if (first_frame || mt.lambda_max[w] > hi_l[m][w]) hi_l[m][w] = mt.lambda_max[w];
                    if (first_frame || mt.lambda_min[w] < lo_l[m][w]) {
                        lo_l[m][w] = mt.lambda_min[w];
                        std::copy_n(&mt.compress_dir[3 * w], 3, &lo_dir[m][3 * w]);
                    }
                }
                tension_maps(meshes[m], run, compress[m], stretch[m]);
                for (std::size_t w = 0; w < compress[m].size(); ++w) {
                    max_c[m][w] = std::max(max_c[m][w], compress[m][w]);
                    max_s[m][w] = std::max(max_s[m][w], stretch[m][w]);
                    // _TENSION keeps the T farthest from 1 (in log terms) for the same vertex.
                    if (std::abs(std::log(meshes[m].t[w])) > std::abs(std::log(t_at[m][w]))) t_at[m][w] = meshes[m].t[w];
                }
            }
            first_frame = false;
            },
            progress);
        Pose bind = bind_pose(in.scene);
        for (std::size_t m = 0; m < nm; ++m) deform_mesh(in.scene, meshes[m].mesh, bind, positions[m]);
        std::vector<std::vector<VertexAttribute>> attrs(nm);
        for (std::size_t m = 0; m < nm; ++m) attrs[m] = measure_attributes(meshes[m], area_at[m], hi_l[m], lo_l[m], lo_dir[m]);
        OutputFile out(pattern, in.paths);
        write_coloured(in, meshes, positions, t_at, max_c, max_s, color, out, attrs);
        out.commit();
        return;
    }

    OutputSet files(in.paths);
    for_each_tension_frame(
        in, meshes, [&](std::size_t fi) {
        if (each) each(fi);
        for (std::size_t m = 0; m < nm; ++m) {
            positions[m] = meshes[m].deformed;
            t[m] = meshes[m].t;
            tension_maps(meshes[m], run, compress[m], stretch[m]);
        }
        std::vector<std::vector<VertexAttribute>> attrs(nm);
        for (std::size_t m = 0; m < nm; ++m)
            attrs[m] = measure_attributes(meshes[m], meshes[m].t_area, meshes[m].lambda_max, meshes[m].lambda_min, meshes[m].compress_dir);
        OutputFile& out = files.open(frame_file_name(pattern, in.frames[fi]));
        write_coloured(in, meshes, positions, t, compress, stretch, color, out, attrs);
        out.finish();
        },
        progress);
    files.commit();
}

}  // namespace rigscope
