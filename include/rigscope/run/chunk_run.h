// The chunk rules every `--chunk I/N` run follows, from the CLI or Python: what cannot be split
// into chunks, and the record a chunk leaves beside its output (farm/chunk.h, docs/farm.md) so
// that `merge` can check the chunks belong together.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "rigscope/farm/chunk.h"

namespace rigscope {

struct TensionJobOptions;
struct CheckJobOptions;
struct DiffJobOptions;
struct DeformJobOptions;
struct VolumeJobOptions;
struct IntersectJobOptions;
struct DriveJobOptions;
struct RivetJobOptions;
struct BakeJobOptions;
struct RegionsJobOptions;
struct ReportJobOptions;
struct InfoJobOptions;
struct InputOptions;
struct LintOptions;

// The options that define a run, by their CLI names, in order: chunks of one run have equal lists.
using ChunkOptions = std::vector<std::pair<std::string, std::vector<std::string>>>;

// A run's identity, computed from its job's options (chunk_identity.cpp), so that the CLI and
// Python give one list for one run and either front end's chunks merge with the other's. Every
// option that shapes what the run writes is listed, defaults too, in one order, by its CLI name:
// numbers as their shortest round-trip text (0.5 and 0.50 are one value), flags as true or
// false, and an option whose unset state means "none" (an empty path or list, an optional not
// given) without a value. Left out: --chunk, the outputs' names (they differ between chunks)
// and --threads (the output is the same for any count).
ChunkOptions chunk_identity(const TensionJobOptions& opt);
ChunkOptions chunk_identity(const CheckJobOptions& opt);
ChunkOptions chunk_identity(const DiffJobOptions& opt);
ChunkOptions chunk_identity(const DeformJobOptions& opt);
ChunkOptions chunk_identity(const VolumeJobOptions& opt);
ChunkOptions chunk_identity(const IntersectJobOptions& opt);
ChunkOptions chunk_identity(const DriveJobOptions& opt);
ChunkOptions chunk_identity(const RivetJobOptions& opt);
ChunkOptions chunk_identity(const RegionsJobOptions& opt);
// bake runs in batches but not in chunks (each chunk's images would need a record of their own):
// its identity stamps a batch's --task parts.
ChunkOptions chunk_identity(const BakeJobOptions& opt);
// Verbs that are never chunked but run in batches, whose --task parts record their options too
// (farm/batch_identity.h).
ChunkOptions chunk_identity(const ReportJobOptions& opt);
ChunkOptions chunk_identity(const InfoJobOptions& opt);
ChunkOptions lint_identity(const InputOptions& input, const LintOptions& lint);

struct ChunkSpec {
    std::string command;
    std::string spec;    // --chunk I/N
    std::string output;  // the chunk's file (check: its JUnit report)
    ChunkOptions options;
    std::vector<std::pair<std::string, std::string>> inputs;  // (option, path): fingerprinted
    // Why this run cannot be split into chunks and merged again (a run over all frames is
    // needed); empty when it can.
    std::string refusal;
};

// A chunk of each job as a ChunkSpec: its command, --chunk, output (check: opt.junit; diff:
// opt.out), identity, input files (FILE, NEW, --animation, --rig, --reference) and refusal.
ChunkSpec chunk_spec(const TensionJobOptions& opt);
ChunkSpec chunk_spec(const CheckJobOptions& opt);
ChunkSpec chunk_spec(const DiffJobOptions& opt);
ChunkSpec chunk_spec(const VolumeJobOptions& opt);
ChunkSpec chunk_spec(const IntersectJobOptions& opt);
ChunkSpec chunk_spec(const DeformJobOptions& opt);
ChunkSpec chunk_spec(const DriveJobOptions& opt);
ChunkSpec chunk_spec(const RivetJobOptions& opt);
ChunkSpec chunk_spec(const RegionsJobOptions& opt);

// Before the run: the record for `run` (inputs fingerprinted) with a stale record at its path
// removed, so that a failing run leaves none to vouch for an old output. Throws Error: exit 2
// for a run that cannot be chunked (run.refusal), a bad spec or a record path that is an input, 3 for an unreadable input, 4 when the old
// record cannot be removed.
ChunkRecord begin_chunk(const ChunkSpec& run, const std::string& version);

// After the run succeeded: the record with the run's state, written atomically.
void finish_chunk(ChunkRecord record, const std::vector<std::pair<std::string, std::string>>& state);

}  // namespace rigscope
