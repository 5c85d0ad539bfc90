// libFuzzer targets fuzz_pc2 and fuzz_mdd (fuzz/CMakeLists.txt builds this file twice, with
// RIGSCOPE_FUZZ_CACHE_EXT ".pc2" or ".mdd": open_point_cache picks the reader by extension): bytes
// as a point cache through open_point_cache (the header, its counts against the file's size and
// the budget, the times) and a read of its first and last samples, where a clear refusal
// (rigscope::Error) is a correct outcome.
#include <vector>

#include "fuzz_input.h"
#include "rigscope/core/error.h"
#include "rigscope/io/point_cache_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = rigscope::fuzz::write_input(data, size, RIGSCOPE_FUZZ_CACHE_EXT);
    try {
        rigscope::LoadOptions lo;
        lo.max_memory = 64ull << 20;  // the budget bounds what a sample may allocate
        const auto cache = rigscope::open_point_cache(path, 24, lo);
        std::vector<Eigen::Vector3f> out(cache->point_count());
        cache->read(0, out.data());
        cache->read(cache->sample_count() - 1, out.data());
    } catch (const rigscope::Error&) {
    }
    return 0;
}
