// Reading a mask image (regions --by masks/{region}.png, issue 60): a PNG as one grey value per
// pixel in 0..1 (src/io/image_reader.cpp, through libpng). A fuzz target (fuzz/fuzz_png_mask.cpp)
// feeds it arbitrary bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rigscope {

struct GreyImage {
    int width = 0, height = 0;
    std::vector<float> values;  // width x height, row 0 (the file's first row) first, 0..1
};

// Any PNG libpng reads: grey (1 to 16 bits) as it is, a palette or colour image by its red
// channel, alpha ignored; 8-bit values / 255, 16-bit / 65535. Throws Error (exit 3) naming `name`
// for a file that is not such a PNG, or whose pixels would pass `max_memory` bytes.
GreyImage png_grey_from_bytes(const std::vector<unsigned char>& bytes, const std::string& name, std::uint64_t max_memory);
GreyImage read_png_grey(const std::string& path, std::uint64_t max_memory);

}  // namespace rigscope
