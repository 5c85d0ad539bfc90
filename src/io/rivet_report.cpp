#include "rigscope/io/rivet_report.h"

#include "rigscope/core/vertex_match.h"

namespace rigscope {

namespace {

void append_vec(std::string& buf, const Eigen::Vector3d& v) {
    buf += '[';
    for (int c = 0; c < 3; ++c) {
        if (c) buf += ',';
        append_number(buf, v[c]);
    }
    buf += ']';
}

void append_header(std::string& buf, const RunInfo& run, int mesh, const char* mode) {
    const Scene& scene = *run.scene;
    const std::vector<Frame>& frames = *run.frames;
    buf += "{\"input\":";
    append_json_string(buf, run.input);
    buf += ",\"mesh\":";
    append_json_string(buf, scene.meshes[mesh].name);
    buf += ",\"mode\":\"";
    buf += mode;
    buf += "\",\"clip\":";
    if (run.clip) append_json_string(buf, run.clip->name); else buf += "null";
    buf += ",\"fps\":";
    append_number(buf, run.fps);
    buf += ",\"frames\":[";
    for (std::size_t i = 0; i < frames.size(); ++i) {
        if (i) buf += ',';
        append_frame(buf, frames[i], true);
    }
    buf += "],\"diagonal\":";
    append_number(buf, bounding_diagonal(scene.meshes[mesh].positions));
}

double relative(double error, double diagonal) { return diagonal > 0 ? error / diagonal : 0.0; }

// One baked row's fields after frame, time and vertex: position, then quaternion x, y, z, w.
void append_baked(std::string& buf, const BakedTransform& t, bool json) {
    static const char* const kKeys[] = {",\"x\":", ",\"y\":", ",\"z\":", ",\"qx\":", ",\"qy\":", ",\"qz\":", ",\"qw\":"};
    const double values[7] = {t.position.x(), t.position.y(), t.position.z(), t.rotation.x(), t.rotation.y(), t.rotation.z(), t.rotation.w()};
    for (int c = 0; c < 7; ++c) {
        buf += json ? kKeys[c] : ",";
        append_number(buf, values[c]);
    }
}

}  // namespace

std::string influence_list(const Scene& scene, const std::vector<RivetInfluence>& influences) {
    std::string s;
    for (const RivetInfluence& r : influences) {
        if (!s.empty()) s += ';';
        s += scene.nodes[r.joint].name + ':';
        append_number(s, r.weight);
    }
    return s;
}

void write_fit_json(std::string& buf, const RunInfo& run, int mesh, const std::vector<RivetResult>& rivets) {
    const Scene& scene = *run.scene;
    const double diagonal = bounding_diagonal(scene.meshes[mesh].positions);
    append_header(buf, run, mesh, "fit");
    buf += ",\"rivets\":[";
    for (std::size_t i = 0; i < rivets.size(); ++i) {
        const RivetResult& r = rivets[i];
        const int parent = scene.nodes[r.joint].parent;
        buf += i ? ",{\"vertex\":" : "{\"vertex\":";
        append_number(buf, static_cast<unsigned long>(r.vertex));
        buf += ",\"joint\":";
        append_json_string(buf, scene.nodes[r.joint].name);
        buf += ",\"parent\":";
        if (parent >= 0) append_json_string(buf, scene.nodes[parent].name); else buf += "null";
        buf += ",\"influences\":[";
        for (std::size_t k = 0; k < r.influences.size(); ++k) {
            buf += k ? ",{\"joint\":" : "{\"joint\":";
            append_json_string(buf, scene.nodes[r.influences[k].joint].name);
            buf += ",\"weight\":";
            append_number(buf, r.influences[k].weight);
            buf += '}';
        }
        buf += "],\"analytic_pivot\":";
        if (r.analytic) append_vec(buf, *r.analytic); else buf += "null";
        buf += ",\"pivot_world\":";
        append_vec(buf, r.pivot_world);
        buf += ",\"pivot_parent\":";
        append_vec(buf, r.fit.pivot_parent);
        buf += ",\"offset\":";
        append_vec(buf, r.fit.offset);
        buf += ",\"rank\":";
        append_number(buf, r.fit.rank);
        buf += ",\"rms_error\":";
        append_number(buf, r.fit.rms_error);
        buf += ",\"max_error\":";
        append_number(buf, r.fit.max_error);
        buf += ",\"max_error_relative\":";
        append_number(buf, relative(r.fit.max_error, diagonal));
        buf += '}';
    }
    buf += "]}\n";
}

void write_fit_csv(std::string& buf, const Scene& scene, const std::vector<RivetResult>& rivets, double diagonal) {
    buf += "vertex,joint,parent,influences,analytic_x,analytic_y,analytic_z,pivot_world_x,pivot_world_y,pivot_world_z,"
           "pivot_parent_x,pivot_parent_y,pivot_parent_z,offset_x,offset_y,offset_z,rank,rms_error,max_error,max_error_relative\n";
    auto fields = [&buf](std::initializer_list<double> values) {
        for (double v : values) {
            buf += ',';
            append_number(buf, v);
        }
    };
    for (const RivetResult& r : rivets) {
        const int parent = scene.nodes[r.joint].parent;
        append_number(buf, static_cast<unsigned long>(r.vertex));
        buf += ',';
        append_csv_field(buf, scene.nodes[r.joint].name);
        buf += ',';
        if (parent >= 0) append_csv_field(buf, scene.nodes[parent].name);
        buf += ',';
        append_csv_field(buf, influence_list(scene, r.influences));
        if (r.analytic) fields({r.analytic->x(), r.analytic->y(), r.analytic->z()});
        else buf += ",,,";
        for (const Eigen::Vector3d* v : {&r.pivot_world, &r.fit.pivot_parent, &r.fit.offset}) fields({v->x(), v->y(), v->z()});
        buf += ',';
        append_number(buf, r.fit.rank);
        fields({r.fit.rms_error, r.fit.max_error, relative(r.fit.max_error, diagonal)});
        buf += '\n';
    }
}

void write_bake_json(OutputFile& out, const RunInfo& run, int mesh, const std::vector<std::uint32_t>& vertices,
                     const std::vector<std::vector<BakedTransform>>& frames) {
    std::string& buf = out.buffer();
    append_header(buf, run, mesh, "bake");
    buf += ",\"bake\":[";
    for (std::size_t fi = 0; fi < frames.size(); ++fi)
        for (std::size_t i = 0; i < vertices.size(); ++i) {
            buf += fi || i ? ",{\"frame\":" : "{\"frame\":";
            append_frame(buf, (*run.frames)[fi], true);
            buf += ",\"time\":";
            append_number(buf, (*run.frames)[fi].time);
            buf += ",\"vertex\":";
            append_number(buf, static_cast<unsigned long>(vertices[i]));
            append_baked(buf, frames[fi][i], true);
            buf += '}';
            out.maybe_flush();
        }
    buf += "]}\n";
}

void write_bake_csv(OutputFile& out, const RunInfo& run, const std::vector<std::uint32_t>& vertices,
                    const std::vector<std::vector<BakedTransform>>& frames) {
    std::string& buf = out.buffer();
    buf += "frame,time,vertex,x,y,z,qx,qy,qz,qw\n";
    for (std::size_t fi = 0; fi < frames.size(); ++fi)
        for (std::size_t i = 0; i < vertices.size(); ++i) {
            append_frame(buf, (*run.frames)[fi], false);
            buf += ',';
            append_number(buf, (*run.frames)[fi].time);
            buf += ',';
            append_number(buf, static_cast<unsigned long>(vertices[i]));
            append_baked(buf, frames[fi][i], false);
            buf += '\n';
            out.maybe_flush();
        }
}

}  // namespace rigscope
