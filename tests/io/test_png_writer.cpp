// bake's PNG writer (src/io/writers/png_writer.cpp) writes its own container around ISA-L's
// deflate segments, with the layout libpng used for these maps. The reference here is libpng
// itself, driven as the writer drove it before ISA-L (zlib level 1, Z_RLE, no row filter, a row at
// a time), over images of several sizes (libpng narrows the window of small ones) of grey and RGB
// values with NaN and values outside 0..1: libpng reads the same samples from both files, ours at
// most 1% larger than libpng's (test_png_inflate.cpp checks the inflated rows themselves).
#include <png.h>
#include <zlib.h>

#include <cmath>
#include <csetjmp>
#include <cstring>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "io/writers/png_quantise.h"
#include "rigscope/core/simd.h"
#include "rigscope/io/image_output.h"
#include "temp_dir.h"

using namespace rigscope;

namespace {

void append(png_structp png, png_bytep data, png_size_t length) {
    static_cast<std::string*>(png_get_io_ptr(png))->append(reinterpret_cast<const char*>(data), length);
}
void no_flush(png_structp) {}

std::string libpng_bytes(const std::vector<float>& values, int width, int height, int channels) {
    std::string out;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png_create_info_struct(png);
    png_set_write_fn(png, &out, append, no_flush);
    png_set_IHDR(png, info, png_uint_32(width), png_uint_32(height), 16, channels == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_GRAY,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_filter(png, 0, PNG_FILTER_NONE);
    png_set_compression_level(png, 1);
    png_set_compression_strategy(png, Z_RLE);
    png_write_info(png, info);
    const std::size_t samples = std::size_t(width) * std::size_t(channels);
    std::vector<std::uint8_t> row(samples * 2);
    for (int y = 0; y < height; ++y) {
        for (std::size_t x = 0; x < samples; ++x) {
            const float v = values[std::size_t(y) * samples + x];
            const double c = (v >= 0.0f && v <= 1.0f) ? double(v) : (v > 1.0f ? 1.0 : 0.0);
            const auto q = static_cast<std::uint16_t>(std::lround(c * 65535.0));
            row[2 * x] = std::uint8_t(q >> 8);
            row[2 * x + 1] = std::uint8_t(q & 0xff);
        }
        png_write_row(png, row.data());
    }
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
    return out;
}

struct Read {
    std::string bytes;
    std::size_t at = 0;
};
void take(png_structp png, png_bytep data, png_size_t length) {
    auto* r = static_cast<Read*>(png_get_io_ptr(png));
    if (r->at + length > r->bytes.size()) png_error(png, "past the end");
    std::memcpy(data, r->bytes.data() + r->at, length);
    r->at += length;
}

// The samples libpng decodes from a PNG file's bytes (its checks of CRCs, Adler-32 and sizes on),
// with the header fields: width, height, bit depth, colour type first.
std::vector<std::uint32_t> libpng_samples(const std::string& bytes) {
    // Everything changed after setjmp lives behind pointers set before it: a longjmp from libpng
    // leaves no local in an unknown state (the vectors are freed by their owners as usual).
    Read r{bytes, 0};
    std::vector<std::uint32_t> out;
    std::vector<std::uint8_t> row;
    std::vector<std::uint32_t>* const samples = &out;
    std::vector<std::uint8_t>* const line = &row;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, nullptr);
        return {};  // libpng refused the file
    }
    png_set_read_fn(png, &r, take);
    png_read_info(png, info);
    const png_uint_32 width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    *samples = {width, height, png_get_bit_depth(png, info), png_get_color_type(png, info)};
    line->resize(png_get_rowbytes(png, info));
    for (png_uint_32 y = 0; y < height; ++y) {
        png_read_row(png, line->data(), nullptr);
        for (std::size_t i = 0; i + 1 < line->size(); i += 2) samples->push_back(std::uint32_t((*line)[i]) << 8 | (*line)[i + 1]);
    }
    png_read_end(png, nullptr);
    png_destroy_read_struct(&png, &info, nullptr);
    return out;
}

}  // namespace

TEST_CASE("png writer: the samples libpng writes, a file at most 1% larger than its, and the clamped count", "[bake][png]") {
    rigscope_test::TempDir dir("png_writer");
    for (const int channels : {1, 3})
        for (const int size : {1, 3, 17, 64, 181, 700}) {
            // A smooth field (long runs after quantisation, as a baked map has), a band of zeros,
            // and scattered NaN, negative, above-1 and half-step values.
            std::vector<float> values(std::size_t(size) * std::size_t(size) * std::size_t(channels));
            std::size_t outside = 0;
            for (std::size_t i = 0; i < values.size(); ++i) {
                const double x = double(i % std::size_t(size * channels)) / double(size * channels), y = double(i / std::size_t(size * channels)) / size;
                float v = y < 0.3 ? 0.0f : float(0.5 + 0.45 * std::sin(6 * x + 3 * y));
                if (i % 97 == 5) v = std::numeric_limits<float>::quiet_NaN();
                if (i % 89 == 7) v = -0.25f;
                if (i % 83 == 11) v = 1.5f;
                if (i % 79 == 13) v = float((2 * (i % 1000) + 1) / 131070.0);  // near a half step
                outside += !(v >= 0.0f && v <= 1.0f);
                values[i] = v;
            }
            const std::string path = dir.file("m" + std::to_string(channels) + "_" + std::to_string(size) + ".png");
            std::size_t clamped = 0;
            {
                OutputFile out(path);
                clamped = write_png16(out, values.data(), size, size, channels);
                out.commit();
            }
            std::ifstream in(path, std::ios::binary);
            const std::string ours((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            INFO(channels << " channels, " << size << " x " << size);
            const std::string theirs = libpng_bytes(values, size, size, channels);
            const std::vector<std::uint32_t> samples = libpng_samples(ours);
            REQUIRE(samples.size() == 4 + values.size());
            CHECK(samples == libpng_samples(theirs));
            const std::size_t data_bytes = std::size_t(size) * (1 + 2 * std::size_t(size * channels));
            // ISA-L's bytes, not zlib's (test_png_inflate.cpp checks what they hold): at most 1%
            // larger than libpng's file, or for data of a few bytes (a 1 x 1 image) 4 bytes
            // larger (the block ISA-L codes them in).
            if (data_bytes < 64) CHECK(ours.size() <= theirs.size() + 4);
            else CHECK(double(ours.size()) <= 1.01 * double(theirs.size()));
            CHECK(clamped == outside);
        }
}

TEST_CASE("png writer: segments deflated in any order on any thread join into write_png16's file", "[bake][png]") {
    // bake deflates a file's segments as their rows are gathered, on whichever thread, in no
    // order: here the last first, on threads of their own, each from only its own rows copied
    // out (as bake's bands hold them), then joined. Sizes where a segment ends inside a row and
    // on a row's last byte, and rows longer than a segment (one starts and ends inside a row);
    // values outside 0..1 in rows two segments share.
    struct Size {
        int channels, width, height;
    };
    for (const Size z : {Size{1, 181, 181}, Size{1, 300, 300}, Size{1, 511, 511}, Size{3, 181, 181}, Size{3, 300, 300}, Size{3, 511, 511},
                         Size{1, 33000, 3}, Size{3, 11000, 4}}) {
        const int channels = z.channels, width = z.width, height = z.height;
        std::vector<float> values(std::size_t(width) * std::size_t(height) * std::size_t(channels));
        std::size_t outside = 0;
        for (std::size_t i = 0; i < values.size(); ++i) {
            float v = float(0.5 + 0.6 * std::sin(double(i % 4093) * 0.01));
            if (i % 211 == 3) v = std::numeric_limits<float>::quiet_NaN();
            outside += !(v >= 0.0f && v <= 1.0f);
            values[i] = v;
        }
        INFO(channels << " channels, " << width << " x " << height);
        std::string whole;
        const std::size_t clamped = write_png16(whole, values.data(), width, height, channels);
        CHECK(clamped == outside);
        const Png16Segments png(width, height, channels);
        REQUIRE(png.count() >= 2);
        const std::size_t samples = std::size_t(width) * std::size_t(channels);
        std::vector<Png16Segments::Part> parts(png.count());
        for (std::size_t s = png.count(); s-- > 0;) {
            const auto [first, end] = png.rows(s);
            const std::vector<float> rows(values.begin() + std::ptrdiff_t(first * samples), values.begin() + std::ptrdiff_t(end * samples));
            std::thread([&png, &rows, &parts, s] { png.deflate(s, rows.data(), parts[s]); }).join();
        }
        std::string joined;
        CHECK(png.join(parts, joined) == outside);
        CHECK(joined == whole);
        const std::vector<std::uint32_t> read = libpng_samples(joined);
        REQUIRE(read.size() == 4 + values.size());
        CHECK(read == libpng_samples(libpng_bytes(values, width, height, channels)));
    }
}

TEST_CASE("png writer: the SSE2 and AVX2 quantisations give the scalar rounding's samples and clamped count", "[bake][png]") {
    if (!avx2_supported()) WARN("this CPU (or build) has no AVX2: only the SSE2 path is checked");
    // Every edge the rounding has: 0, -0, 1, values just inside and outside, NaN, infinities,
    // subnormals, half steps (k + 0.5) / 65535 and their neighbours, then a sweep; lengths with and
    // without a tail past the last group of eight.
    std::vector<float> values = {0.0f, -0.0f, 1.0f, std::nextafter(1.0f, 2.0f), std::nextafter(0.0f, -1.0f), std::nextafter(0.0f, 1.0f),
                                 std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                                 -std::numeric_limits<float>::infinity(), 1e-40f, 0.5f, 2.0f, -3.0f};
    for (int k = 0; k < 2000; k += 7) {
        const float h = float((k + 0.5) / 65535.0);
        values.insert(values.end(), {h, std::nextafter(h, 0.0f), std::nextafter(h, 1.0f)});
    }
    for (int i = 0; i < 3000; ++i) values.push_back(float(i) / 2500.0f - 0.1f);
    for (const bool avx2 : {false, true}) {
        for (const std::size_t n : {values.size(), values.size() - 3, std::size_t(7), std::size_t(8)}) {
            if (avx2 && !avx2_supported()) continue;
            std::vector<std::uint8_t> ours(2 * n);
            const std::size_t clamped = detail::quantise_png16(values.data(), n, ours.data(), avx2);
            std::size_t outside = 0, wrong = 0;
            for (std::size_t x = 0; x < n; ++x) {
                const float v = values[x];
                outside += !(v >= 0.0f && v <= 1.0f);
                const double c = (v >= 0.0f && v <= 1.0f) ? double(v) : (v > 1.0f ? 1.0 : 0.0);
                const auto q = static_cast<std::uint16_t>(std::lround(c * 65535.0));
                wrong += ours[2 * x] != std::uint8_t(q >> 8) || ours[2 * x + 1] != std::uint8_t(q & 0xff);
            }
            INFO(n << " values, avx2 " << avx2);
            CHECK(wrong == 0);
            CHECK(clamped == outside);
        }
    }
}
