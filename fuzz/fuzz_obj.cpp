// libFuzzer target: bytes as a .obj neutral through load_scene (rigscope's own OBJ reader: v and f lines, negative indices, o/g names) and a
// few evaluated frames, as every reader's target does (fuzz_evaluate.h).
#include "fuzz_evaluate.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    rigscope::fuzz::load_and_evaluate(rigscope::fuzz::write_input(data, size, ".obj"));
    return 0;
}
