// `rigscope deform`: deformed positions per frame as CSV or JSON.
#include <memory>

#include "cli_common.h"
#include "commands.h"
#include "rigscope/core/error.h"
#include "rigscope/io/deform_output.h"
#include "rigscope/run/deform_run.h"

namespace rigscope::cli {

namespace {

struct DeformOptions {
    InputOptions input;
    std::string out = "-";
    std::string format;
    std::string axes = "file";
};

int run_deform(const DeformOptions& opt) {
    const std::string format = output_format(opt.format, opt.out, "csv");
    if (format != "csv" && format != "json") throw Error(kExitUsage, "deform writes csv or json, not " + format);
    const Input in = load_input(opt.input);
    std::vector<std::pair<std::string, std::size_t>> sizes;
    for (int m : in.meshes) sizes.emplace_back(in.scene.meshes[m].name, in.scene.meshes[m].vertex_count());
    // Refused before a byte is written when the least it takes is past the folder's free space.
    check_free_space(opt.out, deform_output_min_bytes(format == "csv", sizes, in.frames.size()));
    OutputFile out(opt.out, in.paths);
    DeformWriter writer(out, format == "csv", run_info(in, opt.input.file));
    DeformRun deform(in, parse_axes_option(opt.axes));
    std::vector<std::string> names;
    std::vector<const std::vector<Eigen::Vector3f>*> positions;
    for (std::size_t i = 0; i < in.meshes.size(); ++i) {
        names.push_back(in.scene.meshes[in.meshes[i]].name);
        positions.push_back(&deform.positions(i));
    }
    deform.for_each_frame([&](std::size_t fi) { writer.frame(in.frames[fi], names, positions); }, terminal_progress("deform"));
    writer.end();
    out.commit();
    return kExitOk;
}

}  // namespace

void add_deform_command(CLI::App& app, Runner& run) {
    auto opt = std::make_shared<DeformOptions>();
    CLI::App* cmd = app.add_subcommand("deform", "Deformed vertex positions per frame (CSV or JSON)");
    add_input_options(cmd, opt->input);
    add_skinning_option(cmd, opt->input);
    cmd->add_option("-o,--output", opt->out, "Output file (.csv, .json) or - for stdout");
    cmd->add_option("--format", opt->format, "csv or json (default: from -o's extension, else csv)")
        ->check(CLI::IsMember({"csv", "json"}));
    cmd->add_option("--axes", opt->axes, "Positions in the file's axes ('file', default) or turned to glTF's Y-up ('y-up'); info says which the file has")
        ->check(CLI::IsMember({"file", "y-up"}));
    cmd->callback([&run, opt] { run = [opt](RunContext&) { return run_deform(*opt); }; });
}

RIGSCOPE_REGISTER_COMMAND(1, add_deform_command);

}  // namespace rigscope::cli
