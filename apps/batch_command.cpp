#include "batch_command.h"

#include <cstdio>
#include <filesystem>
#include <spdlog/spdlog.h>

#include "cli_common.h"
#include "rigscope/io/output.h"

namespace rigscope::cli {

void add_batch_options(CLI::App* cmd, BatchOptions& opt) {
    // The name stays FILE: a chunk record names its input by it (one file, as before).
    cmd->remove_option(cmd->get_option("FILE"));
    cmd->add_option("FILE", opt.inputs,
                    "Input files, folders (searched recursively for .fbx, .gltf, .glb, .dae, .usd*) and @list.txt (one path a line; @- reads stdin)")
        ->required();
    cmd->add_option("--jobs", opt.jobs, "Several inputs: run this many files at once (default 1; outputs are the same for any number)")
        ->check(CLI::Range(1u, kMaxThreads));
    cmd->add_option("--task", opt.task, "Several inputs: run part I of N of the files (I counts from 0: a Slurm array's task id)");
    cmd->add_option("--summary", opt.summary,
                    "Also write a row per file here (.csv or .jsonl: each row as its file is done; .json: at the end): status, frames, meshes, T "
                    "extremes, counts, time, memory");
    // Results as they happen (docs/farm.md "Streaming and interruption"): each file's text on
    // stdout and a progress line on stderr as soon as it and the files before it are done, and a
    // signal writes what is done before the process ends.
    opt.handle_signals = true;
    opt.on_file = [](const BatchOptions& opt, const BatchResult& r, std::size_t i) {
        const BatchFileResult& f = r.files[i];
        // Per file as its own run would print it, unless the text went to files (lint -o).
        if (opt.output.empty() || is_stdout_path(opt.output) || batch_verb(r.verb).text_beside_output) {
            OutputFile out("-");
            out.write(std::string(i ? "\n" : "") + "==> " + f.row.relpath + " <==\n" + f.report);
            out.commit();
        }
        // Also when stderr is not a terminal (a CI log): one line per file; -q silences it.
        if (spdlog::should_log(spdlog::level::info))
            std::fprintf(stderr, "batch: [%zu/%zu] %s: %s\n", i + 1, r.files.size(), f.row.relpath.c_str(), f.row.status.c_str());
    };
    opt.on_interrupt = [](const BatchResult& r) {
        std::size_t judged = 0;
        for (const BatchFileResult& f : r.files) judged += f.row.status != "interrupted";
        std::fprintf(stderr, "rigscope: interrupted by %s after %zu of %zu files judged (the others are rows 'interrupted')\n%s\n",
                     r.interrupted.c_str(), judged, r.files.size(), r.counts.c_str());
    };
}

bool is_batch(const BatchOptions& opt) {
    if (opt.inputs.size() != 1 || opt.jobs != 1 || !opt.task.empty() || !opt.summary.empty()) return true;
    const std::string& in = opt.inputs.front();
    std::error_code ec;
    if (in.empty() || in[0] == '@' || std::filesystem::is_directory(in, ec)) return true;
    for (const std::string* out : {&opt.junit, &opt.json, &opt.html, &opt.output})
        if (has_placeholder(*out)) return true;
    return false;
}

int finish_batch(const BatchOptions& opt, const BatchResult& r) {
    // Each file's text went to stdout as it was done (on_file above).
    write_batch_outputs(opt, r);
    // Each file's error once more on stderr, where a single run says it, then the counts. A
    // fail's message is the line of its text (on stdout already) that failed it, not an error.
    for (const BatchFileResult& f : r.files)
        if (!f.row.message.empty() && f.row.status != "fail") std::fprintf(stderr, "rigscope: %s: %s\n", f.row.status.c_str(), f.row.message.c_str());
    if (spdlog::should_log(spdlog::level::info)) std::fprintf(stderr, "%s\n", r.counts.c_str());
    return r.exit_code;
}

}  // namespace rigscope::cli
