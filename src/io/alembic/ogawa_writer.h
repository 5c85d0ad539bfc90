// Writes the Ogawa container (the byte layout ogawa_file.h reads): the 16-byte header, then data
// blocks and groups appended in any order, each referenced by its offset. Data is written as it
// comes (a cache's samples frame by frame) and the groups naming it last, so memory does not grow
// with frames; the header's root offset and its frozen flag are set when the archive is closed,
// as Alembic's own writer does, so a reader never takes an unfinished file for a whole one.
//
// Everything goes through one OutputFile: a temporary renamed into place on success, so a failed
// run leaves no archive at all (output.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rigscope/io/output.h"

namespace rigscope::abc {

// A 128-bit digest: the key Alembic stores before each sample's bytes. Readers use it to share
// identical samples (their caches), so distinct contents must not share one; MurmurHash3's
// x64 128-bit mix (public domain), seeded per use, in four lanes for samples of 4 KiB or more.
struct Digest {
    std::uint64_t w[2] = {0, 0};
    bool operator==(const Digest& o) const { return w[0] == o.w[0] && w[1] == o.w[1]; }
    bool operator!=(const Digest& o) const { return !(*this == o); }
};
Digest digest128(const void* data, std::size_t n, std::uint32_t seed = 0);

class OgawaWriter {
public:
    static constexpr std::uint64_t kDataBit = 1ull << 63;
    static constexpr std::uint64_t kEmptyData = kDataBit;  // a child naming no bytes
    static constexpr std::uint64_t kEmptyGroup = 0;

    // Writes the header, not yet frozen, with no root.
    explicit OgawaWriter(OutputFile& out);

    // A data block (its size, then its bytes); returns the child offset naming it (data bit
    // set). Zero bytes are the empty data, which takes no room.
    std::uint64_t data(const void* bytes, std::uint64_t n);
    // A data block of several parts back to back (a sample's 16-byte key, then its values).
    std::uint64_t data(const std::vector<std::pair<const void*, std::uint64_t>>& parts);
    // A group of these children; no children is the empty group (offset 0), written nowhere.
    std::uint64_t group(const std::vector<std::uint64_t>& children);
    // Names the root group and sets the frozen flag: the archive is whole. The OutputFile is
    // then the caller's to commit.
    void close(std::uint64_t root);

    std::uint64_t size() const { return pos_; }

private:
    void append(const void* p, std::uint64_t n);
    OutputFile& out_;
    std::uint64_t pos_ = 0;
};

}  // namespace rigscope::abc
