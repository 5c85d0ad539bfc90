// Numeric crate values (crate_numbers.h). A mesh's arrays are the bulk of a file, so each is
// written once, into the Numbers that keeps it in its stored type (sized on huge pages, not
// zero-filled first): a memcpy where the disk type is the stored type, compressed ones decoded
// straight into it; quaternions turn from the crate's imaginary-first order to the model's real-first.
#include "io/usd/crate_numbers.h"

#include <algorithm>
#include <type_traits>


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
void quaternions_to_wxyz(T* n, std::size_t count) {
    for (std::size_t e = 0; e + 4 <= count; e += 4) std::rotate(n + e, n + e + 3, n + e + 4);
}
template <class T>
void quaternions_to_wxyz(std::vector<T>& n) { quaternions_to_wxyz(n.data(), n.size()); }

// `count` numbers of `s` from raw bytes in their stored type (quaternions turned to the
// model's real-first order), written once into the Numbers that keeps them: a memcpy where the
// disk type is the stored type.
template <class T>
Numbers typed_from(CrateBytes& c, const char* p, std::uint64_t count, const Shape& s, bool quaternions) {
    T* out;
    Numbers numbers = c.numbers<T>(count, out);
    if (count == 0) return numbers;  // memcpy of nothing is still undefined on a null data()
    if (s.bytes == int(sizeof(T)) && s.kind != 'h' && (s.kind == 'f' || s.kind == 'd') == std::is_floating_point<T>::value)
        std::memcpy(out, p, count * sizeof(T));  // little-endian on disk, as here
    else
        for (std::uint64_t i = 0; i < count; ++i, p += s.bytes) out[i] = T(number_from(p, s));
    if (quaternions) quaternions_to_wxyz(out, count);
    return numbers;
}

// The integers of a coding handed to `put(first, integers, count)` a block at a time, through
// a buffer that stays in the L1 cache: an array kept in another type (floats from integers,
// a lookup table's values) is written once, with no array of the integers beside it.
template <class Int, class Put>
void in_blocks(IntCoding<Int>& coding, Put&& put) {
    constexpr std::size_t kBlock = 1024;
    Int block[kBlock];
    for (std::uint64_t first = 0; first < coding.size(); first += kBlock) {
        const std::size_t count = std::size_t(std::min<std::uint64_t>(kBlock, coding.size() - first));
        coding.next(block, count);
        put(first, block, count);
    }
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
// a lookup table of the distinct values (code 't'), decoded into the array that keeps them.
template <class T>
Numbers compressed_floats(CrateBytes& c, Cursor& at, std::uint64_t count, const Shape& s) {
    const char code = at.read<char>("a compressed array's code");
    T* out = nullptr;
    Numbers numbers;
    if (code == 'i') {
        auto coding = c.int_coding<std::int32_t>(at, count, "a compressed float array");
        numbers = c.numbers<T>(coding.size(), out);
        in_blocks(coding, [out](std::uint64_t first, const std::int32_t* v, std::size_t n) {
            for (std::size_t k = 0; k < n; ++k) out[first + k] = T(v[k]);
        });
    } else if (code == 't') {
        const std::uint32_t table = at.read<std::uint32_t>("a lookup table's size");
        const char* p = at.bytes(std::uint64_t(table) * std::uint64_t(s.bytes), "a lookup table");
        std::vector<double> lut;
        numbers_from(p, table, s, lut);
        auto coding = c.int_coding<std::uint32_t>(at, count, "a lookup table's indexes");
        numbers = c.numbers<T>(coding.size(), out);
        const std::vector<T> values(lut.begin(), lut.end());  // the table in the array's type, converted once
        in_blocks(coding, [&](std::uint64_t first, const std::uint32_t* idx, std::size_t n) {
            // Every index checked in one pass the compiler vectorises; the first past the table
            // is then searched for, for the message.
            std::uint32_t past = 0;
            for (std::size_t k = 0; k < n; ++k) past |= std::uint32_t(idx[k] >= table);
            if (past)
                for (std::size_t k = 0; k < n; ++k)
                    if (idx[k] >= table) c.fail("a compressed array indexes entry " + std::to_string(idx[k]) + " of its " + std::to_string(table) + "-entry table");
            for (std::size_t k = 0; k < n; ++k) out[first + k] = values[idx[k]];
        });
    } else {
        c.fail(std::string("a compressed array has the unknown code '") + code + "'");
    }
    return numbers;
}

// A compressed integer array: 32-bit ones as they are, decoded into the array that keeps them;
// 64-bit ones as doubles.
Numbers compressed_integers(CrateBytes& c, Cursor& at, std::uint64_t count, const Shape& s) {
    const char* what = "a compressed integer array";
    if (s.bytes == 4 && s.kind == 'i') {
        auto coding = c.int_coding<std::int32_t>(at, count, what);
        std::int32_t* out;
        Numbers numbers = c.numbers<std::int32_t>(coding.size(), out);
        coding.next(out, coding.size());
        return numbers;
    }
    if (s.bytes == 4) {
        auto coding = c.int_coding<std::uint32_t>(at, count, what);
        std::uint32_t* out;
        Numbers numbers = c.numbers<std::uint32_t>(coding.size(), out);
        coding.next(out, coding.size());
        return numbers;
    }
    auto coding = c.int_coding<std::int64_t>(at, count, what);
    double* out;
    Numbers numbers = c.numbers<double>(coding.size(), out);
    const bool is_unsigned = s.kind == 'u';
    in_blocks(coding, [out, is_unsigned](std::uint64_t first, const std::int64_t* v, std::size_t n) {
        for (std::size_t k = 0; k < n; ++k) out[first + k] = is_unsigned ? double(std::uint64_t(v[k])) : double(v[k]);
    });
    return numbers;
}

}  // namespace

Numbers stored_from(CrateBytes& c, const char* p, std::uint64_t count, const Shape& s, bool quaternions) {
    switch (stored_type(s)) {
        case Numbers::Type::Float: return typed_from<float>(c, p, count, s, quaternions);
        case Numbers::Type::Int32: return typed_from<std::int32_t>(c, p, count, s, quaternions);
        case Numbers::Type::UInt32: return typed_from<std::uint32_t>(c, p, count, s, quaternions);
        default: return typed_from<double>(c, p, count, s, quaternions);
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
    out.numbers = stored_from(c, p, numbers, s, is_quaternion(r.type()));
    return out;
}

}  // namespace rigscope::usd::crate
