// What `rigscope rivet` writes as JSON and CSV (docs/rivet.md names every field).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rigscope/core/frames.h"
#include "rigscope/io/run_info.h"
#include "rigscope/io/output.h"
#include "rigscope/core/rivet.h"

namespace rigscope {

// One fitted rivet with what the report says about it.
struct RivetResult {
    std::uint32_t vertex = 0;
    int joint = -1;
    std::vector<RivetInfluence> influences;
    std::optional<Eigen::Vector3d> analytic;
    Eigen::Vector3d pivot_world = Eigen::Vector3d::Zero();
    RivetFit fit;
    // Why the fit is undetermined (its joint does not turn over the frames), "" when it is not:
    // such a vertex is reported and judged failed, never written, and the others are fitted.
    std::string undetermined;
};

// "Bone:0.75;Bone.001:0.25": the CSV's influences field and the --joint error's list.
std::string influence_list(const Scene& scene, const std::vector<RivetInfluence>& influences);

void write_fit_json(std::string& buf, const RunInfo& run, int mesh, const std::vector<RivetResult>& rivets);
void write_fit_csv(std::string& buf, const Scene& scene, const std::vector<RivetResult>& rivets, double diagonal);

// Rows frame-major: frames[f][i] is vertex i at (*run.frames)[f].
void write_bake_json(OutputFile& out, const RunInfo& run, int mesh, const std::vector<std::uint32_t>& vertices,
                     const std::vector<std::vector<BakedTransform>>& frames);
void write_bake_csv(OutputFile& out, const RunInfo& run, const std::vector<std::uint32_t>& vertices,
                    const std::vector<std::vector<BakedTransform>>& frames);

}  // namespace rigscope
