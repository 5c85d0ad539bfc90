// Each subcommand lives in its own cmd_*.cpp and registers itself here at start-up, so adding a
// command touches no other file. `order` sets its place in --help.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "rigscope/run/chunk_run.h"

namespace rigscope::cli {

// What a command and the layers wrapping it (a chunk run's record, chunk_option.cpp) pass each
// other. Passed down rather than kept in a global, so nothing outlives the run.
struct RunContext {
    // With --chunk: begins the chunk's record. A chunkable command calls chunk() once its job's
    // options are resolved and before the job runs, with the run layer's chunk_spec of them.
    std::function<void(const ChunkSpec&)> begin_chunk;
    void chunk(const ChunkSpec& spec) {
        if (begin_chunk) begin_chunk(spec);
    }
    // The state merge needs, keyed by kind.
    std::vector<std::pair<std::string, std::string>> chunk_state;
};

using Runner = std::function<int(RunContext& context)>;
using AddCommand = void (*)(CLI::App& app, Runner& run);

bool register_command(int order, AddCommand add);
void add_registered_commands(CLI::App& app, Runner& run);

}  // namespace rigscope::cli

#define RIGSCOPE_REGISTER_COMMAND(order, fn) \
    static const bool rigscope_registered_##fn = ::rigscope::cli::register_command(order, fn)
