// The `regions` job (issue 60): per frame and region, the weighted mean of a tension map over the
// region's file vertices: the curves that drive wrinkle maps region by region (MetaHuman's
// per-region multipliers, O3DE's wrinkle masks). CSV, JSON, a USD layer of time-sampled floats, or
// a glTF of the input with the curves as a morph-weight animation.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "rigscope/run/progress.h"
#include "rigscope/run/tension_run.h"

namespace rigscope {

struct RegionsJobOptions {
    TensionOptions tension;        // the input and every map option, as tension has them
    // --by: joints (each skin joint a region, weighted by its skin weights; named by its node) or
    // @FILE.json ({name: [vertex ids]} or {name: {"id": weight}}, the ids of the one selected mesh),
    // or DIR/{region}.png: a region per matching mask image, weighted by the mask at each vertex's
    // UV (first UV set; the vertex's first corner; the nearest pixel, rows as bake's images).
    std::string by = "joints";
    std::string map = "compress";  // --map compress, stretch or tension (T)
    std::string out = "-";         // -o: .csv, .json, .usda or .glb
    std::string format;            // csv, json, usda or gltf (from -o's extension when empty; else csv)

    // Throws Error (exit 2) for options that cannot make the curves asked for, before any file is
    // read.
    void validate() const;
};

struct Region {
    std::size_t mesh = 0;  // index into in.meshes
    std::string name;
    std::vector<std::pair<std::uint32_t, float>> weights;  // file vertex, weight > 0
    double total = 0;                                      // the weights' sum
};

struct RegionsJobResult {
    std::vector<std::string> mesh_names;      // per selected mesh
    std::vector<Region> regions;
    std::vector<Frame> frames;                // the run's frames
    std::vector<std::vector<double>> values;  // [frame][region]: the weighted mean
};

// The regions `opt.by` names on in's selected meshes. Throws Error (exit 3) for a region file
// that names vertices the mesh does not have, a weight that is negative or not finite, or a
// region that weights nothing.
std::vector<Region> resolve_regions(const RegionsJobOptions& opt, const Input& in);

// The files --by reads: the region file of @FILE.json, each mask a mask pattern matches (sorted),
// none for joints. A farm chunk fingerprints them. Throws Error (exit 2) as the run would for a
// mask pattern that matches nothing.
std::vector<std::string> region_files(const std::string& by);

// Runs on a loaded input: evaluates every frame and returns the curves (no file written).
RegionsJobResult run_regions(const RegionsJobOptions& opt, Input& in, const FrameProgress& progress = {});

// Validates, loads, runs and writes -o (not when out is empty: Python's).
RegionsJobResult load_and_run_regions(const RegionsJobOptions& opt, const FrameProgress& progress = {});

// The curves in opt.format to `out`: CSV `frame,mesh,region,value`, JSON, (usda) a layer over the
// USD input with a time-sampled float attribute rigscope:region:NAME per region on its mesh, or
// (gltf) the input scene with a zero-delta morph target per region, named by it, and a clip
// "rigscope_regions" keying their weights: what game engines import as named blend-shape curves.
void write_regions_output(const RegionsJobOptions& opt, const Input& in, const RegionsJobResult& r, OutputFile& out);

}  // namespace rigscope
