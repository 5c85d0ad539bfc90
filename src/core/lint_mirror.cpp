// Lint of a rig's symmetry: each vertex's mirror image in the bind pose should carry the same
// weights once left and right joint names are swapped.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <unordered_map>

#include "lint_text.h"
#include "rigscope/core/vertex_match.h"

namespace rigscope {

using namespace lint_detail;

namespace {

bool replace_first(std::string& s, const std::string& a, const std::string& b) {
    if (a.empty()) return false;
    const std::size_t at = s.find(a);
    if (at == std::string::npos) return false;
    s.replace(at, a.size(), b);
    return true;
}

char swap_side(char c) {
    switch (c) {
        case 'L': return 'R';
        case 'R': return 'L';
        case 'l': return 'r';
        case 'r': return 'l';
    }
    return c;
}

bool is_side(char c) { return c == 'L' || c == 'R' || c == 'l' || c == 'r'; }

}  // namespace

std::string mirror_joint_name(const std::string& name, const std::vector<std::pair<std::string, std::string>>& extra) {
    std::string s = name;
    for (const auto& [a, b] : extra)
        if (replace_first(s, a, b) || replace_first(s, b, a)) return s;
    static const std::pair<const char*, const char*> words[] = {{"Left", "Right"}, {"left", "right"}, {"LEFT", "RIGHT"}};
    for (const auto& [a, b] : words)
        if (replace_first(s, a, b) || replace_first(s, b, a)) return s;
    // Suffixes: hand.L, arm_R, hand.L.001 (Blender's copies), arm_L_01; the last one counts.
    for (std::size_t i = s.size(); i-- > 1;) {
        if (!is_side(s[i]) || (s[i - 1] != '_' && s[i - 1] != '.')) continue;
        const bool ends = i + 1 == s.size() || s[i + 1] == '_' || s[i + 1] == '.' || std::isdigit(static_cast<unsigned char>(s[i + 1]));
        if (!ends || i - 1 == 0) continue;  // "_L" alone is no suffix
        s[i] = swap_side(s[i]);
        return s;
    }
    // Prefixes: L_arm, r_leg, also after a namespace (rig:L_arm).
    const std::size_t start = s.rfind(':') == std::string::npos ? 0 : s.rfind(':') + 1;
    if (start + 2 < s.size() && is_side(s[start]) && s[start + 1] == '_') {
        s[start] = swap_side(s[start]);
        return s;
    }
    return s;
}

void lint_mirror(const Scene& scene, int m, const LintParams& params, std::vector<Finding>& out) {
    const Mesh& mesh = scene.meshes[m];
    if (params.mirror_axis < 0 || params.mirror_axis > 2) return;
    if (!lint_has_skin(scene, mesh)) return;
    const Skin& skin = scene.skins[mesh.skin];
    const int axis = params.mirror_axis;
    const char axis_name = "xyz"[axis];

    // Skin joint -> its mirror's skin joint; -1 where the mirrored name is no joint of the skin.
    std::unordered_map<std::string, int> by_name;
    for (std::size_t j = 0; j < skin.joints.size(); ++j) by_name.emplace(joint_name(scene, skin.joints[j]), static_cast<int>(j));
    std::vector<int> mirror_of(skin.joints.size(), -1);
    for (std::size_t j = 0; j < skin.joints.size(); ++j) {
        const auto it = by_name.find(mirror_joint_name(joint_name(scene, skin.joints[j]), params.mirror_names));
        if (it != by_name.end()) mirror_of[j] = it->second;
    }

    // Partners: the vertices and their mirror images welded together by position; a vertex's
    // partners are the images in its group.
    const std::size_t n = mesh.positions.size();
    std::vector<Eigen::Vector3f> both(mesh.positions);
    both.reserve(2 * n);
    for (std::size_t v = 0; v < n; ++v) {
        Eigen::Vector3f p = mesh.positions[v];
        p[axis] = -p[axis];
        both.push_back(p);
    }
    const double diagonal = bounding_diagonal(mesh.positions), both_diagonal = bounding_diagonal(both);
    const double tol = params.mirror_tolerance * diagonal;
    const std::vector<std::uint32_t> first = coincident_vertices(both, both_diagonal > 0 ? tol / both_diagonal : 0.0);
    // Images per group (compressed rows keyed by the group's first vertex).
    std::vector<std::uint32_t> offsets(2 * n + 1, 0), images;
    for (std::size_t u = 0; u < n; ++u) ++offsets[first[n + u] + 1];
    for (std::size_t i = 0; i < 2 * n; ++i) offsets[i + 1] += offsets[i];
    images.resize(n);
    {
        std::vector<std::uint32_t> next(offsets.begin(), offsets.end() - 1);
        for (std::size_t u = 0; u < n; ++u) images[next[first[n + u]]++] = static_cast<std::uint32_t>(u);
    }

    std::vector<std::size_t> unmapped(skin.joints.size(), 0);  // vertices not compared, per joint
    const float plane = static_cast<float>(tol);
    for (std::size_t v = 0; v < n; ++v) {
        const std::uint32_t g = first[v];
        if (offsets[g] == offsets[g + 1]) {
            Finding f = finding("mirror_unpaired", Severity::Warning, m,
                                std::string("no vertex within ") + number(tol) + " of its mirror image in " + axis_name + ", so its weights are not compared");
            f.vertex = static_cast<std::int64_t>(v);
            out.push_back(std::move(f));
            continue;
        }
        // Each pair once: from the vertex on the + side (on the plane, from the lower index).
        const float c = mesh.positions[v][axis];
        std::vector<Weight> mine = weight_row(mesh.influences, v);
        bool comparable = true;
        for (Weight& w : mine) {
            if (w.joint >= static_cast<int>(mirror_of.size()) || mirror_of[w.joint] < 0) {
                if (w.joint < static_cast<int>(unmapped.size())) ++unmapped[w.joint];
                comparable = false;
            } else {
                w.joint = mirror_of[w.joint];
            }
        }
        if (!comparable) continue;
        std::sort(mine.begin(), mine.end(), [](const Weight& a, const Weight& b) { return a.joint < b.joint; });
        // The partner that matches best: seam copies at the image may differ among themselves
        // (seam_weights reports that), the mirror asks whether one of them matches.
        float best = INFINITY;
        int best_joint = -1;
        std::uint32_t partner = 0;
        for (std::uint32_t k = offsets[g]; k < offsets[g + 1]; ++k) {
            int where = -1;
            const float d = largest_difference(mine, weight_row(mesh.influences, images[k]), where);
            if (d < best) best = d, best_joint = where, partner = images[k];
        }
        const bool on_plane = std::abs(c) <= plane;
        if (!(c > plane || (on_plane && v <= partner))) continue;
        if (!(best > params.weight_tolerance)) continue;
        const int node = best_joint >= 0 && best_joint < static_cast<int>(skin.joints.size()) ? skin.joints[best_joint] : -1;
        Finding f = finding("mirror", Severity::Warning, m,
                            "weights differ from its mirror partner, vertex " + std::to_string(partner) + ", by " + number(best) +
                                " on joint '" + joint_name(scene, node) + "'");
        f.vertex = static_cast<std::int64_t>(v);
        f.partner = partner;
        f.joint = node;
        f.value = best;
        f.has_value = true;
        out.push_back(std::move(f));
    }
    for (std::size_t j = 0; j < skin.joints.size(); ++j) {
        if (!unmapped[j]) continue;
        const std::string name = joint_name(scene, skin.joints[j]);
        Finding f = finding("mirror", Severity::Warning, m,
                            "its mirror '" + mirror_joint_name(name, params.mirror_names) + "' is no joint of the skin: " +
                                std::to_string(unmapped[j]) + " vertices it weighs are not compared");
        f.joint = skin.joints[j];
        f.value = static_cast<double>(unmapped[j]);
        f.has_value = true;
        out.push_back(std::move(f));
    }
}

}  // namespace rigscope
