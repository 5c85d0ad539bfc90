// libFuzzer target: bytes as a .ply neutral through load_scene (rigscope's own PLY reader: the header, then ASCII or binary rows in either byte order) and a
// few evaluated frames, as every reader's target does (fuzz_evaluate.h).
#include "fuzz_evaluate.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    rigscope::fuzz::load_and_evaluate(rigscope::fuzz::write_input(data, size, ".ply"));
    return 0;
}
