// bake's PNG data is deflated by ISA-L in independent segments joined into one zlib stream
// (src/io/writers/png_writer.cpp): its bytes are ISA-L's, so what is checked is what they hold.
// zlib's inflate (header, every block and the Adler-32 checked) must give exactly the filtered
// rows, made here from the values (a filter byte 0, then round(clamp(v, 0, 1) x 65535) big-endian,
// NaN 0); each segment, inflated alone (no history before it), its own rows, all but the last
// ending on a block's end and a byte boundary; for grey and RGB images of 16 to 2048 texels a
// side (maps and noise, which ISA-L stores), and for the files
// bake writes with --udim and the colour map on several threads (segments reused between frames).
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "corpus.h"
#include "temp_dir.h"
#include "rigscope/io/image_output.h"
#include "rigscope/run/bake_job.h"

using namespace rigscope;

namespace {

std::uint32_t get32(const std::string& b, std::size_t at) {
    return std::uint32_t(std::uint8_t(b[at])) << 24 | std::uint32_t(std::uint8_t(b[at + 1])) << 16 |
           std::uint32_t(std::uint8_t(b[at + 2])) << 8 | std::uint32_t(std::uint8_t(b[at + 3]));
}

// The filtered rows a 16-bit PNG of these values holds, computed from the PNG rule alone.
std::vector<std::uint8_t> filtered_rows(const std::vector<float>& values, int width, int height, int channels) {
    std::vector<std::uint8_t> rows;
    const std::size_t samples = std::size_t(width) * std::size_t(channels);
    rows.reserve(std::size_t(height) * (1 + 2 * samples));
    for (std::size_t y = 0; y < std::size_t(height); ++y) {
        rows.push_back(0);
        for (std::size_t x = 0; x < samples; ++x) {
            const float v = values[y * samples + x];
            const double c = v >= 0.0f && v <= 1.0f ? double(v) : (v > 1.0f ? 1.0 : 0.0);  // NaN: 0
            const long q = std::lround(c * 65535.0);
            rows.push_back(std::uint8_t(q >> 8));
            rows.push_back(std::uint8_t(q & 0xff));
        }
    }
    return rows;
}

// A PNG file's IHDR fields and its IDAT chunks joined (the zlib stream); false if the chunks do
// not parse.
struct PngData {
    std::uint32_t width = 0, height = 0;
    int depth = 0, colour = 0;
    std::string zlib;
};
bool png_data(const std::string& file, PngData& d) {
    if (file.size() < 8 || file.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) return false;
    for (std::size_t at = 8; at + 12 <= file.size();) {
        const std::size_t size = get32(file, at);
        if (at + 12 + size > file.size()) return false;
        const std::string type = file.substr(at + 4, 4);
        const std::uint32_t crc = std::uint32_t(crc32(0, reinterpret_cast<const Bytef*>(file.data() + at + 4), uInt(size + 4)));
        if (crc != get32(file, at + 8 + size)) return false;
        if (type == "IHDR") {
            d.width = get32(file, at + 8);
            d.height = get32(file, at + 12);
            d.depth = std::uint8_t(file[at + 16]);
            d.colour = std::uint8_t(file[at + 17]);
        } else if (type == "IDAT") {
            d.zlib.append(file, at + 8, size);
        } else if (type == "IEND") {
            return at + 12 == file.size();
        }
        at += 12 + size;
    }
    return false;
}

// The zlib stream inflated by zlib (its header and Adler-32 checked); empty unless it ends exactly
// at the stream's end.
std::vector<std::uint8_t> inflate_zlib(const std::string& stream, std::size_t expected) {
    std::vector<std::uint8_t> out(expected + 1);
    z_stream z{};
    if (inflateInit(&z) != Z_OK) return {};
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(stream.data()));
    z.avail_in = uInt(stream.size());
    z.next_out = out.data();
    z.avail_out = uInt(out.size());
    const int rc = inflate(&z, Z_FINISH);
    const bool ok = rc == Z_STREAM_END && z.avail_in == 0;
    out.resize(out.size() - z.avail_out);
    inflateEnd(&z);
    return ok ? out : std::vector<std::uint8_t>{};
}

// One segment's raw deflate bytes inflated with no history: its bytes, and whether it ends where
// the next segment may start: after a block that is not the final one, on a byte boundary (zlib's
// Z_BLOCK stops at each block's end; data_type: the unused bits of the last byte, +64 inside the
// final block, +128 at a block's end); the image's last segment, at the stream's end.
std::vector<std::uint8_t> inflate_segment(const std::string& bytes, std::size_t expected, bool last, bool& ends_right) {
    std::vector<std::uint8_t> out(expected + 1);
    z_stream z{};
    if (inflateInit2(&z, -15) != Z_OK) return {};
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    z.avail_in = uInt(bytes.size());
    z.next_out = out.data();
    z.avail_out = uInt(out.size());
    int rc = Z_OK;
    while (rc == Z_OK && z.avail_in) rc = inflate(&z, Z_BLOCK);
    if (last && rc == Z_OK) rc = inflate(&z, Z_BLOCK);  // (it stops at the final block's end first)
    ends_right = z.avail_in == 0 && (last ? rc == Z_STREAM_END : rc == Z_OK && (z.data_type & (128 | 64 | 7)) == 128);
    out.resize(out.size() - z.avail_out);
    inflateEnd(&z);
    return out;
}

// Values as a baked map has them: a zero band, a smooth field, scattered NaN and values outside
// 0..1; or noise (samples that do not compress: the deflate's stored blocks).
std::vector<float> map_values(int width, int height, int channels, bool noise) {
    std::vector<float> values(std::size_t(width) * std::size_t(height) * std::size_t(channels));
    const std::size_t row = std::size_t(width) * std::size_t(channels);
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double x = double(i % row) / double(row), y = double(i / row) / height;
        float v = y < 0.2 ? 0.0f : float(0.5 + 0.55 * std::sin(7 * x + 4 * y));
        if (i % 101 == 5) v = std::numeric_limits<float>::quiet_NaN();
        if (i % 97 == 7) v = -0.5f;
        if (i % 89 == 9) v = float((2 * (i % 1000) + 1) / 131070.0);  // a half step
        if (noise) v = float((i * 2654435761u) % 65536u) / 65535.0f;  // Knuth's multiplicative hash
        values[i] = v;
    }
    return values;
}

}  // namespace

TEST_CASE("png deflate: the joined segments inflate to the exact filtered rows, each segment alone to its own", "[bake][png]") {
    for (const int channels : {1, 3})
        for (const int side : {16, 17, 64, 181, 256, 300, 512, 700, 1024, 2048, -16, -300}) {
            const bool noise = side < 0;  // (a negative size: noise of that size)
            const int size = std::abs(side);
            INFO(channels << " channels, " << size << " x " << size << (noise ? ", noise" : ""));
            const std::vector<float> values = map_values(size, size, channels, noise);
            const std::vector<std::uint8_t> rows = filtered_rows(values, size, size, channels);
            std::string file;
            write_png16(file, values.data(), size, size, channels);
            PngData d;
            REQUIRE(png_data(file, d));
            CHECK(d.width == std::uint32_t(size));
            CHECK(d.height == std::uint32_t(size));
            CHECK(d.depth == 16);
            CHECK(d.colour == (channels == 3 ? 2 : 0));
            CHECK(inflate_zlib(d.zlib, rows.size()) == rows);

            // Each segment from its own rows inflates alone; all but the last end on a block's end
            // and a byte boundary, the last finishes the stream.
            const Png16Segments png(size, size, channels);
            const std::size_t samples = std::size_t(size) * std::size_t(channels);
            std::size_t at = 0, ends_wrong = 0, wrong = 0;
            for (std::size_t s = 0; s < png.count(); ++s) {
                Png16Segments::Part part;
                png.deflate(s, values.data() + png.rows(s).first * samples, part);
                const std::size_t bytes = std::min(rows.size() - at, std::size_t(65024));
                bool ends_right = false;
                const std::vector<std::uint8_t> got = inflate_segment(part.bytes, bytes, s + 1 == png.count(), ends_right);
                wrong += got.size() != bytes || std::memcmp(got.data(), rows.data() + at, bytes) != 0;
                ends_wrong += !ends_right;
                at += bytes;
            }
            CHECK(at == rows.size());
            CHECK(wrong == 0);
            CHECK(ends_wrong == 0);
        }
}

TEST_CASE("png deflate: bake's files with --udim, grey and colour, inflate to the rows of the images kept in memory", "[bake][png]") {
    // Segments of a frame whose rows repeat the frame before's are that frame's deflated parts;
    // files made on 3 threads; each file's stream inflated by zlib against the texels of the
    // in-memory run (which has no --udim: bend_cylinder's UVs are all in tile 1001, the 0..1
    // square), filtered here.
    rigscope_test::TempDir dir("png_inflate");
    for (const char* map : {"tension", "color"}) {
        INFO(map);
        BakeJobOptions o;
        o.tension.input.file = rigscope::test::corpus("bend_cylinder/bend_cylinder.glb");
        o.tension.input.frames = "1,2,31,60,61";
        o.tension.input.threads = 3;
        o.size = 300;
        o.padding = 2;
        o.map = map;
        if (o.map == "tension") o.range = std::make_pair(0.5, 2.0);
        const BakeJobResult kept = load_and_run_bake(o);
        o.udim = true;
        o.out = dir.file(std::string(map) + "/{mesh}.{udim}.{frame}.png");
        const BakeJobResult r = load_and_run_bake(o);
        // bend_cylinder's faces reach past u = 1 (tile 1002): its images come in pairs.
        REQUIRE(r.images.size() == 2 * kept.images.size());
        std::size_t wrong = 0, unfiltered = 0;
        for (std::size_t i = 0; i < r.images.size(); ++i) {
            const BakeImage& tile = r.images[i];
            CHECK(tile.udim == (i % 2 ? 1002 : 1001));
            std::ifstream in(tile.path, std::ios::binary);
            const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            PngData d;
            REQUIRE(png_data(file, d));
            const std::size_t row_bytes = 1 + 2 * std::size_t(o.size) * std::size_t(kept.channels);
            const std::vector<std::uint8_t> got = inflate_zlib(d.zlib, row_bytes * std::size_t(o.size));
            REQUIRE(got.size() == row_bytes * std::size_t(o.size));
            for (std::size_t y = 0; y < std::size_t(o.size); ++y) unfiltered += got[y * row_bytes] != 0;
            // Tile 1001 is the 0..1 square the run without --udim bakes.
            if (tile.udim == 1001) wrong += got != filtered_rows(kept.images[i / 2].texels, o.size, o.size, kept.channels);
        }
        CHECK(unfiltered == 0);
        CHECK(wrong == 0);
    }
}
