// The CLI's operator new: a block of at least 4 MB is asked for on 2 MB pages (advise_huge)
// before anything touches it. A large mesh's set-up fills arrays of tens to hundreds of MB
// (the loader's accessors, staged influences, the weld's and the edge passes' tables), each
// 4 KB page a fault that zeroes it, about 2 us on these virtual machines: the 4M-vertex bench
// tube's load and set-up took 169,000 faults, a third of its set-up's CPU in the kernel, where
// the 262k tube's blocks mostly come from the reused heap (keep_freed_memory). Smaller blocks
// and the Python module's process are left alone. Freed by the library's operator delete
// (std::free), as any malloc'd block. Measured (`/usr/bin/time`, --frames 10 of the 4M tube):
// 169,000 -> 27,000 faults, system time 0.50 -> 0.30 s, wall 1.02 -> 0.83-0.91 s; peak RSS the same.
#include <cstdlib>
#include <new>

#include "rigscope/core/huge_pages.h"

namespace {
constexpr std::size_t kLarge = std::size_t(4) << 20;
}  // namespace

// Under AddressSanitizer its own operator new stays: it pairs every delete with its new.
#if !defined(__SANITIZE_ADDRESS__)
void* operator new(std::size_t bytes) {
    void* p;
    while (!(p = std::malloc(bytes ? bytes : 1))) {  // the standard's loop over the new-handler
        std::new_handler handler = std::get_new_handler();
        if (!handler) throw std::bad_alloc();
        handler();
    }
    if (bytes >= kLarge) rigscope::detail::advise_huge(p, bytes);
    return p;
}
#endif
