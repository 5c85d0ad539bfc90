#include "tension_setup.h"

#include "option_table_cli.h"

namespace rigscope::cli {

void add_tension_options(CLI::App* cmd, TensionOptions& opt) {
    add_input_options(cmd, opt.input);
    add_weld_option(cmd, opt.input);
    add_skinning_option(cmd, opt.input);
    add_threads_option(cmd, opt.input);
    // The reference's options and the maps', each written once (rigscope/run/option_table.h).
    add_table_options(cmd, tension_reference_options(), opt);
    add_table_options(cmd, tension_map_options(), opt);
}

}  // namespace rigscope::cli
