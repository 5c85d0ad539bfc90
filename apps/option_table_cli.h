// An options table (rigscope/run/option_table.h) on the command line: each row an option of a
// subcommand, with its help, its rule as a validator and its needs/excludes.
#pragma once

#include <CLI/CLI.hpp>

#include "rigscope/run/option_table.h"

namespace rigscope::cli {

// Adds each row of `table` to `cmd`, bound to its field in `opt`, in table order. A row that
// needs or excludes another names one added before it.
void add_table_options(CLI::App* cmd, const OptionTable<TensionOptions>& table, TensionOptions& opt);

}  // namespace rigscope::cli
