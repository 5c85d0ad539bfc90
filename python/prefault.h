// Page-in of the fresh arrays a run will fill, on a thread of its own. A run that returns every
// frame writes hundreds of MB that the process has never touched, and on first write the kernel
// takes one page fault per 4 KB page (a quarter of tension()'s time on the bench tube). Asking for
// the pages up front (MADV_POPULATE_WRITE, Linux 5.14) takes them in batches, and started before
// the single-threaded preparation of the meshes it mostly runs on a core that would wait anyway.
// Where the kernel lacks it the thread stops at the first refusal and the run faults as before:
// the values written are the same either way.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>
#include <utility>
#include <vector>

#include "rigscope/core/huge_pages.h"

namespace rigscope_python {

class Prefault {
public:
    // ranges: (start, bytes) of each array; all of them stay allocated until this is destroyed.
    explicit Prefault(std::vector<std::pair<void*, std::size_t>> ranges) {
        // On 2 MB pages where the kernel allows it (advise_huge), asked before any page is
        // touched: the population below then takes a 2 MB page where it took 512 small ones.
        for (const auto& [start, bytes] : ranges) rigscope::detail::advise_huge(start, bytes);
#ifdef MADV_POPULATE_WRITE
        thread_ = std::thread([this, ranges = std::move(ranges)] {
            constexpr std::uintptr_t kPage = 4096, kStep = std::uintptr_t(2) << 20;
            for (const auto& [start, bytes] : ranges) {
                // Whole pages inside the array only: the neighbours of its first and last page
                // belong to the allocator.
                const std::uintptr_t b = (reinterpret_cast<std::uintptr_t>(start) + kPage - 1) & ~(kPage - 1);
                const std::uintptr_t e = (reinterpret_cast<std::uintptr_t>(start) + bytes) & ~(kPage - 1);
                for (std::uintptr_t p = b; p < e; p += kStep) {
                    if (stop_.load(std::memory_order_relaxed)) return;
                    if (madvise(reinterpret_cast<void*>(p), std::min(kStep, e - p), MADV_POPULATE_WRITE) != 0) return;
                }
            }
        });
#else
        (void)ranges;
#endif
    }
    // Waits until every page is in (tests: the destructor stops early instead).
    void finish() {
        if (thread_.joinable()) thread_.join();
    }
    Prefault(const Prefault&) = delete;
    Prefault& operator=(const Prefault&) = delete;
    // Stops at the next batch: pages it has not reached fault in as they are written.
    ~Prefault() {
        stop_ = true;
        if (thread_.joinable()) thread_.join();
    }

private:
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

}  // namespace rigscope_python
