#include "rigscope/io/drive_output.h"

#include "rigscope/io/json_keys.h"
#include "rigscope/io/json_writer.h"

namespace rigscope {

DriveWriter::DriveWriter(OutputFile& out, bool csv, const RunInfo& run, const std::string& rig, std::vector<DriveSeriesName> series,
                         std::vector<DriveControlName> controls)
    : out_(out), csv_(csv), run_(run), rig_(rig), series_(std::move(series)), controls_(std::move(controls)),
      weights_(series_.size()), xy_(2 * controls_.size()) {
    if (csv_) out_.buffer() += "frame,time,control,mesh,target,weight\n";
}

void DriveWriter::frame(const Frame& f, const std::vector<float>& weights, const std::vector<std::array<float, 2>>& xy) {
    if (!csv_) {
        for (std::size_t s = 0; s < series_.size(); ++s) weights_[s].push_back(weights[s]);
        for (std::size_t c = 0; c < controls_.size(); ++c) {
            xy_[2 * c].push_back(xy[c][0]);
            xy_[2 * c + 1].push_back(xy[c][1]);
        }
        return;
    }
    std::string& buf = out_.buffer();
    for (std::size_t s = 0; s < series_.size(); ++s) {
        append_csv_frame_prefix(buf, f);
        append_csv_field(buf, series_[s].controls);
        buf += ',';
        append_csv_field(buf, series_[s].mesh);
        buf += ',';
        append_csv_field(buf, series_[s].target);
        buf += ',';
        append_number(buf, weights[s]);
        buf += '\n';
    }
    out_.maybe_flush();
}

void DriveWriter::end() {
    if (csv_) return;
    namespace k = json_keys;
    const std::vector<Frame>& frames = *run_.frames;
    JsonWriter w(out_.buffer());
    auto floats = [&](std::string_view key, const std::vector<float>& v) { w.number_array(key, v.size(), [&](std::size_t i) { return v[i]; }); };
    w.begin_object();
    write_json_header(w, "drive", run_.input);
    w.member("rig", rig_).member_or_null("clip", run_.clip != nullptr, run_.clip ? std::string_view(run_.clip->name) : std::string_view());
    w.member("fps", run_.fps).key(k::frames).begin_array();
    for (const Frame& f : frames) w.frame(f);
    w.end_array().number_array(k::times, frames.size(), [&](std::size_t i) { return frames[i].time; });
    w.key(k::controls).begin_array();
    for (std::size_t c = 0; c < controls_.size(); ++c) {
        w.begin_object().member("control", controls_[c].control).member("node", controls_[c].node);
        floats(k::x, xy_[2 * c]);
        floats(k::y, xy_[2 * c + 1]);
        w.end_object();
    }
    w.end_array().key(k::series).begin_array();
    for (std::size_t s = 0; s < series_.size(); ++s) {
        w.begin_object().member("control", series_[s].controls).member(k::mesh, series_[s].mesh).member("target", series_[s].target);
        floats(k::weights, weights_[s]);
        w.end_object();
        out_.maybe_flush();
    }
    w.end_array().end_object();
    out_.buffer() += '\n';
}

}  // namespace rigscope
