// `rigscope info`: what a file holds, as text or JSON (like `gltf-transform inspect`).
#include <memory>

#include "cli_common.h"
#include "commands.h"
#include "rigscope/core/error.h"
#include "rigscope/io/info_report.h"
#include "rigscope/io/output.h"

namespace rigscope::cli {

namespace {

struct InfoOptions {
    InputOptions input;
    bool json = false;
    std::string out = "-";
};

int run_info(const InfoOptions& opt) {
    const Input in = load_input(opt.input, false);
    OutputFile out(opt.out, in.paths);
    // -o info.json asks for JSON as plainly as --json does.
    const bool json = opt.json || extension_format(opt.out) == "json";
    if (const std::string ext = extension_format(opt.out); json && !ext.empty() && ext != "json")
        throw Error(kExitUsage, opt.out + ": the extension says " + (ext[0] == '.' ? ext.substr(1) : ext) + " but --json says json");
    out.write(json ? info_json(in.scene, in.meshes, in.weld) : info_text(in.scene, in.meshes, in.weld));
    out.commit();
    return kExitOk;
}
}  // namespace

void add_info_command(CLI::App& app, Runner& run) {
    auto opt = std::make_shared<InfoOptions>();
    CLI::App* cmd = app.add_subcommand("info", "What a file holds: meshes, skins, clips, units, warnings");
    add_input_options(cmd, opt->input, false);
    add_weld_option(cmd, opt->input);
    cmd->add_flag("--json", opt->json, "JSON instead of text");
    cmd->add_option("-o,--output", opt->out, "Output file or - for stdout; a .json name writes JSON");
    cmd->callback([&run, opt] { run = [opt](RunContext&) { return run_info(*opt); }; });
}

RIGSCOPE_REGISTER_COMMAND(0, add_info_command);

}  // namespace rigscope::cli
