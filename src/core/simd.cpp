#include "rigscope/core/simd.h"

#include <cstdlib>

namespace rigscope {

namespace {

// Whether the environment turns a kernel off (RIGSCOPE_NO_AVX2, RIGSCOPE_NO_AVX512: set and not empty).
bool turned_off(const char* variable) {
    const char* off = std::getenv(variable);
    return off && *off;
}

}  // namespace

// Here, in a file compiled without -mavx2: code built with it must not run before the check.
bool avx2_supported() {
#if defined(RIGSCOPE_AVX2_KERNEL)
    return __builtin_cpu_supports("avx2");
#else
    return false;
#endif
}

bool avx2_default() {
    static const bool on = avx2_supported() && !turned_off("RIGSCOPE_NO_AVX2");
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
    static const bool on = avx2_default() && avx512_supported() && !turned_off("RIGSCOPE_NO_AVX512");
    return on;
}

}  // namespace rigscope
