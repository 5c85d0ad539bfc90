// libFuzzer target: bytes as a .usdc through load_scene (the native USD reader: crate sections, LZ4 and integer coding, then
// UsdSkel into the scene) and a few evaluated frames. One target per layer kind, so that the
// fuzzer's mutations stay inside the kind its seeds are of (scripts/fuzz.sh seeds each).
#include "fuzz_evaluate.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    rigscope::fuzz::load_and_evaluate(rigscope::fuzz::write_input(data, size, ".usdc"));
    return 0;
}
