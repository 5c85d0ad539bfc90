// bake's UV sets, tiles and texel plans (run/bake_plans.h).
#include "bake_plans.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <spdlog/spdlog.h>

#include "rigscope/core/error.h"
#include "rigscope/core/same_bytes.h"

namespace rigscope {

namespace {

// The UDIM tiles `set`'s UVs touch (1001 + u + 10 v for u in 0..9, v >= 0), and how many of its
// values lie in none.
std::vector<int> udim_tiles(const UvSet& set, std::size_t& outside) {
    std::set<int> tiles;
    outside = 0;
    for (const Eigen::Vector2f& uv : set.uv) {
        const double u = std::floor(double(uv.x())), v = std::floor(double(uv.y()));
        if (!(u >= 0 && u <= 9 && v >= 0 && v < 100)) {
            ++outside;
            continue;
        }
        tiles.insert(1001 + int(u) + 10 * int(v));
    }
    return {tiles.begin(), tiles.end()};
}

const UvSet& chosen_set(const BakeJobOptions& opt, const Mesh& mesh) {
    if (mesh.uv_sets.empty()) throw bad_input(opt.tension.input.file, "mesh '" + mesh.name + "' has no UVs to bake into (choose another with --mesh)");
    if (opt.uv.empty()) return mesh.uv_sets.front();
    std::string names;
    for (const UvSet& s : mesh.uv_sets) {
        if (s.name == opt.uv) return s;
        names += (names.empty() ? "" : ", ") + s.name;
    }
    throw Error(kExitUsage, "--uv " + opt.uv + ": mesh '" + mesh.name + "' has the UV sets " + names);
}

// Whether plan_uv_raster makes the same plan for both (it reads the faces, the UV set and the
// v convention only): bytes compared, so that even a -0 against a 0 makes its own plan.
bool same_plan_input(const Mesh& a, const UvSet& sa, const Mesh& b, const UvSet& sb) {
    return a.uv_v_down == b.uv_v_down && same_bytes(a.face_offsets, b.face_offsets) && same_bytes(a.face_indices, b.face_indices) &&
           same_bytes(sa.corners, sb.corners) && same_bytes(sa.uv, sb.uv);
}

}  // namespace

BakePlans choose_bake_uv_sets(const BakeJobOptions& opt, const Input& in, BakeJobResult& r) {
    BakePlans plans;
    plans.tiles.resize(in.meshes.size());
    for (std::size_t m = 0; m < in.meshes.size(); ++m) {
        const Mesh& mesh = in.scene.meshes[in.meshes[m]];
        const UvSet& set = chosen_set(opt, mesh);
        BakeMeshInfo info;
        info.name = mesh.name;
        info.uv_set = set.name;
        std::vector<int> udims{0};
        if (opt.udim) {
            std::size_t outside = 0;
            udims = udim_tiles(set, outside);
            if (outside)
                spdlog::warn("{}: mesh '{}': {} UVs of set {} lie in no UDIM tile (u in 0..10, v >= 0): not baked", opt.tension.input.file,
                             mesh.name, outside, set.name);
        }
        for (int u : udims) plans.tiles[m].push_back({u, nullptr});
        plans.tile_count += udims.size();
        plans.sets.push_back(&set);
        r.meshes.push_back(std::move(info));
    }
    for (std::size_t m = 0; m < in.meshes.size(); ++m) {
        plans.same_as.push_back(m);
        const Mesh& mesh = in.scene.meshes[in.meshes[m]];
        for (std::size_t e = 0; e < m; ++e)
            if (plans.same_as[e] == e && same_plan_input(in.scene.meshes[in.meshes[e]], *plans.sets[e], mesh, *plans.sets[m])) {
                plans.same_as[m] = e;
                break;
            }
    }
    return plans;
}

void make_bake_plans(const BakeJobOptions& opt, const Input& in, BakePlans& plans, ThreadPool& pool, BakeJobResult& r) {
    std::vector<std::pair<std::size_t, std::size_t>> tasks;  // (mesh, tile) of each distinct plan
    for (std::size_t m = 0; m < plans.tiles.size(); ++m)
        for (std::size_t k = 0; k < plans.tiles[m].size() && plans.same_as[m] == m; ++k) tasks.push_back({m, k});
    for (const auto& [m, k] : tasks) {  // one after another, each on every thread
        const Mesh& mesh = in.scene.meshes[std::size_t(in.meshes[m])];
        const int u = plans.tiles[m][k].udim;
        const UvImage image{opt.size, mesh.uv_v_down, opt.udim ? (u - 1001) % 10 : 0, opt.udim ? (u - 1001) / 10 : 0};
        plans.tiles[m][k].plan = std::make_shared<UvRasterPlan>(plan_uv_raster(mesh, *plans.sets[m], image, opt.padding, &pool));
    }
    for (std::size_t m = 0; m < plans.tiles.size(); ++m) {
        if (plans.same_as[m] != m) plans.tiles[m] = plans.tiles[plans.same_as[m]];  // the same UVs: the same tiles
        BakeMeshInfo& info = r.meshes[m];
        const Mesh& mesh = in.scene.meshes[std::size_t(in.meshes[m])];
        if (!plans.tiles[m].empty()) {
            const UvRasterPlan& plan = *plans.tiles[m].front().plan;
            info.covered = plan.covered.size();
            info.padded = plan.padded.size();
            info.degenerate_faces = plan.degenerate_faces;
            info.outside_faces = plan.outside_faces;
        }
        const UvSet* set = plans.sets[m];
        if (info.degenerate_faces)
            spdlog::warn("{}: mesh '{}': {} UV triangles of set {} have no area and cover no texel", opt.tension.input.file, mesh.name,
                         info.degenerate_faces, set->name);
        if (!opt.udim && info.outside_faces)
            spdlog::warn("{}: mesh '{}': {} faces reach outside UV 0..1: their parts outside are not in the image (--udim bakes every tile)",
                         opt.tension.input.file, mesh.name, info.outside_faces);
    }
}

}  // namespace rigscope
