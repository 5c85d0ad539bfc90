// libFuzzer target: bytes as a .dae through load_scene (Assimp's Collada reader, then the shared
// aiScene conversion and the unit and up-axis handling) and a few evaluated frames. Assimp is
// not instrumented: coverage guides through our code, and a crash inside Assimp still stops it.
#include "fuzz_evaluate.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    rigscope::fuzz::load_and_evaluate(rigscope::fuzz::write_input(data, size, ".dae"));
    return 0;
}
