// The CSV and JSON of `intersect` (io/intersect_output.h).
#include "rigscope/io/intersect_output.h"

#include <map>

#include "rigscope/io/json_keys.h"
#include "rigscope/io/json_writer.h"

namespace rigscope {

namespace k = json_keys;

std::string intersect_joint_name(const Scene& scene, int joint) {
    return joint >= 0 && joint < static_cast<int>(scene.nodes.size()) ? scene.nodes[joint].name : std::string();
}

void write_intersect_csv(OutputFile& out, const RunInfo& run, const std::vector<IntersectFrame>& frames) {
    const Scene& scene = *run.scene;
    std::string& buf = out.buffer();
    buf += "frame,mesh_a,face_a,mesh_b,face_b,joint\n";
    for (std::size_t fi = 0; fi < frames.size(); ++fi)
        for (const FacePair& p : frames[fi].pairs) {
            append_frame(buf, (*run.frames)[fi], false);
            buf += ',';
            append_csv_field(buf, scene.meshes[p.mesh_a].name);
            buf += ',';
            append_number(buf, static_cast<unsigned long>(p.face_a));
            buf += ',';
            append_csv_field(buf, scene.meshes[p.mesh_b].name);
            buf += ',';
            append_number(buf, static_cast<unsigned long>(p.face_b));
            buf += ',';
            append_csv_field(buf, intersect_joint_name(scene, p.joint));
            buf += '\n';
            out.maybe_flush();
        }
}

void write_intersect_json(OutputFile& out, const RunInfo& run, const std::vector<int>& meshes, bool weld,
                          std::size_t zero_area_triangles, const std::vector<IntersectFrame>& frames) {
    const Scene& scene = *run.scene;
    JsonWriter w(out.buffer());
    w.begin_object();
    write_json_header(w, "intersect", run.input);
    w.key("meshes").begin_array();
    for (int m : meshes) w.value(scene.meshes[m].name);
    w.end_array();
    w.member_or_null("clip", run.clip != nullptr, run.clip ? std::string_view(run.clip->name) : std::string_view());
    w.member("fps", run.fps).member("weld", weld).member("zero_area_triangles", static_cast<unsigned long>(zero_area_triangles));
    w.key(k::frames).begin_array();
    for (std::size_t fi = 0; fi < frames.size(); ++fi) {
        const Frame& f = (*run.frames)[fi];
        // Joints by name, in byte order: the same text whatever order the pairs came in.
        std::map<std::string, unsigned long> by_joint;
        for (const FacePair& p : frames[fi].pairs) ++by_joint[intersect_joint_name(scene, p.joint)];
        w.begin_object().key(k::frame).frame(f).member(k::time, f.time).member("pairs", static_cast<unsigned long>(frames[fi].pairs.size()));
        w.key("by_joint").begin_object();
        for (const auto& [joint, n] : by_joint) w.key_escaped(joint).value(n);
        w.end_object().member("length", frames[fi].length).end_object();
        out.maybe_flush();
    }
    w.end_array().end_object();
    out.buffer() += '\n';
}

}  // namespace rigscope
