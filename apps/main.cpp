// rigscope: the thin command line over the core. Parses options, runs one subcommand, maps
// errors to the documented exit codes with a one-line message on stderr.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include "cli_common.h"
#include "commands.h"
#include "rigscope/core/error.h"
#include "rigscope/core/huge_pages.h"
#include "rigscope/io/output.h"
#include "rigscope/io/load.h"
#include "suggest.h"

namespace {

using rigscope::cli::did_you_mean;

std::vector<std::string> command_names(const CLI::App& app) {
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
    return names;
}

// Every option name `cmd` takes, with its dashes, the global -q and -v included.
std::vector<std::string> option_names(const CLI::App* cmd) {
    std::vector<std::string> names;
    for (const CLI::App* app = cmd; app != nullptr; app = app->get_parent())
        for (const CLI::Option* o : app->get_options()) {
            for (const std::string& n : o->get_lnames()) names.push_back("--" + n);
            for (const std::string& n : o->get_snames()) names.push_back("-" + n);
        }
    return names;
}

bool is_global_flag(const std::string& a) { return a == "-q" || a == "--quiet" || a == "-v" || a == "--verbose"; }

// The arguments with `help [CMD]` turned into `[CMD] --help`. Throws rigscope::Error (usage)
// for a first word that is no command, with the closest command's name.
std::vector<std::string> rewrite_arguments(const CLI::App& app, std::vector<std::string> args) {
    std::size_t first = 0;
    while (first < args.size() && is_global_flag(args[first])) ++first;
    if (first == args.size() || args[first].empty() || args[first][0] == '-') return args;
    const std::vector<std::string> names = command_names(app);
    if (args[first] == "help") {
        args.erase(args.begin() + static_cast<std::ptrdiff_t>(first));
        const bool named = first < args.size() && !args[first].empty() && args[first][0] != '-';
        args.insert(args.begin() + static_cast<std::ptrdiff_t>(named ? first + 1 : first), "--help");
    }
    const std::string& word = args[first];
    if (word[0] != '-' && std::find(names.begin(), names.end(), word) == names.end())
        throw rigscope::Error(rigscope::kExitUsage, "unknown command '" + word + "'" + did_you_mean(word, names) + " (see --help)");
    return args;
}

// For an argument nothing took: the closest option of the command it was given to.
std::string explain_extras(CLI::App& app) {
    const std::vector<CLI::App*> chosen = app.get_subcommands();
    const CLI::App* cmd = chosen.empty() ? &app : chosen.front();
    // CLI11 keeps what nothing took on the top-level app or on the command, by version.
    for (const std::string& extra : app.remaining(true)) {
        if (extra.size() < 2 || extra[0] != '-') continue;
        const std::string name = extra.substr(0, extra.find('='));
        return "unknown option '" + name + "' for " + (chosen.empty() ? "rigscope" : cmd->get_name()) + did_you_mean(name, option_names(cmd));
    }
    return "";
}

}  // namespace

int main(int argc, char** argv) {
    using namespace rigscope;
    detail::keep_freed_memory();  // a run's freed memory reused, not faulted in again (huge_pages.h)
    OutputFile::install_signal_cleanup();
    auto logger = spdlog::stderr_logger_mt("rigscope");
    logger->set_pattern("rigscope: %l: %v");
    spdlog::set_default_logger(logger);

    CLI::App app{"rigscope: tension maps, rivets and joystick drivers for skinned, animated meshes (glTF, FBX, Collada, USD, OBJ/PLY, point caches)"};
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

    std::vector<std::string> args;
    try {
        args = rewrite_arguments(app, std::vector<std::string>(argv + 1, argv + argc));
    } catch (const Error& e) {
        std::fprintf(stderr, "rigscope: error: %s\n", e.what());
        return e.code();
    }
    try {
        // CLI11 takes a vector in reverse order.
        std::vector<std::string> reversed(args.rbegin(), args.rend());
        app.parse(reversed);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ExtrasError& e) {
        const std::string why = explain_extras(app);
        std::fprintf(stderr, "rigscope: error: %s (see --help)\n", why.empty() ? e.what() : why.c_str());
        return kExitUsage;
    } catch (const CLI::ParseError& e) {
        std::fprintf(stderr, "rigscope: error: %s (see --help)\n", e.what());
        return kExitUsage;
    }
    spdlog::set_level(quiet ? spdlog::level::err : verbose ? spdlog::level::debug : spdlog::level::info);
    try {
        if (!run) return kExitUsage;
        for (const CLI::App* sub : app.get_subcommands()) cli::check_parsed_paths(*sub);
        cli::RunContext context;
        return run(context);
    } catch (const Error& e) {
        std::fprintf(stderr, "rigscope: error: %s\n", name_memory_option(e.what(), "--max-memory").c_str());
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
