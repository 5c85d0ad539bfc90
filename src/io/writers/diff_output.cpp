#include "rigscope/io/diff_output.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "rigscope/core/error.h"
#include "rigscope/io/gltf_writer.h"
#include "rigscope/io/json_keys.h"
#include "rigscope/io/json_writer.h"

namespace rigscope {

void write_diff_csv(const DiffResult& r, OutputFile& out) {
    std::string& b = out.buffer();
    b += "frame,time,mesh,vertex,new_vertex,displacement,relative,t_change,seam_vertex,seam_gap\n";
    // Per mesh, the torn seam (index into m.torn) whose second vertex each compared vertex is.
    std::vector<std::vector<std::int64_t>> seam_of(r.meshes.size());
    for (std::size_t i = 0; i < r.meshes.size(); ++i) {
        const DiffMeshResult& m = r.meshes[i];
        seam_of[i].assign(m.vertex.size(), -1);
        for (std::size_t s = 0; s < m.torn.size(); ++s)
            if (m.torn[s].second < m.vertex.size()) seam_of[i][m.torn[s].second] = static_cast<std::int64_t>(s);
    }
    for (std::size_t fi = 0; fi < r.frames.size(); ++fi) {
        const Frame& f = r.frames[fi];
        for (std::size_t i = 0; i < r.meshes.size(); ++i) {
            const DiffMeshResult& m = r.meshes[i];
            const double diagonal = r.extremes[i].diagonal;
            std::string prefix;
            append_csv_row_prefix(prefix, f, m.name);
            const std::size_t n = m.vertex.size();
            for (std::size_t c = 0; c < n; ++c) {
                const float disp = m.displacement[fi * n + c];
                b += prefix;
                append_number(b, static_cast<unsigned long>(m.vertex[c]));
                b += ',';
                append_number(b, static_cast<unsigned long>(m.new_vertex[c]));
                b += ',';
                append_number(b, disp);
                b += ',';
                append_number(b, diagonal > 0 ? disp / diagonal : 0.0);
                b += ',';
                append_number(b, m.t_change[fi * n + c]);
                b += ',';
                if (const std::int64_t s = seam_of[i][c]; s >= 0) {
                    append_number(b, static_cast<unsigned long>(m.torn[s].first));
                    b += ',';
                    append_number(b, m.torn_gap[fi * m.torn.size() + static_cast<std::size_t>(s)]);
                } else {
                    b += ',';
                }
                b += '\n';
                out.maybe_flush();
            }
        }
    }
}

void write_diff_json(const DiffResult& r, OutputFile& out) {
    namespace k = json_keys;
    JsonWriter w(out.buffer());
    w.begin_object();
    write_json_header(w, "diff", r.old_file, r.new_file);
    w.member("match", r.match).member("frame_offset", r.frame_offset).member_or_null("clip", r.has_clip, r.clip).member("fps", r.fps);
    w.key(k::meshes).begin_array();
    for (std::size_t i = 0; i < r.meshes.size(); ++i) {
        w.begin_object().member(k::name, r.meshes[i].name).member("new_name", r.meshes[i].new_name);
        w.member(k::vertices, static_cast<unsigned long>(r.meshes[i].vertex.size())).member("diagonal", r.extremes[i].diagonal).end_object();
    }
    w.end_array().key(k::frames).begin_array();
    const auto name = [&](std::uint32_t mesh) { return r.extremes.empty() ? std::string() : r.extremes[mesh].name; };
    for (const DiffFrame& df : r.frame_maxima) {
        w.begin_object().key(k::frame).frame(df.frame).member(k::time, df.frame.time).member("max_displacement", df.displacement);
        w.member(k::mesh, name(df.mesh)).member(k::vertex, df.vertex).member("max_t_change", df.t_change);
        w.member("t_mesh", name(df.t_mesh)).member("t_vertex", df.t_vertex).end_object();
        out.maybe_flush();
    }
    w.end_array().key(k::summary).raw(diff_summary_json(r.limits, r.extremes, r.frame_maxima)).end_object();
    out.buffer() += '\n';
}

void write_diff_gltf(const DiffResult& r, OutputFile& out) {
    float top = 0;
    for (const DiffMesh& d : r.extremes)
        for (float x : d.displacement) top = std::max(top, x);
    std::vector<MeshAttributes> extra;
    for (std::size_t i = 0; i < r.meshes.size(); ++i) {
        const DiffMeshResult& m = r.meshes[i];
        const std::size_t n = m.compared_of_new.size();
        MeshAttributes a{m.new_mesh, {{"_DISPLACEMENT", 1, std::vector<float>(n, 0.0f)}, {"COLOR_0", 3, std::vector<float>(3 * n, 1.0f)}}};
        for (std::size_t w = 0; w < n; ++w) {
            const float x = r.extremes[i].displacement[m.compared_of_new[w]];
            a.attributes[0].data[w] = x;
            const float u = top > 0 ? x / top : 0.0f;
            a.attributes[1].data[3 * w + 1] = 1.0f - u;
            a.attributes[1].data[3 * w + 2] = 1.0f - u;
        }
        extra.push_back(std::move(a));
    }
    // The writer checks the scene it copies and names its source (NEW) for what it refuses: the
    // attributes added here are finite and sized by NEW's meshes. A GLB past 4 GiB is exit 4.
    write_glb(r.new_scene, extra, out);
}

}  // namespace rigscope
