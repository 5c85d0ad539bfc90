// Blender oracles: loading them and matching a file's vertices to theirs by rest position.
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#include <Eigen/Core>

namespace rigscope::test {

inline nlohmann::json load_json(const std::string& path) {
    std::ifstream f(path);
    if (!f) throw std::runtime_error("cannot open " + path);
    return nlohmann::json::parse(f);
}

inline std::vector<Eigen::Vector3f> points(const nlohmann::json& list) {
    std::vector<Eigen::Vector3f> out;
    for (const auto& p : list) out.emplace_back(p[0].get<float>(), p[1].get<float>(), p[2].get<float>());
    return out;
}

// For each oracle point, the index of the nearest of `ours` and the distance to it.
inline std::vector<std::size_t> match_nearest(const std::vector<Eigen::Vector3f>& oracle, const std::vector<Eigen::Vector3f>& ours,
                                              double* worst = nullptr) {
    std::vector<std::size_t> idx(oracle.size());
    double w = 0;
    for (std::size_t i = 0; i < oracle.size(); ++i) {
        double best = 1e300;
        for (std::size_t j = 0; j < ours.size(); ++j) {
            const double d = (oracle[i] - ours[j]).squaredNorm();
            if (d < best) {
                best = d;
                idx[i] = j;
            }
        }
        w = std::max(w, std::sqrt(best));
    }
    if (worst) *worst = w;
    return idx;
}

}  // namespace rigscope::test
