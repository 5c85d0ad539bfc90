// Farm chunks: the record a `--chunk I/N` run leaves beside its output, which `rigscope merge`
// reads to check that chunks belong together before joining them (docs/farm.md).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rigscope {

// An input file as a chunk saw it: the same path on two farm nodes may hold different files (a
// re-export between chunk runs), so the content is fingerprinted, not only named.
struct InputFingerprint {
    std::string option;  // the option that named it: FILE, --animation, --rig, --reference
    std::string path;
    std::uint64_t bytes = 0;
    std::string fnv1a64;  // FNV-1a 64 of the content, 16 hex digits
};

// The most chunks one run may be split into: far more than any farm runs, and small enough that
// merge can list what is missing and a record's count is never a 2-billion-entry loop.
constexpr int kMaxChunkCount = 100000;

// "I/N" (--chunk) as index I of N chunks. Throws Error (bad value) naming the problem.
void parse_chunk_spec(const std::string& spec, int& index, int& count);

struct ChunkRecord {
    std::string record_path;  // where it was read from (not stored)
    std::string version;      // rigscope version that ran the chunk
    std::string command;
    int index = 0, count = 1;
    std::string output;       // -o as given: a file, or a per-frame pattern with '#'
    // The command line that defines the run, minus --chunk and output names, in option order:
    // chunks of one run have equal lists.
    std::vector<std::pair<std::string, std::vector<std::string>>> options;
    std::vector<InputFingerprint> inputs;
    // What merging needs beyond the output (per-vertex extremes for ranges and checks), as JSON
    // text keyed by kind; empty for most runs.
    std::vector<std::pair<std::string, std::string>> state;
};

// OUT.chunk.json beside a single-file output; a per-frame pattern is shared by every chunk, so
// its records carry the index: OUT.chunk-I.json.
std::string chunk_record_path(const std::string& output, int index);

// True for a name that chunk_record_path could have produced.
bool is_chunk_record_path(const std::string& path);

InputFingerprint fingerprint_file(const std::string& option, const std::string& path);

std::string chunk_record_json(const ChunkRecord& record);

// Throws Error (exit 5) when the record is missing, exit 3 when it is not a chunk record.
ChunkRecord read_chunk_record(const std::string& path);


}  // namespace rigscope
