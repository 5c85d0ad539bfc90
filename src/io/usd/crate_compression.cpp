// The crate's two codings: LZ4 blocks as OpenUSD's TfFastCompression writes them, and the
// integer coding of its tables and integer arrays (a common delta, 2-bit codes, then each delta
// that is not the common one at the width its code names). Both check every size against the
// bytes there are: a crate's counts are the file's word until proved.
#include <lz4.h>

#include <algorithm>
#include <type_traits>

#include "io/usd/crate_format.h"
#include "io/usd/crate_reader.h"
#include "rigscope/core/error.h"
#include "rigscope/core/huge_pages.h"
#include "rigscope/core/simd.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace rigscope::usd {

namespace crate {

std::size_t lz4_blocks(const std::string& path, const char* in, std::size_t in_size, char* out, std::size_t out_size,
                       const std::string& what) {
    if (in_size == 0) throw bad_input(path, "usdc: " + what + ": an empty compressed block");
    const int chunks = static_cast<unsigned char>(in[0]);
    if (chunks == 0) {
        const int got = LZ4_decompress_safe(in + 1, out, int(std::min<std::size_t>(in_size - 1, LZ4_MAX_INPUT_SIZE)),
                                            int(std::min<std::size_t>(out_size, LZ4_MAX_INPUT_SIZE)));
        if (got < 0) throw bad_input(path, "usdc: " + what + ": the LZ4 data is corrupt");
        return std::size_t(got);
    }
    std::size_t pos = 1, total = 0;
    for (int i = 0; i < chunks; ++i) {
        std::int32_t size;
        if (in_size - pos < 4) throw bad_input(path, "usdc: " + what + ": an LZ4 chunk header runs past its data");
        std::memcpy(&size, in + pos, 4);
        pos += 4;
        if (size < 0 || std::size_t(size) > in_size - pos) throw bad_input(path, "usdc: " + what + ": an LZ4 chunk runs past its data");
        const int got = LZ4_decompress_safe(in + pos, out + total, size, int(std::min<std::size_t>(out_size - total, LZ4_MAX_INPUT_SIZE)));
        if (got < 0) throw bad_input(path, "usdc: " + what + ": the LZ4 data is corrupt");
        pos += std::size_t(size);
        total += std::size_t(got);
    }
    return total;
}

// A buffer of at least `bytes` for the integer coding's decompressed bytes, kept for the next
// array: a fresh one per array is a fresh mapping, zero-filled and faulted in page by page,
// which was a third of the bench tube's load.
char* CrateBytes::scratch(std::size_t bytes) {
    if (bytes > scratch_size_) {
        scratch_.reset(new char[bytes]);
        scratch_size_ = bytes;
        detail::advise_huge(scratch_.get(), bytes);
    }
    return scratch_.get();
}

namespace {

// Bytes of a delta by its code: 0 is the common delta, 1 and 2 a narrow one (8 and 16 bits for
// 32-bit integers, 16 and 32 for 64-bit), 3 a full-width one.
template <class Int>
constexpr unsigned delta_bytes(unsigned code) {
    return code == 0 ? 0 : sizeof(Int) == 4 ? (code == 1 ? 1 : code == 2 ? 2 : 4) : (code == 1 ? 2 : code == 2 ? 4 : 8);
}

// Where the deltas of the four codes of one code byte lie, from the byte's first delta, and the
// bytes of all four: the whole-array check sums them, and the decoding reads the four at once.
template <class Int>
struct CodeBytes {
    unsigned char offset[256][4];
    unsigned char bytes[256];
    constexpr CodeBytes() : offset(), bytes() {
        for (unsigned b = 0; b < 256; ++b) {
            unsigned at = 0;
            for (unsigned j = 0; j < 4; ++j) {
                offset[b][j] = static_cast<unsigned char>(at);
                at += delta_bytes<Int>((b >> (2 * j)) & 3);
            }
            bytes[b] = static_cast<unsigned char>(at);
        }
    }
};
template <class Int>
constexpr CodeBytes<Int> kCodeBytes{};

// Read past the last delta's end: the scalar decoding loads each delta at every width its code
// may name (8 bytes), the AVX2 one a code byte's deltas as 16 bytes.
constexpr std::size_t kSlack = 16;

// The delta of `code` whose bytes begin at q.
template <class U>
U delta_at(unsigned code, const char* q, U common) {
    using S = std::make_signed_t<U>;
    using Narrow = std::conditional_t<sizeof(U) == 8, std::int16_t, std::int8_t>;
    using Middle = std::conditional_t<sizeof(U) == 8, std::int32_t, std::int16_t>;
    Narrow a;
    Middle b;
    U c;
    std::memcpy(&a, q, sizeof a);
    std::memcpy(&b, q, sizeof b);
    std::memcpy(&c, q, sizeof c);
    return code == 0 ? common : code == 1 ? U(S(a)) : code == 2 ? U(S(b)) : c;
}

#if defined(__x86_64__) && defined(__GNUC__)
// The AVX2 decoding of 32-bit integers, a code byte's four deltas in one register: per code
// byte, the byte shuffle that puts each delta's bytes at the top of its 32-bit lane (the rest
// zero), the arithmetic right shift that sign-extends it there, and the lanes that take the
// common delta instead.
struct LaneTables {
    unsigned char shuffle[256][16];
    std::int32_t shift[256][4];
    std::int32_t common[256][4];
    constexpr LaneTables() : shuffle(), shift(), common() {
        for (unsigned b = 0; b < 256; ++b)
            for (unsigned j = 0; j < 4; ++j) {
                const unsigned code = (b >> (2 * j)) & 3, width = delta_bytes<std::int32_t>(code);
                const unsigned from = kCodeBytes<std::int32_t>.offset[b][j];
                for (unsigned t = 0; t < 4; ++t)
                    shuffle[b][4 * j + t] = static_cast<unsigned char>(t >= 4 - width ? from + t - (4 - width) : 0x80);
                shift[b][j] = std::int32_t(32 - 8 * width) & 31;  // a common delta's lane is zero either way
                common[b][j] = code == 0 ? -1 : 0;
            }
    }
};
constexpr LaneTables kLanes{};

// `bytes` code bytes' integers into out (4 each) from the deltas at p, the running sum in prev;
// p left at the next delta.
__attribute__((target("avx2"))) void decode_avx2(const unsigned char* codes, std::size_t bytes, const char*& p,
                                                 std::uint32_t& prev, std::uint32_t common, void* out) {
    const __m128i common_lanes = _mm_set1_epi32(std::int32_t(common));
    __m128i sum = _mm_set1_epi32(std::int32_t(prev));
    auto* o = static_cast<__m128i*>(out);
    const char* q = p;
    for (std::size_t k = 0; k < bytes; ++k) {
        const unsigned b = codes[k];
        const __m128i raw = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
        __m128i d = _mm_shuffle_epi8(raw, _mm_loadu_si128(reinterpret_cast<const __m128i*>(kLanes.shuffle[b])));
        d = _mm_srav_epi32(d, _mm_loadu_si128(reinterpret_cast<const __m128i*>(kLanes.shift[b])));
        d = _mm_add_epi32(d, _mm_and_si128(common_lanes, _mm_loadu_si128(reinterpret_cast<const __m128i*>(kLanes.common[b]))));
        d = _mm_add_epi32(d, _mm_slli_si128(d, 4));  // the four deltas' running sums
        d = _mm_add_epi32(d, _mm_slli_si128(d, 8));
        d = _mm_add_epi32(d, sum);
        _mm_storeu_si128(o + k, d);
        sum = _mm_shuffle_epi32(d, 0xff);
        q += kCodeBytes<std::int32_t>.bytes[b];
    }
    p = q;
    prev = std::uint32_t(_mm_cvtsi128_si32(sum));
}
#endif

}  // namespace

// Checked whole up front (int_coding), the deltas are decoded without a check per integer, a
// code byte's four at a time: their places come from a table of the byte (so the four loads do
// not wait on each other), and a byte of four common deltas (a triangle mesh's face counts)
// takes no loads at all.
template <class Int>
void IntCoding<Int>::next(Int* out, std::size_t count) {
    const unsigned char* codes = codes_;
    const char* p = deltas_;
    U prev = prev_;
    const U common = common_;
    std::uint64_t i = i_;
    std::size_t k = 0;
    auto one = [&] {
        const unsigned code = (codes[i >> 2] >> (2 * (i & 3))) & 3;
        prev += delta_at<U>(code, p, common);
        p += delta_bytes<Int>(code);
        out[k++] = Int(prev);
        ++i;
    };
    while (k < count && (i & 3)) one();
#if defined(__x86_64__) && defined(__GNUC__)
    if constexpr (sizeof(Int) == 4) {
        static const bool avx2 = avx2_default();
        if (avx2 && count - k >= 4) {
            const std::size_t bytes = (count - k) / 4;
            decode_avx2(codes + (i >> 2), bytes, p, prev, common, out + k);
            i += 4 * bytes;
            k += 4 * bytes;
        }
    }
#endif
    for (; count - k >= 4; i += 4, k += 4) {
        const unsigned b = codes[i >> 2];
        if (b == 0) {
            for (int j = 0; j < 4; ++j) out[k + j] = Int(prev += common);
            continue;
        }
        const unsigned char* at = kCodeBytes<Int>.offset[b];
        const U d0 = delta_at<U>(b & 3, p + at[0], common), d1 = delta_at<U>((b >> 2) & 3, p + at[1], common);
        const U d2 = delta_at<U>((b >> 4) & 3, p + at[2], common), d3 = delta_at<U>(b >> 6, p + at[3], common);
        out[k] = Int(prev += d0);
        out[k + 1] = Int(prev += d1);
        out[k + 2] = Int(prev += d2);
        out[k + 3] = Int(prev += d3);
        p += kCodeBytes<Int>.bytes[b];
    }
    while (k < count) one();
    deltas_ = p;
    prev_ = prev;
    i_ = i;
}

template <class Int>
IntCoding<Int> CrateBytes::int_coding(Cursor& c, std::uint64_t n, const char* what) {
    const std::uint64_t packed = c.read<std::uint64_t>(what);
    const char* in = c.bytes(packed, what);
    IntCoding<Int> coding;
    if (n == 0) return coding;
    if (n / 4 > packed * kMaxLz4Ratio) fail(std::string(what) + " claim " + std::to_string(n) + " integers from " + std::to_string(packed) + " compressed bytes (an LZ4 bomb)");
    const std::uint64_t code_bytes = (n * 2 + 7) / 8;
    const std::uint64_t encoded = sizeof(Int) + code_bytes + n * sizeof(Int);
    charge(encoded + n * sizeof(Int), what);
    char* work = scratch(encoded + kSlack);
    const std::size_t got = lz4_blocks(path, in, packed, work, encoded, what);
    std::memset(work + got, 0, kSlack);  // what a last delta's full-width load reads past the data
    auto runs_past = [&] { fail(std::string(what) + ": the integer coding runs past its data"); };
    if (got < sizeof(Int) + code_bytes) runs_past();
    const auto* codes = reinterpret_cast<const unsigned char*>(work + sizeof(Int));
    std::uint64_t deltas = 0;
    for (std::uint64_t b = 0; b < n / 4; ++b) deltas += kCodeBytes<Int>.bytes[codes[b]];
    for (std::uint64_t i = n / 4 * 4; i < n; ++i) deltas += delta_bytes<Int>((codes[i / 4] >> (2 * (i % 4))) & 3);
    if (deltas > got - sizeof(Int) - code_bytes) runs_past();
    coding.n_ = n;
    coding.codes_ = codes;
    coding.deltas_ = work + sizeof(Int) + code_bytes;
    std::memcpy(&coding.common_, work, sizeof(Int));
    return coding;
}

template <class Int>
std::vector<Int> CrateBytes::compressed_ints(Cursor& c, std::uint64_t n, const char* what) {
    IntCoding<Int> coding = int_coding<Int>(c, n, what);
    std::vector<Int> out;
    detail::reserve_huge(out, n);
    out.resize(n);
    coding.next(out.data(), n);
    return out;
}

template class IntCoding<std::uint32_t>;
template class IntCoding<std::int32_t>;
template class IntCoding<std::int64_t>;
template IntCoding<std::uint32_t> CrateBytes::int_coding<std::uint32_t>(Cursor&, std::uint64_t, const char*);
template IntCoding<std::int32_t> CrateBytes::int_coding<std::int32_t>(Cursor&, std::uint64_t, const char*);
template IntCoding<std::int64_t> CrateBytes::int_coding<std::int64_t>(Cursor&, std::uint64_t, const char*);
template std::vector<std::uint32_t> CrateBytes::compressed_ints<std::uint32_t>(Cursor&, std::uint64_t, const char*);
template std::vector<std::int32_t> CrateBytes::compressed_ints<std::int32_t>(Cursor&, std::uint64_t, const char*);
template std::vector<std::int64_t> CrateBytes::compressed_ints<std::int64_t>(Cursor&, std::uint64_t, const char*);

}  // namespace crate

void decompress_blocks(const std::string& path, const char* in, std::size_t in_size, char* out, std::size_t out_size,
                       const std::string& what) {
    const std::size_t total = crate::lz4_blocks(path, in, in_size, out, out_size, what);
    if (total != out_size)
        throw bad_input(path, "usdc: " + what + " decompress to " + std::to_string(total) + " bytes, not the " + std::to_string(out_size) + " the file claims");
}

}  // namespace rigscope::usd
