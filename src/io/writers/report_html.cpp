#include "rigscope/io/report_html.h"

#include "rigscope/core/axes.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "rigscope/core/error.h"
#include "rigscope/io/json_keys.h"
#include "rigscope/io/json_writer.h"

namespace rigscope {

namespace {

// The viewer page holds this once, inside a <script type="application/json"> element.
constexpr std::string_view kDataMarker = "__RIGSCOPE_REPORT_DATA__";

// A frame with its time, as the viewer reads it (not the number-or-"bind" of the other outputs).
void write_report_frame(JsonWriter& w, const Frame& f) {
    w.begin_object().member("bind", f.bind).member("number", f.number).member("time", f.time).end_object();
}

template <typename T>
void append_le(std::vector<std::uint8_t>& bytes, T v) {
    for (std::size_t i = 0; i < sizeof(T); ++i) bytes.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

struct Box {
    float lo[3] = {0, 0, 0};
    float step[3] = {1, 1, 1};  // size of one 16-bit step per axis
};

Box box_of(const ReportMesh& m) {
    float lo[3], hi[3];
    const std::vector<float>& first = m.rest.empty() ? m.base : m.rest;
    for (int a = 0; a < 3; ++a) lo[a] = hi[a] = first.size() < 3 ? 0.0f : first[a];
    auto grow = [&](const std::vector<float>& p) {
        for (std::size_t i = 0; i + 2 < p.size(); i += 3)
            for (int a = 0; a < 3; ++a) {
                lo[a] = std::min(lo[a], p[i + a]);
                hi[a] = std::max(hi[a], p[i + a]);
            }
    };
    grow(m.rest);
    grow(m.positions);
    grow(m.base);
    Box b;
    for (int a = 0; a < 3; ++a) {
        b.lo[a] = lo[a];
        const float ext = hi[a] - lo[a];
        b.step[a] = ext > 0 ? ext / 65535.0f : 1.0f;
    }
    return b;
}

void write_positions(JsonWriter& w, const Box& b, const std::vector<float>& p) {
    std::vector<std::uint8_t> bytes;
    bytes.reserve(p.size() * 2);
    for (std::size_t i = 0; i < p.size(); ++i) {
        const int a = static_cast<int>(i % 3);
        const double q = std::round((p[i] - b.lo[a]) / b.step[a]);
        append_le(bytes, static_cast<std::uint16_t>(q >= 0 ? std::min(q, 65535.0) : 0.0));  // NaN: 0, not a bad cast
    }
    w.unescaped_string([&](std::string& out) { append_base64(out, bytes.data(), bytes.size()); });
}

void write_b64(JsonWriter& w, const std::vector<std::uint8_t>& bytes) {
    w.unescaped_string([&](std::string& out) { append_base64(out, bytes.data(), bytes.size()); });
}

void write_floats(JsonWriter& w, const std::vector<float>& v) {
    std::vector<std::uint8_t> bytes;
    bytes.reserve(v.size() * 4);
    for (float f : v) {
        std::uint32_t u;
        std::memcpy(&u, &f, 4);
        append_le(bytes, u);
    }
    write_b64(w, bytes);
}

}  // namespace

void append_base64(std::string& out, const std::uint8_t* b, std::size_t n) {
    static const char* a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    out.reserve(out.size() + (n + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 3 <= n; i += 3) {
        const std::uint32_t v = (b[i] << 16) | (b[i + 1] << 8) | b[i + 2];
        out += a[v >> 18];
        out += a[(v >> 12) & 63];
        out += a[(v >> 6) & 63];
        out += a[v & 63];
    }
    if (i < n) {
        const std::uint32_t v = (b[i] << 16) | (i + 1 < n ? b[i + 1] << 8 : 0);
        out += a[v >> 18];
        out += a[(v >> 12) & 63];
        out += i + 1 < n ? a[(v >> 6) & 63] : '=';
        out += '=';
    }
}

namespace {

std::size_t b64(std::size_t bytes) { return (bytes + 2) / 3 * 4 + 8; }

}  // namespace

std::size_t report_fixed_bytes(std::size_t viewer_bytes, const std::vector<ReportMesh>& meshes, std::size_t frames,
                               std::size_t worst_rows) {
    std::size_t b = viewer_bytes + 16 * 1024;  // run header, parameters, names
    for (const ReportMesh& m : meshes) {
        const std::size_t n = m.vertex_count;
        if (m.same_triangles_as < 0) b += b64(m.triangles.size() * (n <= 65536 ? 2 : 4));
        switch (m.motion) {
            case ReportMotion::Static: b += b64(n * 6) + (m.two_sided ? 2 : 1) * b64(n * 2); break;  // positions, T at 16 bits
            case ReportMotion::Baked: b += b64(n * 6); break;
            case ReportMotion::Skinned:
                b += b64(n * 6) + b64(n) + b64(m.joints.size() * 2) + b64(m.weights.size() * 4) + b64(m.joint_count * 48);
                break;
        }
    }
    b += frames * 64;                        // the frame list
    b += worst_rows * (160 + frames * 16);   // table rows and their series (shortest float text)
    return b;
}

std::size_t report_frame_bytes(const std::vector<ReportMesh>& meshes, int t_bits) {
    std::size_t b = 0;
    for (const ReportMesh& m : meshes) {
        switch (m.motion) {
            case ReportMotion::Static: break;
            case ReportMotion::Baked: b += b64(m.vertex_count * 6) + (m.two_sided ? 2 : 1) * b64(m.vertex_count * t_bits / 8); break;
            case ReportMotion::Skinned: b += (m.two_sided ? 2 : 1) * b64(m.vertex_count * t_bits / 8) + b64(m.joint_count * 48); break;
        }
    }
    return b;
}

std::size_t report_mark_bytes(const ReportData& d) {
    // Face ids and counts as decimal text (at most 10 digits and a comma), ratios as the
    // shortest text of a double (at most 24 characters and a comma), names and framing.
    std::size_t b = 0;
    for (const ReportMesh& m : d.meshes) b += b64(m.face_first_triangle.size() * 4) + 32;
    if (d.has_intersections) {
        b += 256 + 11 * d.intersections.pairs.size();
        for (const ReportIntersectionFrame& f : d.intersections.frames) {
            b += 64 + 4 * f.faces.size();
            for (const auto& faces : f.faces) b += 11 * faces.size();
        }
    }
    if (d.has_volume) {
        b += 256;
        for (const ReportVolumeRegion& r : d.volume.regions) b += 96 + 6 * r.region.size() + 11 * r.faces.size() + 25 * r.ratios.size();
    }
    return b;
}

std::string load_report_viewer(const std::string& build_time_path) {
    const char* env = std::getenv("RIGSCOPE_REPORT_BUNDLE");
    const std::string path = env && *env ? env : build_time_path;
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw bad_input(path, "the report viewer is missing (scripts/setup.sh builds it; RIGSCOPE_REPORT_BUNDLE names another)");
    std::ostringstream s;
    s << in.rdbuf();
    std::string text = s.str();
    const auto at = text.find(kDataMarker);
    if (at == std::string::npos || text.find(kDataMarker, at + 1) != std::string::npos)
        throw bad_input(path, "not the rigscope report viewer (no single data marker)");
    return text;
}

namespace {

// T as steps of log T over the shown range: even relative precision on both sides of 1.
struct TEncoding {
    float lo = 0;         // log T of step 0
    double levels = 0;    // the largest step
    double step = 0;      // log T per step
    int bits = 16;
};

// One encoding for both sides of a two-sided measure, over every mesh's shown T.
TEncoding t_encoding(const ReportData& d) {
    float lo = 0, hi = 0;
    bool any = false;
    for (const ReportMesh& m : d.meshes)
        for (const std::vector<float>* ts : {&m.t, &m.t_stretch})
            for (float t : *ts) {
                const float l = std::log(std::max(t, 1e-30f));
                if (!any) lo = hi = l;
                lo = std::min(lo, l);
                hi = std::max(hi, l);
                any = true;
            }
    TEncoding e;
    e.lo = lo;
    e.bits = d.t_bits;
    e.levels = d.t_bits == 8 ? 255.0 : 65535.0;
    e.step = hi > lo ? (double(hi) - lo) / e.levels : 1e-6;
    return e;
}

// The run's description: input, axes, clip, parameters, measure, range, frames and T's encoding.
void write_run_members(JsonWriter& w, const ReportData& d, const TEncoding& enc) {
    write_json_header(w, "report", d.run.input);
    if (!is_y_up(d.up_axis)) {
        // The turn the glTF writer's root node makes (core/axes.h), as [x, y, z, w]: the viewer
        // applies it to every position it decodes, so a Z-up file is shown upright.
        const Eigen::Quaterniond q = up_axis_to_y(d.up_axis);
        w.key("up_axis_turn").begin_array().value(q.x()).value(q.y()).value(q.z()).value(q.w()).end_array();
    }
    w.member("animation", d.run.animation).member("clip", d.run.clip).member("fps", d.run.fps);
    w.member("reference", d.run.reference_kind + (d.run.reference.empty() ? "" : " " + d.run.reference));
    w.member("weld", d.run.weld);
    w.key("params");
    write_tension_params(w, d.run.params);
    // What T is (--measure) and its smoothing: the page names it, and for principal shows lambda.
    w.key("measure").begin_object().member("kind", measure_name(d.run.measure.measure));
    w.member("smooth", static_cast<long>(d.run.measure.smooth));
    w.member("smooth_weights", smooth_weights_name(d.run.measure.weights)).end_object();
    w.key("range").begin_object().member("t_s", d.run.range.t_s).member("t_c", d.run.range.t_c);
    w.member("auto", d.run.auto_range).member("percentile", d.run.percentile).end_object();
    w.key("frames").begin_array();
    for (const Frame& f : d.frames) write_report_frame(w, f);
    w.end_array();
    w.number_array("shown", d.shown.size(), [&](std::size_t i) { return static_cast<unsigned long>(d.shown[i]); });
    w.member("subsample", d.subsample_reason);
    w.key("t_encoding").begin_object().member("bits", static_cast<long>(enc.bits));
    w.member("log_lo", static_cast<double>(enc.lo)).member("log_step", enc.step);
    w.member("relative_error", std::expm1(enc.step / 2)).end_object();
}

// How the mesh moves: its rest (static), rest and every shown frame's positions (baked), or its
// base, influences and joints at rest and at every shown frame (skinned in the page).
void write_motion(JsonWriter& w, const ReportMesh& m, const Box& b) {
    auto positions = [&](const char* name, const std::vector<float>& p) {
        w.key(name);
        write_positions(w, b, p);
    };
    switch (m.motion) {
        case ReportMotion::Static:
            w.member("motion", "static");
            positions("rest", m.rest);
            break;
        case ReportMotion::Baked:
            w.member("motion", "baked");
            positions("rest", m.rest);
            positions("positions", m.positions);
            break;
        case ReportMotion::Skinned: {
            w.member("motion", "skinned");
            positions("base", m.base);
            w.key("influence_count");
            write_b64(w, m.influence_count);
            std::vector<std::uint8_t> bytes;
            for (std::uint16_t v : m.joints) append_le(bytes, v);
            w.key("joints");
            write_b64(w, bytes);
            w.key("weights");
            write_floats(w, m.weights);
            w.member("joint_count", static_cast<unsigned long>(m.joint_count));
            w.key("rest_joints");
            write_floats(w, m.rest_joints);
            w.key("frame_joints");
            write_floats(w, m.frame_joints);
            break;
        }
    }
}

// Shown T as steps of the encoding, 8 or 16 bits each.
void write_encoded_t(JsonWriter& w, const char* name, const std::vector<float>& ts, const TEncoding& enc) {
    std::vector<std::uint8_t> bytes;
    bytes.reserve(ts.size() * 2);
    for (float t : ts) {
        const double r = std::round((std::log(std::max(t, 1e-30f)) - enc.lo) / enc.step);
        const double q = r >= 0 ? std::min(r, enc.levels) : 0.0;  // NaN: 0, not a bad cast
        if (enc.bits == 8) bytes.push_back(static_cast<std::uint8_t>(q));
        else append_le(bytes, static_cast<std::uint16_t>(q));
    }
    w.key(name);
    write_b64(w, bytes);
}

// One mesh: its quantisation box, triangles (or the earlier mesh that has the same), motion and T.
void write_report_mesh(JsonWriter& w, const ReportMesh& m, const TEncoding& enc) {
    const Box b = box_of(m);
    w.begin_object().member("name", m.name).member("vertices", static_cast<unsigned long>(m.vertex_count));
    w.number_array("origin", 3, [&](std::size_t a) { return b.lo[a]; });
    w.number_array("step", 3, [&](std::size_t a) { return b.step[a]; });
    const bool small = m.vertex_count <= 65536;
    w.member("index_bits", small ? 16 : 32);
    if (m.same_triangles_as >= 0) {
        w.member("triangles_of", static_cast<long>(m.same_triangles_as));
    } else {
        std::vector<std::uint8_t> bytes;
        bytes.reserve(m.triangles.size() * 4);
        for (std::uint32_t v : m.triangles) small ? append_le(bytes, static_cast<std::uint16_t>(v)) : append_le(bytes, v);
        w.key("triangles");
        write_b64(w, bytes);
    }
    write_motion(w, m, b);
    write_encoded_t(w, "t", m.t, enc);
    if (m.two_sided) write_encoded_t(w, "t_stretch", m.t_stretch, enc);
    if (!m.face_first_triangle.empty()) {
        std::vector<std::uint8_t> bytes;
        for (std::uint32_t v : m.face_first_triangle) append_le(bytes, v);
        w.key("face_first_triangle");
        write_b64(w, bytes);
    }
    w.end_object();
}

// The worst-vertex table, each row with its series.
void write_worst(JsonWriter& w, const std::vector<ReportVertex>& worst) {
    w.key("worst").begin_array();
    for (const ReportVertex& v : worst) {
        w.begin_object().member("mesh", static_cast<long>(v.mesh)).member("vertex", static_cast<unsigned long>(v.vertex));
        w.member("kind", v.kind).member("t", v.t).member("frame", static_cast<unsigned long>(v.frame));
        w.number_array("series", v.series.size(), [&](std::size_t f) { return v.series[f]; }).end_object();
    }
    w.end_array();
}

void write_check_mark(JsonWriter& w, const ReportCheck& c) {
    w.key("check").begin_object().member("failed", c.failed);
    if (c.has_stretch) w.member("max_stretch", c.max_stretch);
    if (c.has_compress) w.member("max_compress", c.max_compress);
    w.member("stretch_count", static_cast<unsigned long>(c.stretch_count));
    w.member("compress_count", static_cast<unsigned long>(c.compress_count)).end_object();
}

void write_intersection_marks(JsonWriter& w, const ReportIntersections& x) {
    w.key("intersections").begin_object().member("limit", static_cast<unsigned long>(x.limit)).member("failed", x.failed);
    w.number_array("pairs", x.pairs.size(), [&](std::size_t i) { return static_cast<unsigned long>(x.pairs[i]); });
    w.key("frames").begin_array();
    for (const ReportIntersectionFrame& f : x.frames) {
        w.begin_object().member("frame", static_cast<unsigned long>(f.frame)).member("pairs", static_cast<unsigned long>(f.pairs));
        w.key("faces").begin_array();
        for (const std::vector<std::uint32_t>& faces : f.faces)
            w.number_array(faces.size(), [&](std::size_t i) { return static_cast<unsigned long>(faces[i]); });
        w.end_array().end_object();
    }
    w.end_array().end_object();
}

void write_volume_marks(JsonWriter& w, const ReportVolume& v) {
    w.key("volume").begin_object().member("limit", v.limit).member("failed", v.failed).key("regions").begin_array();
    for (const ReportVolumeRegion& r : v.regions) {
        w.begin_object().member("mesh", static_cast<long>(r.mesh)).member("region", r.region);
        if (r.region != "*") w.number_array("faces", r.faces.size(), [&](std::size_t i) { return static_cast<unsigned long>(r.faces[i]); });
        // No ratio where the bind measure is too close to 0 to divide by: null.
        w.key("ratios").begin_array();
        for (double q : r.ratios) std::isnan(q) ? w.null() : w.value(q);
        w.end_array().end_object();
    }
    w.end_array().end_object();
}

// One clip's data object.
void write_report_data(JsonWriter& w, const ReportData& d) {
    const TEncoding enc = t_encoding(d);
    w.begin_object();
    write_run_members(w, d, enc);
    w.key("meshes").begin_array();
    for (const ReportMesh& m : d.meshes) write_report_mesh(w, m, enc);
    w.end_array();
    write_worst(w, d.worst);
    if (d.has_check) write_check_mark(w, d.check);
    // The marks of check's other verdicts (issue 59), only when judged: a page without them is
    // the page it was.
    if (d.has_intersections) write_intersection_marks(w, d.intersections);
    if (d.has_volume) write_volume_marks(w, d.volume);
    w.end_object();
}

// The viewer with `data` (JSON) in place of its marker.
void write_page(const std::string& viewer, const std::string& data, OutputFile& out) {
    const auto at = viewer.find(kDataMarker);
    out.write(std::string_view(viewer).substr(0, at));
    out.write(data);
    out.write(std::string_view(viewer).substr(at + kDataMarker.size()));
}

}  // namespace

void write_report_html(const ReportData& d, const std::string& viewer, OutputFile& out) {
    std::string j;
    JsonWriter w(j, true);
    write_report_data(w, d);
    write_page(viewer, j, out);
}

void write_report_html_clips(const std::vector<ReportClipData>& clips, std::size_t initial, const std::string& viewer, OutputFile& out) {
    if (clips.size() == 1) return write_report_html(clips.front().data, viewer, out);
    std::string j;
    JsonWriter w(j, true);
    w.begin_object().key("clips").begin_array();
    for (const ReportClipData& c : clips) {
        w.begin_object().member("name", c.name).key("data");
        write_report_data(w, c.data);
        w.end_object();
    }
    w.end_array().member("initial", static_cast<unsigned long>(initial)).end_object();
    write_page(viewer, j, out);
}

ReportCheck report_check(const CheckVerdict& verdict) {
    const CheckLimits& l = verdict.given;
    ReportCheck rc{verdict.failed(), l.has_stretch || l.has_max_lambda, l.has_compress || l.has_min_lambda, l.max_stretch, l.max_compress, 0, 0};
    if (l.has_max_lambda) rc.max_stretch = l.has_stretch ? std::max(rc.max_stretch, 1.0 / l.max_lambda) : 1.0 / l.max_lambda;
    if (l.has_min_lambda) rc.max_compress = l.has_compress ? std::min(rc.max_compress, 1.0 / l.min_lambda) : 1.0 / l.min_lambda;
    rc.stretch_count = side_failures(verdict, true).size();
    rc.compress_count = side_failures(verdict, false).size();
    return rc;
}

}  // namespace rigscope
