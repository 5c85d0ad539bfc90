// Joining farm chunks (docs/farm.md): checks that chunk records belong to one run and cover
// every part of it once, then writes what a single run would have written.
#pragma once

#include <string>
#include <vector>

#include "rigscope/farm/chunk.h"
#include "rigscope/io/output.h"

namespace rigscope {

// Resolves CHUNK arguments (chunk outputs, their records, or a per-frame pattern standing for
// all its records) into the records of chunks 0..N-1 in order. Throws Error naming the chunks:
// exit 5 for missing, duplicated or failed chunks and for chunks of different runs (inputs,
// options, command, rigscope version, including `version`, the merging binary's); exit 3 for
// an unreadable record.
std::vector<ChunkRecord> gather_chunks(const std::vector<std::string>& args, const std::string& version);

// True when the chunks wrote per-frame files (a '#' pattern) rather than one file each.
bool per_frame_files(const std::vector<ChunkRecord>& chunks);

// "json" or "csv": the format the chunks' outputs hold, read from their first bytes (whichever
// way -o and --format chose it). Throws Error (exit 3) naming a chunk that is empty, glTF, or
// of the other format than chunk 0's.
std::string chunk_output_format(const std::vector<ChunkRecord>& chunks);

// The CSV or JSON outputs of `chunks` joined into `out`: byte for byte the single run's output
// (one CSV header; JSON arrays over frames joined, summaries and --auto-range recomputed over
// all frames). Throws Error (exit 3) naming a chunk whose output is not what its record says.
void merge_chunk_outputs(const std::vector<ChunkRecord>& chunks, OutputFile& out);

// The --auto-range thresholds a merge of tension chunks applies, from all chunks' extremes;
// false when the chunks ran without --auto-range.
bool merged_auto_range(const std::vector<ChunkRecord>& chunks, double& t_s, double& t_c);

// Every file a chunk record names (outputs and records), so a merge never writes over one.
std::vector<std::string> chunk_files(const std::vector<ChunkRecord>& chunks);

}  // namespace rigscope
