// Whether two arrays hold the same bytes: the test for "the same inputs as before" wherever a
// result is reused instead of computed again (a pose, a bake map's per-vertex values, a mesh's
// faces and UVs). Bytes, not ==: a -0 against a 0, or two NaNs, are different inputs, since
// the outputs they lead to (EXR keeps the sign) may differ.
#pragma once

#include <cstring>

namespace rigscope {

// a and b: contiguous containers of trivially copyable elements (std::vector and the like).
template <typename Array>
bool same_bytes(const Array& a, const Array& b) {
    return a.size() == b.size() && (a.size() == 0 || std::memcmp(a.data(), b.data(), a.size() * sizeof(*a.data())) == 0);
}

}  // namespace rigscope
