// `rigscope deform`: deformed positions per frame as CSV or JSON.
#include <memory>

#include "cli_common.h"
#include "commands.h"
#include "rigscope/error.h"
#include "rigscope/output.h"
#include "rigscope/pose.h"
#include "rigscope/skin.h"

namespace rigscope::cli {

namespace {

struct DeformOptions {
    InputOptions input;
    std::string out = "-";
    std::string format;
};

int run_deform(const DeformOptions& opt) {
    const std::string format = output_format(opt.format, opt.out, "csv");
    if (format != "csv" && format != "json") throw Error(kExitUsage, "deform writes csv or json, not " + format);
    Input in = load_input(opt.input);
    OutputFile out(opt.out, in.paths);
    std::string& buf = out.buffer();
    const bool csv = format == "csv";
    if (csv) {
        buf += "frame,time,mesh,vertex,x,y,z\n";
    } else {
        buf += "{\"input\":";
        append_json_string(buf, opt.input.file);
        buf += ",\"clip\":";
        if (in.has_clip) append_json_string(buf, in.clip.name); else buf += "null";
        buf += ",\"fps\":";
        append_number(buf, in.fps);
        buf += ",\"frames\":[";
    }
    Pose pose = bind_pose(in.scene);
    std::vector<Eigen::Vector3f> pos;
    Progress progress(in.frames.size(), "deform");
    for (std::size_t fi = 0; fi < in.frames.size(); ++fi) {
        const Frame& f = in.frames[fi];
        pose_at(in, f, pose);
        if (!csv) {
            buf += fi ? ",{\"frame\":" : "{\"frame\":";
            if (f.bind) buf += "\"bind\""; else append_number(buf, f.number);
            buf += ",\"time\":";
            append_number(buf, f.time);
            buf += ",\"meshes\":[";
        }
        for (std::size_t mi = 0; mi < in.meshes.size(); ++mi) {
            const int m = in.meshes[mi];
            deform_mesh(in.scene, m, pose, pos);
            const std::string& name = in.scene.meshes[m].name;
            if (csv) {
                std::string prefix;
                if (f.bind) prefix = "bind"; else append_number(prefix, f.number);
                prefix += ',';
                append_number(prefix, f.time);
                prefix += ',';
                append_csv_field(prefix, name);
                prefix += ',';
                for (std::size_t v = 0; v < pos.size(); ++v) {
                    buf += prefix;
                    append_number(buf, static_cast<unsigned long>(v));
                    for (int c = 0; c < 3; ++c) {
                        buf += ',';
                        append_number(buf, pos[v][c]);
                    }
                    buf += '\n';
                    out.maybe_flush();
                }
            } else {
                buf += mi ? ",{\"mesh\":" : "{\"mesh\":";
                append_json_string(buf, name);
                buf += ",\"positions\":[";
                for (std::size_t v = 0; v < pos.size(); ++v) {
                    buf += v ? ",[" : "[";
                    for (int c = 0; c < 3; ++c) {
                        if (c) buf += ',';
                        append_number(buf, pos[v][c]);
                    }
                    buf += ']';
                    out.maybe_flush();
                }
                buf += "]}";
            }
        }
        if (!csv) buf += "]}";
        progress.step(fi + 1);
    }
    if (!csv) buf += "]}\n";
    progress.finish();
    out.commit();
    return kExitOk;
}

}  // namespace

void add_deform_command(CLI::App& app, Runner& run) {
    auto opt = std::make_shared<DeformOptions>();
    CLI::App* cmd = app.add_subcommand("deform", "Deformed vertex positions per frame (CSV or JSON)");
    add_input_options(cmd, opt->input);
    cmd->add_option("-o,--output", opt->out, "Output file (.csv, .json) or - for stdout");
    cmd->add_option("--format", opt->format, "csv or json (default: from -o's extension, else csv)")
        ->check(CLI::IsMember({"csv", "json"}));
    cmd->callback([&run, opt] { run = [opt] { return run_deform(*opt); }; });
}

RIGSCOPE_REGISTER_COMMAND(1, add_deform_command);

}  // namespace rigscope::cli
