// The crate reader's shared pieces (crate_format.h): type names and shapes, the bounded cursor,
// and the failure and charging rules every step applies to the layer's bytes.
#include "io/usd/crate_format.h"

#include <algorithm>
#include <cmath>

#include "rigscope/core/error.h"
#include "rigscope/core/huge_pages.h"

namespace rigscope::usd::crate {

const char* type_name(int t) {
    static const char* names[] = {"Invalid", "Bool", "UChar", "Int", "UInt", "Int64", "UInt64", "Half", "Float", "Double",
                                  "String", "Token", "AssetPath", "Matrix2d", "Matrix3d", "Matrix4d", "Quatd", "Quatf",
                                  "Quath", "Vec2d", "Vec2f", "Vec2h", "Vec2i", "Vec3d", "Vec3f", "Vec3h", "Vec3i", "Vec4d",
                                  "Vec4f", "Vec4h", "Vec4i", "Dictionary", "TokenListOp", "StringListOp", "PathListOp",
                                  "ReferenceListOp", "IntListOp", "Int64ListOp", "UIntListOp", "UInt64ListOp",
                                  "PathVector", "TokenVector", "Specifier", "Permission", "Variability",
                                  "VariantSelectionMap", "TimeSamples", "Payload", "DoubleVector", "LayerOffsetVector",
                                  "StringVector", "ValueBlock", "Value", "UnregisteredValue", "UnregisteredValueListOp",
                                  "PayloadListOp", "TimeCode", "PathExpression", "Relocates", "Spline", "AnimationBlock"};
    return t >= 0 && t < tLast ? names[t] : "unknown";
}

Shape shape_of(int t) {
    switch (t) {
        case tBool: case tUChar: return {1, 1, 'u'};
        case tInt: return {1, 4, 'i'};
        case tUInt: return {1, 4, 'u'};
        case tInt64: return {1, 8, 'i'};
        case tUInt64: return {1, 8, 'u'};
        case tHalf: return {1, 2, 'h'};
        case tFloat: return {1, 4, 'f'};
        case tDouble: case tTimeCode: return {1, 8, 'd'};
        case tMatrix2d: return {4, 8, 'd'};
        case tMatrix3d: return {9, 8, 'd'};
        case tMatrix4d: return {16, 8, 'd'};
        case tQuatd: return {4, 8, 'd'};
        case tQuatf: return {4, 4, 'f'};
        case tQuath: return {4, 2, 'h'};
        case tVec2d: return {2, 8, 'd'};
        case tVec2f: return {2, 4, 'f'};
        case tVec2h: return {2, 2, 'h'};
        case tVec2i: return {2, 4, 'i'};
        case tVec3d: return {3, 8, 'd'};
        case tVec3f: return {3, 4, 'f'};
        case tVec3h: return {3, 2, 'h'};
        case tVec3i: return {3, 4, 'i'};
        case tVec4d: return {4, 8, 'd'};
        case tVec4f: return {4, 4, 'f'};
        case tVec4h: return {4, 2, 'h'};
        case tVec4i: return {4, 4, 'i'};
        default: return {};
    }
}

double half_to_double(std::uint16_t h) {
    const int sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
    double v;
    if (exponent == 0) v = std::ldexp(mantissa, -24);
    else if (exponent == 31) v = mantissa ? std::nan("") : INFINITY;
    else v = std::ldexp(mantissa + 1024, exponent - 25);
    return sign ? -v : v;
}

void Cursor::need(std::uint64_t n, const char* what) const {
    if (pos > c->b.size() || n > c->b.size() - pos)
        c->fail(std::string(what) + " at byte " + std::to_string(pos) + " runs past the end of the file (" +
                std::to_string(c->b.size()) + " bytes)");
}

const char* Cursor::bytes(std::uint64_t n, const char* what) {
    need(n, what);
    const char* p = c->b.data() + pos;
    pos += n;
    return p;
}

void Cursor::jump(const char* what) {
    const std::uint64_t start = pos;
    const std::int64_t offset = read<std::int64_t>(what);
    if (offset < 8 || std::uint64_t(offset) > c->b.size() - start)
        c->fail(std::string(what) + " at byte " + std::to_string(start) + " jumps to " +
                std::to_string(std::int64_t(start) + offset) + ", outside the file");
    pos = start + std::uint64_t(offset);
}

void CrateBytes::fail(const std::string& what) const { throw bad_input(path, "usdc: " + what); }

void CrateBytes::charge(double bytes, const char* what) {
    const std::string problem = budget.try_charge(bytes, what);
    if (!problem.empty()) fail(problem);
}

std::uint64_t CrateBytes::count_in(Cursor& c, std::uint64_t element_bytes, const char* what) {
    const std::uint64_t n = c.read<std::uint64_t>(what);
    if (element_bytes && n > (b.size() - c.pos) / element_bytes)
        fail(std::string(what) + " claims " + std::to_string(n) + " entries, more than the file's " + std::to_string(b.size()) + " bytes hold");
    return n;
}

template <class T>
Numbers CrateBytes::numbers(std::size_t n, T*& data) {
    constexpr std::size_t kShared = std::size_t(64) << 10, kBlock = std::size_t(16) << 20, kAlign = 64;
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kShared) return Numbers::unwritten<T>(n, data);
    const std::size_t at = (block_used_ + kAlign - 1) / kAlign * kAlign;
    if (!block_ || at > block_size_ || bytes > block_size_ - at) {
        const std::size_t size = std::max(kBlock, bytes);
        block_.reset(new char[size]);
        detail::advise_huge(block_.get(), size);
        block_size_ = size;
        block_used_ = 0;
        return numbers(n, data);
    }
    data = reinterpret_cast<T*>(block_.get() + at);  // the block's bytes hold no other objects
    block_used_ = at + bytes;
    return Numbers::within<T>(block_, data, n);
}

template Numbers CrateBytes::numbers<double>(std::size_t, double*&);
template Numbers CrateBytes::numbers<float>(std::size_t, float*&);
template Numbers CrateBytes::numbers<std::int32_t>(std::size_t, std::int32_t*&);
template Numbers CrateBytes::numbers<std::uint32_t>(std::size_t, std::uint32_t*&);

}  // namespace rigscope::usd::crate
