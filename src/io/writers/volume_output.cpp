// `rigscope volume`'s CSV and JSON (io/volume_output.h): formatting only.
#include "rigscope/io/volume_output.h"

#include <cmath>

#include "rigscope/io/json_keys.h"
#include "rigscope/io/json_writer.h"

namespace rigscope {

namespace {

namespace k = json_keys;

const std::string kWholeMesh = "*";

}  // namespace

const std::string& VolumeTable::region_name(std::size_t column) const {
    const VolumeColumn& c = columns[column];
    return c.region < 0 ? kWholeMesh : meshes[c.mesh].region_names[static_cast<std::size_t>(c.region)];
}

void write_volume_csv(OutputFile& out, const RunInfo& run, const VolumeTable& table) {
    std::string& buf = out.buffer();
    buf += "frame,mesh,region,volume,ratio\n";
    for (std::size_t fi = 0; fi < table.frames; ++fi)
        for (std::size_t c = 0; c < table.columns.size(); ++c) {
            append_frame(buf, (*run.frames)[fi], false);
            buf += ',';
            append_csv_field(buf, table.meshes[table.columns[c].mesh].name);
            buf += ',';
            append_csv_field(buf, table.region_name(c));
            buf += ',';
            append_number(buf, table.volume(fi, c));
            buf += ',';
            // No ratio where the bind measure is too close to 0 to divide by: an empty field.
            if (!std::isnan(table.ratio(fi, c))) append_number(buf, table.ratio(fi, c));
            buf += '\n';
            out.maybe_flush();
        }
}

void write_volume_json(OutputFile& out, const RunInfo& run, const VolumeTable& table) {
    JsonWriter w(out.buffer());
    w.begin_object();
    write_json_header(w, "volume", run.input);
    w.member_or_null("clip", run.clip != nullptr, run.clip ? std::string_view(run.clip->name) : std::string_view());
    w.member("fps", run.fps);
    w.key(k::meshes).begin_array();
    for (const VolumeMeshInfo& m : table.meshes) {
        w.begin_object().member(k::mesh, m.name).member("closed", m.closure.closed);
        w.member("faces", static_cast<unsigned long>(m.faces)).member("degenerate_faces", static_cast<unsigned long>(m.degenerate_faces));
        w.member("boundary_edges", static_cast<unsigned long>(m.closure.boundary_edges));
        w.member("nonmanifold_edges", static_cast<unsigned long>(m.closure.nonmanifold_edges));
        w.member("misoriented_edges", static_cast<unsigned long>(m.closure.misoriented_edges));
        w.key("bind_volume");
        if (m.closure.closed) w.value(m.bind_volume);
        else w.null();
        w.key("regions").begin_array();
        for (std::size_t r = 0; r < m.regions.size(); ++r) {
            w.begin_object().member("region", m.region_names[r]).member("faces", static_cast<unsigned long>(m.regions[r].faces));
            w.member("bind", m.regions[r].bind).end_object();
        }
        w.end_array().end_object();
    }
    w.end_array().key("notes").begin_array();
    for (const std::string& n : table.notes) w.value(n);
    w.end_array().key(k::frames).begin_array();
    for (std::size_t fi = 0; fi < table.frames; ++fi) {
        const Frame& f = (*run.frames)[fi];
        w.begin_object().key(k::frame).frame(f).member(k::time, f.time).key("volumes").begin_array();
        for (std::size_t c = 0; c < table.columns.size(); ++c) {
            w.begin_object().member(k::mesh, table.meshes[table.columns[c].mesh].name).member("region", table.region_name(c));
            w.member("volume", table.volume(fi, c)).key("ratio");
            if (std::isnan(table.ratio(fi, c))) w.null();
            else w.value(table.ratio(fi, c));
            w.end_object();
        }
        w.end_array().end_object();
        out.maybe_flush();
    }
    w.end_array().end_object();
    out.buffer() += '\n';
}

}  // namespace rigscope
