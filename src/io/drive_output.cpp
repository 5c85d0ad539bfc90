#include "rigscope/io/drive_output.h"

namespace rigscope {

namespace {

void append_floats(std::string& buf, const std::vector<float>& v) {
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i) buf += ',';
        append_number(buf, v[i]);
    }
}

}  // namespace

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
        append_frame(buf, f, false);
        buf += ',';
        append_number(buf, f.time);
        buf += ',';
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
    std::string& buf = out_.buffer();
    const std::vector<Frame>& frames = *run_.frames;
    buf += "{\"input\":";
    append_json_string(buf, run_.input);
    buf += ",\"rig\":";
    append_json_string(buf, rig_);
    buf += ",\"clip\":";
    if (run_.clip) append_json_string(buf, run_.clip->name); else buf += "null";
    buf += ",\"fps\":";
    append_number(buf, run_.fps);
    buf += ",\"frames\":[";
    for (std::size_t fi = 0; fi < frames.size(); ++fi) {
        if (fi) buf += ',';
        append_frame(buf, frames[fi], true);
    }
    buf += "],\"times\":[";
    for (std::size_t fi = 0; fi < frames.size(); ++fi) {
        if (fi) buf += ',';
        append_number(buf, frames[fi].time);
    }
    buf += "],\"controls\":[";
    for (std::size_t c = 0; c < controls_.size(); ++c) {
        buf += c ? ",{\"control\":" : "{\"control\":";
        append_json_string(buf, controls_[c].control);
        buf += ",\"node\":";
        append_json_string(buf, controls_[c].node);
        buf += ",\"x\":[";
        append_floats(buf, xy_[2 * c]);
        buf += "],\"y\":[";
        append_floats(buf, xy_[2 * c + 1]);
        buf += "]}";
    }
    buf += "],\"series\":[";
    for (std::size_t s = 0; s < series_.size(); ++s) {
        buf += s ? ",{\"control\":" : "{\"control\":";
        append_json_string(buf, series_[s].controls);
        buf += ",\"mesh\":";
        append_json_string(buf, series_[s].mesh);
        buf += ",\"target\":";
        append_json_string(buf, series_[s].target);
        buf += ",\"weights\":[";
        append_floats(buf, weights_[s]);
        buf += "]}";
        out_.maybe_flush();
    }
    buf += "]}\n";
}

}  // namespace rigscope
