#include "rigscope/core/simd.h"

#include <cstdlib>

namespace rigscope {

// Here, in a file compiled without -mavx2: code built with it must not run before the check.
bool avx2_supported() {
#if defined(RIGSCOPE_AVX2_KERNEL)
    return __builtin_cpu_supports("avx2");
#else
    return false;
#endif
}

bool avx2_default() {
    static const bool on = [] {
        const char* off = std::getenv("RIGSCOPE_NO_AVX2");
        return avx2_supported() && !(off && *off);
    }();
    return on;
}

bool avx512_supported() {
#if defined(RIGSCOPE_AVX2_KERNEL)
    return __builtin_cpu_supports("avx512f");
#else
    return false;
#endif
}

bool avx512_default() {
    static const bool on = [] {
        const char* off = std::getenv("RIGSCOPE_NO_AVX512");
        return avx2_default() && avx512_supported() && !(off && *off);
    }();
    return on;
}

}  // namespace rigscope
