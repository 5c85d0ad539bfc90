// Each subcommand lives in its own cmd_*.cpp and registers itself here at start-up, so adding a
// command touches no other file. `order` sets its place in --help.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace rigscope::cli {

// What a command leaves for the layers wrapping it (a chunk run's record): the state merge
// needs, keyed by kind. Passed down rather than kept in a global, so nothing outlives the run.
struct RunContext {
    std::vector<std::pair<std::string, std::string>> chunk_state;
};

using Runner = std::function<int(RunContext& context)>;
using AddCommand = void (*)(CLI::App& app, Runner& run);

bool register_command(int order, AddCommand add);
void add_registered_commands(CLI::App& app, Runner& run);

}  // namespace rigscope::cli

#define RIGSCOPE_REGISTER_COMMAND(order, fn) \
    static const bool rigscope_registered_##fn = ::rigscope::cli::register_command(order, fn)
