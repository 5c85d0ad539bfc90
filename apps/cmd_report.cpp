// `rigscope report`: one self-contained HTML page with the animated tension map, the worst
// vertices and their T over time (docs: README, "The HTML report").
#include <memory>

#include "commands.h"
#include "report_page.h"
#include "rigscope/core/error.h"

namespace rigscope::cli {

namespace {

struct ReportCommand {
    TensionOptions tension;
    ReportOptions report;
};

int run_report(const ReportCommand& opt) {
    if (opt.report.out.empty()) throw Error(kExitUsage, "report needs -o FILE.html");
    Input in = load_input(opt.tension.input);
    std::vector<MeshTension> meshes = prepare_tension(in, opt.tension);
    ReportPage page(opt.report, in);
    page.write(in, meshes, describe_run(in, opt.tension), nullptr);
    return kExitOk;
}

}  // namespace

void add_report_options(CLI::App* cmd, ReportOptions& opt, bool with_worst) {
    if (with_worst)
        cmd->add_option("--worst", opt.worst, "Rows of the worst-vertex table: the vertices farthest from T = 1 (default 10)")
            ->check(CLI::PositiveNumber);
    cmd->add_option("--max-size", opt.max_mb, "Page size budget in MB (10^6 bytes, default 40); beyond it frames are subsampled")
        ->check(CLI::Range(0.5, 4096.0));
}

void add_report_command(CLI::App& app, Runner& run) {
    auto opt = std::make_shared<ReportCommand>();
    CLI::App* cmd = app.add_subcommand("report", "Self-contained HTML page: animated tension map, worst vertices, T over time");
    add_tension_options(cmd, opt->tension);
    add_report_options(cmd, opt->report, true);
    cmd->add_option("-o,--output", opt->report.out, "The page to write (.html)")->required();
    cmd->callback([&run, opt] { run = [opt](RunContext&) { return run_report(*opt); }; });
}

RIGSCOPE_REGISTER_COMMAND(7, add_report_command);

}  // namespace rigscope::cli
