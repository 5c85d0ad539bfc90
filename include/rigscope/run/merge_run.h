// The `merge` job: joins the outputs of `--chunk I/N` runs into what one run would have written
// (docs/farm.md). The CLI and the Python module (rigscope.merge) run it alike.
#pragma once

#include <string>
#include <vector>

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

// Throws Error (exit 5 for chunks that do not make one run, 3 for unreadable ones, 4 for an
// output that cannot be written).
MergeJobResult run_merge(const MergeJobOptions& opt);

}  // namespace rigscope
