// A vertex order of the frame's own for a summary frame (MeshTension::keep_frame false), where
// the file's order keeps FrameWindows from running: a file whose vertex order jumps (the bench
// tube in Blender's order stores both end rings first, so the first batch reads vertex 261,635)
// scatters each batch's reads over the mesh. The welded vertices are numbered again by a
// breadth-first sweep over the edges, so that a batch's neighbours lie near it; the frame skins
// the representatives in that order into its windows and runs the same batches over them. Each
// vertex keeps its neighbours in their own order and its own representative's inputs, so every
// T is the same bits; the extremes' index stays the file's welded vertex (the least among ties).
#pragma once

#include <cstdint>
#include <vector>

#include "rigscope/core/tension.h"
#include "rigscope/core/topology.h"

namespace rigscope {

class ThreadPool;

struct FrameOrder {
    std::vector<std::uint32_t> welded;  // frame vertex -> welded vertex (the file's numbering)
    // Over frame vertices: frame vertex k is its own representative, its neighbours those of
    // welded[k] in the same order, numbered as frame vertices.
    Topology topo;
};

// The order for the mesh whose welded topology is `topo` and whose neighbour lists `eb` holds
// (a MeshTension releases the lists once its batches are built): a breadth-first sweep from
// welded vertex 0, each vertex's neighbours taken in their list order, then from the lowest
// vertex not reached, until every welded vertex has its place. The sweep is one thread's: the same
// order for any thread count; pool: the new lists written on its threads.
FrameOrder frame_order(const EdgeBatches& eb, const Topology& topo, ThreadPool* pool = nullptr);

}  // namespace rigscope
