// libFuzzer target: bytes as an .fbx through load_scene (Assimp, then our conversion and raw
// cluster reader) and a few evaluated frames. Assimp itself is not instrumented: coverage
// guides the fuzzer through our code, and a crash inside Assimp still stops it.
#include "fuzz_evaluate.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    rigscope::fuzz::load_and_evaluate(rigscope::fuzz::write_input(data, size, ".fbx"));
    return 0;
}
