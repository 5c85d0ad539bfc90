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

namespace {

// Skin joint -> its mirror's skin joint; -1 where the mirrored name is no joint of the skin.
std::vector<int> mirror_joints(const Scene& scene, const Skin& skin, const LintParams& params) {
    std::unordered_map<std::string, int> by_name;
    for (std::size_t j = 0; j < skin.joints.size(); ++j) by_name.emplace(joint_name(scene, skin.joints[j]), static_cast<int>(j));
    std::vector<int> mirror_of(skin.joints.size(), -1);
    for (std::size_t j = 0; j < skin.joints.size(); ++j) {
        const auto it = by_name.find(mirror_joint_name(joint_name(scene, skin.joints[j]), params.mirror_names));
        if (it != by_name.end()) mirror_of[j] = it->second;
    }
    return mirror_of;
}

// Partners: the vertices and their mirror images welded together by position; a vertex's
// partners are the images in its group (compressed rows keyed by the group's first vertex).
struct MirrorPartners {
    std::vector<std::uint32_t> first;    // per vertex, then per image: its group's first vertex
    std::vector<std::uint32_t> offsets;  // per group: its images' range in `images`
    std::vector<std::uint32_t> images;
};

MirrorPartners mirror_partners(const Mesh& mesh, int axis, double tol) {
    const std::size_t n = mesh.positions.size();
    std::vector<Eigen::Vector3f> both(mesh.positions);
    both.reserve(2 * n);
    for (std::size_t v = 0; v < n; ++v) {
        Eigen::Vector3f p = mesh.positions[v];
        p[axis] = -p[axis];
        both.push_back(p);
    }
    const double both_diagonal = bounding_diagonal(both);
    MirrorPartners pt;
    pt.first = coincident_vertices(both, both_diagonal > 0 ? tol / both_diagonal : 0.0);
    pt.offsets.assign(2 * n + 1, 0);
    for (std::size_t u = 0; u < n; ++u) ++pt.offsets[pt.first[n + u] + 1];
    for (std::size_t i = 0; i < 2 * n; ++i) pt.offsets[i + 1] += pt.offsets[i];
    pt.images.resize(n);
    std::vector<std::uint32_t> next(pt.offsets.begin(), pt.offsets.end() - 1);
    for (std::size_t u = 0; u < n; ++u) pt.images[next[pt.first[n + u]]++] = static_cast<std::uint32_t>(u);
    return pt;
}

// Vertex v's weights with each joint swapped for its mirror, sorted by joint; false when a
// joint has no mirror (counted in `unmapped`: the vertex is not compared).
bool mirrored_weights(const Mesh& mesh, std::size_t v, const std::vector<int>& mirror_of, std::vector<std::size_t>& unmapped,
                      std::vector<Weight>& mine) {
    mine = weight_row(mesh.influences, v);
    bool comparable = true;
    for (Weight& w : mine) {
        if (w.joint >= static_cast<int>(mirror_of.size()) || mirror_of[w.joint] < 0) {
            if (w.joint < static_cast<int>(unmapped.size())) ++unmapped[w.joint];
            comparable = false;
        } else {
            w.joint = mirror_of[w.joint];
        }
    }
    if (comparable) std::sort(mine.begin(), mine.end(), [](const Weight& a, const Weight& b) { return a.joint < b.joint; });
    return comparable;
}

// The partner that matches best: seam copies at the image may differ among themselves
// (seam_weights reports that), the mirror asks whether one of them matches.
struct BestPartner {
    float difference = INFINITY;
    int joint = -1;  // the skin joint the difference is largest on
    std::uint32_t vertex = 0;
};

BestPartner best_partner(const Mesh& mesh, const MirrorPartners& pt, std::uint32_t g, const std::vector<Weight>& mine) {
    BestPartner best;
    for (std::uint32_t k = pt.offsets[g]; k < pt.offsets[g + 1]; ++k) {
        int where = -1;
        const float d = largest_difference(mine, weight_row(mesh.influences, pt.images[k]), where);
        if (d < best.difference) best.difference = d, best.joint = where, best.vertex = pt.images[k];
    }
    return best;
}

// The joints whose mirror is no joint of the skin, with the vertices left uncompared for it.
void unmapped_joints(const Scene& scene, int m, const Skin& skin, const LintParams& params, const std::vector<std::size_t>& unmapped,
                     std::vector<Finding>& out) {
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

}  // namespace

void lint_mirror(const Scene& scene, int m, const LintParams& params, std::vector<Finding>& out) {
    const Mesh& mesh = scene.meshes[m];
    if (params.mirror_axis < 0 || params.mirror_axis > 2) return;
    if (!lint_has_skin(scene, mesh)) return;
    const Skin& skin = scene.skins[mesh.skin];
    const int axis = params.mirror_axis;
    const char axis_name = "xyz"[axis];
    const std::vector<int> mirror_of = mirror_joints(scene, skin, params);
    const double tol = params.mirror_tolerance * bounding_diagonal(mesh.positions);
    const MirrorPartners pt = mirror_partners(mesh, axis, tol);

    std::vector<std::size_t> unmapped(skin.joints.size(), 0);  // vertices not compared, per joint
    const float plane = static_cast<float>(tol);
    std::vector<Weight> mine;
    for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
        const std::uint32_t g = pt.first[v];
        if (pt.offsets[g] == pt.offsets[g + 1]) {
            Finding f = finding("mirror_unpaired", Severity::Warning, m,
                                std::string("no vertex within ") + number(tol) + " of its mirror image in " + axis_name + ", so its weights are not compared");
            f.vertex = static_cast<std::int64_t>(v);
            out.push_back(std::move(f));
            continue;
        }
        if (!mirrored_weights(mesh, v, mirror_of, unmapped, mine)) continue;
        const BestPartner best = best_partner(mesh, pt, g, mine);
        // Each pair once: from the vertex on the + side (on the plane, from the lower index).
        const float c = mesh.positions[v][axis];
        const bool on_plane = std::abs(c) <= plane;
        if (!(c > plane || (on_plane && v <= best.vertex))) continue;
        if (!(best.difference > params.weight_tolerance)) continue;
        const int node = best.joint >= 0 && best.joint < static_cast<int>(skin.joints.size()) ? skin.joints[best.joint] : -1;
        Finding f = finding("mirror", Severity::Warning, m,
                            "weights differ from its mirror partner, vertex " + std::to_string(best.vertex) + ", by " + number(best.difference) +
                                " on joint '" + joint_name(scene, node) + "'");
        f.vertex = static_cast<std::int64_t>(v);
        f.partner = best.vertex;
        f.joint = node;
        f.value = best.difference;
        f.has_value = true;
        out.push_back(std::move(f));
    }
    unmapped_joints(scene, m, skin, params, unmapped, out);
}

}  // namespace rigscope
