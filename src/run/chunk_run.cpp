#include "rigscope/run/chunk_run.h"

#include <cerrno>
#include <cstring>
#include <unistd.h>

#include "rigscope/core/error.h"
#include "rigscope/io/output.h"
#include "rigscope/run/input.h"

namespace rigscope {

namespace {

std::vector<ReadFile> input_paths(const ChunkRecord& r) {
    std::vector<ReadFile> paths;
    for (const InputFingerprint& f : r.inputs) paths.push_back(f.path);
    return paths;
}

}  // namespace

ChunkRecord begin_chunk(const ChunkSpec& run, const std::string& version) {
    if (!run.refusal.empty()) throw Error(kExitUsage, run.refusal);
    ChunkRecord rec;
    rec.version = version;
    rec.command = run.command;
    for_option("--chunk", [&] { parse_chunk_spec(run.spec, rec.index, rec.count); });
    rec.output = run.output;
    rec.options = run.options;
    // Inputs first: the record about to be removed may be one of them (--rig out.csv.chunk.json),
    // and nothing is removed or written before they are checked.
    rec.record_path = chunk_record_path(run.output, rec.index);
    for (const auto& [option, path] : run.inputs) rec.inputs.push_back(fingerprint_file(option, path));
    refuse_input_as_output(rec.record_path, input_paths(rec));
    // A stale record would vouch for an old output if this run fails.
    if (unlink(rec.record_path.c_str()) != 0 && errno != ENOENT)
        throw Error(kExitCannotWrite, rec.record_path + ": cannot remove the old chunk record: " + std::strerror(errno));
    return rec;
}

void finish_chunk(ChunkRecord record, const std::vector<std::pair<std::string, std::string>>& state) {
    record.state = state;
    OutputFile out(record.record_path, input_paths(record));
    out.write(chunk_record_json(record));
    out.commit();
}

}  // namespace rigscope
