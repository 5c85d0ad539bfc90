// Numeric crate values (crate_numbers.h). A mesh's arrays are the bulk of a file, so they are
// copied once into their stored type, sized on huge pages, and a memcpy where the disk type is
// the stored type; quaternions turn from the crate's imaginary-first order to the model's real-first.
#include "io/usd/crate_numbers.h"

#include <algorithm>
#include <type_traits>

#include "rigscope/core/huge_pages.h"

namespace rigscope::usd::crate {

namespace {

// One number of `s` from raw bytes, as a double (every kind converts exactly but 64-bit ints).
double number_from(const char* p, const Shape& s) {
    switch (s.kind) {
        case 'd': { double x; std::memcpy(&x, p, 8); return x; }
        case 'f': { float x; std::memcpy(&x, p, 4); return x; }
        case 'h': { std::uint16_t x; std::memcpy(&x, p, 2); return half_to_double(x); }
        case 'i':
            if (s.bytes == 4) { std::int32_t x; std::memcpy(&x, p, 4); return x; }
            else { std::int64_t x; std::memcpy(&x, p, 8); return double(x); }
        default:
            if (s.bytes == 1) return static_cast<unsigned char>(*p);
            if (s.bytes == 4) { std::uint32_t x; std::memcpy(&x, p, 4); return x; }
            std::uint64_t x;
            std::memcpy(&x, p, 8);
            return double(x);
    }
}

// `count` numbers of `s` from raw bytes into doubles (scalars, tuples, lookup tables).
void numbers_from(const char* p, std::uint64_t count, const Shape& s, std::vector<double>& out) {
    out.reserve(out.size() + count);
    for (std::uint64_t i = 0; i < count; ++i, p += s.bytes) out.push_back(number_from(p, s));
}

// The type the layer model keeps a numeric array of `s` in: floats and halves as floats,
// 32-bit ints as they are, the rest (doubles, bytes, 64-bit ints) as doubles.
Numbers::Type stored_type(const Shape& s) {
    if (s.kind == 'f' || s.kind == 'h') return Numbers::Type::Float;
    if (s.bytes == 4 && s.kind == 'i') return Numbers::Type::Int32;
    if (s.bytes == 4 && s.kind == 'u') return Numbers::Type::UInt32;
    return Numbers::Type::Double;
}
std::uint64_t stored_bytes(const Shape& s) { return stored_type(s) == Numbers::Type::Double ? 8 : 4; }

// Quaternions are stored imaginary first (i, j, k, real); the layer model holds (real, i, j, k).
template <class T>
void quaternions_to_wxyz(std::vector<T>& n) {
    for (std::size_t e = 0; e + 4 <= n.size(); e += 4) std::rotate(n.begin() + long(e), n.begin() + long(e) + 3, n.begin() + long(e) + 4);
}

// `count` numbers of `s` from raw bytes in their stored type (quaternions turned to the
// model's real-first order), sized once on huge pages: a mesh's arrays fault far less.
template <class T>
Numbers typed_from(const char* p, std::uint64_t count, const Shape& s, bool quaternions) {
    std::vector<T> out;
    detail::reserve_huge(out, count);
    out.resize(count);
    if (count == 0) return Numbers(std::move(out));  // memcpy of nothing is still undefined on a null data()
    if (s.bytes == int(sizeof(T)) && s.kind != 'h' && (s.kind == 'f' || s.kind == 'd') == std::is_floating_point<T>::value)
        std::memcpy(out.data(), p, count * sizeof(T));  // little-endian on disk, as here
    else
        for (std::uint64_t i = 0; i < count; ++i, p += s.bytes) out[i] = T(number_from(p, s));
    if (quaternions) quaternions_to_wxyz(out);
    return Numbers(std::move(out));
}

// An inlined scalar's numbers: a matrix's diagonal and a tuple's elements as int8s, a float or
// double as a float's bits, a half, an int, or an unsigned.
std::vector<double> inlined_numbers(const Rep& r, const Shape& s) {
    std::vector<double> n;
    const std::uint32_t x = std::uint32_t(r.payload());
    const int t = r.type();
    if (is_matrix(t)) {
        const int dim = t == tMatrix2d ? 2 : t == tMatrix3d ? 3 : 4;
        n.assign(std::size_t(dim * dim), 0.0);
        for (int i = 0; i < dim; ++i) n[std::size_t(i * dim + i)] = double(std::int8_t((x >> (8 * i)) & 0xff));
    } else if (s.width > 1) {
        for (int i = 0; i < s.width; ++i) n.push_back(double(std::int8_t((x >> (8 * i)) & 0xff)));
    } else if (s.kind == 'd' || s.kind == 'f') {
        float f;
        std::memcpy(&f, &x, 4);
        n.push_back(f);
    } else if (s.kind == 'h') {
        n.push_back(half_to_double(std::uint16_t(x)));
    } else if (s.kind == 'i') {
        n.push_back(double(std::int32_t(x)));
    } else {
        n.push_back(s.bytes == 1 ? double(x & 0xff) : double(x));
    }
    return n;
}

// A compressed float array: integers (code 'i', every value a whole number) or indexes into
// a lookup table of the distinct values (code 't').
template <class T>
Numbers compressed_floats(CrateBytes& c, Cursor& at, std::uint64_t count, const Shape& s) {
    const char code = at.read<char>("a compressed array's code");
    std::vector<T> out;
    if (code == 'i') {
        auto v32 = c.compressed_ints<std::int32_t>(at, count, "a compressed float array");
        detail::reserve_huge(out, v32.size());
        for (auto x : v32) out.push_back(T(x));
    } else if (code == 't') {
        const std::uint32_t table = at.read<std::uint32_t>("a lookup table's size");
        const char* p = at.bytes(std::uint64_t(table) * std::uint64_t(s.bytes), "a lookup table");
        std::vector<double> lut;
        numbers_from(p, table, s, lut);
        auto idx = c.compressed_ints<std::uint32_t>(at, count, "a lookup table's indexes");
        detail::reserve_huge(out, idx.size());
        for (auto i : idx) {
            if (i >= lut.size()) c.fail("a compressed array indexes entry " + std::to_string(i) + " of its " + std::to_string(lut.size()) + "-entry table");
            out.push_back(T(lut[i]));
        }
    } else {
        c.fail(std::string("a compressed array has the unknown code '") + code + "'");
    }
    return Numbers(std::move(out));
}

// A compressed integer array: 32-bit ones as they are, 64-bit ones as doubles.
Numbers compressed_integers(CrateBytes& c, Cursor& at, std::uint64_t count, const Shape& s) {
    if (s.bytes == 4 && s.kind == 'i') return Numbers(c.compressed_ints<std::int32_t>(at, count, "a compressed integer array"));
    if (s.bytes == 4) return Numbers(c.compressed_ints<std::uint32_t>(at, count, "a compressed integer array"));
    auto v64 = c.compressed_ints<std::int64_t>(at, count, "a compressed integer array");
    std::vector<double> d(v64.size());
    for (std::size_t i = 0; i < v64.size(); ++i) d[i] = s.kind == 'u' ? double(std::uint64_t(v64[i])) : double(v64[i]);
    return Numbers(std::move(d));
}

}  // namespace

Numbers stored_from(const char* p, std::uint64_t count, const Shape& s, bool quaternions) {
    switch (stored_type(s)) {
        case Numbers::Type::Float: return typed_from<float>(p, count, s, quaternions);
        case Numbers::Type::Int32: return typed_from<std::int32_t>(p, count, s, quaternions);
        case Numbers::Type::UInt32: return typed_from<std::uint32_t>(p, count, s, quaternions);
        default: return typed_from<double>(p, count, s, quaternions);
    }
}

Value numeric_scalar(CrateBytes& c, const Rep& r, const Shape& s) {
    Value out;
    std::vector<double> n;
    if (r.inlined()) {
        n = inlined_numbers(r, s);
    } else {
        Cursor at = c.at(r.payload());
        const char* p = at.bytes(std::uint64_t(s.width) * std::uint64_t(s.bytes), "a value");
        numbers_from(p, std::uint64_t(s.width), s, n);
        if (is_quaternion(r.type())) quaternions_to_wxyz(n);
    }
    if (n.size() == 1) {
        out.kind = Value::Kind::Number;
        out.number = n[0];
    } else {
        out.kind = Value::Kind::Tuple;
        out.width = int(n.size());
        out.numbers = Numbers(std::move(n));
    }
    return out;
}

Value numeric_array(CrateBytes& c, const Rep& r, const Shape& s) {
    Value out;
    out.kind = Value::Kind::NumberArray;
    out.width = s.width;
    if (r.payload() == 0) return out;  // an empty array
    Cursor at = c.at(r.payload());
    if (c.version() < version_code(0, 5, 0)) at.read<std::uint32_t>("an array's rank");  // 0.4.x stores a rank of 1 first
    const std::uint64_t count = c.version() < version_code(0, 7, 0) ? at.read<std::uint32_t>("an array size") : at.read<std::uint64_t>("an array size");
    const std::uint64_t numbers = count * std::uint64_t(s.width);
    if (count > c.b.size() * kMaxLz4Ratio * 8) c.fail("an array claims " + std::to_string(count) + " elements");
    c.charge(numbers * stored_bytes(s), "the arrays");
    const bool ints = s.width == 1 && (s.kind == 'i' || s.kind == 'u') && s.bytes >= 4;
    const bool floats = s.width == 1 && (s.kind == 'f' || s.kind == 'd' || s.kind == 'h');
    if (r.compressed() && ints && count >= 16) {
        out.numbers = compressed_integers(c, at, count, s);
        return out;
    }
    if (r.compressed() && floats && count >= 16) {
        out.numbers = s.kind == 'd' ? compressed_floats<double>(c, at, count, s) : compressed_floats<float>(c, at, count, s);
        return out;
    }
    const char* p = at.bytes(numbers * std::uint64_t(s.bytes), "an array");
    out.numbers = stored_from(p, numbers, s, is_quaternion(r.type()));
    return out;
}

}  // namespace rigscope::usd::crate
