// libFuzzer target: bytes as a mask image (regions --by masks/{region}.png) through
// png_grey_from_bytes (the signature, libpng's checks, the size against the budget), where a
// clear refusal (rigscope::Error) is a correct outcome.
#include <cstdint>
#include <vector>

#include "rigscope/core/error.h"
#include "rigscope/io/image_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::vector<unsigned char> bytes(data, data + size);
    try {
        const rigscope::GreyImage img = rigscope::png_grey_from_bytes(bytes, "fuzz.png", 64ull << 20);
        volatile float sink = img.values.empty() ? 0.0f : img.values.back();
        (void)sink;
    } catch (const rigscope::Error&) {
    }
    return 0;
}
