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

// One delta of the coding: code 0 is the common delta, 1 and 2 a narrow one (8 and 16 bits for
// 32-bit integers, 16 and 32 for 64-bit), 3 a full-width one.
template <class Int, class S, class Take>
S delta_of(int code, S common, Take&& take) {
    if (code == 0) return common;
    if (code == 1) {
        if (sizeof(Int) == 4) return S(*reinterpret_cast<const std::int8_t*>(take(1)));
        std::int16_t x;
        std::memcpy(&x, take(2), 2);
        return S(x);
    }
    if (code == 2) {
        if (sizeof(Int) == 4) {
            std::int16_t x;
            std::memcpy(&x, take(2), 2);
            return S(x);
        }
        std::int32_t x;
        std::memcpy(&x, take(4), 4);
        return S(x);
    }
    S delta;
    std::memcpy(&delta, take(sizeof(S)), sizeof(S));
    return delta;
}

}  // namespace

template <class Int>
std::vector<Int> CrateBytes::compressed_ints(Cursor& c, std::uint64_t n, const char* what) {
    using S = typename std::make_signed<Int>::type;
    const std::uint64_t packed = c.read<std::uint64_t>(what);
    const char* in = c.bytes(packed, what);
    std::vector<Int> out;
    if (n == 0) return out;
    if (n / 4 > packed * kMaxLz4Ratio) fail(std::string(what) + " claim " + std::to_string(n) + " integers from " + std::to_string(packed) + " compressed bytes (an LZ4 bomb)");
    const std::uint64_t encoded = sizeof(Int) + (n * 2 + 7) / 8 + n * sizeof(Int);
    charge(encoded + n * sizeof(Int), what);
    char* work = scratch(encoded);
    const std::size_t got = lz4_blocks(path, in, packed, work, encoded, what);
    const char* p = work;
    const char* end = work + got;
    auto take = [&](std::size_t bytes) {
        if (std::size_t(end - p) < bytes) fail(std::string(what) + ": the integer coding runs past its data");
        const char* q = p;
        p += bytes;
        return q;
    };
    S common;
    std::memcpy(&common, take(sizeof(S)), sizeof(S));
    const char* codes = take((n * 2 + 7) / 8);
    detail::reserve_huge(out, n);
    out.resize(n);
    S prev = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
        const int code = (static_cast<unsigned char>(codes[i / 4]) >> (2 * (i % 4))) & 3;
        const S delta = delta_of<Int, S>(code, common, take);
        prev = S(typename std::make_unsigned<S>::type(prev) + typename std::make_unsigned<S>::type(delta));
        out[i] = Int(prev);
    }
    return out;
}

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
