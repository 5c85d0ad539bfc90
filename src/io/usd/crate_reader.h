// Binary crate layers (.usdc, versions 0.4.0 to 0.14.0) into usd::Layer: the six structural
// sections (TOKENS, STRINGS, FIELDS, FIELDSETS, PATHS, SPECS), LZ4 blocks, the integer coding,
// compressed integer and floating-point arrays, inlined values, time samples, list ops and
// dictionaries. Every count and offset is checked against the bytes there are and the memory
// budget before use; jumps and nested values are bounded and a value that contains itself is
// refused. The format was learned from OpenUSD's crateFile.cpp and integerCoding.cpp
// (docs/usd_notes.md); no code of theirs is here. The steps are files of their own
// (crate_format.h says which); crate_reader.cpp runs them in order.
#pragma once

#include <cstdint>
#include <string>

#include "io/usd/usd_layer.h"

namespace rigscope::usd {

// `bytes` is the whole layer (a file, or a stored entry of a usdz); `path` names it in messages.
// Throws rigscope::Error (exit 3).
Layer parse_crate(const std::string& path, const std::string& bytes, std::uint64_t max_memory);

// LZ4 blocks as OpenUSD's TfFastCompression writes them (a chunk count, then the chunks); fills
// exactly `out_size` bytes or throws naming `what`.
void decompress_blocks(const std::string& path, const char* in, std::size_t in_size, char* out, std::size_t out_size,
                       const std::string& what);

}  // namespace rigscope::usd
