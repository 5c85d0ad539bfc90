// The crate reader's integer coding (crate_compression.cpp) against an encoder written here from
// the format's description (docs/usd_notes.md): a common delta, 2-bit codes, then each delta
// that is not the common one at the narrowest width its code can name. The decoder checks the
// whole coding before it decodes and then decodes four codes at a time, so sequences of every
// length and every mix of codes are decoded whole and in uneven pieces, and a coding one byte
// short is refused.
#include <lz4.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "io/usd/crate_format.h"
#include "rigscope/core/error.h"

namespace {

using rigscope::usd::crate::CrateBytes;
using rigscope::usd::crate::IntCoding;

const std::string kPath = "mem.usdc";  // CrateBytes keeps a reference to its path

template <class Int>
void put(std::string& out, Int x) {
    out.append(reinterpret_cast<const char*>(&x), sizeof x);
}

// The coding of `values`, LZ4-compressed in one chunk and preceded by its size, as a crate
// stores a compressed integer array. `drop` bytes are cut from the coding's end.
template <class Int>
std::string encoded(const std::vector<Int>& values, std::size_t drop = 0) {
    using U = std::make_unsigned_t<Int>;
    using S = std::make_signed_t<Int>;
    std::vector<S> deltas;
    U prev = 0;
    for (Int v : values) {
        deltas.push_back(S(U(U(v) - prev)));
        prev = U(v);
    }
    std::map<S, int> seen;
    S common = 0;
    int most = 0;
    for (S d : deltas)
        if (++seen[d] > most) most = seen[d], common = d;
    const S narrow = sizeof(Int) == 4 ? 127 : 32767, middle = sizeof(Int) == 4 ? 32767 : 2147483647;
    std::string coding;
    put(coding, common);
    std::string codes((values.size() * 2 + 7) / 8, '\0'), rest;
    for (std::size_t i = 0; i < deltas.size(); ++i) {
        const S d = deltas[i];
        int code = 3;
        if (d == common) code = 0;
        else if (d >= -narrow - 1 && d <= narrow) code = 1;
        else if (d >= -middle - 1 && d <= middle) code = 2;
        codes[i / 4] = char(codes[i / 4] | code << (2 * (i % 4)));
        if (code == 1 && sizeof(Int) == 4) put(rest, std::int8_t(d));
        if (code == 1 && sizeof(Int) == 8) put(rest, std::int16_t(d));
        if (code == 2 && sizeof(Int) == 4) put(rest, std::int16_t(d));
        if (code == 2 && sizeof(Int) == 8) put(rest, std::int32_t(d));
        if (code == 3) put(rest, d);
    }
    coding += codes + rest;
    coding.resize(coding.size() - drop);
    std::string packed(std::size_t(LZ4_compressBound(int(coding.size()))) + 1, '\0');
    packed[0] = 0;  // one chunk
    const int n = LZ4_compress_default(coding.data(), &packed[1], int(coding.size()), int(packed.size() - 1));
    packed.resize(std::size_t(n) + 1);
    std::string out;
    put(out, std::uint64_t(packed.size()));
    return out + packed;
}

// Values whose deltas take every code: runs of one step (the common one), small, 16-bit and
// full-width jumps, negative ones included.
template <class Int>
std::vector<Int> mixed(std::size_t n, std::uint32_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<Int> v;
    Int x = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const auto r = rng();
        switch (r % 5) {
            case 0: case 1: x = Int(x + 3); break;
            case 2: x = Int(x + Int(std::int8_t(r >> 8))); break;
            case 3: x = Int(x + Int(std::int16_t(r >> 8))); break;
            default: x = Int(r >> 8); break;
        }
        v.push_back(x);
    }
    return v;
}

template <class Int>
void decodes_as_encoded() {
    const std::uint64_t budget = std::uint64_t(1) << 32;
    for (std::size_t n : {1, 2, 3, 4, 5, 7, 8, 9, 63, 64, 65, 1023, 1024, 1025, 4099, 100003}) {
        const std::vector<Int> values = mixed<Int>(n, std::uint32_t(n));
        const std::string bytes = encoded(values);
        {
            CrateBytes c(kPath, bytes, budget);
            auto at = c.at(0);
            CHECK(c.compressed_ints<Int>(at, n, "the test's integers") == values);
        }
        // In uneven pieces: a piece's first integer need not begin a code byte.
        CrateBytes c(kPath, bytes, budget);
        auto at = c.at(0);
        IntCoding<Int> coding = c.int_coding<Int>(at, n, "the test's integers");
        REQUIRE(coding.size() == n);
        std::vector<Int> got(n);
        std::size_t first = 0, piece = 1;
        while (first < n) {
            const std::size_t count = std::min(piece, n - first);
            coding.next(got.data() + first, count);
            first += count;
            piece = piece * 3 + 1;
        }
        CHECK(got == values);
    }
}

template <class Int>
void refuses_short_coding() {
    for (std::size_t n : {5, 64, 1025}) {
        const std::vector<Int> values = mixed<Int>(n, 7);
        const std::string bytes = encoded(values, 1);
        CrateBytes c(kPath, bytes, std::uint64_t(1) << 32);
        auto at = c.at(0);
        try {
            c.compressed_ints<Int>(at, n, "the test's integers");
            FAIL("a coding one byte short was decoded");
        } catch (const rigscope::Error& e) {
            CHECK(std::string(e.what()).find("the test's integers: the integer coding runs past its data") != std::string::npos);
        }
    }
}

}  // namespace

TEST_CASE("usdc integer coding: every code and length decodes as encoded, whole and in pieces") {
    decodes_as_encoded<std::int32_t>();
    decodes_as_encoded<std::uint32_t>();
    decodes_as_encoded<std::int64_t>();
}

TEST_CASE("usdc integer coding: a coding shorter than its codes name is refused before it is decoded") {
    refuses_short_coding<std::int32_t>();
    refuses_short_coding<std::uint32_t>();
    refuses_short_coding<std::int64_t>();
}
