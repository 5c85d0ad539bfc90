// What a tension chunk records so `merge` can apply --auto-range over all frames: each welded
// vertex's lowest and highest T over the chunk's frames (docs/farm.md).
#pragma once

#include <vector>

#include "rigscope/tension_output.h"

namespace rigscope {

// Fed by the tension writers; does nothing unless the run is a chunk with --auto-range.
class TensionChunkExtremes {
public:
    void begin(const TensionRun& run, const std::vector<TensionMeshView>& meshes);
    void frame();
    // Leaves the extremes as the chunk record's "tension_range" state.
    void end();

private:
    bool active_ = false;
    TensionRun run_;
    std::vector<TensionMeshView> meshes_;
    std::vector<std::vector<float>> min_, max_;  // per mesh, per welded vertex
};

}  // namespace rigscope
