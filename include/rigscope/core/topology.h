// Welded topology of a mesh: which file vertices are one surface point, and the unique
// undirected edges of the faces over those welded vertices.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rigscope/core/scene.h"

namespace rigscope {

class ThreadPool;

struct Topology {
    std::vector<std::uint32_t> welded_of;       // file vertex -> welded vertex
    std::vector<std::uint32_t> representative;  // welded vertex -> its first file vertex
    std::vector<std::uint32_t> edges;           // pairs (a, b), a < b, welded ids, sorted
    // Edges per welded vertex in compressed-row form: neighbours of w are
    // neighbours[neighbour_offsets[w] .. neighbour_offsets[w+1]).
    std::vector<std::uint32_t> neighbour_offsets;
    std::vector<std::uint32_t> neighbours;
    std::size_t degenerate_faces = 0;  // faces whose corners collapse onto fewer than 3 welded vertices
    std::size_t unique_edges = 0;      // edges.size() / 2, kept when the lists are released

    std::size_t welded_count() const { return representative.size(); }
    std::size_t edge_count() const { return unique_edges; }
    // Frees edges and the neighbour lists (welding and counts stay): for a holder that keeps
    // its own layout of them, like MeshTension.
    void release_lists();
};

// Default weld tolerance, relative to the mesh's bounding-box diagonal: exporters duplicate
// seam vertices bit-for-bit, so anything this close is the same point.
constexpr double kWeldRelativeTolerance = 1e-6;

// weld = false keeps every file vertex apart (--weld off). With weld, file vertices within
// tolerance * diagonal of each other and with the same skin influences become one.
// edge_list = false leaves `edges` empty (the neighbour lists hold the same): for a caller that
// needs only those, a large array less at its peak.
// pool: the work inside the mesh spread over its threads; the same result, bit for bit, for any
// thread count (tests/core/test_setup_threads.cpp).
Topology build_topology(const Mesh& mesh, bool weld = true, double relative_tolerance = kWeldRelativeTolerance,
                        bool edge_list = true, ThreadPool* pool = nullptr);

// build_topology's weld alone (welded_of and representative; the lists, counts and edges stay
// empty): the same welded vertices, for a caller that asks only which file vertices are one
// surface point (intersect's neighbours), without the edge passes' cost.
Topology weld_mesh(const Mesh& mesh, bool weld = true, double relative_tolerance = kWeldRelativeTolerance, ThreadPool* pool = nullptr);

// The weld alone, by position only (influences ignored), without the edge lists: welded_of and
// representative as build_topology gives them for the positions of a mesh without skin (its
// other fields stay empty). For a caller that asks only which vertices are one point.
Topology weld_by_position(const std::vector<Eigen::Vector3f>& positions, double relative_tolerance = kWeldRelativeTolerance,
                          const std::string& name = "positions");

}  // namespace rigscope
