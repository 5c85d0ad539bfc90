// A scene against an oracle of control-point positions (the crafted FBX cases of
// tests/fbx_cases and tests/fbx_cases_v6): vertex ids are control point indices, so the
// comparison is index by index, with no matching.
#pragma once

#include <catch2/catch.hpp>
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "oracle.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/skin.h"

namespace rigscope::test {

struct OracleGap {
    double worst = 0;   // metres
    std::string where;  // "mesh M, rest" or "mesh M, frame F, control point V"
};

// The largest distance between the scene's deformed meshes and the oracle's positions, at rest
// and at each of the oracle's frames (sampled from the scene's first clip at frame / fps).
inline OracleGap gap_to_oracle(const Scene& scene, const nlohmann::json& oracle) {
    OracleGap gap;
    const auto note = [&](const std::vector<Eigen::Vector3f>& got, const std::vector<Eigen::Vector3f>& want,
                          const std::string& mesh, const std::string& at) {
        for (std::size_t v = 0; v < got.size(); ++v) {
            const double d = (got[v] - want[v]).norm();
            if (d > gap.worst) {
                std::ostringstream s;
                s << "mesh " << mesh << ", " << at << ", control point " << v;
                gap = {d, s.str()};
            }
        }
    };
    for (const auto& om : oracle["meshes"]) {
        const std::string name = om["name"].get<std::string>();
        int mi = -1;
        for (std::size_t m = 0; m < scene.meshes.size(); ++m)
            if (scene.meshes[m].name == name) mi = int(m);
        INFO("mesh " << name);
        REQUIRE(mi >= 0);
        REQUIRE(scene.meshes[mi].vertex_count() == om["control_points"].get<std::size_t>());
        std::vector<Eigen::Vector3f> got;
        deform_mesh(scene, mi, bind_pose(scene), got);
        note(got, points(om["rest"]), name, "rest");
        REQUIRE(!scene.clips.empty());
        REQUIRE(!om["frames"].empty());
        Pose pose = rest_pose(scene);
        for (const auto& fr : om["frames"]) {
            const long f = fr["frame"].get<long>();
            sample_pose(scene, &scene.clips[0], double(f) / scene.fps, pose);
            deform_mesh(scene, mi, pose, got);
            note(got, points(fr["positions"]), name, "frame " + std::to_string(f));
        }
    }
    return gap;
}

}  // namespace rigscope::test
