// `rigscope deform`: deformed positions per frame as CSV or JSON.
#include <memory>

#include "cli_common.h"
#include "commands.h"
#include "rigscope/run/deform_run.h"

namespace rigscope::cli {

namespace {

int run_deform_command(DeformJobOptions opt) {
    opt.format = output_format(opt.format, opt.out, "csv");
    load_and_run_deform(opt, terminal_progress("deform"));
    return kExitOk;
}

}  // namespace

void add_deform_command(CLI::App& app, Runner& run) {
    auto opt = std::make_shared<DeformJobOptions>();
    opt->format.clear();  // from -o's extension unless --format names one
    CLI::App* cmd = app.add_subcommand("deform", "Deformed vertex positions per frame (CSV or JSON)");
    add_input_options(cmd, opt->input);
    add_skinning_option(cmd, opt->input);
    cmd->add_option("-o,--output", opt->out, "Output file (.csv, .json; .usda: the points over a USD input) or - for stdout");
    cmd->add_option("--format", opt->format, "csv, json or usda (default: from -o's extension, else csv)")
        ->check(CLI::IsMember({"csv", "json", "usda"}));
    cmd->add_option("--axes", opt->axes, "Positions in the file's axes ('file', default) or turned to glTF's Y-up ('y-up'); info says which the file has")
        ->check(CLI::IsMember({"file", "y-up"}));
    cmd->callback([&run, opt] { run = [opt](RunContext&) { return run_deform_command(*opt); }; });
}

RIGSCOPE_REGISTER_COMMAND(1, add_deform_command);

}  // namespace rigscope::cli
