#include "rigscope/io/deform_output.h"

namespace rigscope {

DeformWriter::DeformWriter(OutputFile& out, bool csv, const RunInfo& run) : out_(out), csv_(csv) {
    std::string& buf = out_.buffer();
    if (csv_) {
        buf += "frame,time,mesh,vertex,x,y,z\n";
        return;
    }
    buf += "{\"input\":";
    append_json_string(buf, run.input);
    buf += ",\"clip\":";
    if (run.clip) append_json_string(buf, run.clip->name); else buf += "null";
    buf += ",\"fps\":";
    append_number(buf, run.fps);
    buf += ",\"frames\":[";
}

void DeformWriter::frame(const Frame& f, const std::vector<std::string>& names,
                         const std::vector<const std::vector<Eigen::Vector3f>*>& positions) {
    std::string& buf = out_.buffer();
    if (!csv_) {
        buf += frames_ ? ",{\"frame\":" : "{\"frame\":";
        append_frame(buf, f, true);
        buf += ",\"time\":";
        append_number(buf, f.time);
        buf += ",\"meshes\":[";
    }
    for (std::size_t mi = 0; mi < names.size(); ++mi) {
        const std::vector<Eigen::Vector3f>& pos = *positions[mi];
        if (csv_) {
            // The row's first fields are the same for the whole mesh: built once.
            std::string prefix;
            append_frame(prefix, f, false);
            prefix += ',';
            append_number(prefix, f.time);
            prefix += ',';
            append_csv_field(prefix, names[mi]);
            prefix += ',';
            for (std::size_t v = 0; v < pos.size(); ++v) {
                buf += prefix;
                append_number(buf, static_cast<unsigned long>(v));
                for (int c = 0; c < 3; ++c) {
                    buf += ',';
                    append_number(buf, pos[v][c]);
                }
                buf += '\n';
                out_.maybe_flush();
            }
            continue;
        }
        buf += mi ? ",{\"mesh\":" : "{\"mesh\":";
        append_json_string(buf, names[mi]);
        buf += ",\"positions\":[";
        for (std::size_t v = 0; v < pos.size(); ++v) {
            buf += v ? ",[" : "[";
            for (int c = 0; c < 3; ++c) {
                if (c) buf += ',';
                append_number(buf, pos[v][c]);
            }
            buf += ']';
            out_.maybe_flush();
        }
        buf += "]}";
    }
    if (!csv_) buf += "]}";
    ++frames_;
}

void DeformWriter::end() {
    if (!csv_) out_.buffer() += "]}\n";
}

}  // namespace rigscope
