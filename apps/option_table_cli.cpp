#include "option_table_cli.h"

#include "cli_common.h"

namespace rigscope::cli {

// open_range's validator takes the ends (CLI11's message says "from lo to hi"); validate()
// refuses them.
CLI::Validator validator_of(const OptionRule& s) {
    switch (s.check) {
        case OptionCheck::positive: return positive_number();
        case OptionCheck::non_negative: return non_negative_number();
        case OptionCheck::range:
        case OptionCheck::open_range: return number_in(s.lo, s.hi, s.range_what);
        case OptionCheck::count: return CLI::Range(long(s.lo), long(s.hi));
        case OptionCheck::one_of: return CLI::IsMember(s.choices);
        case OptionCheck::none: break;
    }
    return CLI::Validator();
}

}  // namespace rigscope::cli
