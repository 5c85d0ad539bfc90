// The record a `--chunk I/N` run leaves beside its output (rigscope/chunk.h, docs/farm.md).
// It is installed once over the parsed command line rather than in each command: every
// chunkable command gets it alike. The record's identity is the run layer's (chunk_identity,
// from the job's options, as Python's): each command hands its resolved options' chunk_spec to
// RunContext::chunk. An option a command adds later and chunk_identity lacks fails every chunk
// run of it (covers_options), so no option is left out of the identity unnoticed.
#include <algorithm>

#include "cli_common.h"
#include "commands.h"
#include "rigscope/farm/chunk.h"
#include "rigscope/core/error.h"
#include "rigscope/run/chunk_run.h"

namespace rigscope::cli {

namespace {

// Options outside a run's identity: the chunk and the outputs' names differ between chunks of
// one run, --threads never changes what is written, --max-output only decides whether a run may start, --help writes nothing, and the batch's
// options are refused with --chunk.
const char* const kNotIdentity[] = {"--chunk", "--output", "--junit", "--json",   "--html",   "--help",
                                    "--threads", "--jobs", "--task",  "--summary", "--against", "--max-output"};

std::string value_of(const CLI::App& cmd, const char* name) {
    const CLI::Option* o = cmd.get_option_no_throw(name);
    if (!o || o->count() == 0 || o->results().empty()) return "";
    return o->results().front();
}

bool chunk_spec_valid(const std::string& spec, int& index, int& count) {
    try {
        parse_chunk_spec(spec, index, count);
        return true;
    } catch (const Error&) {
        return false;
    }
}

// Every option `cmd` offers is in the identity or named above: else chunk_identity lacks it.
void covers_options(const CLI::App& cmd, const ChunkOptions& identity) {
    for (const CLI::Option* o : cmd.get_options()) {
        const std::string name = o->get_name();
        if (std::find(std::begin(kNotIdentity), std::end(kNotIdentity), name) != std::end(kNotIdentity)) continue;
        if (std::none_of(identity.begin(), identity.end(), [&](const auto& v) { return v.first == name; }))
            throw internal_error(cmd.get_name() + " " + name + " is missing from its chunk identity (run/chunk_identity.cpp)");
    }
}

int run_chunk(const CLI::App& cmd, const Runner& inner, RunContext& ctx) {
    int index = 0, count = 1;
    if (!chunk_spec_valid(value_of(cmd, "--chunk"), index, count)) return inner(ctx);  // the command explains
    bool asked = false, begun = false;
    ChunkRecord rec;
    ctx.begin_chunk = [&](const ChunkSpec& run) {
        asked = true;
        if (run.output.empty() || run.output == "-")
            throw Error(kExitUsage, run.command == "check"
                                        ? "check --chunk needs --junit FILE: merge joins the chunks' reports from the records beside them"
                                        : "--chunk needs -o FILE: merge reads each chunk's file and the record written beside it");
        covers_options(cmd, run.options);
        try {
            rec = begin_chunk(run, RIGSCOPE_VERSION);
            begun = true;
        } catch (const Error& e) {
            if (e.code() != kExitBadInput) throw;
            // An unreadable input: the job's own message says it best.
        }
    };
    const int rc = inner(ctx);
    if (rc != kExitOk || (asked && !begun)) return rc;
    if (!asked) throw internal_error(cmd.get_name() + " --chunk ran without its chunk record (RunContext::chunk)");
    finish_chunk(std::move(rec), ctx.chunk_state);
    return rc;
}

void install_chunk_records(CLI::App& app, Runner& run) {
    // The main app's final callback runs after the chosen subcommand's, which set `run`.
    app.final_callback([&app, &run] {
        for (CLI::App* cmd : app.get_subcommands()) {
            const CLI::Option* chunk = cmd->get_option_no_throw("--chunk");
            if (!chunk || chunk->count() == 0 || !run) continue;
            run = [cmd, inner = run](RunContext& ctx) { return run_chunk(*cmd, inner, ctx); };
        }
    });
}

}  // namespace

// Last in the registry: every command is in place, and it adds no command of its own.
RIGSCOPE_REGISTER_COMMAND(1000, install_chunk_records);

}  // namespace rigscope::cli
