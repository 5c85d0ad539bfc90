// The one choice of the AVX2 kernels (principal measure, smoothing, linear and dual-quaternion
// skinning): whether this build has them and the CPU runs them, and whether they are used by
// default. Each kernel's struct takes its `avx2` flag from avx2_default(), so the tests and the
// bench can run either path on one machine.
#pragma once

namespace rigscope {

// This build compiled the AVX2 kernels (RIGSCOPE_AVX2_KERNEL) and the CPU has AVX2.
bool avx2_supported();

// avx2_supported(), unless the environment sets RIGSCOPE_NO_AVX2 (to measure or check the SSE
// and scalar paths). Read once.
bool avx2_default();

// The edge T's AVX-512 loop (16 lanes): built with the AVX2 kernels, the CPU has AVX-512F.
bool avx512_supported();

// avx512_supported() where avx2_default(), unless RIGSCOPE_NO_AVX512 is set (then the AVX2 loop
// runs). Read once.
bool avx512_default();

}  // namespace rigscope
