// `rigscope drive`: a rig's joystick controls evaluated per frame into morph weights, as CSV,
// JSON, or the input scene as glTF with the weights baked into its animation (drivers do not
// survive export; baked weights play in any glTF viewer).
#include <algorithm>
#include <memory>
#include <spdlog/spdlog.h>

#include "cli_common.h"
#include "commands.h"
#include "rigscope/core/error.h"
#include "rigscope/core/joystick.h"
#include "rigscope/io/gltf_writer.h"
#include "rigscope/run/drive_run.h"

namespace rigscope::cli {

namespace {

struct DriveOptions {
    InputOptions input;
    std::string out = "-";
    std::string format;
};

int write_table(const DriveOptions& opt, const Input& in, bool csv) {
    OutputFile out(opt.out, in.paths);
    DriveRun drive(in);
    DriveWriter writer(out, csv, run_info(in, opt.input.file), opt.input.rig, drive.series(), drive.controls());
    drive.for_each_frame([&](std::size_t fi) { writer.frame(in.frames[fi], drive.weights(), drive.xy()); }, terminal_progress("drive"));
    writer.end();
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
    // The baked file is the whole scene, every driven mesh in it: --mesh only selects table rows.
    if (format == "gltf" && !opt.input.mesh.empty())
        throw Error(kExitUsage, "--mesh selects the rows of CSV and JSON; drive --format gltf bakes every driven mesh of the scene");
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
    cmd->callback([&run, opt] { run = [opt](RunContext&) { return run_drive(*opt); }; });
}

RIGSCOPE_REGISTER_COMMAND(5, add_drive_command);

}  // namespace rigscope::cli
