#include "option_table_cli.h"

#include "cli_common.h"

namespace rigscope::cli {

namespace {

// The CLI's validator for a row's rule; validate() says the same rule (check_option_values).
// open_range's validator takes the ends (CLI11's message says "from lo to hi"); validate()
// refuses them.
CLI::Validator validator_of(const OptionSpec<TensionOptions>& s) {
    switch (s.check) {
        case OptionCheck::positive: return positive_number();
        case OptionCheck::non_negative: return non_negative_number();
        case OptionCheck::range:
        case OptionCheck::open_range: return number_in(s.lo, s.hi);
        case OptionCheck::one_of: return CLI::IsMember(s.choices);
        case OptionCheck::none: break;
    }
    return CLI::Validator();
}

}  // namespace

void add_table_options(CLI::App* cmd, const OptionTable<TensionOptions>& table, TensionOptions& opt) {
    for (const OptionSpec<TensionOptions>& s : table) {
        CLI::Option* o = nullptr;
        visit_option(s, opt, [&](auto& value) { o = cmd->add_option(s.name, value, s.help); });
        if (s.check != OptionCheck::none) o->check(validator_of(s));
        if (s.needs) o->needs(cmd->get_option(s.needs));
        if (s.excludes) o->excludes(cmd->get_option(s.excludes));
    }
}

}  // namespace rigscope::cli
