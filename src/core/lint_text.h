// What the lint checks share: numbers and names as their messages write them, and a vertex's
// weights as one row.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rigscope/core/lint.h"

namespace rigscope::lint_detail {

// The checks' short name for lint_number (core/lint.h): seven significant digits.
inline std::string number(double x) { return lint_number(x); }

inline std::string joint_name(const Scene& scene, int node) {
    if (node < 0 || node >= static_cast<int>(scene.nodes.size())) return "#" + std::to_string(node);
    return scene.nodes[node].name;
}

inline Finding finding(const char* check, Severity s, int mesh, std::string message) {
    Finding f;
    f.check = check;
    f.severity = s;
    f.mesh = mesh;
    f.message = std::move(message);
    return f;
}

struct Weight {
    int joint;  // skin joint index, or -1 for a joint the mirror cannot map
    float weight;
};

// Vertex v's influences, duplicates of one joint added together (glTF allows them), in joint order.
std::vector<Weight> weight_row(const Influences& inf, std::size_t v);

// The largest |a(j) - b(j)| over the joints either names, and the joint where it is (-1: none).
float largest_difference(const std::vector<Weight>& a, const std::vector<Weight>& b, int& where);

}  // namespace rigscope::lint_detail
