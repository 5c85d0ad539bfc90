#include "rigscope/io/diff_output.h"

#include <algorithm>
#include <stdexcept>

#include "rigscope/core/error.h"
#include "rigscope/io/gltf_writer.h"

namespace rigscope {

void write_diff_csv(const DiffResult& r, OutputFile& out) {
    std::string& b = out.buffer();
    b += "frame,time,mesh,vertex,new_vertex,displacement,relative,t_change\n";
    for (std::size_t fi = 0; fi < r.frames.size(); ++fi) {
        const Frame& f = r.frames[fi];
        for (std::size_t i = 0; i < r.meshes.size(); ++i) {
            const DiffMeshResult& m = r.meshes[i];
            const double diagonal = r.extremes[i].diagonal;
            std::string prefix;
            append_frame(prefix, f, false);
            prefix += ',';
            append_number(prefix, f.time);
            prefix += ',';
            append_csv_field(prefix, m.name);
            prefix += ',';
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
                b += '\n';
                out.maybe_flush();
            }
        }
    }
}

void write_diff_json(const DiffResult& r, OutputFile& out) {
    std::string& b = out.buffer();
    b += "{\"command\":\"diff\",\"version\":";
    append_json_string(b, r.version);
    b += ",\"old\":";
    append_json_string(b, r.old_file);
    b += ",\"new\":";
    append_json_string(b, r.new_file);
    b += ",\"match\":";
    append_json_string(b, r.match);
    b += ",\"frame_offset\":";
    append_number(b, r.frame_offset);
    b += ",\"clip\":";
    if (r.has_clip) append_json_string(b, r.clip);
    else b += "null";
    b += ",\"fps\":";
    append_number(b, r.fps);
    b += ",\"meshes\":[";
    for (std::size_t i = 0; i < r.meshes.size(); ++i) {
        b += i ? ",{\"name\":" : "{\"name\":";
        append_json_string(b, r.meshes[i].name);
        b += ",\"new_name\":";
        append_json_string(b, r.meshes[i].new_name);
        b += ",\"vertices\":";
        append_number(b, static_cast<unsigned long>(r.meshes[i].vertex.size()));
        b += ",\"diagonal\":";
        append_number(b, r.extremes[i].diagonal);
        b += '}';
    }
    b += "],\"frames\":[";
    const auto name = [&](std::uint32_t mesh) { return r.extremes.empty() ? std::string() : r.extremes[mesh].name; };
    for (std::size_t fi = 0; fi < r.frame_maxima.size(); ++fi) {
        const DiffFrame& df = r.frame_maxima[fi];
        b += fi ? ",{\"frame\":" : "{\"frame\":";
        append_frame(b, df.frame, true);
        b += ",\"time\":";
        append_number(b, df.frame.time);
        b += ",\"max_displacement\":";
        append_number(b, df.displacement);
        b += ",\"mesh\":";
        append_json_string(b, name(df.mesh));
        b += ",\"vertex\":";
        append_number(b, df.vertex);
        b += ",\"max_t_change\":";
        append_number(b, df.t_change);
        b += ",\"t_mesh\":";
        append_json_string(b, name(df.t_mesh));
        b += ",\"t_vertex\":";
        append_number(b, df.t_vertex);
        b += '}';
        out.maybe_flush();
    }
    b += "],\"summary\":" + diff_summary_json(r.limits, r.extremes, r.frame_maxima) + "}\n";
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
