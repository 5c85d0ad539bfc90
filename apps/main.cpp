// rigscope: the thin command line over the core. Parses options, runs one subcommand, maps
// errors to the documented exit codes with a one-line message on stderr.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include "cli_common.h"
#include "commands.h"
#include "rigscope/core/error.h"
#include "rigscope/io/output.h"

int main(int argc, char** argv) {
    using namespace rigscope;
    OutputFile::install_signal_cleanup();
    auto logger = spdlog::stderr_logger_mt("rigscope");
    logger->set_pattern("rigscope: %l: %v");
    spdlog::set_default_logger(logger);

    CLI::App app{"rigscope: tension maps, rivets and joystick drivers for skinned, animated meshes (FBX, glTF)"};
    app.set_version_flag("--version", std::string(RIGSCOPE_VERSION));
    app.require_subcommand(1);
    bool quiet = false;
    int verbose = 0;
    app.add_flag("-q,--quiet", quiet, "Only errors on stderr; no progress");
    app.add_flag("-v,--verbose", verbose, "More detail on stderr");

    cli::Runner run;
    cli::add_registered_commands(app, run);
    // -q and -v are as welcome after the command as before it (`rigscope tension f.glb -q`).
    for (CLI::App* sub : app.get_subcommands({})) sub->fallthrough();

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::fprintf(stderr, "rigscope: error: %s (see --help)\n", e.what());
        return kExitUsage;
    }
    spdlog::set_level(quiet ? spdlog::level::err : verbose ? spdlog::level::debug : spdlog::level::info);
    try {
        if (!run) return kExitUsage;
        cli::RunContext context;
        return run(context);
    } catch (const Error& e) {
        std::fprintf(stderr, "rigscope: error: %s\n", e.what());
        return e.code();
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "rigscope: error: out of memory\n");
        return kExitBadInput;
    } catch (const std::length_error& e) {
        // A size past what a container holds comes from a count in the input.
        std::fprintf(stderr, "rigscope: error: %s\n", e.what());
        return kExitBadInput;
    } catch (const std::logic_error& e) {
        // A precondition rigscope's own code broke: a bug, not the input's fault.
        std::fprintf(stderr, "rigscope: internal error: %s (please report it)\n", e.what());
        return kExitInternal;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "rigscope: error: %s\n", e.what());
        return kExitBadInput;
    }
}
