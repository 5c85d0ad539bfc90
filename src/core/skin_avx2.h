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
// The same for a run whose vertices all list the joints j[0..count) in that order (the joints
// are read once); w as above, or null where count is 1 and every weight is exactly 1 (the blend
// is then the joint's matrix, as 1.0f times it gives).
void skin_shared_avx2(const float* joints, const std::uint16_t* j, const float* w, std::uint32_t count,
                      const float* base, std::size_t begin, std::size_t end, float* out);

}  // namespace rigscope::detail
