#include "rigscope/io/deform_output.h"

#include "rigscope/io/json_keys.h"
#include "row_blocks.h"

namespace rigscope {

namespace k = json_keys;

DeformWriter::DeformWriter(OutputFile& out, bool csv, const RunInfo& run, unsigned threads)
    : out_(out), csv_(csv), json_(out.buffer()), rows_(std::make_unique<RowBlocks>(threads)) {
    if (csv_) {
        out_.buffer() += "frame,time,mesh,vertex,x,y,z\n";
        return;
    }
    json_.begin_object();
    write_json_header(json_, "deform", run.input);
    json_.member_or_null("clip", run.clip != nullptr, run.clip ? std::string_view(run.clip->name) : std::string_view());
    json_.member("fps", run.fps).key(k::frames).begin_array();
}

void DeformWriter::frame(const Frame& f, const std::vector<std::string>& names,
                         const std::vector<const std::vector<Eigen::Vector3f>*>& positions) {
    if (!csv_) json_.begin_object().key(k::frame).frame(f).member(k::time, f.time).key(k::meshes).begin_array();
    for (std::size_t mi = 0; mi < names.size(); ++mi) {
        const std::vector<Eigen::Vector3f>& pos = *positions[mi];
        if (csv_) {
            std::string prefix;
            append_csv_row_prefix(prefix, f, names[mi]);
            rows_->write(out_, pos.size(), [&](std::string& buf, std::size_t begin, std::size_t end) {
                for (std::size_t v = begin; v < end; ++v) {
                    buf += prefix;
                    append_number(buf, static_cast<unsigned long>(v));
                    for (int c = 0; c < 3; ++c) {
                        buf += ',';
                        append_number(buf, pos[v][c]);
                    }
                    buf += '\n';
                }
            });
            continue;
        }
        json_.begin_object().member(k::mesh, names[mi]).key("positions").begin_array();
        for (const Eigen::Vector3f& p : pos) {
            json_.number_array(3, [&](std::size_t c) { return p[static_cast<int>(c)]; });
            out_.maybe_flush();
        }
        json_.end_array().end_object();
    }
    if (!csv_) json_.end_array().end_object();
}

DeformWriter::~DeformWriter() = default;

double deform_output_min_bytes(bool csv, const std::vector<std::pair<std::string, std::size_t>>& meshes, std::size_t frames) {
    double per_frame = 0;
    for (const auto& [name, vertices] : meshes) per_frame += double(vertices) * (csv ? 14.0 + double(name.size()) : 7.0);
    return per_frame * double(frames);
}

void DeformWriter::end() {
    if (csv_) return;
    json_.end_array().end_object();
    out_.buffer() += '\n';
}

}  // namespace rigscope
