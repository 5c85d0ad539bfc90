#include "rigscope/topology.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <unordered_map>

namespace rigscope {

namespace {

bool same_influences(const Influences& inf, std::uint32_t a, std::uint32_t b) {
    if (inf.empty()) return true;
    const std::uint32_t ab = inf.offsets[a], ae = inf.offsets[a + 1];
    const std::uint32_t bb = inf.offsets[b], be = inf.offsets[b + 1];
    if (ae - ab != be - bb) return false;
    // Influence order is the file's; compare as sets (counts are small).
    for (std::uint32_t i = ab; i < ae; ++i) {
        bool found = false;
        for (std::uint32_t k = bb; k < be && !found; ++k)
            found = inf.joints[k] == inf.joints[i] && std::abs(inf.weights[k] - inf.weights[i]) <= 1e-4f;
        if (!found) return false;
    }
    return true;
}

struct CellHash {
    std::size_t operator()(const std::array<std::int64_t, 3>& c) const {
        return static_cast<std::size_t>(c[0] * 73856093LL ^ c[1] * 19349663LL ^ c[2] * 83492791LL);
    }
};

}  // namespace

Topology build_topology(const Mesh& mesh, bool weld, double relative_tolerance) {
    Topology topo;
    const std::size_t n = mesh.positions.size();
    topo.welded_of.resize(n);
    if (!weld || n == 0) {
        for (std::size_t v = 0; v < n; ++v) {
            topo.welded_of[v] = static_cast<std::uint32_t>(v);
            topo.representative.push_back(static_cast<std::uint32_t>(v));
        }
    } else {
        Eigen::Vector3f lo = mesh.positions[0], hi = mesh.positions[0];
        for (const auto& p : mesh.positions) {
            lo = lo.cwiseMin(p);
            hi = hi.cwiseMax(p);
        }
        const double diag = (hi - lo).cast<double>().norm();
        const double tol = diag > 0 ? diag * relative_tolerance : 1e-12;
        // Grid of cells one tolerance wide: a match lies in the vertex's cell or a neighbour.
        std::unordered_map<std::array<std::int64_t, 3>, std::vector<std::uint32_t>, CellHash> grid;
        grid.reserve(n);
        auto cell_of = [&](const Eigen::Vector3f& p) {
            return std::array<std::int64_t, 3>{static_cast<std::int64_t>(std::floor(p.x() / tol)),
                                               static_cast<std::int64_t>(std::floor(p.y() / tol)),
                                               static_cast<std::int64_t>(std::floor(p.z() / tol))};
        };
        for (std::size_t v = 0; v < n; ++v) {
            const auto& p = mesh.positions[v];
            const auto c = cell_of(p);
            std::int64_t match = -1;
            for (int dx = -1; dx <= 1 && match < 0; ++dx)
                for (int dy = -1; dy <= 1 && match < 0; ++dy)
                    for (int dz = -1; dz <= 1 && match < 0; ++dz) {
                        auto it = grid.find({c[0] + dx, c[1] + dy, c[2] + dz});
                        if (it == grid.end()) continue;
                        for (std::uint32_t w : it->second) {
                            const std::uint32_t r = topo.representative[w];
                            if ((mesh.positions[r] - p).cast<double>().norm() <= tol &&
                                same_influences(mesh.influences, r, static_cast<std::uint32_t>(v))) {
                                match = w;
                                break;
                            }
                        }
                    }
            if (match >= 0) {
                topo.welded_of[v] = static_cast<std::uint32_t>(match);
            } else {
                const auto w = static_cast<std::uint32_t>(topo.representative.size());
                topo.representative.push_back(static_cast<std::uint32_t>(v));
                topo.welded_of[v] = w;
                grid[c].push_back(w);
            }
        }
    }

    // Unique undirected edges: each face's consecutive corners, closing back to the first.
    std::vector<std::uint64_t> keys;
    keys.reserve(mesh.face_indices.size());
    for (std::size_t f = 0; f + 1 < mesh.face_offsets.size(); ++f) {
        const std::uint32_t b = mesh.face_offsets[f], e = mesh.face_offsets[f + 1];
        std::size_t distinct = 0;
        for (std::uint32_t k = b; k < e; ++k) {
            std::uint32_t a = topo.welded_of[mesh.face_indices[k]];
            std::uint32_t c = topo.welded_of[mesh.face_indices[k + 1 < e ? k + 1 : b]];
            if (a == c) continue;  // a collapsed corner is not an edge
            ++distinct;
            if (a > c) std::swap(a, c);
            keys.push_back(static_cast<std::uint64_t>(a) << 32 | c);
        }
        if (distinct < 3) ++topo.degenerate_faces;
    }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    topo.edges.reserve(keys.size() * 2);
    const std::size_t wn = topo.welded_count();
    std::vector<std::uint32_t> degree(wn + 1, 0);
    for (std::uint64_t k : keys) {
        const auto a = static_cast<std::uint32_t>(k >> 32), c = static_cast<std::uint32_t>(k & 0xFFFFFFFFu);
        topo.edges.push_back(a);
        topo.edges.push_back(c);
        ++degree[a];
        ++degree[c];
    }
    topo.neighbour_offsets.assign(wn + 1, 0);
    for (std::size_t w = 0; w < wn; ++w) topo.neighbour_offsets[w + 1] = topo.neighbour_offsets[w] + degree[w];
    topo.neighbours.resize(topo.neighbour_offsets[wn]);
    std::vector<std::uint32_t> fill(topo.neighbour_offsets.begin(), topo.neighbour_offsets.end() - 1);
    for (std::size_t e = 0; e < topo.edges.size(); e += 2) {
        topo.neighbours[fill[topo.edges[e]]++] = topo.edges[e + 1];
        topo.neighbours[fill[topo.edges[e + 1]]++] = topo.edges[e];
    }
    return topo;
}

}  // namespace rigscope
