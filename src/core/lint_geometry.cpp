// Lint of what the weights act on: faces that have no area or share an edge with two others,
// a rest skeleton that does not reproduce the stored mesh, and joints scaled in the bind pose.
#include <algorithm>
#include <cmath>
#include <set>

#include "lint_text.h"
#include "rigscope/core/bind_check.h"
#include "rigscope/core/vertex_match.h"

namespace rigscope {

using namespace lint_detail;

namespace {

// A face's distinct sides over the welded points, each as (lower << 32 | higher); false when a
// corner is no vertex (the face is skipped). A collapsed face (a, b, a) has the side a-b twice:
// the face counts once per edge.
template <class Point>
bool face_sides(const Mesh& mesh, std::uint32_t b, std::uint32_t e, std::size_t nv, const Point& point,
                std::vector<std::uint64_t>& sides) {
    sides.clear();
    for (std::uint32_t k = b; k < e; ++k) {
        const std::uint32_t i = mesh.face_indices[k], j = mesh.face_indices[k + 1 < e ? k + 1 : b];
        if (i >= nv || j >= nv) return false;
        const std::uint32_t pi = point(i), pj = point(j);
        if (pi == pj) continue;
        const std::uint64_t side = static_cast<std::uint64_t>(std::min(pi, pj)) << 32 | std::max(pi, pj);
        // Triangles and quads have a handful of sides: a scan beats a sort.
        if (sides.size() < 16 ? std::find(sides.begin(), sides.end(), side) == sides.end() : true) sides.push_back(side);
    }
    if (sides.size() > 16) {
        std::sort(sides.begin(), sides.end());
        sides.erase(std::unique(sides.begin(), sides.end()), sides.end());
    }
    return true;
}

}  // namespace

void lint_faces(const Scene& scene, int m, const std::vector<std::uint32_t>& coincident, const LintParams& params,
                std::vector<Finding>& out) {
    const Mesh& mesh = scene.meshes[m];
    const std::size_t nv = mesh.positions.size();
    const double diagonal = bounding_diagonal(mesh.positions);
    const double zero_area = params.area_tolerance * diagonal * diagonal;
    // Points are below nv either way, so they index per-point arrays.
    auto point = [&](std::uint32_t v) { return v < coincident.size() ? coincident[v] : v; };
    // The faces read, up to the first whose corner range is broken (the rest is not read).
    std::size_t faces = 0;
    while (faces < mesh.face_count() && mesh.face_offsets[faces + 1] <= mesh.face_indices.size() &&
           mesh.face_offsets[faces] <= mesh.face_offsets[faces + 1])
        ++faces;
    // Each face's sides bucketed by their lower point (a counting sort, linear): per bucket, the
    // higher ends once per face that has the edge.
    std::vector<std::uint32_t> bucket(nv + 1, 0);  // sides per lower point, then bucket ends, then starts
    std::vector<std::uint64_t> sides;
    std::size_t side_count = 0;
    for (std::size_t f = 0; f < faces; ++f) {
        const std::uint32_t b = mesh.face_offsets[f], e = mesh.face_offsets[f + 1];
        if (!face_sides(mesh, b, e, nv, point, sides)) continue;
        for (std::uint64_t s : sides) ++bucket[s >> 32];
        side_count += sides.size();
        // Newell's normal: twice the area of any planar polygon, and of a warped one's projection.
        Eigen::Vector3d twice = Eigen::Vector3d::Zero();
        for (std::uint32_t k = b; k < e; ++k) {
            const std::uint32_t i = mesh.face_indices[k], j = mesh.face_indices[k + 1 < e ? k + 1 : b];
            twice += mesh.positions[i].cast<double>().cross(mesh.positions[j].cast<double>());
        }
        const double area = 0.5 * twice.norm();
        if (area <= zero_area) {
            std::string corners;
            for (std::uint32_t k = b; k < e && k < b + 6; ++k) corners += (k == b ? "" : ", ") + std::to_string(mesh.face_indices[k]);
            if (e > b + 6) corners += ", ...";
            Finding fd = finding("degenerate_face", Severity::Warning, m,
                                 "face " + std::to_string(f) + " (vertices " + corners + ") has zero area (" + number(area) + ")");
            fd.face = static_cast<std::int64_t>(f);
            fd.vertex = e > b ? mesh.face_indices[b] : -1;
            fd.value = area;
            fd.has_value = true;
            out.push_back(std::move(fd));
        }
    }
    for (std::size_t a = 1; a < nv; ++a) bucket[a] += bucket[a - 1];
    bucket[nv] = static_cast<std::uint32_t>(side_count);
    std::vector<std::uint32_t> higher(side_count);
    for (std::size_t f = 0; f < faces; ++f) {
        if (!face_sides(mesh, mesh.face_offsets[f], mesh.face_offsets[f + 1], nv, point, sides)) continue;
        // Filled from each bucket's end down, which leaves bucket[a] at bucket a's start.
        for (std::uint64_t s : sides) higher[--bucket[s >> 32]] = static_cast<std::uint32_t>(s);
    }
    // Non-manifold: an edge of the surface as placed that more than two faces share. Buckets
    // are small (a vertex's edges to higher points), sorted in place, in (lower, higher) order.
    for (std::size_t a = 0; a < nv; ++a) {
        std::uint32_t* first = higher.data() + bucket[a];
        std::uint32_t* last = higher.data() + bucket[a + 1];
        if (last - first < 3) continue;
        std::sort(first, last);
        for (std::uint32_t* i = first; i < last;) {
            std::uint32_t* k = i + 1;
            while (k < last && *k == *i) ++k;
            if (k - i > 2) {
                const auto c = *i;
                Finding fd = finding("degenerate_face", Severity::Warning, m,
                                     "the edge from vertex " + std::to_string(a) + " to vertex " + std::to_string(c) + " is shared by " +
                                         std::to_string(k - i) + " faces (non-manifold)");
                fd.vertex = static_cast<std::int64_t>(a);
                fd.partner = c;
                fd.value = static_cast<double>(k - i);
                fd.has_value = true;
                out.push_back(std::move(fd));
            }
            i = k;
        }
    }
}

void lint_bind_pose(const Scene& scene, int m, const LintParams& params, std::vector<Finding>& out) {
    const Mesh& mesh = scene.meshes[m];
    if (mesh.skin < 0 || mesh.skin >= static_cast<int>(scene.skins.size())) return;
    const Skin& skin = scene.skins[mesh.skin];
    const BindCheck check = check_bind(scene, m);
    if (!check.skinned) return;
    const double limit = params.bind_tolerance * check.diagonal;
    bool named = false;
    for (std::size_t j = 0; j < check.joint_distance.size() && j < skin.joints.size(); ++j) {
        const double d = check.joint_distance[j];
        if (!(d > limit)) continue;
        Finding f = finding("bind_pose", Severity::Warning, m,
                            "at rest the joint moves the vertices it weighs by up to " + number(d) + " (mesh diagonal " + number(check.diagonal) +
                                "): its rest pose is not its bind pose");
        f.joint = skin.joints[j];
        f.value = d;
        f.has_value = true;
        out.push_back(std::move(f));
        named = true;
    }
    if (!named && check.max_distance > limit) {
        Finding f = finding("bind_pose", Severity::Warning, m,
                            "the rest skeleton moves this vertex by " + number(check.max_distance) + " from where it is stored");
        f.vertex = check.worst_vertex;
        f.value = check.max_distance;
        f.has_value = true;
        out.push_back(std::move(f));
    }
}

void lint_joint_scale(const Scene& scene, const std::vector<int>& meshes, const LintParams& params, std::vector<Finding>& out) {
    // Each joint once, under the first selected mesh whose skin has it.
    std::set<int> seen;
    for (int m : meshes) {
        const Mesh& mesh = scene.meshes[m];
        if (mesh.skin < 0 || mesh.skin >= static_cast<int>(scene.skins.size())) continue;
        for (int node : scene.skins[mesh.skin].joints) {
            if (node < 0 || node >= static_cast<int>(scene.nodes.size()) || !seen.insert(node).second) continue;
            const Eigen::Vector3d s = scene.nodes[node].rest.scale;
            const std::string text = number(s.x()) + ", " + number(s.y()) + ", " + number(s.z());
            const double lo = s.cwiseAbs().minCoeff(), hi = s.cwiseAbs().maxCoeff();
            std::string problem;
            if (s.minCoeff() < 0) problem = "negative scale (" + text + ")";
            else if (!(hi <= lo * (1 + params.scale_tolerance))) problem = "non-uniform scale (" + text + ")";
            if (problem.empty()) continue;
            Finding f = finding("joint_scale", Severity::Warning, m, problem + " in the rest pose");
            f.joint = node;
            f.value = lo > 0 ? hi / lo : INFINITY;
            f.has_value = std::isfinite(f.value);
            out.push_back(std::move(f));
        }
    }
}

}  // namespace rigscope
