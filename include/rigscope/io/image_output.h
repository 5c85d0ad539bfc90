// Images of a baked map (issue 60): 16-bit PNG and half-float EXR, greyscale or RGB, each written in one
// place (src/io/writers/png_writer.cpp, exr_writer.cpp) into an OutputFile's buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "rigscope/io/output.h"

namespace rigscope {

// A 16-bit PNG of width x height pixels of `channels` values each (1: greyscale, 3: RGB,
// interleaved), row 0 first: round(clamp(v, 0, 1) x 65535), no gamma, sRGB or other colour chunk
// (the values are data). Returns how many values were outside 0..1 and clamped (NaN counts and is
// written as 0).
std::size_t write_png16(OutputFile& out, const float* values, int width, int height, int channels);
// The same file's bytes appended to `bytes`: for a caller that writes one image to several files
// (bake's unchanged maps) or keeps it.
std::size_t write_png16(std::string& bytes, const float* values, int width, int height, int channels);

// write_png16's file made in pieces: its image data is deflated in independent segments (of a
// fixed number of bytes of the rows as PNG lays them out, png_writer.cpp), which any thread may
// deflate in any order from only the rows they touch, then joined into the same bytes as
// write_png16's. bake deflates each segment right after gathering its rows, so that no image is
// ever whole in memory.
class Png16Segments {
public:
    Png16Segments(int width, int height, int channels);
    std::size_t count() const { return count_; }
    // The rows segment s's bytes touch, [first, end): its deflate_segment reads these.
    std::pair<std::size_t, std::size_t> rows(std::size_t s) const;
    // A deflated segment: its bytes, the Adler-32 of its rows' bytes, the values clamped in the
    // rows whose first byte it holds (every value counted once over the segments).
    struct Part {
        std::string bytes;
        std::uint32_t adler = 1;
        std::size_t clamped = 0;
    };
    // Segment s from `values`, rows(s)'s values (channels interleaved, the first row first).
    void deflate(std::size_t s, const float* values, Part& part) const;
    // The same in two steps: segment s's bytes as PNG filters them into `raw`, returning the
    // values clamped (as Part::clamped); then `raw` deflated into part's bytes and Adler-32. The
    // deflated bytes are a function of `raw` and s alone: a caller whose segment has the bytes
    // of one deflated before may copy that part's bytes and Adler-32 instead.
    std::size_t filter(std::size_t s, const float* values, std::vector<std::uint8_t>& raw) const;
    void deflate_raw(std::size_t s, const std::vector<std::uint8_t>& raw, Part& part) const;
    // The file of the parts (every segment's, in order) appended to `out`; returns the clamped.
    std::size_t join(const std::vector<Part>& parts, std::string& out) const;

private:
    int width_, height_, channels_;
    std::size_t row_bytes_, data_size_, count_;
};

// A scanline EXR of HALF channels, "Y" for one channel, "R", "G", "B" for three (interleaved in
// `values`), row 0 first (increasing Y), data window = display
// window = (0, 0)..(width - 1, height - 1), ZIP compression. Values past half's range become
// infinities as the half conversion makes them.
void write_exr_half(OutputFile& out, const float* values, int width, int height, int channels);
void write_exr_half(std::string& bytes, const float* values, int width, int height, int channels);

}  // namespace rigscope
