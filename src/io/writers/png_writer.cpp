// 16-bit greyscale or RGB PNG through libpng (io/image_output.h).
#include <png.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
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

std::size_t write_png16(OutputFile& out, const float* values, int width, int height, int channels) {
    if (channels != 1 && channels != 3) throw Error(kExitInternal, "write_png16: " + std::to_string(channels) + " channels");
    std::size_t clamped = 0;
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
    png_set_IHDR(png, info, png_uint_32(width), png_uint_32(height), 16, channels == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    // Speed over size: a map per frame and mesh. No row filter (libpng's adaptive choice tries
    // all five per row) and zlib's run-length strategy, which finds the runs of equal texels a map
    // is mostly made of (0 where nothing bends, the padding's flat edges) at a fraction of
    // deflate's cost.
    png_set_filter(png, 0, PNG_FILTER_NONE);
    png_set_compression_level(png, 1);
    png_set_compression_strategy(png, Z_RLE);
    png_write_info(png, info);
    // A row at a time into one row's buffer: big-endian 16-bit samples, as PNG stores them.
    const std::size_t samples = std::size_t(width) * std::size_t(channels);  // a row's, channels interleaved
    std::vector<std::uint8_t> row(samples * 2);
    for (int y = 0; y < height; ++y) {
        const float* in = values + std::size_t(y) * samples;
        for (std::size_t x = 0; x < samples; ++x) {
            const float v = in[x];
            const bool inside = v >= 0.0f && v <= 1.0f;
            clamped += !inside;
            const double c = inside ? double(v) : (v > 1.0f ? 1.0 : 0.0);  // NaN: 0
            // round(c x 65535), halves away from zero: c x 65535 + 0.5 is exact in double (a
            // float times 65535 has at most 40 significant bits), so the truncation is lround's.
            const auto q = static_cast<std::uint16_t>(c * 65535.0 + 0.5);
            row[2 * x] = std::uint8_t(q >> 8);
            row[2 * x + 1] = std::uint8_t(q & 0xff);
        }
        png_write_row(png, row.data());
    }
    png_write_end(png, nullptr);
    return clamped;
}

}  // namespace rigscope
