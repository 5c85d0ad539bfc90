// `rigscope rom FILE`: the synthetic range-of-motion clip that --rom evaluates, listed (which
// frames sweep which joint and axis) and, with -o, written as a glTF animation of the file.
#include <memory>

#include "cli_common.h"
#include "commands.h"
#include "rigscope/core/error.h"
#include "rigscope/io/output.h"
#include "rigscope/io/rom_writer.h"

namespace rigscope::cli {

namespace {

struct RomCommand {
    InputOptions input;
    std::string out;
    std::string list_format = "text";
};

int run_rom(const RomCommand& opt) {
    InputOptions io = opt.input;
    io.rom = true;
    if (!opt.out.empty() && output_format("", opt.out, "gltf") != "gltf")
        throw Error(kExitUsage, opt.out + ": rom writes glTF (.glb)");
    Input in = load_input(io);
    std::unique_ptr<OutputFile> glb = opt.out.empty() ? nullptr : std::make_unique<OutputFile>(opt.out, in.paths);
    if (glb) {
        write_rom_glb(in.scene, in.rom, *glb);
        glb->finish();
    }
    OutputFile listing("-");
    listing.write(opt.list_format == "json" ? rom_listing_json(in.scene, in.rom) : rom_listing(in.scene, in.rom));
    listing.commit();
    if (glb) glb->commit();
    return kExitOk;
}

}  // namespace

void add_rom_command(CLI::App& app, Runner& run) {
    auto opt = std::make_shared<RomCommand>();
    CLI::App* cmd = app.add_subcommand("rom", "Range-of-motion clip: list its sweeps, and with -o write it as a glTF animation");
    opt->input.rom = true;
    cmd->add_option("FILE", opt->input.file, "Skinned mesh (.fbx, .gltf, .glb, .dae)")->required();
    cmd->add_option("--fps", opt->input.fps, "Frame rate of the clip (default: the file's, else 24)")->check(CLI::PositiveNumber);
    cmd->add_option("--rom-angle", opt->input.rom_options.angle_deg, "Sweep each joint axis to +/- this many degrees (default 60)");
    cmd->add_option("--rom-frames", opt->input.rom_options.frames_per_sweep, "Frames per joint-axis sweep, a multiple of 4 (default 24)");
    cmd->add_option("--joints", opt->input.joints, "Sweep only these joints (comma-separated names)");
    cmd->add_option("--max-memory", opt->input.max_memory_mib, "Refuse files whose arrays need more than this (MiB)")
        ->check(CLI::PositiveNumber);
    cmd->add_option("-o,--output", opt->out, "Write the clip here as glTF (.glb)");
    cmd->add_option("--list", opt->list_format, "Listing on stdout: text or json")->check(CLI::IsMember({"text", "json"}));
    cmd->callback([&run, opt] { run = [opt](RunContext&) { return run_rom(*opt); }; });
}

RIGSCOPE_REGISTER_COMMAND(7, add_rom_command);

}  // namespace rigscope::cli
