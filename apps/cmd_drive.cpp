// `rigscope drive`: a rig's joystick controls evaluated per frame into morph weights, as CSV,
// JSON, or the input scene as glTF with the weights baked into its animation (drivers do not
// survive export; baked weights play in any glTF viewer).
#include <algorithm>
#include <memory>
#include <spdlog/spdlog.h>

#include "cli_common.h"
#include "commands.h"
#include "rigscope/error.h"
#include "rigscope/joystick.h"
#include "rigscope/output.h"
#include "rigscope/pose.h"

// The glTF writer lands separately; until it does, drive writes CSV and JSON only.
#include "rigscope/gltf_writer.h"

namespace rigscope::cli {

namespace {

struct DriveOptions {
    InputOptions input;
    std::string out = "-";
    std::string format;
};

// One output series: a driven target of a selected mesh and the controls that drive it.
struct Series {
    DrivenTarget target;
    std::string controls;  // names joined by '+' when several controls add into one target
};

std::vector<Series> series_of(const Input& in) {
    std::vector<Series> out;
    for (const DrivenTarget& d : in.rig.driven) {
        if (std::find(in.meshes.begin(), in.meshes.end(), d.mesh) == in.meshes.end()) continue;
        Series s{d, ""};
        for (const ResolvedControl& c : in.rig.controls)
            for (const auto& m : c.meshes)
                if (m.mesh == d.mesh && std::find(m.targets.begin(), m.targets.end(), d.target) != m.targets.end()) {
                    s.controls += (s.controls.empty() ? "" : "+") + c.name;
                    break;
                }
        out.push_back(std::move(s));
    }
    return out;
}

void append_frame(std::string& buf, const Frame& f) {
    if (f.bind) buf += "\"bind\"";
    else append_number(buf, f.number);
}

int write_table(const DriveOptions& opt, const Input& in, bool csv) {
    const std::vector<Series> series = series_of(in);
    OutputFile out(opt.out, in.paths);
    std::string& buf = out.buffer();
    if (csv) buf += "frame,time,control,mesh,target,weight\n";
    // JSON is written as series (one array per target over the frames), so gather first; the
    // values are a few floats per frame.
    std::vector<std::vector<float>> weights(series.size());
    std::vector<std::vector<float>> xy(in.rig.controls.size() * 2);
    Pose pose = bind_pose(in.scene);
    Progress progress(in.frames.size(), "drive");
    for (std::size_t fi = 0; fi < in.frames.size(); ++fi) {
        const Frame& f = in.frames[fi];
        pose_at(in, f, pose);
        for (std::size_t s = 0; s < series.size(); ++s) {
            const float w = pose.morph_weights[series[s].target.mesh][series[s].target.target];
            if (!csv) {
                weights[s].push_back(w);
                continue;
            }
            if (f.bind) buf += "bind"; else append_number(buf, f.number);
            buf += ',';
            append_number(buf, f.time);
            buf += ',';
            append_csv_field(buf, series[s].controls);
            buf += ',';
            const Mesh& mesh = in.scene.meshes[series[s].target.mesh];
            append_csv_field(buf, mesh.name);
            buf += ',';
            append_csv_field(buf, mesh.targets[series[s].target.target].name);
            buf += ',';
            append_number(buf, w);
            buf += '\n';
        }
        if (!csv)
            for (std::size_t c = 0; c < in.rig.controls.size(); ++c) {
                const auto v = control_xy(in.rig.controls[c], in.scene, pose);
                xy[2 * c].push_back(static_cast<float>(v[0]));
                xy[2 * c + 1].push_back(static_cast<float>(v[1]));
            }
        out.maybe_flush();
        progress.step(fi + 1);
    }
    progress.finish();
    if (!csv) {
        buf += "{\"input\":";
        append_json_string(buf, opt.input.file);
        buf += ",\"rig\":";
        append_json_string(buf, opt.input.rig);
        buf += ",\"clip\":";
        if (in.has_clip) append_json_string(buf, in.clip.name); else buf += "null";
        buf += ",\"fps\":";
        append_number(buf, in.fps);
        buf += ",\"frames\":[";
        for (std::size_t fi = 0; fi < in.frames.size(); ++fi) {
            if (fi) buf += ',';
            append_frame(buf, in.frames[fi]);
        }
        buf += "],\"times\":[";
        for (std::size_t fi = 0; fi < in.frames.size(); ++fi) {
            if (fi) buf += ',';
            append_number(buf, in.frames[fi].time);
        }
        buf += "],\"controls\":[";
        for (std::size_t c = 0; c < in.rig.controls.size(); ++c) {
            const ResolvedControl& rc = in.rig.controls[c];
            buf += c ? ",{\"control\":" : "{\"control\":";
            append_json_string(buf, rc.name);
            buf += ",\"node\":";
            append_json_string(buf, in.scene.nodes[rc.node].name);
            for (int a = 0; a < 2; ++a) {
                buf += a ? "],\"y\":[" : ",\"x\":[";
                for (std::size_t fi = 0; fi < xy[2 * c + a].size(); ++fi) {
                    if (fi) buf += ',';
                    append_number(buf, xy[2 * c + a][fi]);
                }
            }
            buf += "]}";
        }
        buf += "],\"series\":[";
        for (std::size_t s = 0; s < series.size(); ++s) {
            const Mesh& mesh = in.scene.meshes[series[s].target.mesh];
            buf += s ? ",{\"control\":" : "{\"control\":";
            append_json_string(buf, series[s].controls);
            buf += ",\"mesh\":";
            append_json_string(buf, mesh.name);
            buf += ",\"target\":";
            append_json_string(buf, mesh.targets[series[s].target.target].name);
            buf += ",\"weights\":[";
            for (std::size_t fi = 0; fi < weights[s].size(); ++fi) {
                if (fi) buf += ',';
                append_number(buf, weights[s][fi]);
            }
            buf += "]}";
            out.maybe_flush();
        }
        buf += "]}\n";
    }
    out.commit();
    return kExitOk;
}

int write_baked_gltf(const DriveOptions& opt, const Input& in) {
    // glTF keys need strictly increasing times and have no place for the bind pose.
    std::vector<double> times;
    bool skipped_bind = false;
    for (const Frame& f : in.frames) {
        if (f.bind) skipped_bind = true;
        else times.push_back(f.time);
    }
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end(),
                            [](double a, double b) { return static_cast<float>(a) == static_cast<float>(b); }),
                times.end());
    if (times.empty()) throw Error(kExitUsage, "drive --format gltf: no animation frame selected (the bind pose cannot be keyed)");
    if (skipped_bind) spdlog::warn("drive --format gltf: the bind pose has no time on the timeline; left out of the animation");

    Scene baked = in.scene;
    std::vector<std::string> warnings;
    const std::string name = in.has_clip ? in.clip.name : "rig";
    Clip clip = bake_rig(in.rig, in.scene, in.clip_ptr(), times, name, warnings);
    for (const auto& w : warnings) spdlog::warn("{}", w);
    // The selected clip is replaced where the scene holds it, so other clips keep their place; a
    // retargeted clip (--animation) or none at all becomes a clip of its own.
    auto same = std::find_if(baked.clips.begin(), baked.clips.end(), [&](const Clip& c) { return c.name == in.clip.name; });
    if (in.has_clip && opt.input.animation.empty() && same != baked.clips.end()) *same = std::move(clip);
    else baked.clips.push_back(std::move(clip));

    OutputFile out(opt.out, in.paths);
    write_glb(baked, {}, out);
    out.commit();
    return kExitOk;
}

int run_drive(const DriveOptions& opt) {
    const std::string format = output_format(opt.format, opt.out, "csv");
    if (format != "csv" && format != "json" && format != "gltf") throw Error(kExitUsage, "drive writes csv, json or gltf, not " + format);
    if (opt.input.rig.empty()) throw Error(kExitUsage, "drive needs --rig RIG.json (see docs/rig.md)");
    const Input in = load_input(opt.input);
    if (format == "gltf") return write_baked_gltf(opt, in);
    return write_table(opt, in, format == "csv");
}

}  // namespace

void add_drive_command(CLI::App& app, Runner& run) {
    auto opt = std::make_shared<DriveOptions>();
    CLI::App* cmd = app.add_subcommand("drive", "Joystick controls (--rig) evaluated into morph weights: CSV, JSON or baked glTF");
    add_input_options(cmd, opt->input);
    cmd->add_option("-o,--output", opt->out, "Output file (.csv, .json, .glb) or - for stdout");
    cmd->add_option("--format", opt->format, "csv, json or gltf (default: from -o's extension, else csv)")
        ->check(CLI::IsMember({"csv", "json", "gltf"}));
    cmd->callback([&run, opt] { run = [opt] { return run_drive(*opt); }; });
}

RIGSCOPE_REGISTER_COMMAND(5, add_drive_command);

}  // namespace rigscope::cli
