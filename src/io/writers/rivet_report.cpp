#include "rigscope/io/rivet_report.h"

#include "rigscope/core/vertex_match.h"

#include <algorithm>

#include "rigscope/io/json_keys.h"
#include "rigscope/io/json_writer.h"

namespace rigscope {

namespace {

namespace k = json_keys;

void write_vec(JsonWriter& w, const Eigen::Vector3d& v) { w.number_array(3, [&](std::size_t c) { return v[static_cast<int>(c)]; }); }

// The header and run members of both JSON outputs, the top-level object left open.
void write_header(JsonWriter& w, const RunInfo& run, int mesh, const char* mode) {
    const Scene& scene = *run.scene;
    const std::vector<Frame>& frames = *run.frames;
    w.begin_object();
    write_json_header(w, "rivet", run.input);
    w.member(k::mesh, scene.meshes[mesh].name).member("mode", mode);
    w.member_or_null("clip", run.clip != nullptr, run.clip ? std::string_view(run.clip->name) : std::string_view());
    w.member("fps", run.fps).key(k::frames).begin_array();
    for (const Frame& f : frames) w.frame(f);
    w.end_array().member("diagonal", bounding_diagonal(scene.meshes[mesh].positions));
}

double relative(double error, double diagonal) { return diagonal > 0 ? error / diagonal : 0.0; }

// One baked row's fields after frame, time and vertex: position, then quaternion x, y, z, w.
void values_of(const BakedTransform& t, double (&v)[7]) {
    const double values[7] = {t.position.x(), t.position.y(), t.position.z(), t.rotation.x(), t.rotation.y(), t.rotation.z(), t.rotation.w()};
    std::copy(values, values + 7, v);
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
    JsonWriter w(buf);
    write_header(w, run, mesh, "fit");
    w.key("rivets").begin_array();
    for (const RivetResult& r : rivets) {
        const int parent = scene.nodes[r.joint].parent;
        w.begin_object().member(k::vertex, static_cast<unsigned long>(r.vertex)).member("joint", scene.nodes[r.joint].name);
        w.member_or_null("parent", parent >= 0, parent >= 0 ? std::string_view(scene.nodes[parent].name) : std::string_view());
        w.key("influences").begin_array();
        for (const RivetInfluence& i : r.influences) w.begin_object().member("joint", scene.nodes[i.joint].name).member("weight", i.weight).end_object();
        w.end_array().key("analytic_pivot");
        if (r.analytic) write_vec(w, *r.analytic); else w.null();
        w.key("pivot_world");
        write_vec(w, r.pivot_world);
        w.key("pivot_parent");
        write_vec(w, r.fit.pivot_parent);
        w.key("offset");
        write_vec(w, r.fit.offset);
        w.member("rank", r.fit.rank).member("rms_error", r.fit.rms_error).member("max_error", r.fit.max_error);
        w.member("max_error_relative", relative(r.fit.max_error, diagonal)).end_object();
    }
    w.end_array().end_object();
    buf += '\n';
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
    static constexpr std::string_view kKeys[7] = {k::x, k::y, "z", k::qx, k::qy, k::qz, k::qw};
    JsonWriter w(out.buffer());
    write_header(w, run, mesh, "bake");
    w.key(k::bake).begin_array();
    for (std::size_t fi = 0; fi < frames.size(); ++fi)
        for (std::size_t i = 0; i < vertices.size(); ++i) {
            const Frame& f = (*run.frames)[fi];
            w.begin_object().key(k::frame).frame(f).member(k::time, f.time).member(k::vertex, static_cast<unsigned long>(vertices[i]));
            double v[7];
            values_of(frames[fi][i], v);
            for (int c = 0; c < 7; ++c) w.member(kKeys[c], v[c]);
            w.end_object();
            out.maybe_flush();
        }
    w.end_array().end_object();
    out.buffer() += '\n';
}

void write_bake_csv(OutputFile& out, const RunInfo& run, const std::vector<std::uint32_t>& vertices,
                    const std::vector<std::vector<BakedTransform>>& frames) {
    std::string& buf = out.buffer();
    buf += "frame,time,vertex,x,y,z,qx,qy,qz,qw\n";
    for (std::size_t fi = 0; fi < frames.size(); ++fi)
        for (std::size_t i = 0; i < vertices.size(); ++i) {
            append_csv_frame_prefix(buf, (*run.frames)[fi]);
            append_number(buf, static_cast<unsigned long>(vertices[i]));
            double v[7];
            values_of(frames[fi][i], v);
            for (double x : v) {
                buf += ',';
                append_number(buf, x);
            }
            buf += '\n';
            out.maybe_flush();
        }
}

}  // namespace rigscope
