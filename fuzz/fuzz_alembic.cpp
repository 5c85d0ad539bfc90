// libFuzzer target: bytes as an .abc through load_scene (the Ogawa groups and data blocks, the
// Alembic archive's headers, time samplings, IXform ops and PolyMesh/SubD samples into the
// scene) and a few evaluated frames, which read the mesh's P samples through its point cache.
// Seeds: tests/cli/alembic/alembic_write.py's archives (scripts/fuzz.sh) and tests/alembic's.
#include "fuzz_evaluate.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    rigscope::fuzz::load_and_evaluate(rigscope::fuzz::write_input(data, size, ".abc"));
    return 0;
}
