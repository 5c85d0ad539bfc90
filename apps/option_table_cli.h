// An options table (rigscope/run/option_table.h) on the command line: each row an option of a
// subcommand, with its help, its rule as a validator and its needs/excludes.
#pragma once

#include <CLI/CLI.hpp>
#include <type_traits>
#include <utility>
#include <vector>

#include "rigscope/run/option_table.h"

namespace rigscope::cli {

// The CLI's validator for a row's rule; validate() says the same rule (check_option_values).
CLI::Validator validator_of(const OptionRule& rule);

// Adds one row to `cmd`, bound to its field in `opt`: a bool is a flag, a name without dashes a
// positional, a pair two numbers in one value (LO,HI), a list an option that repeats. A row
// that needs or excludes another names one added before it.
template <typename Options>
CLI::Option* add_table_option(CLI::App* cmd, const OptionSpec<Options>& s, Options& opt) {
    CLI::Option* o = nullptr;
    visit_option(s, opt, [&](auto& value) {
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, bool>) {
            o = cmd->add_flag(s.name, value, s.help);
        } else if constexpr (std::is_same_v<T, OptionPair>) {
            // Read as the two numbers CLI11 splits at the comma (its --help "FLOAT x 2" and its
            // refusals of one or three numbers), then kept as the pair.
            o = cmd->add_option_function<std::vector<double>>(
                       s.name, [&value](const std::vector<double>& v) { value = std::make_pair(v[0], v[1]); }, s.help)
                    ->delimiter(',')
                    ->expected(2);
        } else {
            o = cmd->add_option(s.name, value, s.help);
        }
    });
    if (s.required) o->required();
    if (s.implicit_value) o->expected(0, 1)->default_str(s.implicit_value);
    if (s.check != OptionCheck::none) o->check(validator_of(s));
    if (s.needs) o->needs(cmd->get_option(s.needs));
    for (const char* other : s.excludes) o->excludes(cmd->get_option(other));
    return o;
}

// Adds each row of `table` the command line takes (OptionRule::cli) to `cmd`, in table order.
template <typename Options>
void add_table_options(CLI::App* cmd, const OptionTable<Options>& table, Options& opt) {
    for (const OptionSpec<Options>& s : table)
        if (s.cli) add_table_option(cmd, s, opt);
}

}  // namespace rigscope::cli
