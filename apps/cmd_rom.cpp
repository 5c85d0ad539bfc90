// `rigscope rom FILE`: the synthetic range-of-motion clip that --rom evaluates, listed (which
// frames sweep which joint and axis) and, with -o, written as a glTF animation of the file. The
// job is the run layer's (rigscope/run/rom_job.h).
#include <memory>

#include "option_table_cli.h"
#include "rigscope/core/error.h"
#include "rigscope/io/output.h"
#include "rigscope/run/rom_job.h"
#include "verb_command.h"

namespace rigscope::cli {

namespace {

struct RomCommand {
    RomJobOptions job;
};

int run_rom_command(const RomCommand& opt, RunContext&) {
    const RomJobResult r = load_and_run_rom(opt.job);
    OutputFile listing("-");
    listing.write(opt.job.listing == "json" ? r.json : r.text);
    listing.commit();
    return kExitOk;
}

}  // namespace

void add_rom_command(CLI::App& app, Runner& run) {
    auto opt = std::make_shared<RomCommand>();
    InputOptions& input = opt->job.input;
    CLI::App* cmd = app.add_subcommand("rom", "Range-of-motion clip: list its sweeps, and with -o write it as a glTF animation");
    input.rom = true;
    add_table_options(cmd, rom_input_options(), input);
    add_table_options(cmd, rom_options(), opt->job);
    run_when_chosen(cmd, run, opt, run_rom_command);
}

RIGSCOPE_REGISTER_COMMAND(7, add_rom_command);

}  // namespace rigscope::cli
