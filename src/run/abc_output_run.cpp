// Alembic outputs of deform and tension (run/abc_output_run.h).
#include "rigscope/run/abc_output_run.h"

#include "rigscope/core/error.h"
#include "rigscope/io/alembic_output.h"
#include "rigscope/run/deform_engine.h"
#include "rigscope/run/run_budget.h"
#include "rigscope/run/tension_run.h"

namespace rigscope {

namespace {

AlembicMeshOut mesh_out(const Mesh& m) {
    AlembicMeshOut o;
    o.name = m.name;
    o.points = m.vertex_count();
    o.face_offsets = &m.face_offsets;
    o.face_indices = &m.face_indices;
    if (!m.uv_sets.empty()) {
        const UvSet& set = m.uv_sets.front();
        o.uv_values = set.uv;
        // glTF's v runs down from the image's top, Alembic's up: 1 - v, as Blender's importers do.
        if (m.uv_v_down)
            for (Eigen::Vector2f& uv : o.uv_values) uv.y() = 1.0f - uv.y();
        o.uv_corners = set.corners;
    }
    if (!m.normals.empty()) {
        o.rest_positions = &m.positions;
        o.rest_normals = &m.normals;
    }
    return o;
}

AlembicOptions options(const Input& in, bool maps, const std::string& verb) {
    AlembicOptions o;
    // A frame's time is its number over the run's rate; the bind pose (no animation) stands at 0.
    for (const Frame& f : in.frames) o.times.push_back(f.bind ? 0.0 : f.time);
    o.fps = in.fps;
    o.maps = maps;
    o.up_axis = in.scene.up_axis;
    o.application = std::string("rigscope ") + RIGSCOPE_VERSION;
    o.description = "rigscope " + verb;
    return o;
}

}  // namespace

void check_abc_output(const std::string& out, const char* verb) {
    if (out.empty() || is_stdout_path(out))
        throw Error(kExitUsage, std::string(verb) + " writes Alembic to a file: give -o FILE.abc (an archive's header is finished last, "
                                                    "which a stream cannot take back)");
}

void write_deform_abc(const Input& in, const std::string& out, double max_output_mb, const FrameProgress& progress) {
    std::vector<AlembicMeshOut> meshes;
    for (int m : in.meshes) meshes.push_back(mesh_out(in.scene.meshes[m]));
    check_output_size(out, alembic_output_min_bytes(meshes, false), max_output_mb);
    OutputFile file(out, in.paths);
    AlembicWriter abc(file, meshes, options(in, false, "deform"));
    // World space in the file's axes: the writer turns them onto Alembic's +Y.
    DeformEngine deform(in);
    deform.for_each_frame([&](std::size_t) {
        for (std::size_t i = 0; i < in.meshes.size(); ++i) abc.points(i, deform.positions(i));
    }, progress);
    abc.close();
    file.commit();
}

void write_tension_abc(const Input& in, std::vector<MeshTension>& meshes, const TensionRunInfo& run, const std::string& out,
                       TensionColor color, double max_output_mb, const FrameProgress& progress,
                       const std::function<void(std::size_t)>& each) {
    std::vector<AlembicMeshOut> outs;
    for (const MeshTension& mt : meshes) outs.push_back(mesh_out(in.scene.meshes[mt.mesh]));
    check_output_size(out, alembic_output_min_bytes(outs, true), max_output_mb);
    OutputFile file(out, in.paths);
    AlembicWriter abc(file, outs, options(in, true, "tension"));
    FileVertexMaps maps;
    for_each_tension_frame(in, meshes, [&](std::size_t fi) {
        for (std::size_t m = 0; m < meshes.size(); ++m) {
            const MeshTension& mt = meshes[m];
            maps.take(mt, run, color);
            abc.points(m, mt.deformed);
            abc.maps(m, maps.t.data(), maps.compress.data(), maps.stretch.data(), maps.rgb.data());
        }
        if (each) each(fi);
    }, progress);
    abc.close();
    file.commit();
}

}  // namespace rigscope
