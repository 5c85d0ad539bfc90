// Each subcommand lives in its own cmd_*.cpp and registers itself here at start-up, so adding a
// command touches no other file. `order` sets its place in --help.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace rigscope::cli {

using Runner = std::function<int()>;
using AddCommand = void (*)(CLI::App& app, Runner& run);

bool register_command(int order, AddCommand add);
void add_registered_commands(CLI::App& app, Runner& run);

}  // namespace rigscope::cli

#define RIGSCOPE_REGISTER_COMMAND(order, fn) \
    static const bool rigscope_registered_##fn = ::rigscope::cli::register_command(order, fn)
