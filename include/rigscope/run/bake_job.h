// The `bake` job (issue 60): a per-vertex map of the tension evaluation baked into each mesh's
// UV space, one image per frame and mesh (16-bit PNG or half EXR), or kept as arrays (Python).
// The rasteriser's rules are core/uv_raster.h's; docs/methods.md "Baking into UV space".
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rigscope/run/progress.h"
#include "rigscope/run/tension_run.h"

namespace rigscope {

struct BakeJobOptions {
    TensionOptions tension;             // the input and every map option, as tension has them
    // --map: compress, stretch (the node group's maps, 0..1), tension (T), area (T_area, with
    // --measure area), lambda_max, lambda_min (with --measure principal), color (three channels:
    // the colour `tension --color` writes per vertex, chosen by `color`).
    std::string map = "compress";
    std::string color = "maps";         // --color with --map color: maps (R compress, G stretch) or t (a T ramp)
    int size = 1024;                    // --size N: N x N texels, 1..kMaxBakeSize
    int padding = 2;                    // --padding PX: dilation passes, 0..kMaxBakePadding
    std::optional<std::pair<double, double>> range;  // --range LO,HI: written (v - LO) / (HI - LO)
    std::string uv;                     // --uv NAME; empty: each mesh's first UV set
    bool udim = false;                  // --udim: an image per UDIM tile the UVs touch ({udim} in -o)
    // -o: maps/{mesh}.{frame}.png ({mesh}, {frame}, {udim}; '#' runs work as in tension's
    // out_####.glb). Empty: no file, the images stay in BakeJobResult::images (Python).
    std::string out;
    std::string format;                 // png or exr (from -o's extension when empty)

    // Throws Error (exit 2) for options that cannot make the images asked for, before any file
    // is read.
    void validate() const;
};

// One image of the run: which mesh, frame and tile, and where it went (or its texels).
struct BakeImage {
    std::size_t mesh = 0;      // index into BakeJobResult::meshes
    std::size_t frame = 0;     // index into the input's frames
    int udim = 0;              // tile number with --udim, else 0
    std::string path;          // the file written; empty when kept
    std::vector<float> texels; // size x size x channels, row 0 first, after --range; kept only without -o
};

struct BakeMeshInfo {
    std::string name;
    std::string uv_set;
    std::size_t covered = 0, padded = 0;  // texels per image (first tile with --udim)
    std::size_t degenerate_faces = 0, outside_faces = 0;
};

struct BakeJobResult {
    std::vector<BakeMeshInfo> meshes;
    std::vector<BakeImage> images;       // frame-major, then mesh, then tile
    std::size_t frames = 0;              // frames evaluated
    std::size_t clamped = 0;             // PNG values outside 0..1 after --range, clamped
    int size = 0;
    int channels = 1;                    // 3 for --map color (R, G, B interleaved), else 1
};

// Runs on a loaded input (opt.tension.input's): evaluates the frames and writes (or keeps) the
// images; with -o no file takes its name until every image is written.
BakeJobResult run_bake(const BakeJobOptions& opt, Input& in, const FrameProgress& progress = {});

// Validates, loads and runs.
BakeJobResult load_and_run_bake(const BakeJobOptions& opt, const FrameProgress& progress = {});

// A mesh name made safe for a file name: every byte outside [A-Za-z0-9._-] becomes '_', a name
// that is empty or only dots becomes "mesh<index>" (no hidden file, no "." or ".." folder).
std::string bake_file_mesh_name(const std::string& name, std::size_t index);

// -o with {mesh}, {udim} and {frame} replaced ({frame} zero-padded to 4 digits, as ####; a
// run of '#' sets its own width; the bind pose is "bind").
std::string bake_file_name(const std::string& pattern, const std::string& mesh, const Frame& f, int udim);

}  // namespace rigscope
