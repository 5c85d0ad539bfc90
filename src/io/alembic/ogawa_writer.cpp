#include "io/alembic/ogawa_writer.h"

#include <cstring>

namespace rigscope::abc {

namespace {

inline std::uint64_t rotl(std::uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

inline std::uint64_t fmix(std::uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    k ^= k >> 33;
    return k;
}

constexpr std::uint64_t kC1 = 0x87c37b91114253d5ull;
constexpr std::uint64_t kC2 = 0x4cf5ad432745937full;

// MurmurHash3's body step: one 16-byte block into the state (h1, h2).
inline void mix_block(std::uint64_t& h1, std::uint64_t& h2, const unsigned char* b) {
    std::uint64_t k1, k2;
    std::memcpy(&k1, b, 8);
    std::memcpy(&k2, b + 8, 8);
    k1 *= kC1, k1 = rotl(k1, 31), k1 *= kC2, h1 ^= k1;
    h1 = rotl(h1, 27), h1 += h2, h1 = h1 * 5 + 0x52dce729;
    k2 *= kC2, k2 = rotl(k2, 33), k2 *= kC1, h2 ^= k2;
    h2 = rotl(h2, 31), h2 += h1, h2 = h2 * 5 + 0x38495ab5;
}

// Samples of this size or more are hashed in four lanes (below).
constexpr std::size_t kWide = 4096;

// MurmurHash3 x64 128 of n bytes.
Digest murmur128(const unsigned char* p, std::size_t n, std::uint32_t seed);

}  // namespace

Digest digest128(const void* data, std::size_t n, std::uint32_t seed) {
    const unsigned char* p = static_cast<const unsigned char*>(data);
    if (n < kWide) return murmur128(p, n, seed);
    // A sample of megabytes (a frame's points or map): four MurmurHash3 states, each taking every
    // fourth 16-byte block, run side by side (one state's chain of multiplies leaves the CPU
    // idle between steps; four fill it), then the four states, the tail and the size hashed
    // into one key. A different function from one stream's, as good a key: readers only compare
    // keys. Measured on the bench tube: the keys took a fifth of the writer's time in one lane.
    std::uint64_t h[4][2];
    for (int l = 0; l < 4; ++l) h[l][0] = h[l][1] = seed + 0x9e3779b97f4a7c15ull * std::uint64_t(l + 1);
    const std::size_t rows = n / 64;
    for (std::size_t i = 0; i < rows; ++i) {
        const unsigned char* b = p + 64 * i;
        mix_block(h[0][0], h[0][1], b);
        mix_block(h[1][0], h[1][1], b + 16);
        mix_block(h[2][0], h[2][1], b + 32);
        mix_block(h[3][0], h[3][1], b + 48);
    }
    const Digest tail = murmur128(p + 64 * rows, n - 64 * rows, seed);
    std::uint64_t all[11];
    for (int l = 0; l < 4; ++l) all[2 * l] = fmix(h[l][0]), all[2 * l + 1] = fmix(h[l][1]);
    all[8] = tail.w[0], all[9] = tail.w[1], all[10] = n;
    return murmur128(reinterpret_cast<const unsigned char*>(all), sizeof all, seed);
}

namespace {

Digest murmur128(const unsigned char* p, std::size_t n, std::uint32_t seed) {
    std::uint64_t h1 = seed, h2 = seed;
    const std::size_t blocks = n / 16;
    for (std::size_t i = 0; i < blocks; ++i) mix_block(h1, h2, p + 16 * i);
    const unsigned char* tail = p + 16 * blocks;
    const std::size_t rest = n & 15;
    std::uint64_t k1 = 0, k2 = 0;
    for (std::size_t i = rest; i > 8; --i) k2 = (k2 << 8) | tail[i - 1];
    for (std::size_t i = rest < 8 ? rest : 8; i > 0; --i) k1 = (k1 << 8) | tail[i - 1];
    if (rest > 8) k2 *= kC2, k2 = rotl(k2, 33), k2 *= kC1, h2 ^= k2;
    if (rest > 0) k1 *= kC1, k1 = rotl(k1, 31), k1 *= kC2, h1 ^= k1;
    h1 ^= n, h2 ^= n;
    h1 += h2, h2 += h1;
    h1 = fmix(h1), h2 = fmix(h2);
    h1 += h2, h2 += h1;
    Digest d;
    d.w[0] = h1;
    d.w[1] = h2;
    return d;
}

}  // namespace

OgawaWriter::OgawaWriter(OutputFile& out) : out_(out) {
    // "Ogawa", the frozen flag (0 until close), version 1 big-endian, the root offset (0 for now).
    const unsigned char header[16] = {'O', 'g', 'a', 'w', 'a', 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0};
    append(header, sizeof header);
}

void OgawaWriter::append(const void* p, std::uint64_t n) {
    out_.write(std::string_view(static_cast<const char*>(p), n));
    pos_ += n;
}

std::uint64_t OgawaWriter::data(const void* bytes, std::uint64_t n) { return data({{bytes, n}}); }

std::uint64_t OgawaWriter::data(const std::vector<std::pair<const void*, std::uint64_t>>& parts) {
    std::uint64_t total = 0;
    for (const auto& p : parts) total += p.second;
    if (total == 0) return kEmptyData;
    const std::uint64_t at = pos_;
    append(&total, 8);
    for (const auto& p : parts)
        if (p.second) append(p.first, p.second);
    return at | kDataBit;
}

std::uint64_t OgawaWriter::group(const std::vector<std::uint64_t>& children) {
    if (children.empty()) return kEmptyGroup;
    const std::uint64_t at = pos_;
    const std::uint64_t n = children.size();
    append(&n, 8);
    append(children.data(), n * 8);
    return at;
}

void OgawaWriter::close(std::uint64_t root) {
    out_.overwrite(8, std::string_view(reinterpret_cast<const char*>(&root), 8));
    // Frozen last: the archive is whole only once its root is in place.
    out_.overwrite(5, std::string_view("\xff", 1));
}

}  // namespace rigscope::abc
