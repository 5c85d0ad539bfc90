#include "reference_rest.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <spdlog/spdlog.h>

#include "rigscope/core/error.h"
#include "rigscope/core/vertex_match.h"

namespace rigscope {

namespace {

// "the bind mesh of walk.fbx mesh 'Body'"
std::string bind_mesh(const ReferenceNames& n) { return n.file + " mesh '" + n.mesh + "'"; }

// The --reference-scale that would undo `ratio` (reference diagonal / bind diagonal): the power
// of ten nearest to 1 / ratio where the ratio is within 20% of one (a unit slip), else 1 / ratio.
std::string scale_hint(double ratio) {
    const double p = std::round(std::log10(ratio));
    const double s = std::abs(ratio / std::pow(10.0, p) - 1) < 0.2 ? std::pow(10.0, -p) : 1 / ratio;
    return fmt::format("{:g}", s);
}

void check_size(const std::vector<Eigen::Vector3f>& bind, const std::vector<Eigen::Vector3f>& ref, const TensionOptions& opt,
                const ReferenceNames& n) {
    const double db = bounding_diagonal(bind), dr = bounding_diagonal(ref);
    if (!(db > 0) || !(dr > 0)) return;  // a point or an empty mesh: T falls back to 1 anyway
    const double ratio = dr / db;
    if (ratio <= kReferenceSizeFactor && ratio >= 1 / kReferenceSizeFactor) return;
    const std::string what = fmt::format("{}: mesh '{}' is {:.3g}x the size of {} (diagonal {:.4g} against {:.4g})",
                                         n.reference, n.reference_mesh, ratio, bind_mesh(n), dr, db);
    if (opt.reference_scale) {
        spdlog::warn("{} after --reference-scale {:g}", what, *opt.reference_scale);
        return;
    }
    const char* units = ratio > 1 ? "centimetres against metres" : "metres against centimetres";
    throw Error(kExitMismatch, fmt::format("{}: {}? use --reference-scale {}", what,
                                           std::abs(std::log10(ratio)) > 2.5 ? (ratio > 1 ? "millimetres against metres" : "metres against millimetres") : units,
                                           scale_hint(ratio)));
}

// Welded vertices in order of their first file vertex: rank[w] is w's place in that order.
std::vector<std::uint32_t> welded_rank(const Topology& topo) {
    std::vector<std::uint32_t> order(topo.welded_count());
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return topo.representative[a] < topo.representative[b]; });
    std::vector<std::uint32_t> rank(order.size());
    for (std::uint32_t i = 0; i < order.size(); ++i) rank[order[i]] = i;
    return rank;
}

std::vector<Eigen::Vector3f> by_index(const std::vector<Eigen::Vector3f>& bind, const Topology& topo,
                                      const std::vector<Eigen::Vector3f>& ref, const ReferenceNames& n) {
    if (ref.size() == bind.size()) return ref;
    if (ref.size() == topo.welded_count()) {
        const std::vector<std::uint32_t> rank = welded_rank(topo);
        std::vector<Eigen::Vector3f> rest(bind.size());
        for (std::size_t v = 0; v < bind.size(); ++v) rest[v] = ref[rank[topo.welded_of[v]]];
        return rest;
    }
    throw Error(kExitMismatch, fmt::format("{}: mesh '{}' has {} vertices, {} has {} ({} welded): pair them with "
                                           "--reference-match position",
                                           n.reference, n.reference_mesh, ref.size(), bind_mesh(n), bind.size(),
                                           topo.welded_count()));
}

std::vector<Eigen::Vector3f> by_position(const std::vector<Eigen::Vector3f>& bind, const Topology& topo,
                                         const std::vector<Eigen::Vector3f>& ref, const TensionOptions& opt,
                                         const ReferenceNames& n) {
    // Both sides welded by position alone: the reference's seams (an OBJ's split normals, a PLY's
    // split UVs) are not vertices of its surface either.
    std::vector<Eigen::Vector3f> mine(topo.welded_count());
    for (std::size_t w = 0; w < mine.size(); ++w) mine[w] = bind[topo.representative[w]];
    const Topology rw = weld_by_position(ref);
    std::vector<Eigen::Vector3f> theirs(rw.welded_count());
    for (std::size_t w = 0; w < theirs.size(); ++w) theirs[w] = ref[rw.representative[w]];
    const double diagonal = bounding_diagonal(bind);
    const double tolerance = opt.reference_tolerance * diagonal;
    const VertexMatch m = match_by_position(mine, theirs, tolerance);
    if (!m.complete() || mine.size() != theirs.size()) {
        const double all = covering_distance(mine, theirs);
        throw Error(kExitMismatch,
                    fmt::format("{}: mesh '{}' ({} welded vertices) does not pair by position with {} ({} welded): {} "
                                "vertices of the two left unpaired and {} ambiguous within {:.3g} of the diagonal ({:.3g}); {}",
                                n.reference, n.reference_mesh, theirs.size(), bind_mesh(n), mine.size(), m.unmatched, m.ambiguous,
                                opt.reference_tolerance, tolerance,
                                std::isfinite(all) && diagonal > 0 && mine.size() == theirs.size()
                                    ? fmt::format("all would pair within {:.3g} (--reference-tolerance {:.3g})", all, all / diagonal * 1.01)
                                    : std::string("the two are not one surface")));
    }
    std::vector<Eigen::Vector3f> rest(bind.size());
    for (std::size_t v = 0; v < bind.size(); ++v) rest[v] = theirs[m.b_of_a[topo.welded_of[v]]];
    return rest;
}

}  // namespace

std::vector<Eigen::Vector3f> reference_rest(const std::vector<Eigen::Vector3f>& bind, const Topology& topo,
                                            std::vector<Eigen::Vector3f> ref, const TensionOptions& opt,
                                            const ReferenceNames& names) {
    if (const double scale = opt.reference_scale.value_or(1); scale != 1)
        for (Eigen::Vector3f& p : ref) p *= static_cast<float>(scale);
    check_size(bind, ref, opt, names);
    if (opt.match() == "position") return by_position(bind, topo, ref, opt, names);
    return by_index(bind, topo, ref, names);
}

void check_reference_order(const std::vector<float>& t, const TensionOptions& opt, const ReferenceNames& n) {
    if (opt.match() != "index" || t.empty()) return;
    const std::size_t far = static_cast<std::size_t>(std::count_if(t.begin(), t.end(), [](float v) { return !(v >= 0.5f && v <= 2.0f); }));
    if (2 * far <= t.size()) {
        // A reference in another order can still sit close to the mesh nearly everywhere (a
        // cylinder's vertices reversed land on the mirrored ring): a few vertices whose rest
        // edges are three times longer or shorter than the bind pose's are said, with the worst.
        constexpr float kFar = 3.0f;
        std::size_t outside = 0, worst = 0;
        for (std::size_t i = 0; i < t.size(); ++i) {
            if (!(t[i] >= 1 / kFar && t[i] <= kFar)) ++outside;
            if (std::abs(std::log(t[i])) > std::abs(std::log(t[worst])) || !std::isfinite(std::log(t[worst]))) worst = i;
        }
        if (outside > 0)
            spdlog::warn("{}: mesh '{}' paired by index with {}: at the bind pose T is outside 1/3 to 3 on {} welded "
                         "vertices, up to {:.3g}: the reference's vertices in another order? "
                         "(--reference-match position pairs them by position)",
                         n.reference, n.reference_mesh, bind_mesh(n), outside, t[worst]);
        return;
    }
    const std::string what = fmt::format("{}: mesh '{}' paired by index with {}: at the bind pose T is outside 0.5 to 2 on {:.0f}% "
                                         "of the welded vertices (the reference's vertices in another order?)",
                                         n.reference, n.reference_mesh, bind_mesh(n), 100.0 * far / t.size());
    if (opt.reference_match) {
        spdlog::warn("{}; going on as --reference-match index says", what);
        return;
    }
    throw Error(kExitMismatch, what + "; pair them with --reference-match position, or give --reference-match index to go on");
}

}  // namespace rigscope
