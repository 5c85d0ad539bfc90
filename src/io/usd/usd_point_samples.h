// A Mesh's time-sampled `points` (a cloth or muscle simulation, a baked deformer written to USD)
// as rigscope's point cache (core/point_cache.h): every frame takes the points UsdGeom gives at
// its time code, linear between samples and held before the first and after the last, as
// UsdAttribute::Get does for an array of one length.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "io/usd/usd_layer.h"
#include "rigscope/core/point_cache.h"

namespace rigscope::usd {

struct PointSamplesContext {
    std::string file;        // the layer, for messages and the cache's source
    std::string mesh_path;   // the prim, for messages
    std::size_t points = 0;  // the points the mesh's rest positions hold
    double meters_per_unit = 1.0;
    double time_codes_per_second = 24.0;
    std::function<void(std::uint64_t)> charge;  // counts bytes against --max-memory (throws past it)
};

// The cache of `points`'s samples. Throws rigscope::Error (exit 3) naming the file, the mesh and
// the time code when a sample is blocked, is not an array of 3-vectors, or holds another number
// of points than the rest positions (a topology that changes over time).
std::shared_ptr<const PointCache> point_samples(const PropertySpec& points, const PointSamplesContext& ctx);

// Throws the same way when a topology attribute (faceVertexCounts, faceVertexIndices) holds at
// one of its time samples another value than `used`, the value the mesh was built from.
void check_constant_topology(const PropertySpec& prop, const Numbers& used, const std::string& file,
                             const std::string& mesh_path);

}  // namespace rigscope::usd
