// Large arrays built once per mesh (welding, edges, the loop's layouts) on 2 MB pages where the
// kernel allows it (transparent huge pages in "madvise" mode, the common default). Filling a
// fresh array costs a page fault per 4 KB page otherwise: on a virtual machine, several
// microseconds each, which made preparing a 262k-vertex mesh cost more than all its frames. The
// frame loops' gathers also miss the TLB less.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace rigscope::detail {

// Asks for huge pages over the whole 2 MB pages inside [data, data + bytes) (the partial ones at
// the ends keep small pages: no memory is added). Call before the first touch; a no-op below a
// few MB, where faults are few anyway.
inline void advise_huge(const void* data, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t kHuge = std::uintptr_t(2) << 20;
    if (bytes < 2 * kHuge) return;
    const auto begin = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t lo = (begin + kHuge - 1) & ~(kHuge - 1), hi = (begin + bytes) & ~(kHuge - 1);
    if (hi > lo) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);  // advice only: failure is harmless
#else
    (void)data;
    (void)bytes;
#endif
}

// For a short-lived process (the CLI, the benchmark's cold load): memory the run frees is kept
// for its next allocations instead of going back to the kernel. glibc maps every block above a
// threshold (128 KB at first) afresh and unmaps it when freed, and trims the heap's free top: a
// load's temporaries (accessor copies, staged influences) and then a set-up's (weld tables, edge
// buckets) each took fresh pages, every 4 KB page a fault that zeroes it, about 2 us each on
// these virtual machines: 15,300 faults, over a third of a one-mesh run's fixed cost (issue 62).
// Blocks up to 32 MB (glibc's largest threshold) now come from the heap and freed ones are
// reused: 8,200 faults. Larger blocks are still mapped (and unmapped when freed). A library
// (the Python module) leaves its process's allocator alone.
inline void keep_freed_memory() {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

// Reserves room for n elements on huge pages (advise_huge).
template <typename T>
void reserve_huge(std::vector<T>& v, std::size_t n) {
    v.reserve(n);
    advise_huge(v.data(), n * sizeof(T));
}

// A vector of n copies of `value` built on huge pages.
template <typename T>
std::vector<T> huge_vector(std::size_t n, const T& value = T()) {
    std::vector<T> v;
    reserve_huge(v, n);
    v.assign(n, value);
    return v;
}

// n elements of a trivial type left uninitialised (every one is written before it is read) on
// huge pages: no serial zero fill on the calling thread, and the first writes, spread over a
// pool, take few page faults.
template <typename T>
std::unique_ptr<T[]> huge_scratch(std::size_t n) {
    static_assert(std::is_trivially_default_constructible<T>::value, "left unwritten: a trivial type");
    std::unique_ptr<T[]> p(new T[n]);
    advise_huge(p.get(), n * sizeof(T));
    return p;
}

}  // namespace rigscope::detail
