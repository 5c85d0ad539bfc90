#include "rigscope/io/report_html.h"

#include "rigscope/core/axes.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "rigscope/core/error.h"

namespace rigscope {

namespace {

// The viewer page holds this once, inside a <script type="application/json"> element.
constexpr std::string_view kDataMarker = "__RIGSCOPE_REPORT_DATA__";

// JSON string; '<', '>' and '&' escaped too, so no text (a file name) can close the script element.
void append_json_string(std::string& out, const std::string& s) {
    static const char* hex = "0123456789abcdef";
    out += '"';
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c < 0x20 || c == '<' || c == '>' || c == '&') {
            out += "\\u00";
            out += hex[c >> 4];
            out += hex[c & 15];
        } else {
            out += static_cast<char>(c);
        }
    }
    out += '"';
}

void key(std::string& out, const char* k) {
    out += '"';
    out += k;
    out += "\":";
}

void append_frame(std::string& out, const Frame& f) {
    out += "{\"bind\":";
    out += f.bind ? "true" : "false";
    out += ",\"number\":";
    append_number(out, f.number);
    out += ",\"time\":";
    append_number(out, f.time);
    out += '}';
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

void append_positions(std::string& out, const Box& b, const std::vector<float>& p) {
    std::vector<std::uint8_t> bytes;
    bytes.reserve(p.size() * 2);
    for (std::size_t i = 0; i < p.size(); ++i) {
        const int a = static_cast<int>(i % 3);
        const double q = std::round((p[i] - b.lo[a]) / b.step[a]);
        append_le(bytes, static_cast<std::uint16_t>(q >= 0 ? std::min(q, 65535.0) : 0.0));  // NaN: 0, not a bad cast
    }
    out += '"';
    append_base64(out, bytes.data(), bytes.size());
    out += '"';
}

void append_b64_string(std::string& out, const std::vector<std::uint8_t>& bytes) {
    out += '"';
    append_base64(out, bytes.data(), bytes.size());
    out += '"';
}

void append_floats(std::string& out, const std::vector<float>& v) {
    std::vector<std::uint8_t> bytes;
    bytes.reserve(v.size() * 4);
    for (float f : v) {
        std::uint32_t u;
        std::memcpy(&u, &f, 4);
        append_le(bytes, u);
    }
    append_b64_string(out, bytes);
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

void write_report_html(const ReportData& d, const std::string& viewer, OutputFile& out) {
    // T as steps of log T over the shown range: even relative precision on both sides of 1.
    // One encoding for both sides of a two-sided measure.
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
    const double levels = d.t_bits == 8 ? 255.0 : 65535.0;
    const double t_step = hi > lo ? (double(hi) - lo) / levels : 1e-6;

    std::string j;
    j += '{';
    key(j, "version"); append_json_string(j, d.run.version);
    j += ','; key(j, "input"); append_json_string(j, d.run.input);
    if (!is_y_up(d.up_axis)) {
        // The turn the glTF writer's root node makes (core/axes.h), as [x, y, z, w]: the viewer
        // applies it to every position it decodes, so a Z-up file is shown upright.
        const Eigen::Quaterniond q = up_axis_to_y(d.up_axis);
        j += ','; key(j, "up_axis_turn"); j += '[';
        append_number(j, q.x()); j += ','; append_number(j, q.y()); j += ',';
        append_number(j, q.z()); j += ','; append_number(j, q.w()); j += ']';
    }
    j += ','; key(j, "animation"); append_json_string(j, d.run.animation);
    j += ','; key(j, "clip"); append_json_string(j, d.run.clip);
    j += ','; key(j, "fps"); append_number(j, d.run.fps);
    j += ','; key(j, "reference"); append_json_string(j, d.run.reference_kind + (d.run.reference.empty() ? "" : " " + d.run.reference));
    j += ','; key(j, "weld"); j += d.run.weld ? "true" : "false";
    j += ','; key(j, "params"); append_tension_params(j, d.run.params);
    // What T is (--measure) and its smoothing: the page names it, and for principal shows lambda.
    j += ','; key(j, "measure"); j += "{\"kind\":"; append_json_string(j, std::string(measure_name(d.run.measure.measure)));
    j += ",\"smooth\":"; append_number(j, static_cast<long>(d.run.measure.smooth));
    j += ",\"smooth_weights\":"; append_json_string(j, std::string(smooth_weights_name(d.run.measure.weights))); j += '}';
    j += ','; key(j, "range"); j += "{\"t_s\":"; append_number(j, d.run.range.t_s);
    j += ",\"t_c\":"; append_number(j, d.run.range.t_c);
    j += ",\"auto\":"; j += d.run.auto_range ? "true" : "false";
    j += ",\"percentile\":"; append_number(j, d.run.percentile); j += '}';
    j += ','; key(j, "frames"); j += '[';
    for (std::size_t i = 0; i < d.frames.size(); ++i) {
        if (i) j += ',';
        append_frame(j, d.frames[i]);
    }
    j += "],"; key(j, "shown"); j += '[';
    for (std::size_t i = 0; i < d.shown.size(); ++i) {
        if (i) j += ',';
        append_number(j, static_cast<unsigned long>(d.shown[i]));
    }
    j += "],"; key(j, "subsample"); append_json_string(j, d.subsample_reason);
    j += ','; key(j, "t_encoding"); j += "{\"bits\":"; append_number(j, static_cast<long>(d.t_bits));
    j += ",\"log_lo\":"; append_number(j, static_cast<double>(lo));
    j += ",\"log_step\":"; append_number(j, t_step);
    j += ",\"relative_error\":"; append_number(j, std::expm1(t_step / 2)); j += '}';
    j += ','; key(j, "meshes"); j += '[';
    for (std::size_t mi = 0; mi < d.meshes.size(); ++mi) {
        const ReportMesh& m = d.meshes[mi];
        const Box b = box_of(m);
        if (mi) j += ',';
        j += '{'; key(j, "name"); append_json_string(j, m.name);
        j += ','; key(j, "vertices"); append_number(j, static_cast<unsigned long>(m.vertex_count));
        j += ','; key(j, "origin"); j += '[';
        for (int a = 0; a < 3; ++a) { if (a) j += ','; append_number(j, b.lo[a]); }
        j += "],"; key(j, "step"); j += '[';
        for (int a = 0; a < 3; ++a) { if (a) j += ','; append_number(j, b.step[a]); }
        j += "],"; key(j, "index_bits");
        const bool small = m.vertex_count <= 65536;
        j += small ? "16" : "32";
        std::vector<std::uint8_t> bytes;
        if (m.same_triangles_as >= 0) {
            j += ','; key(j, "triangles_of"); append_number(j, static_cast<long>(m.same_triangles_as));
        } else {
            bytes.reserve(m.triangles.size() * 4);
            for (std::uint32_t v : m.triangles) small ? append_le(bytes, static_cast<std::uint16_t>(v)) : append_le(bytes, v);
            j += ','; key(j, "triangles"); append_b64_string(j, bytes);
        }
        j += ','; key(j, "motion");
        switch (m.motion) {
            case ReportMotion::Static:
                j += "\"static\",";
                key(j, "rest"); append_positions(j, b, m.rest);
                break;
            case ReportMotion::Baked:
                j += "\"baked\",";
                key(j, "rest"); append_positions(j, b, m.rest);
                j += ','; key(j, "positions"); append_positions(j, b, m.positions);
                break;
            case ReportMotion::Skinned:
                j += "\"skinned\",";
                key(j, "base"); append_positions(j, b, m.base);
                j += ','; key(j, "influence_count"); append_b64_string(j, m.influence_count);
                bytes.clear();
                for (std::uint16_t v : m.joints) append_le(bytes, v);
                j += ','; key(j, "joints"); append_b64_string(j, bytes);
                j += ','; key(j, "weights"); append_floats(j, m.weights);
                j += ','; key(j, "joint_count"); append_number(j, static_cast<unsigned long>(m.joint_count));
                j += ','; key(j, "rest_joints"); append_floats(j, m.rest_joints);
                j += ','; key(j, "frame_joints"); append_floats(j, m.frame_joints);
                break;
        }
        auto append_t = [&](const char* name, const std::vector<float>& ts) {
            bytes.clear();
            bytes.reserve(ts.size() * 2);
            for (float t : ts) {
                const double r = std::round((std::log(std::max(t, 1e-30f)) - lo) / t_step);
                const double q = r >= 0 ? std::min(r, levels) : 0.0;  // NaN: 0, not a bad cast
                if (d.t_bits == 8) bytes.push_back(static_cast<std::uint8_t>(q));
                else append_le(bytes, static_cast<std::uint16_t>(q));
            }
            j += ','; key(j, name); j += '"'; append_base64(j, bytes.data(), bytes.size()); j += '"';
        };
        append_t("t", m.t);
        if (m.two_sided) append_t("t_stretch", m.t_stretch);
        j += '}';
    }
    j += "],"; key(j, "worst"); j += '[';
    for (std::size_t i = 0; i < d.worst.size(); ++i) {
        const ReportVertex& w = d.worst[i];
        if (i) j += ',';
        j += "{\"mesh\":"; append_number(j, static_cast<long>(w.mesh));
        j += ",\"vertex\":"; append_number(j, static_cast<unsigned long>(w.vertex));
        j += ",\"kind\":"; append_json_string(j, w.kind);
        j += ",\"t\":"; append_number(j, w.t);
        j += ",\"frame\":"; append_number(j, static_cast<unsigned long>(w.frame));
        j += ",\"series\":[";
        for (std::size_t f = 0; f < w.series.size(); ++f) {
            if (f) j += ',';
            append_number(j, w.series[f]);
        }
        j += "]}";
    }
    j += ']';
    if (d.has_check) {
        const ReportCheck& c = d.check;
        j += ','; key(j, "check"); j += "{\"failed\":"; j += c.failed ? "true" : "false";
        if (c.has_stretch) { j += ",\"max_stretch\":"; append_number(j, c.max_stretch); }
        if (c.has_compress) { j += ",\"max_compress\":"; append_number(j, c.max_compress); }
        j += ",\"stretch_count\":"; append_number(j, static_cast<unsigned long>(c.stretch_count));
        j += ",\"compress_count\":"; append_number(j, static_cast<unsigned long>(c.compress_count));
        j += '}';
    }
    j += '}';

    const auto at = viewer.find(kDataMarker);
    out.write(std::string_view(viewer).substr(0, at));
    out.write(j);
    out.write(std::string_view(viewer).substr(at + kDataMarker.size()));
}

}  // namespace rigscope
