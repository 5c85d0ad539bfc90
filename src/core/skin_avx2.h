// The AVX2 kernel of linear blend skinning (skin_avx2.cpp), for skin.cpp only.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rigscope::detail {

// Vertices [begin, end) of a run whose vertices have `count` (> 0) influences each: j and w point
// at vertex `begin`'s first influence; joints are column-major 4x4 float matrices (16 floats
// each); base and out are x, y, z per vertex. The same bits as skin.cpp's Eigen loop.
void skin_linear_avx2(const float* joints, const std::uint16_t* j, const float* w, std::uint32_t count,
                      const float* base, std::size_t begin, std::size_t end, float* out);

}  // namespace rigscope::detail
