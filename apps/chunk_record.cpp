// The record a `--chunk I/N` run leaves beside its output (rigscope/chunk.h, docs/farm.md).
// It is installed once over the parsed command line rather than in each command: every
// per-frame command gets it alike, and options a command adds later become part of a chunk's
// identity without anyone remembering to record them.
#include <cerrno>
#include <cstring>
#include <unistd.h>

#include "cli_common.h"
#include "commands.h"
#include "rigscope/farm/chunk.h"
#include "rigscope/core/error.h"
#include "rigscope/io/output.h"

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

bool given(const CLI::App& cmd, const char* name) {
    const CLI::Option* o = cmd.get_option_no_throw(name);
    return o && o->count() > 0;
}

bool chunk_spec_valid(const std::string& spec, int& index, int& count) {
    try {
        parse_chunk_spec(spec, index, count);
        return true;
    } catch (const Error&) {
        return false;
    }
}

// What cannot be split into chunks and joined again, refused before any work. Empty: fine.
std::string refusal(const CLI::App& cmd, const std::string& output) {
    const std::string name = cmd.get_name();
    std::string format;
    try {
        format = output_format(value_of(cmd, "--format"), output, name == "rivet" ? "json" : "csv");
    } catch (const Error&) {
        return "";  // the command reports the bad name itself
    }
    if (name == "tension" && given(cmd, "--bake-max"))
        return "--bake-max colours each vertex by its maximum over all frames: run it without --chunk";
    if (name == "tension" && format == "gltf" && given(cmd, "--auto-range"))
        return "--auto-range colours glTF frames by the range of all frames, which a chunk does not see: chunk CSV or JSON "
               "(merge applies the range), or run glTF without --chunk";
    if (name == "diff" && format == "gltf")
        return "diff glTF colours each vertex by its largest displacement over all frames: run it without --chunk";
    if (name == "drive" && format == "gltf") return "drive --format gltf bakes one animation over all frames: run it without --chunk";
    return "";
}

int run_chunk(const CLI::App& cmd, const Runner& inner, RunContext& ctx) {
    int index = 0, count = 1;
    if (!chunk_spec_valid(value_of(cmd, "--chunk"), index, count)) return inner(ctx);  // the command explains
    const std::string output = value_of(cmd, cmd.get_name() == "check" ? "--junit" : "--output");
    if (output.empty() || output == "-")
        throw Error(kExitUsage, cmd.get_name() == "check"
                                    ? "check --chunk needs --junit FILE: merge joins the chunks' reports from the records beside them"
                                    : "--chunk needs -o FILE: merge reads each chunk's file and the record written beside it");
    if (const std::string why = refusal(cmd, output); !why.empty()) throw Error(kExitUsage, why);

    ChunkRecord rec;
    rec.version = RIGSCOPE_VERSION;
    rec.command = cmd.get_name();
    rec.index = index;
    rec.count = count;
    rec.output = output;
    for (const CLI::Option* o : cmd.get_options()) {
        if (o->count() == 0) continue;
        const std::string name = o->get_name();
        if (std::find(std::begin(kNotIdentity), std::end(kNotIdentity), name) != std::end(kNotIdentity)) continue;
        rec.options.emplace_back(name, o->results());
    }
    // Inputs first: the record about to be removed may be one of them (--rig out.csv.chunk.json),
    // and nothing is removed or written before they are checked.
    const std::string record_path = chunk_record_path(output, index);
    std::vector<std::string> inputs;
    try {
        for (const char* name : kInputOptions) {
            const std::string path = value_of(cmd, name);
            if (path.empty()) continue;
            rec.inputs.push_back(fingerprint_file(name, path));
            inputs.push_back(path);
        }
    } catch (const Error&) {
        return inner(ctx);  // an unreadable input: the command's own message says it best
    }
    refuse_input_as_output(record_path, inputs);
    // A stale record would vouch for an old output if this run fails.
    if (unlink(record_path.c_str()) != 0 && errno != ENOENT)
        throw Error(kExitCannotWrite, record_path + ": cannot remove the old chunk record: " + std::strerror(errno));

    const int rc = inner(ctx);
    if (rc != kExitOk) return rc;
    rec.state = ctx.chunk_state;
    OutputFile out(record_path, inputs);
    out.write(chunk_record_json(rec));
    out.commit();
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
