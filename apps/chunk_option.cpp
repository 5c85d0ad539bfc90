// The record a `--chunk I/N` run leaves beside its output (rigscope/chunk.h, docs/farm.md).
// It is installed once over the parsed command line rather than in each command: every
// per-frame command gets it alike, and options a command adds later become part of a chunk's
// identity without anyone remembering to record them.
#include <algorithm>

#include "cli_common.h"
#include "commands.h"
#include "rigscope/farm/chunk.h"
#include "rigscope/core/error.h"
#include "rigscope/io/output.h"
#include "rigscope/run/chunk_run.h"

namespace rigscope::cli {

namespace {

// Options naming input files: their content is fingerprinted.
const char* const kInputOptions[] = {"FILE", "--animation", "--rig", "--reference", "NEW"};
// Options that differ between chunks of one run, or never change what is written.
const char* const kNotIdentity[] = {"--chunk", "--output", "--junit", "--help"};

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

// The chunk's format, for chunk_refusal; empty when the command will name a bad one itself.
std::string chunk_format(const CLI::App& cmd, const std::string& output) {
    try {
        return output_format(value_of(cmd, "--format"), output, cmd.get_name() == "rivet" ? "json" : "csv");
    } catch (const Error&) {
        return "";
    }
}

int run_chunk(const CLI::App& cmd, const Runner& inner, RunContext& ctx) {
    int index = 0, count = 1;
    if (!chunk_spec_valid(value_of(cmd, "--chunk"), index, count)) return inner(ctx);  // the command explains
    ChunkSpec run;
    run.command = cmd.get_name();
    run.spec = value_of(cmd, "--chunk");
    run.output = value_of(cmd, run.command == "check" ? "--junit" : "--output");
    if (run.output.empty() || run.output == "-")
        throw Error(kExitUsage, run.command == "check"
                                    ? "check --chunk needs --junit FILE: merge joins the chunks' reports from the records beside them"
                                    : "--chunk needs -o FILE: merge reads each chunk's file and the record written beside it");
    for (const CLI::Option* o : cmd.get_options()) {
        if (o->count() == 0) continue;
        const std::string name = o->get_name();
        if (std::find(std::begin(kNotIdentity), std::end(kNotIdentity), name) != std::end(kNotIdentity)) continue;
        run.options.emplace_back(name, o->results());
    }
    if (const std::string format = chunk_format(cmd, run.output); !format.empty())
        if (const std::string why = chunk_refusal(run.command, format, run.options); !why.empty()) throw Error(kExitUsage, why);
    // Every value: diff's FILE... holds OLD and NEW (CLI11 fills it before NEW).
    for (const char* name : kInputOptions)
        if (const CLI::Option* o = cmd.get_option_no_throw(name); o && o->count() > 0)
            for (const std::string& path : o->results())
                if (!path.empty()) run.inputs.emplace_back(name, path);
    ChunkRecord rec;
    try {
        rec = begin_chunk(run, RIGSCOPE_VERSION);
    } catch (const Error& e) {
        if (e.code() != kExitBadInput) throw;
        return inner(ctx);  // an unreadable input: the command's own message says it best
    }
    const int rc = inner(ctx);
    if (rc != kExitOk) return rc;
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
