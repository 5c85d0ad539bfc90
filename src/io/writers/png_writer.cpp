// 16-bit greyscale PNG through libpng (io/image_output.h).
#include <png.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "rigscope/core/error.h"
#include "rigscope/io/image_output.h"

namespace rigscope {

namespace {

void append_bytes(png_structp png, png_bytep data, png_size_t length) {
    auto* out = static_cast<OutputFile*>(png_get_io_ptr(png));
    out->write(std::string_view(reinterpret_cast<const char*>(data), length));
}
void no_flush(png_structp) {}
[[noreturn]] void png_failed(png_structp, png_const_charp message) { throw Error(kExitInternal, std::string("libpng: ") + message); }
void png_warned(png_structp, png_const_charp) {}

}  // namespace

std::size_t write_png_grey16(OutputFile& out, const float* values, int width, int height) {
    // Big-endian 16-bit samples, as PNG stores them.
    std::vector<std::uint8_t> rows(std::size_t(width) * std::size_t(height) * 2);
    std::size_t clamped = 0;
    for (std::size_t i = 0; i < std::size_t(width) * std::size_t(height); ++i) {
        const float v = values[i];
        const bool inside = v >= 0.0f && v <= 1.0f;
        clamped += !inside;
        const double c = inside ? double(v) : (v > 1.0f ? 1.0 : 0.0);  // NaN: 0
        const auto q = static_cast<std::uint16_t>(std::lround(c * 65535.0));
        rows[2 * i] = std::uint8_t(q >> 8);
        rows[2 * i + 1] = std::uint8_t(q & 0xff);
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, png_failed, png_warned);
    if (!png) throw Error(kExitInternal, "libpng: cannot create a writer");
    png_infop info = png_create_info_struct(png);
    struct Guard {
        png_structp& p;
        png_infop& i;
        ~Guard() { png_destroy_write_struct(&p, &i); }
    } guard{png, info};
    if (!info) throw Error(kExitInternal, "libpng: cannot create the image's header");
    png_set_write_fn(png, &out, append_bytes, no_flush);
    png_set_IHDR(png, info, png_uint_32(width), png_uint_32(height), 16, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    // Speed over size: a map per frame and mesh; level 1 keeps most of the gain of zlib.
    png_set_compression_level(png, 1);
    png_write_info(png, info);
    for (int y = 0; y < height; ++y) png_write_row(png, rows.data() + std::size_t(y) * std::size_t(width) * 2);
    png_write_end(png, nullptr);
    return clamped;
}

}  // namespace rigscope
