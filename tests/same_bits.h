// Bit-for-bit comparison of arrays (memcmp: -0 and 0 differ, as outputs written from them would),
// and the per-frame state a tension run keeps of a mesh, for the tests that compare two ways of
// computing frames.
#pragma once

#include <cstddef>
#include <cstring>
#include <vector>

#include <Eigen/Core>

namespace rigscope::test {

template <typename T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// Frame after frame of one or more meshes: deformed positions, T and the degenerate count.
struct FrameSeries {
    std::vector<std::vector<Eigen::Vector3f>> deformed;
    std::vector<std::vector<float>> t;
    std::vector<std::size_t> degenerate;
};

}  // namespace rigscope::test
