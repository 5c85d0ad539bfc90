// 16-bit greyscale or RGB PNG (io/image_output.h). The container is written here (no row filter,
// IDAT chunks of 8192 bytes, as libpng wrote these maps) and the image data deflated by Intel's
// ISA-L (Debian libisal-dev, igzip level 1) in independent segments of 65024 bytes
// (kSegmentBytes, below), joined into one zlib stream whose header and Adler-32 are written here.
// Why ISA-L: on bake's segments its level 1 deflates 3.4x as fast as zlib's level 1 with the
// run-length strategy (which this file used before), with files 0.5% smaller; libdeflate's levels
// 1-4 and a fixed-Huffman deflate of our own were slower or larger (docs/benchmarks.md, bake). The samples are converted eight at a time, the
// rows deflated with buffers a thread keeps from image to image, and the checksums (the zlib
// stream's Adler-32, the chunks' CRC-32) are libdeflate's, about ten times zlib 1.2's on this data.
#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <zlib.h>  // adler32_combine: the segments' Adler-32 joined

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "png_quantise.h"
#include "rigscope/core/error.h"
#include "rigscope/core/simd.h"
#include "rigscope/io/image_output.h"

namespace rigscope {

namespace detail {

// round(clamp(v, 0, 1) x 65535) of n values as big-endian 16-bit samples, halves away from zero
// (NaN: 0); returns how many were outside 0..1. c x 65535 + 0.5 is exact in double (a float times
// 65535 has at most 40 significant bits), so the truncation is lround's; the SSE2 lanes do the
// same double operations as the scalar tail, so every sample has the same bits either way.
std::size_t quantise_png16(const float* in, std::size_t n, std::uint8_t* out, bool avx2) {
    std::size_t clamped = 0, x = 0;
#if defined(RIGSCOPE_AVX2_KERNEL)
    if (avx2 && avx2_supported()) {
        clamped = quantise_png16_avx2(in, n / 8, out);
        x = n / 8 * 8;
    }
#else
    (void)avx2;
#endif
#if defined(__SSE2__)
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f);
    const __m128d scale = _mm_set1_pd(65535.0), half = _mm_set1_pd(0.5);
    const __m128i bias = _mm_set1_epi32(32768), flip = _mm_set1_epi16(-32768);
    static const auto kBits = [] {  // bits set in a byte (no POPCNT in the baseline x86-64 set)
        std::array<std::uint8_t, 256> b{};
        for (int i = 1; i < 256; ++i) b[std::size_t(i)] = std::uint8_t(b[std::size_t(i >> 1)] + (i & 1));
        return b;
    }();
    auto four = [&](__m128 v) {  // four clamped values to four int32 in 0..65535
        const __m128i lo = _mm_cvttpd_epi32(_mm_add_pd(_mm_mul_pd(_mm_cvtps_pd(v), scale), half));
        const __m128i hi = _mm_cvttpd_epi32(_mm_add_pd(_mm_mul_pd(_mm_cvtps_pd(_mm_movehl_ps(v, v)), scale), half));
        return _mm_sub_epi32(_mm_unpacklo_epi64(lo, hi), bias);  // -32768..32767 for the signed pack
    };
    for (; x + 8 <= n; x += 8) {
        __m128 a = _mm_loadu_ps(in + x), b = _mm_loadu_ps(in + x + 4);
        // Inside 0..1 (false for NaN); max(v, 0) is 0 for NaN (maxps returns its second operand).
        const int inside = _mm_movemask_ps(_mm_and_ps(_mm_cmpge_ps(a, zero), _mm_cmple_ps(a, one))) |
                           (_mm_movemask_ps(_mm_and_ps(_mm_cmpge_ps(b, zero), _mm_cmple_ps(b, one))) << 4);
        clamped += std::size_t(8 - kBits[inside]);
        a = _mm_min_ps(_mm_max_ps(a, zero), one);
        b = _mm_min_ps(_mm_max_ps(b, zero), one);
        const __m128i q = _mm_xor_si128(_mm_packs_epi32(four(a), four(b)), flip);  // eight uint16
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2 * x), _mm_or_si128(_mm_slli_epi16(q, 8), _mm_srli_epi16(q, 8)));
    }
#endif
    for (; x < n; ++x) {
        const float v = in[x];
        const bool inside = v >= 0.0f && v <= 1.0f;
        clamped += !inside;
        const double c = inside ? double(v) : (v > 1.0f ? 1.0 : 0.0);  // NaN: 0
        const auto q = static_cast<std::uint16_t>(c * 65535.0 + 0.5);
        out[2 * x] = std::uint8_t(q >> 8);
        out[2 * x + 1] = std::uint8_t(q & 0xff);
    }
    return clamped;
}

}  // namespace detail

namespace {

// libpng's IDAT size (PNG_ZBUF_SIZE): the zlib stream is cut into chunks of this many bytes.
constexpr std::size_t kIdatBytes = 8192;

// The image data is deflated in segments of this many bytes, each a raw deflate stream of its own
// (nothing looked back at across segments) ending on a byte boundary (ISA-L's FULL_FLUSH, an
// empty stored block), so that together they are one valid zlib stream, and any segment can be
// deflated alone, on any thread, in any order (Png16Segments). 65024 bytes: under 64 KiB, where
// zlib's deflate (used before) would slide its window; kept so that a segment covers the same
// rows as before (bake's reuse of a frame's segments, docs/benchmarks.md).
constexpr std::size_t kSegmentBytes = 65024;

// A thread's ISA-L stream and buffers, kept from segment to segment: the stream's state, level 1's
// hash and token buffer and a segment's output are allocated (and their pages faulted in) once a
// thread.
struct PngScratch {
    isal_zstream z{};
    std::vector<std::uint8_t> level_buf = std::vector<std::uint8_t>(ISAL_DEF_LVL1_DEFAULT);
    std::vector<std::uint8_t> out;  // a segment's deflated bytes
};

void put32(std::uint8_t* p, std::uint32_t v) {
    p[0] = std::uint8_t(v >> 24);
    p[1] = std::uint8_t(v >> 16);
    p[2] = std::uint8_t(v >> 8);
    p[3] = std::uint8_t(v);
}

void chunk(std::string& out, const char type[4], const std::uint8_t* data, std::size_t size) {
    std::uint8_t head[8];
    put32(head, std::uint32_t(size));
    std::memcpy(head + 4, type, 4);
    std::uint32_t crc = libdeflate_crc32(0, head + 4, 4);
    if (size) crc = libdeflate_crc32(crc, data, size);  // (a null buffer would restart the CRC)
    std::uint8_t tail[4];
    put32(tail, crc);
    out.append(reinterpret_cast<const char*>(head), 8);
    out.append(reinterpret_cast<const char*>(data), size);
    out.append(reinterpret_cast<const char*>(tail), 4);
}

// The samples of n values, the AVX2 loop where avx2_default() (png_quantise.h).
std::size_t quantise(const float* in, std::size_t n, std::uint8_t* out) { return detail::quantise_png16(in, n, out, avx2_default()); }

// The zlib stream (header, raw deflate data, Adler-32 of the rows) cut into IDATs of kIdatBytes
// as it grows, as libpng cuts it.
class IdatChunks {
public:
    IdatChunks(std::string& out, std::vector<std::uint8_t>& idat) : out_(out), idat_(idat) {
        idat_.clear();
        idat_.reserve(kIdatBytes);
    }
    void emit(const std::uint8_t* p, std::size_t n) {
        while (n) {
            const std::size_t take = std::min(n, kIdatBytes - idat_.size());
            idat_.insert(idat_.end(), p, p + take);
            p += take;
            n -= take;
            if (idat_.size() == kIdatBytes) {
                chunk(out_, "IDAT", idat_.data(), idat_.size());
                idat_.clear();
            }
        }
    }
    void close() {
        if (!idat_.empty()) chunk(out_, "IDAT", idat_.data(), idat_.size());
    }

private:
    std::string& out_;
    std::vector<std::uint8_t>& idat_;
};

void signature_and_header(std::string& out, int width, int height, int channels) {
    static const std::uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    out.append(reinterpret_cast<const char*>(kSignature), 8);
    std::uint8_t ihdr[13];
    put32(ihdr, std::uint32_t(width));
    put32(ihdr + 4, std::uint32_t(height));
    ihdr[8] = 16;                        // bit depth
    ihdr[9] = channels == 3 ? 2 : 0;     // colour type: RGB or greyscale
    ihdr[10] = ihdr[11] = ihdr[12] = 0;  // deflate, adaptive filtering (method 0), no interlace
    chunk(out, "IHDR", ihdr, sizeof ihdr);
}

// The window as libpng sizes it: 32 KiB, or for rows of at most 16 KiB the smallest power of two
// holding them and 262 bytes (at least 512).
int window_bits(std::size_t data_size) {
    int bits = 15;
    if (data_size <= 16384) {
        unsigned half = 1u << (bits - 1);
        while (data_size + 262 <= half) {
            half >>= 1;
            --bits;
        }
        if (bits == 8) bits = 9;
    }
    return bits;
}

// The zlib header's two bytes: deflate, the window field as libpng's optimize_cmf lowers it, level
// flags 0 (level 1).
void zlib_header(int bits, std::size_t data_size, IdatChunks& idat) {
    unsigned cinfo = unsigned(bits - 8);
    if (data_size <= 16384) {
        unsigned half = 1u << (cinfo + 7);
        if (data_size <= half) {
            do {
                half >>= 1;
                --cinfo;
            } while (cinfo > 0 && data_size <= half);
        }
    }
    const std::uint8_t header[2] = {std::uint8_t((cinfo << 4) | 8), std::uint8_t(0x1f - ((((cinfo << 4) | 8) << 8) % 0x1f))};
    idat.emit(header, 2);
}

// `bytes` of filtered rows at `raw` as one segment, its own raw deflate stream in one call
// (ISA-L's stateless deflate, level 1, its Huffman codes made per block from the segment's own
// symbols): ended on a byte boundary (FULL_FLUSH's empty stored block), where the next segment's
// blocks start, or, the image's last, final. Lookback is limited to the window of the zlib
// header (`bits`).
void deflate_segment(PngScratch& s, int bits, const std::uint8_t* raw, std::size_t bytes, bool last, std::string& out) {
    // Room for the worst case, data that does not compress: ISA-L then writes stored blocks (5
    // bytes a block of up to 65535) and the flush's empty one; the rest is slack.
    s.out.resize(bytes + bytes / 16 + 1024);
    isal_deflate_stateless_init(&s.z);
    s.z.level = 1;
    s.z.level_buf = s.level_buf.data();
    s.z.level_buf_size = std::uint32_t(s.level_buf.size());
    s.z.hist_bits = std::uint16_t(bits);
    s.z.flush = FULL_FLUSH;
    s.z.end_of_stream = last ? 1 : 0;
    s.z.next_in = const_cast<std::uint8_t*>(raw);
    s.z.avail_in = std::uint32_t(bytes);
    s.z.next_out = s.out.data();
    s.z.avail_out = std::uint32_t(s.out.size());
    if (isal_deflate_stateless(&s.z) != COMP_OK || s.z.avail_in) throw Error(kExitInternal, "ISA-L: deflate failed");
    out.append(reinterpret_cast<const char*>(s.out.data()), s.out.size() - s.z.avail_out);
}

}  // namespace

Png16Segments::Png16Segments(int width, int height, int channels)
    : width_(width), height_(height), channels_(channels), row_bytes_(1 + 2 * std::size_t(width) * std::size_t(channels)),
      data_size_(row_bytes_ * std::size_t(height)), count_((data_size_ + kSegmentBytes - 1) / kSegmentBytes) {
    if (channels != 1 && channels != 3) throw Error(kExitInternal, "write_png16: " + std::to_string(channels) + " channels");
}

std::pair<std::size_t, std::size_t> Png16Segments::rows(std::size_t s) const {
    const std::size_t begin = s * kSegmentBytes, end = std::min(data_size_, begin + kSegmentBytes);
    return {begin / row_bytes_, (end - 1) / row_bytes_ + 1};
}

std::size_t Png16Segments::filter(std::size_t s, const float* values, std::vector<std::uint8_t>& raw) const {
    thread_local std::vector<std::uint8_t> split;  // a row the segment starts inside of
    const auto [first, end] = rows(s);
    const std::size_t samples = row_bytes_ / 2, begin = s * kSegmentBytes, bytes = std::min(data_size_, begin + kSegmentBytes) - begin;
    // The segment's rows filtered (a filter byte, 0: None, then the samples), quantised eight
    // samples at a time, each at its place in the segment's bytes (a row the segment starts
    // inside of made aside, its tail copied; the last row whole, then cut); a row counts its
    // clamped values in the segment holding its filter byte.
    raw.resize(bytes + row_bytes_);
    std::size_t clamped = 0, at = 0;
    for (std::size_t r = first; r < end; ++r) {
        const bool inside = r * row_bytes_ < begin;
        if (inside) split.resize(row_bytes_);
        std::uint8_t* row = inside ? split.data() : raw.data() + at;
        row[0] = 0;
        const std::size_t c = quantise(values + (r - first) * samples, samples, row + 1);
        if (inside) {
            const std::size_t skip = begin - r * row_bytes_;
            std::memcpy(raw.data(), split.data() + skip, row_bytes_ - skip);
            at = row_bytes_ - skip;
            continue;
        }
        clamped += c;
        at += row_bytes_;
    }
    raw.resize(bytes);
    return clamped;
}

void Png16Segments::deflate_raw(std::size_t s, const std::vector<std::uint8_t>& raw, Part& part) const {
    thread_local PngScratch scratch;
    part.adler = libdeflate_adler32(1, raw.data(), raw.size());
    part.bytes.clear();
    deflate_segment(scratch, window_bits(data_size_), raw.data(), raw.size(), s + 1 == count_, part.bytes);
}

void Png16Segments::deflate(std::size_t s, const float* values, Part& part) const {
    thread_local std::vector<std::uint8_t> raw;
    part.clamped = filter(s, values, raw);
    deflate_raw(s, raw, part);
}

std::size_t Png16Segments::join(const std::vector<Part>& parts, std::string& out) const {
    thread_local std::vector<std::uint8_t> pending;  // the stream's bytes not yet in an IDAT
    if (parts.size() != count_) throw Error(kExitInternal, "write_png16: " + std::to_string(parts.size()) + " of " + std::to_string(count_) + " segments");
    signature_and_header(out, width_, height_, channels_);
    IdatChunks idat(out, pending);
    zlib_header(window_bits(data_size_), data_size_, idat);
    std::uint32_t adler = 1;
    std::size_t clamped = 0;
    for (std::size_t s = 0; s < count_; ++s) {
        idat.emit(reinterpret_cast<const std::uint8_t*>(parts[s].bytes.data()), parts[s].bytes.size());
        const std::size_t bytes = std::min(data_size_, (s + 1) * kSegmentBytes) - s * kSegmentBytes;
        adler = std::uint32_t(adler32_combine(adler, parts[s].adler, z_off_t(bytes)));
        clamped += parts[s].clamped;
    }
    std::uint8_t trailer[4];
    put32(trailer, adler);
    idat.emit(trailer, 4);
    idat.close();
    chunk(out, "IEND", nullptr, 0);
    return clamped;
}

std::size_t write_png16(std::string& out, const float* values, int width, int height, int channels) {
    const Png16Segments png(width, height, channels);
    thread_local std::vector<Png16Segments::Part> parts;
    parts.resize(png.count());
    const std::size_t samples = std::size_t(width) * std::size_t(channels);
    for (std::size_t s = 0; s < png.count(); ++s) png.deflate(s, values + png.rows(s).first * samples, parts[s]);
    return png.join(parts, out);
}

std::size_t write_png16(OutputFile& out, const float* values, int width, int height, int channels) {
    std::string bytes;
    const std::size_t clamped = write_png16(bytes, values, width, height, channels);
    out.write(bytes);
    return clamped;
}

}  // namespace rigscope
