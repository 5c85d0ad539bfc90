// Patches of a mesh that cannot cross themselves, for intersect's self-tests (a BVH node against
// itself): on the bench tube most node pairs a frame opens are a smooth patch's triangles against
// their own neighbours, boxes that overlap because the surface is continuous, not because it
// folds. A node whose triangles all face one side of an axis, and whose boundary, seen along that
// axis, winds once around a point it is star-shaped from, is skipped with everything under it
// (Volino and Thalmann 1994 for the normal cone; Schvartzman, Perez and Otaduy 2010, "Star-Contours
// for Efficient Hierarchical Self-Collision Detection", for the contour). Both tests are decided
// on the float positions with proved rounding bounds; where a bound does not decide, the node is
// not skipped, so the answer stays the exact one.
//
// Why it is exact. Project along axis k onto the other two coordinates. Let C be the 2-chain of the
// node's triangles, each oriented by its stored corner order, and Z its boundary chain (each
// directed edge counted +1, its reverse -1: what `boundary` and `merge` compute, over file
// vertices, so a seam the file splits stays a slit). For a point y of the plane off the projected
// edges, the triangles covering y, each counted with the sign of its projected orientation, add up
// to the winding number of the projected Z around y (a property of chains: no manifold needed).
// When every triangle's projection has the orientation s (+1 or -1) and every edge of Z is seen
// from a point c strictly with orientation s, each closed walk of Z turns around c a positive
// number of times in direction s; a crossing count of exactly s along the ray from c leaves one
// walk turning once: a simple star-shaped polygon, whose winding number is s inside and 0
// outside. So no point is covered twice: the projected interiors of any two triangles are
// disjoint, and a line of the plane separates them. Over that line stands a plane with one
// triangle on each closed side; were the two to cross, the crossing would hold a point strictly
// inside one of them lying in that plane with the whole triangle on one side, so that triangle
// would lie in the plane and project to a line, against its orientation (BvhBox's argument for
// open boxes). Hence no two triangles of the node cross, neighbours or not.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <Eigen/Core>

namespace rigscope::patch {

// A directed edge between two file vertices: from, to.
using Edge = std::array<std::uint32_t, 2>;

// Bits of a facing mask: bit k (0-2) when every triangle's normal has a component along axis k
// proved positive, bit 3 + k when proved negative.
constexpr std::uint32_t kAllAxes = 0x3f;

// The boundary chain of triangles first .. first + count of `corners` (three file vertices each):
// each directed edge as many times as its net count, reversed where that is negative.
void boundary(const std::uint32_t* corners, std::uint32_t first, std::uint32_t count, std::vector<Edge>& out);

// The boundary chain of the union of two sets of triangles from theirs (edges that cancel dropped).
void merge(const std::vector<Edge>& a, const std::vector<Edge>& b, std::vector<Edge>& out);

// The facing mask of triangle a, b, c in double with a proved bound (the SIMD build's float
// filter is the caller's; either may leave a bit unset that the other sets, never a wrong one).
std::uint32_t facing(const Eigen::Vector3f& a, const Eigen::Vector3f& b, const Eigen::Vector3f& c);

// Whether triangles whose facing masks all contain `axes` and whose boundary chain is `rim`
// (positions x per file vertex) are proved not to cross one another: for some axis of `axes`, the
// star test around the boundary's centroid as the header comment states. False when unsure.
bool untangled(const std::vector<Edge>& rim, const Eigen::Vector3f* x, std::uint32_t axes);

}  // namespace rigscope::patch
