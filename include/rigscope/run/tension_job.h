// The `tension` job (the CLI's): the tension map per vertex and frame written as CSV, JSON,
// vertex-coloured glTF or a USD layer of primvars over the USD input (run/usd_output_run.h). The job streams: each frame is written as it is evaluated, so memory does
// not grow with the frames; what it returns is what the run was (docs/library.md, the job shape).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rigscope/core/check_verdict.h"
#include "rigscope/run/progress.h"
#include "rigscope/run/tension_run.h"

namespace rigscope {

struct TensionJobOptions {
    TensionOptions tension;
    std::string vertices;                // --vertices: CSV rows and JSON series of these file vertices only
    std::optional<double> auto_range;    // --auto-range [P]: two passes, t_s and t_c from the P-th percentile (50..100)
    bool bake_max = false;               // --bake-max: one glTF of each vertex's maximum maps
    bool bake_points = false;            // --bake-points: a .usda output holds the deformed points too
    std::string color;                   // --color maps|t: glTF's COLOR_0, USD's displayColor ("" is maps)
    std::string format = "csv";          // csv, json, gltf, usda or abc (the CLI resolves it from -o)
    std::string out = "-";               // -o; glTF: out_####.glb writes one file per frame
    // Also keep each vertex's lowest and highest T over the frames (TensionJobResult::meshes),
    // as check ranks them: what a batch's summary row says. Off for one file (memory per vertex).
    bool extremes = false;

    // Throws Error (exit 2) for options that cannot make the output asked for, before any file
    // is read.
    void validate() const;
};

struct TensionJobResult {
    TensionRunInfo run;                      // the run as its outputs describe it (range after --auto-range)
    std::size_t frames = 0;
    // With opt.extremes: per selected mesh, each welded vertex's T extremes and their frames.
    std::vector<CheckMeshExtremes> meshes;
    // A chunk of an --auto-range run keeps its frames' extremes so merge ranks over all chunks
    // (farm/tension_chunk.h): the record's state, empty otherwise.
    std::vector<std::pair<std::string, std::string>> chunk_state;
};

// Runs on a loaded input (opt.tension.input's), writing opt.out. `range_progress` counts the
// --auto-range pass, `progress` the written one.
TensionJobResult run_tension(const TensionJobOptions& opt, Input& in, const FrameProgress& progress = {},
                             const FrameProgress& range_progress = {});

// Validates, loads and runs.
TensionJobResult load_and_run_tension(const TensionJobOptions& opt, const FrameProgress& progress = {},
                                      const FrameProgress& range_progress = {});

}  // namespace rigscope
