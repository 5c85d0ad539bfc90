// A covered texel of a bake plan (core/uv_raster.h), in a header of its own with no inline
// function: the gather's AVX2 file (built with -mavx2) reads plans through it and must include
// no header whose inline functions it could emit as AVX2 code for every caller.
#pragma once

#include <cstdint>

namespace rigscope {

struct UvTexel {
    std::uint32_t texel;
    std::uint32_t vertex[3];  // file vertices
    float weight[3];          // barycentric weights, summing to 1
};

}  // namespace rigscope
