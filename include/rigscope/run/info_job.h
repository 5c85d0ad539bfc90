// The `info` job: what a file holds (meshes with their welded counts and bind check, skins, clips,
// units, warnings) as text or JSON, io/info_report.h's. The CLI and a batch (`info FILE...`) run it.
#pragma once

#include <string>
#include <vector>

#include "rigscope/run/input.h"

namespace rigscope {

struct InfoJobOptions {
    InputOptions input;
    bool json = false;        // --json
    std::string out = "-";    // -o; a .json name writes JSON

    // Throws Error (exit 2) when --json and -o's extension disagree (info.txt --json), before any
    // file is read: info writes JSON for --json or a .json name (run/output_formats.h).
    void validate() const;
};

struct InfoJobResult {
    std::string text;                  // what is written (text or JSON)
    std::size_t meshes = 0, vertices = 0, clips = 0;  // selected meshes, their file vertices, the file's clips
    std::vector<ReadFile> paths;      // every input file: the output may replace none
};

// Says what `in` holds (its scene and selected meshes: loaded with info_load_options, or a
// Python session's); writes nothing. Validates opt first. No progress: info evaluates no frame.
InfoJobResult run_info(const InfoJobOptions& opt, const Input& in);

// What info loads: opt.input's scene and meshes, without frames.
Input load_info_input(const InfoJobOptions& opt);

// Validates, loads (load_info_input) and runs: the CLI's and a batch's entry.
InfoJobResult load_and_run_info(const InfoJobOptions& opt);

}  // namespace rigscope
