// bake's UV plans (run/bake_job.h): each selected mesh's UV set, its UDIM tiles and a texel plan
// per tile (core/uv_raster.h), made once before any frame is evaluated.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "rigscope/core/parallel.h"
#include "rigscope/core/uv_raster.h"
#include "rigscope/run/bake_job.h"

namespace rigscope {

struct BakeTile {
    int udim = 0;  // tile number with --udim, else 0
    // Shared by the tiles of meshes whose faces and UVs are the same bytes (a rig's unskinned
    // reference copy of a skinned mesh): one plan made, held and read instead of two. Its
    // vertices are file vertices, whatever each mesh's weld.
    std::shared_ptr<UvRasterPlan> plan;
};

struct BakePlans {
    std::vector<std::vector<BakeTile>> tiles;  // per selected mesh, in in.meshes' order
    std::vector<const UvSet*> sets;            // the UV set each mesh bakes through
    // Per mesh: an earlier mesh whose faces and UV set are the same bytes, whose plans it shares;
    // or its own index.
    std::vector<std::size_t> same_as;
    std::size_t tile_count = 0;                // images per frame
};

// Each mesh's UV set (--uv or the first) and tiles (--udim), refusing a mesh without one, and
// r.meshes' names: no plan made yet.
BakePlans choose_bake_uv_sets(const BakeJobOptions& opt, const Input& in, BakeJobResult& r);

// The plans, a distinct mesh's tiles one after another, each on the pool's threads; then
// r.meshes' texel counts and the warnings for degenerate and outside faces.
void make_bake_plans(const BakeJobOptions& opt, const Input& in, BakePlans& plans, ThreadPool& pool, BakeJobResult& r);

}  // namespace rigscope
