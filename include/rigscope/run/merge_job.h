// The `merge` job: joins the outputs of `--chunk I/N` runs into what one run would have written
// (docs/farm.md). The CLI and the Python module (rigscope.merge) run it alike.
#pragma once

#include <string>
#include <vector>

#include "rigscope/farm/chunk.h"
#include "rigscope/run/batch.h"

namespace rigscope {

struct MergeJobOptions {
    std::string out;                  // the merged output (- for stdout); per-frame chunks: their pattern
    std::string junit;                // diff chunks: the run's JUnit report too
    std::vector<std::string> chunks;  // chunk outputs or their records, any order

    void validate() const;
};

struct MergeJobResult {
    std::string command;      // the chunks' command
    std::size_t chunks = 0;
    bool verdict = false;     // check and diff chunks: the run's verdict below
    bool failed = false;      // the verdict: a limit was passed (exit 1)
    std::string report;       // check and diff: the run's text report (for stdout)
    bool report_on_stdout = false;  // the text goes to stdout (diff: not when OUT itself is stdout)
    bool batch = false;       // batch --task summaries: report is the counts line (stderr)
    int exit_code = 0;        // batch: the worst file's
};

// What merge reads. Its inputs are not a mesh but the files the chunks wrote: their records
// (checked to make one run), or a batch's --task summaries. They are read once here, as other
// verbs load their Input, so that the job below joins what was read and the CLI and Python
// share the load step.
struct MergeJobInput {
    bool batch = false;               // every input is a batch --task summary
    BatchResult summaries;            // batch: the tasks' summaries, joined
    std::vector<ChunkRecord> chunks;  // otherwise: the chunks' records
};

// Reads opt.chunks. Throws Error (exit 5 for chunks that do not make one run, 3 for unreadable
// ones, 2 for options the summaries cannot take).
MergeJobInput load_merge_input(const MergeJobOptions& opt);

// Joins `in` into opt.out (and opt.junit). Validates opt first. Throws Error (exit 5 for missing
// frame files, 2 for an OUT that names another format, 4 for an output that cannot be written).
MergeJobResult run_merge(const MergeJobOptions& opt, const MergeJobInput& in);

// Validates, reads (load_merge_input) and joins: the CLI's and Python's entry.
MergeJobResult load_and_run_merge(const MergeJobOptions& opt);

}  // namespace rigscope
