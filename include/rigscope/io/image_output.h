// Images of a baked map (issue 60): 16-bit PNG and half-float EXR, greyscale or RGB, each written in one
// place (src/io/writers/png_writer.cpp, exr_writer.cpp) into an OutputFile's buffer.
#pragma once

#include <cstddef>
#include <string>

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

// A scanline EXR of HALF channels, "Y" for one channel, "R", "G", "B" for three (interleaved in
// `values`), row 0 first (increasing Y), data window = display
// window = (0, 0)..(width - 1, height - 1), ZIP compression. Values past half's range become
// infinities as the half conversion makes them.
void write_exr_half(OutputFile& out, const float* values, int width, int height, int channels);
void write_exr_half(std::string& bytes, const float* values, int width, int height, int channels);

}  // namespace rigscope
