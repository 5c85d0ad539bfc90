// Lint of the skin weights themselves: their sum, their count, tiny and missing weights, seam
// copies that disagree, and joints that weigh nothing.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "lint_text.h"
#include "rigscope/core/topology.h"

namespace rigscope {

using namespace lint_detail;

const char* severity_name(Severity s) {
    switch (s) {
        case Severity::Info: return "info";
        case Severity::Warning: return "warning";
        case Severity::Error: return "error";
    }
    return "";
}

std::string lint_number(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.7g", x);
    return buf;
}

namespace lint_detail {

std::vector<Weight> weight_row(const Influences& inf, std::size_t v) {
    std::vector<Weight> row;
    if (v >= inf.vertex_count()) return row;
    const std::size_t e = std::min<std::size_t>(inf.offsets[v + 1], std::min(inf.joints.size(), inf.weights.size()));
    for (std::size_t k = inf.offsets[v]; k < e; ++k) row.push_back({inf.joints[k], inf.weights[k]});
    std::sort(row.begin(), row.end(), [](const Weight& a, const Weight& b) { return a.joint < b.joint; });
    std::size_t out = 0;
    for (std::size_t k = 0; k < row.size(); ++k) {
        if (out && row[out - 1].joint == row[k].joint) row[out - 1].weight += row[k].weight;
        else row[out++] = row[k];
    }
    row.resize(out);
    return row;
}

float largest_difference(const std::vector<Weight>& a, const std::vector<Weight>& b, int& where) {
    float most = 0;
    where = -1;
    std::size_t i = 0, k = 0;
    auto see = [&](float d, int joint) {
        if (d > most) most = d, where = joint;
    };
    while (i < a.size() || k < b.size()) {
        if (k == b.size() || (i < a.size() && a[i].joint < b[k].joint)) see(std::abs(a[i].weight), a[i].joint), ++i;
        else if (i == a.size() || b[k].joint < a[i].joint) see(std::abs(b[k].weight), b[k].joint), ++k;
        else see(std::abs(a[i].weight - b[k].weight), a[i].joint), ++i, ++k;
    }
    return most;
}

}  // namespace lint_detail

std::vector<std::uint32_t> coincident_vertices(const std::vector<Eigen::Vector3f>& positions, double relative_tolerance) {
    // The weld by position alone (topology.h), with its linear grid.
    const Topology t = weld_by_position(positions, relative_tolerance);
    std::vector<std::uint32_t> first(positions.size());
    for (std::size_t v = 0; v < first.size(); ++v) first[v] = t.representative[t.welded_of[v]];
    return first;
}

void lint_weights(const Scene& scene, int m, const LintParams& params, std::vector<Finding>& out) {
    const Mesh& mesh = scene.meshes[m];
    if (!lint_has_skin(scene, mesh)) return;
    const Skin& skin = scene.skins[mesh.skin];
    const Influences& inf = mesh.influences;
    const std::size_t nv = mesh.vertex_count();
    const bool sums = inf.stored_sums.size() == nv;
    if (!sums) {
        // Never a silent pass: the sums this reader drops cannot be checked.
        Finding f = finding("weights_sum", Severity::Warning, m,
                            "not checked: the " + scene.format + " reader keeps no stored weight sums (weights are normalised as read)");
        out.push_back(std::move(f));
    }
    for (std::size_t v = 0; v < nv; ++v) {
        const std::size_t b = v < inf.vertex_count() ? inf.offsets[v] : 0;
        const std::size_t e = v < inf.vertex_count() ? std::min<std::size_t>(inf.offsets[v + 1], inf.weights.size()) : 0;
        if (b >= e) {
            Finding f = finding("unweighted", Severity::Error, m, "no skin weight: the vertex stays where it is stored");
            f.vertex = static_cast<std::int64_t>(v);
            out.push_back(std::move(f));
            continue;
        }
        const double sum = sums ? inf.stored_sums[v] : 1.0;
        if (sums && std::abs(sum - 1.0) > params.weight_tolerance) {
            Finding f = finding("weights_sum", Severity::Error, m,
                                "weights sum to " + number(sum) + ", off 1 by more than " + number(params.weight_tolerance));
            f.vertex = static_cast<std::int64_t>(v);
            f.value = sum;
            f.has_value = true;
            out.push_back(std::move(f));
        }
        if (e - b > static_cast<std::size_t>(params.max_influences)) {
            Finding f = finding("influences", Severity::Warning, m,
                                std::to_string(e - b) + " influences, more than " + std::to_string(params.max_influences));
            f.vertex = static_cast<std::int64_t>(v);
            f.value = static_cast<double>(e - b);
            f.has_value = true;
            out.push_back(std::move(f));
        }
        for (std::size_t k = b; k < e; ++k) {
            // The weight as stored: the reader divided it by the sum.
            const double w = inf.weights[k] * sum;
            if (w > 0 && w < params.min_weight) {
                const int node = inf.joints[k] < skin.joints.size() ? skin.joints[inf.joints[k]] : -1;
                Finding f = finding("small_weight", Severity::Warning, m,
                                    "weight " + number(w) + " on joint '" + joint_name(scene, node) + "', below " + number(params.min_weight));
                f.vertex = static_cast<std::int64_t>(v);
                f.joint = node;
                f.value = w;
                f.has_value = true;
                out.push_back(std::move(f));
            }
        }
    }
}

void lint_seams(const Scene& scene, int m, const std::vector<std::uint32_t>& first, const LintParams& params, std::vector<Finding>& out) {
    const Mesh& mesh = scene.meshes[m];
    if (!lint_has_skin(scene, mesh)) return;
    const Skin& skin = scene.skins[mesh.skin];
    for (std::size_t v = 0; v < first.size() && v < mesh.vertex_count(); ++v) {
        if (first[v] == v) continue;
        int where = -1;
        const float d = largest_difference(weight_row(mesh.influences, v), weight_row(mesh.influences, first[v]), where);
        if (!(d > params.weight_tolerance)) continue;
        const int node = where >= 0 && where < static_cast<int>(skin.joints.size()) ? skin.joints[where] : -1;
        Finding f = finding("seam_weights", Severity::Error, m,
                            "weights differ from vertex " + std::to_string(first[v]) + " at the same position by " + number(d) + " on joint '" +
                                joint_name(scene, node) + "'");
        f.vertex = static_cast<std::int64_t>(v);
        f.partner = first[v];
        f.joint = node;
        f.value = d;
        f.has_value = true;
        out.push_back(std::move(f));
    }
}

void lint_unused_joints(const Scene& scene, const std::vector<int>& meshes, std::vector<Finding>& out) {
    for (std::size_t s = 0; s < scene.skins.size(); ++s) {
        const Skin& skin = scene.skins[s];
        std::vector<char> used(skin.joints.size(), 0);
        std::string names;
        int first_mesh = -1;
        for (int m : meshes) {
            const Mesh& mesh = scene.meshes[m];
            if (mesh.skin != static_cast<int>(s)) continue;
            if (first_mesh < 0) first_mesh = m;
            names += (names.empty() ? "'" : ", '") + mesh.name + "'";
            const std::size_t n = std::min(mesh.influences.joints.size(), mesh.influences.weights.size());
            for (std::size_t k = 0; k < n; ++k)
                if (mesh.influences.weights[k] > 0 && mesh.influences.joints[k] < used.size()) used[mesh.influences.joints[k]] = 1;
        }
        if (first_mesh < 0) continue;
        for (std::size_t j = 0; j < skin.joints.size(); ++j) {
            if (used[j]) continue;
            Finding f = finding("unused_joint", Severity::Info, first_mesh, "moves no vertex of " + names);
            f.joint = skin.joints[j];
            out.push_back(std::move(f));
        }
    }
}

}  // namespace rigscope
