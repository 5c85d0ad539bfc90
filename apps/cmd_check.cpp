// `rigscope check`: tension limits for rig CI. Exit 1 when any vertex passes a limit, listing the
// worst vertices and frames; --junit writes a report CI servers read.
#include <chrono>
#include <algorithm>
#include <memory>

#include "commands.h"
#include "rigscope/farm/check_chunk.h"
#include "rigscope/core/error.h"
#include "rigscope/io/output.h"
#include "report_page.h"
#include "tension_setup.h"

namespace rigscope::cli {

namespace {

struct CheckCommand {
    TensionOptions tension;
    double max_stretch = 0;    // fail where T < this
    double max_compress = 0;   // fail where T > this
    bool has_stretch = false, has_compress = false;
    double max_lambda = 0, min_lambda = 0;  // principal: fail where lambda_max > / lambda_min < this
    bool has_max_lambda = false, has_min_lambda = false;
    std::string junit;
    int worst = 10;
    ReportOptions html;  // --html: the HTML report with the verdict and limits
};

struct Extreme {
    float t;
    Frame frame;
};

int run_check(const CheckCommand& opt, RunContext& ctx) {
    if (!opt.has_stretch && !opt.has_compress && !opt.has_max_lambda && !opt.has_min_lambda)
        throw Error(kExitUsage, "check needs --max-stretch, --max-compress, --max-lambda and/or --min-lambda");
    if ((opt.has_max_lambda || opt.has_min_lambda) && opt.tension.measure != "principal")
        throw Error(kExitUsage, "--max-lambda and --min-lambda need --measure principal");
    CheckRunInfo info = start_run_info();
    const auto started = std::chrono::steady_clock::now();
    // Limits on lambda are limits on T = 1 / lambda (the report lists T): lambda_max > L is
    // T_s < 1/L, lambda_min < L is T_c > 1/L. With both a T and a lambda limit, the stricter.
    double max_stretch = opt.max_stretch, max_compress = opt.max_compress;
    if (opt.has_max_lambda) max_stretch = opt.has_stretch ? std::max(max_stretch, 1.0 / opt.max_lambda) : 1.0 / opt.max_lambda;
    if (opt.has_min_lambda) max_compress = opt.has_compress ? std::min(max_compress, 1.0 / opt.min_lambda) : 1.0 / opt.min_lambda;
    const CheckLimits limits{max_stretch,      max_compress, opt.has_stretch || opt.has_max_lambda,
                             opt.has_compress || opt.has_min_lambda, opt.worst, opt.tension.input.file};
    Input in = load_input(opt.tension.input);
    std::vector<MeshTension> meshes = prepare_tension(in, opt.tension);
    std::unique_ptr<ReportPage> html = opt.html.out.empty() ? nullptr : std::make_unique<ReportPage>(opt.html, in);
    // Per welded vertex, the lowest and highest T seen and where: enough to rank violations
    // without keeping any frame.
    std::vector<std::vector<Extreme>> lo(meshes.size()), hi(meshes.size());
    std::vector<char> frame_failed(in.frames.size(), 0);  // for --rom: which sweeps failed
    for_each_tension_frame(in, meshes, "check", [&](std::size_t fi) {
        const Frame& f = in.frames[fi];
        for (const MeshTension& mt : meshes) {
            if (limits.has_stretch)
                for (float t : mt.stretch_t()) frame_failed[fi] |= t < limits.max_stretch;
            if (limits.has_compress)
                for (float t : mt.compress_t()) frame_failed[fi] |= t > limits.max_compress;
        }
        for (std::size_t m = 0; m < meshes.size(); ++m) {
            // The measure's T: stretch side for the lows, compress side for the highs (one T
            // for edge and area).
            const auto& ts = meshes[m].stretch_t();
            const auto& tc = meshes[m].compress_t();
            if (lo[m].empty()) {
                lo[m].assign(ts.size(), Extreme{1.0f, f});
                hi[m] = lo[m];
                for (std::size_t w = 0; w < ts.size(); ++w) {
                    lo[m][w] = Extreme{ts[w], f};
                    hi[m][w] = Extreme{tc[w], f};
                }
                continue;
            }
            for (std::size_t w = 0; w < ts.size(); ++w) {
                if (ts[w] < lo[m][w].t) lo[m][w] = Extreme{ts[w], f};
                if (tc[w] > hi[m][w].t) hi[m][w] = Extreme{tc[w], f};
            }
        }
    });
    std::vector<CheckMeshExtremes> extremes(meshes.size());
    for (std::size_t m = 0; m < meshes.size(); ++m) {
        CheckMeshExtremes& e = extremes[m];
        e.name = in.scene.meshes[meshes[m].mesh].name;
        if (!lo[m].empty()) set_file_ids(e, meshes[m].topo.welded_of, lo[m].size());
        for (std::size_t w = 0; w < lo[m].size(); ++w) {
            e.lo_t.push_back(lo[m][w].t);
            e.lo_frame.push_back(lo[m][w].frame);
            e.hi_t.push_back(hi[m][w].t);
            e.hi_frame.push_back(hi[m][w].frame);
        }
    }
    // A chunk sees only its frames: its extremes go to the chunk record, and `merge` reports
    // over all chunks as one run would.
    info.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::unique_ptr<CheckRom> rom;
    if (in.has_rom) rom = std::make_unique<CheckRom>(CheckRom{in.rom, in.frames, std::move(frame_failed)});
    if (!opt.tension.input.chunk.empty())
        for (auto& state : check_chunk_state(limits, info, extremes, rom.get())) ctx.chunk_state.push_back(std::move(state));
    const CheckOutcome outcome = check_outcome(limits, info, extremes, rom.get());
    // The JUnit path is checked (not an input, folder writable) before the report is printed.
    std::unique_ptr<OutputFile> junit = opt.junit.empty() ? nullptr : std::make_unique<OutputFile>(opt.junit, in.paths);
    OutputFile out("-");
    out.write(outcome.report);
    out.commit();
    if (junit) {
        junit->write(outcome.junit);
        junit->commit();
    }
    if (html) {
        html->write(in, meshes, describe_run(in, opt.tension), &limits);
    }
    const bool failed = outcome.failed;
    // A chunk's verdict is partial (merge gives the run's); failing it would stop the farm's merge.
    return failed && opt.tension.input.chunk.empty() ? kExitCheckFailed : kExitOk;
}

}  // namespace

void add_check_command(CLI::App& app, Runner& run) {
    auto opt = std::make_shared<CheckCommand>();
    CLI::App* cmd = app.add_subcommand("check", "Rig CI: exit 1 when any vertex's T passes a limit");
    add_tension_options(cmd, opt->tension);
    cmd->add_option("--max-stretch", opt->max_stretch, "Fail where T falls below this (e.g. 0.7)")
        ->check(CLI::PositiveNumber)
        ->each([opt](const std::string&) { opt->has_stretch = true; });
    cmd->add_option("--max-compress", opt->max_compress, "Fail where T rises above this (e.g. 1.5)")
        ->check(CLI::PositiveNumber)
        ->each([opt](const std::string&) { opt->has_compress = true; });
    cmd->add_option("--max-lambda", opt->max_lambda, "With --measure principal: fail where lambda_max rises above this (e.g. 1.3)")
        ->check(CLI::PositiveNumber)
        ->each([opt](const std::string&) { opt->has_max_lambda = true; });
    cmd->add_option("--min-lambda", opt->min_lambda, "With --measure principal: fail where lambda_min falls below this (e.g. 0.7)")
        ->check(CLI::PositiveNumber)
        ->each([opt](const std::string&) { opt->has_min_lambda = true; });
    cmd->add_option("--junit", opt->junit, "Also write a JUnit XML report here");
    cmd->add_option("--html", opt->html.out, "Also write the HTML report (rigscope report) with the verdict and limits");
    add_report_options(cmd, opt->html, false);
    cmd->add_option("--worst", opt->worst, "How many of the worst vertices to list (default 10)")->check(CLI::PositiveNumber);
    cmd->callback([&run, opt] { run = [opt](RunContext& ctx) { return run_check(*opt, ctx); }; });
}

RIGSCOPE_REGISTER_COMMAND(3, add_check_command);

}  // namespace rigscope::cli
