#include "rigscope/vertex_match.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>

namespace rigscope {

namespace {

struct CellKey {
    long long x, y, z;
    bool operator==(const CellKey& o) const { return x == o.x && y == o.y && z == o.z; }
};
struct CellHash {
    std::size_t operator()(const CellKey& k) const {
        return static_cast<std::size_t>(k.x * 73856093LL ^ k.y * 19349663LL ^ k.z * 83492791LL);
    }
};

// Exact position as a key: vertices stored at one point form a group.
struct PointKey {
    std::uint32_t bits[3];
    bool operator==(const PointKey& o) const { return std::memcmp(bits, o.bits, sizeof bits) == 0; }
};
struct PointHash {
    std::size_t operator()(const PointKey& k) const {
        return (std::size_t(k.bits[0]) * 0x9E3779B1u) ^ (std::size_t(k.bits[1]) * 0x85EBCA77u) ^ (std::size_t(k.bits[2]) * 0xC2B2AE3Du);
    }
};
PointKey point_key(const Eigen::Vector3f& p) {
    PointKey k;
    for (int c = 0; c < 3; ++c) {
        const float v = p[c] == 0.0f ? 0.0f : p[c];  // -0 and +0 are one point
        std::memcpy(&k.bits[c], &v, sizeof v);
    }
    return k;
}

// Index of each vertex within its exact-position group, and the group sizes.
void groups(const std::vector<Eigen::Vector3f>& pts, std::vector<std::uint32_t>& rank, std::vector<std::uint32_t>& size) {
    std::unordered_map<PointKey, std::uint32_t, PointHash> count;
    count.reserve(pts.size());
    rank.resize(pts.size());
    for (std::size_t i = 0; i < pts.size(); ++i) rank[i] = count[point_key(pts[i])]++;
    size.resize(pts.size());
    for (std::size_t i = 0; i < pts.size(); ++i) size[i] = count[point_key(pts[i])];
}

}  // namespace

VertexMatch match_by_position(const std::vector<Eigen::Vector3f>& a, const std::vector<Eigen::Vector3f>& b, double tolerance) {
    VertexMatch m;
    m.b_of_a.assign(a.size(), 0);
    const double cell = tolerance > 0 ? tolerance : 1e-12;
    auto key = [&](const Eigen::Vector3f& p) {
        return CellKey{static_cast<long long>(std::floor(p.x() / cell)), static_cast<long long>(std::floor(p.y() / cell)),
                       static_cast<long long>(std::floor(p.z() / cell))};
    };
    std::unordered_map<CellKey, std::vector<std::uint32_t>, CellHash> grid;
    grid.reserve(b.size());
    for (std::size_t i = 0; i < b.size(); ++i) grid[key(b[i])].push_back(static_cast<std::uint32_t>(i));
    std::vector<std::uint32_t> rank_a, size_a, rank_b, size_b;
    groups(a, rank_a, size_a);
    groups(b, rank_b, size_b);
    std::vector<char> candidate(b.size(), 0);
    const double tol2 = tolerance * tolerance;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const CellKey k = key(a[i]);
        long long found = -1;
        bool several_points = false;
        for (long long dx = -1; dx <= 1; ++dx)
            for (long long dy = -1; dy <= 1; ++dy)
                for (long long dz = -1; dz <= 1; ++dz) {
                    const auto it = grid.find(CellKey{k.x + dx, k.y + dy, k.z + dz});
                    if (it == grid.end()) continue;
                    for (std::uint32_t j : it->second) {
                        if ((b[j] - a[i]).cast<double>().squaredNorm() > tol2) continue;
                        candidate[j] = 1;
                        const std::size_t any = static_cast<std::size_t>(found >= 0 ? found : -2 - found);
                        if (found != -1 && !(point_key(b[j]) == point_key(b[any]))) several_points = true;
                        // The group member of a's rank within the group, the same on both sides.
                        if (rank_b[j] == rank_a[i]) found = j;
                        else if (found < 0) found = -2 - static_cast<long long>(j);  // a candidate, not yet the rank
                    }
                }
        if (found == -1) {
            ++m.unmatched;
            continue;
        }
        if (several_points || found < 0 || size_a[i] != size_b[static_cast<std::size_t>(found)]) {
            ++m.ambiguous;
            continue;
        }
        m.b_of_a[i] = static_cast<std::uint32_t>(found);
    }
    // Vertices of b near no vertex of a are unmatched too (b has vertices a lacks).
    m.unmatched += static_cast<std::size_t>(std::count(candidate.begin(), candidate.end(), 0));
    return m;
}

double bounding_diagonal(const std::vector<Eigen::Vector3f>& points) {
    if (points.empty()) return 0;
    Eigen::Vector3f lo = points[0], hi = points[0];
    for (const auto& p : points) {
        lo = lo.cwiseMin(p);
        hi = hi.cwiseMax(p);
    }
    return static_cast<double>((hi - lo).norm());
}

std::vector<int> heaviest_joint_nodes(const Scene& scene, const Mesh& mesh) {
    std::vector<int> out(mesh.vertex_count(), -1);
    if (mesh.skin < 0 || mesh.influences.empty()) return out;
    const Skin& skin = scene.skins[mesh.skin];
    const Influences& inf = mesh.influences;
    for (std::size_t v = 0; v < out.size() && v + 1 < inf.offsets.size(); ++v) {
        float best = 0;
        for (std::uint32_t k = inf.offsets[v]; k < inf.offsets[v + 1]; ++k)
            if (inf.weights[k] > best && inf.joints[k] < skin.joints.size()) {
                best = inf.weights[k];
                out[v] = skin.joints[inf.joints[k]];
            }
    }
    return out;
}

}  // namespace rigscope
