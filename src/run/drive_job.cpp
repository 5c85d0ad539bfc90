// The `drive` job (run/drive_job.h): the refusals, the table writer, and the baked glTF (drivers
// do not survive export; baked weights play in any glTF viewer).
#include <algorithm>
#include <spdlog/spdlog.h>

#include "rigscope/core/error.h"
#include "rigscope/core/joystick.h"
#include "rigscope/io/gltf_writer.h"
#include "rigscope/io/output.h"
#include "rigscope/run/drive_engine.h"
#include "rigscope/run/drive_job.h"
#include "rigscope/run/output_formats.h"

namespace rigscope {

void DriveJobOptions::validate() const {
    check_verb_format("drive", format);
    if (input.rig.empty()) throw Error(kExitUsage, "drive needs --rig RIG.json (see docs/rig.md)");
    // The baked file is the whole scene, every driven mesh in it: --mesh only selects table rows.
    if (format == "gltf" && !input.mesh.empty())
        throw Error(kExitUsage, "--mesh selects the rows of CSV and JSON; drive --format gltf bakes every driven mesh of the scene");
}

namespace {

DriveJobResult write_table(const DriveJobOptions& opt, const Input& in, const FrameProgress& progress) {
    OutputFile out(opt.out, in.paths);
    DriveEngine drive(in);
    DriveWriter writer(out, opt.format == "csv", output_run_info(in, opt.input.file), opt.input.rig, drive.series(), drive.controls());
    drive.for_each_frame([&](std::size_t fi) { writer.frame(in.frames[fi], drive.weights(), drive.xy()); }, progress);
    writer.end();
    out.commit();
    return {in.frames.size(), drive.series().size()};
}

DriveJobResult write_baked_gltf(const DriveJobOptions& opt, const Input& in) {
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
    std::vector<Warning> warnings;
    const std::string name = in.has_clip ? in.clip.name : "rig";
    Clip clip = bake_rig(in.rig, in.scene, in.clip_ptr(), times, name, warnings);
    for (const auto& w : warnings) spdlog::warn("{}", w.message);
    // The selected clip is replaced where the scene holds it, so other clips keep their place; a
    // retargeted clip (--animation) or none at all becomes a clip of its own.
    auto same = std::find_if(baked.clips.begin(), baked.clips.end(), [&](const Clip& c) { return c.name == in.clip.name; });
    if (in.has_clip && opt.input.animation.empty() && same != baked.clips.end()) *same = std::move(clip);
    else baked.clips.push_back(std::move(clip));

    OutputFile out(opt.out, in.paths);
    write_glb(baked, {}, out);
    out.commit();
    return {times.size(), in.rig.driven.size()};
}

}  // namespace

DriveJobResult run_drive(const DriveJobOptions& opt, const Input& in, const FrameProgress& progress) {
    opt.validate();  // a caller with its own loaded input (Python) gets the same refusals
    refuse_outputs_over_inputs(in, {opt.out});
    return opt.format == "gltf" ? write_baked_gltf(opt, in) : write_table(opt, in, progress);
}

DriveJobResult load_and_run_drive(const DriveJobOptions& opt, const FrameProgress& progress) {
    opt.validate();
    const Input in = load_input(opt.input);
    return run_drive(opt, in, progress);
}

}  // namespace rigscope
