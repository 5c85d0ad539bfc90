// The chunk rules every `--chunk I/N` run follows, from the CLI or Python: what cannot be split
// into chunks, and the record a chunk leaves beside its output (farm/chunk.h, docs/farm.md) so
// that `merge` can check the chunks belong together.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "rigscope/farm/chunk.h"

namespace rigscope {

// The options that define a run, by their CLI names, in order: chunks of one run have equal lists.
using ChunkOptions = std::vector<std::pair<std::string, std::vector<std::string>>>;

// Why a `command` writing `format` with `options` cannot be split into chunks and merged
// again; empty when it can.
std::string chunk_refusal(const std::string& command, const std::string& format, const ChunkOptions& options);

struct ChunkSpec {
    std::string command;
    std::string spec;    // --chunk I/N
    std::string output;  // the chunk's file (check: its JUnit report)
    ChunkOptions options;
    std::vector<std::pair<std::string, std::string>> inputs;  // (option, path): fingerprinted
};

// Before the run: the record for `run` (inputs fingerprinted) with a stale record at its path
// removed, so that a failing run leaves none to vouch for an old output. Throws Error: exit 2
// for a bad spec or a record path that is an input, 3 for an unreadable input, 4 when the old
// record cannot be removed.
ChunkRecord begin_chunk(const ChunkSpec& run, const std::string& version);

// After the run succeeded: the record with the run's state, written atomically.
void finish_chunk(ChunkRecord record, const std::vector<std::pair<std::string, std::string>>& state);

}  // namespace rigscope
