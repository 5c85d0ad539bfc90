// What `rigscope rivet` writes as JSON and CSV (docs/rivet.md names every field).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli_common.h"
#include "rigscope/output.h"
#include "rigscope/rivet.h"

namespace rigscope::cli {

// One fitted rivet with what the report says about it.
struct RivetResult {
    std::uint32_t vertex = 0;
    int joint = -1;
    std::vector<RivetInfluence> influences;
    std::optional<Eigen::Vector3d> analytic;
    Eigen::Vector3d pivot_world = Eigen::Vector3d::Zero();
    RivetFit fit;
};

// "Bone:0.75;Bone.001:0.25": the CSV's influences field and the --joint error's list.
std::string influence_list(const Scene& scene, const std::vector<RivetInfluence>& influences);

// A frame as the outputs name it: its number, or bind (quoted in JSON).
void append_frame(std::string& buf, const Frame& f, bool json);

// The bounding-box diagonal of the stored mesh: the scale relative errors are measured against.
double bbox_diagonal(const Mesh& mesh);

void write_fit_json(std::string& buf, const std::string& input, const Input& in, int mesh, const std::vector<RivetResult>& rivets);
void write_fit_csv(std::string& buf, const Scene& scene, const std::vector<RivetResult>& rivets, double diagonal);

// Rows frame-major: frames[f][i] is vertex i at in.frames[f].
void write_bake_json(OutputFile& out, const std::string& input, const Input& in, int mesh, const std::vector<std::uint32_t>& vertices,
                     const std::vector<std::vector<BakedTransform>>& frames);
void write_bake_csv(OutputFile& out, const Input& in, const std::vector<std::uint32_t>& vertices,
                    const std::vector<std::vector<BakedTransform>>& frames);

}  // namespace rigscope::cli
