// An options table (rigscope/run/option_table.h) on the command line: each row an option of a
// subcommand, with its help, its rule as a validator and its needs/excludes.
#pragma once

#include <CLI/CLI.hpp>
#include <type_traits>

#include "rigscope/run/option_table.h"

namespace rigscope::cli {

// The CLI's validator for a row's rule; validate() says the same rule (check_option_values).
CLI::Validator validator_of(const OptionRule& rule);

// Adds one row to `cmd`, bound to its field in `opt`: a bool is a flag, a name without dashes a
// positional. A row that needs or excludes another names one added before it.
template <typename Options>
CLI::Option* add_table_option(CLI::App* cmd, const OptionSpec<Options>& s, Options& opt) {
    CLI::Option* o = nullptr;
    visit_option(s, opt, [&](auto& value) {
        if constexpr (std::is_same_v<std::decay_t<decltype(value)>, bool>) o = cmd->add_flag(s.name, value, s.help);
        else o = cmd->add_option(s.name, value, s.help);
    });
    if (s.required) o->required();
    if (s.implicit_value) o->expected(0, 1)->default_str(s.implicit_value);
    if (s.check != OptionCheck::none) o->check(validator_of(s));
    if (s.needs) o->needs(cmd->get_option(s.needs));
    for (const char* other : s.excludes) o->excludes(cmd->get_option(other));
    return o;
}

// Adds each row of `table` to `cmd`, in table order.
template <typename Options>
void add_table_options(CLI::App* cmd, const OptionTable<Options>& table, Options& opt) {
    for (const OptionSpec<Options>& s : table) add_table_option(cmd, s, opt);
}

}  // namespace rigscope::cli
