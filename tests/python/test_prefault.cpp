// python/prefault.h: the page-in thread the module starts for its result arrays takes every whole
// page inside each range, and no page outside it.
#include <catch2/catch.hpp>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <memory>
#include <vector>

#include "prefault.h"

namespace {

constexpr std::size_t kPage = 4096;

// Whether each page of [begin, end) (page-aligned) is resident.
std::vector<bool> resident(std::uintptr_t begin, std::uintptr_t end) {
    std::vector<unsigned char> v((end - begin) / kPage);
    REQUIRE(mincore(reinterpret_cast<void*>(begin), end - begin, v.data()) == 0);
    std::vector<bool> out;
    for (unsigned char c : v) out.push_back(c & 1);
    return out;
}

// A fresh anonymous mapping: none of its pages resident until written.
struct Mapping {
    explicit Mapping(std::size_t bytes) : size(bytes) {
        data = static_cast<char*>(mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
        REQUIRE(data != MAP_FAILED);
    }
    ~Mapping() { munmap(data, size); }
    char* data;
    std::size_t size;
};

bool kernel_populates() {
    Mapping m(kPage);
    return madvise(m.data, kPage, MADV_POPULATE_WRITE) == 0;
}

}  // namespace

TEST_CASE("Prefault takes the whole pages inside a range and none around it", "[prefault]") {
    if (!kernel_populates()) {
        // Before Linux 5.14 the thread stops at the first refusal: the memory is as it was.
        WARN("this kernel has no MADV_POPULATE_WRITE: the module's arrays fault in as they are written");
        return;
    }
    // 40 pages; the range starts 100 bytes into page 3 and ends 200 bytes into page 36, so pages
    // 4..35 are whole and 3 and 36 are shared with whatever is around the array.
    Mapping m(40 * kPage);
    const auto base = reinterpret_cast<std::uintptr_t>(m.data);
    char* start = m.data + 3 * kPage + 100;
    const std::size_t bytes = 33 * kPage + 100;
    {
        rigscope_python::Prefault p({{start, bytes}});
        p.finish();
    }
    const std::vector<bool> in = resident(base, base + 40 * kPage);
    for (std::size_t i = 0; i < in.size(); ++i) {
        INFO("page " << i);
        CHECK(in[i] == (i >= 4 && i <= 35));
    }
}

TEST_CASE("Prefault over several arrays takes each, and an empty or sub-page range takes nothing", "[prefault]") {
    if (!kernel_populates()) return;  // the first case says why
    Mapping a(16 * kPage), b(16 * kPage), c(16 * kPage);
    {
        rigscope_python::Prefault p({{a.data, 16 * kPage}, {b.data + 10, kPage}, {c.data, 0}, {b.data + 8 * kPage, 8 * kPage}});
        p.finish();
    }
    const auto at = [](const Mapping& m) { return reinterpret_cast<std::uintptr_t>(m.data); };
    for (bool r : resident(at(a), at(a) + 16 * kPage)) CHECK(r);
    const std::vector<bool> rb = resident(at(b), at(b) + 16 * kPage);
    for (std::size_t i = 0; i < rb.size(); ++i) {
        INFO("page " << i);
        CHECK(rb[i] == (i >= 8));
    }
    for (bool r : resident(at(c), at(c) + 16 * kPage)) CHECK_FALSE(r);
}
