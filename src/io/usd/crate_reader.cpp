#include "io/load_budget.h"
#include "io/usd/crate_reader.h"

#include <lz4.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include "rigscope/core/error.h"
#include "rigscope/core/huge_pages.h"

namespace rigscope::usd {

namespace {

// LZ4 expands at most 255:1; the integer coding needs at least 2 bits per integer. Counts that
// claim more than that from the compressed bytes there are are refused before anything is
// allocated (an LZ4 bomb).
constexpr std::uint64_t kMaxLz4Ratio = 255;
constexpr int kMaxValueDepth = 32;

// Type enumerants of crate value reps (the crate's own numbering).
enum Type : int {
    tBool = 1, tUChar, tInt, tUInt, tInt64, tUInt64, tHalf, tFloat, tDouble, tString, tToken, tAssetPath,
    tMatrix2d, tMatrix3d, tMatrix4d, tQuatd, tQuatf, tQuath, tVec2d, tVec2f, tVec2h, tVec2i, tVec3d, tVec3f, tVec3h,
    tVec3i, tVec4d, tVec4f, tVec4h, tVec4i, tDictionary, tTokenListOp, tStringListOp, tPathListOp, tReferenceListOp,
    tIntListOp, tInt64ListOp, tUIntListOp, tUInt64ListOp, tPathVector, tTokenVector, tSpecifier, tPermission,
    tVariability, tVariantSelectionMap, tTimeSamples, tPayload, tDoubleVector, tLayerOffsetVector, tStringVector,
    tValueBlock, tValue, tUnregisteredValue, tUnregisteredValueListOp, tPayloadListOp, tTimeCode, tPathExpression,
    tRelocates, tSpline, tAnimationBlock, tLast
};

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

struct Rep {
    std::uint64_t bits = 0;
    bool array() const { return bits >> 63; }
    bool inlined() const { return (bits >> 62) & 1; }
    bool compressed() const { return (bits >> 61) & 1; }
    int type() const { return int((bits >> 48) & 0xff); }
    std::uint64_t payload() const { return bits & ((1ull << 48) - 1); }
};

// Scalar element shape of a numeric type: numbers per element and bytes per number on disk.
struct Shape {
    int width = 0;  // 0: not numeric
    int bytes = 0;
    char kind = 0;  // 'i' signed, 'u' unsigned, 'f' float, 'd' double, 'h' half
};

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

bool is_quaternion(int t) { return t == tQuatd || t == tQuatf || t == tQuath; }
bool is_matrix(int t) { return t == tMatrix2d || t == tMatrix3d || t == tMatrix4d; }

double half_to_double(std::uint16_t h) {
    const int sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
    double v;
    if (exponent == 0) v = std::ldexp(mantissa, -24);
    else if (exponent == 31) v = mantissa ? std::nan("") : INFINITY;
    else v = std::ldexp(mantissa + 1024, exponent - 25);
    return sign ? -v : v;
}

class Crate {
public:
    Crate(const std::string& path, const std::string& bytes, std::uint64_t max_memory)
        : path_(path), b_(bytes), budget_(path, max_memory) {}

    Layer parse() {
        charge(b_.size(), "the layer");
        header();
        sections();
        Layer layer;
        layer.path = path_;
        layer.format = "usdc " + version_name(major_, minor_, patch_);
        build(layer);
        layer.held = budget_.held();
        return layer;
    }

private:
    const std::string& path_;
    const std::string& b_;
    LoadBudget budget_;  // the layer's bytes, then every table and value decoded from them
    int major_ = 0, minor_ = 0, patch_ = 0;

    struct Section {
        std::uint64_t start = 0, size = 0;
        bool present = false;
    };
    std::map<std::string, Section> sections_;
    std::vector<std::string> tokens_;
    std::vector<std::uint32_t> strings_;  // token index per string
    std::vector<std::pair<std::uint32_t, Rep>> fields_;
    std::vector<std::uint32_t> field_sets_;
    std::vector<std::string> paths_;
    std::vector<bool> path_is_property_;
    struct Spec {
        std::uint32_t path, field_set, type;
    };
    std::vector<Spec> specs_;
    std::unique_ptr<char[]> scratch_;  // scratch(): the integer coding's bytes
    std::size_t scratch_size_ = 0;
    std::set<std::uint64_t> unpacking_;  // value reps being unpacked: a rep inside itself is a loop
    int depth_ = 0;

    static std::string version_name(int a, int b, int c) {
        return std::to_string(a) + "." + std::to_string(b) + "." + std::to_string(c);
    }
    std::uint32_t version() const { return std::uint32_t(major_) << 16 | std::uint32_t(minor_) << 8 | std::uint32_t(patch_); }
    static constexpr std::uint32_t v(int a, int b, int c) { return std::uint32_t(a) << 16 | std::uint32_t(b) << 8 | std::uint32_t(c); }

    [[noreturn]] void fail(const std::string& what) const { throw bad_input(path_, "usdc: " + what); }

    void charge(double bytes, const char* what) {
        const std::string problem = budget_.try_charge(bytes, what);
        if (!problem.empty()) fail(problem);
    }

    // A bounded cursor over the file.
    struct Cursor {
        const Crate* c;
        std::uint64_t pos;
        void need(std::uint64_t n, const char* what) const {
            if (pos > c->b_.size() || n > c->b_.size() - pos)
                c->fail(std::string(what) + " at byte " + std::to_string(pos) + " runs past the end of the file (" +
                        std::to_string(c->b_.size()) + " bytes)");
        }
        template <class T>
        T read(const char* what) {
            need(sizeof(T), what);
            T out;
            std::memcpy(&out, c->b_.data() + pos, sizeof(T));
            pos += sizeof(T);
            return out;
        }
        const char* bytes(std::uint64_t n, const char* what) {
            need(n, what);
            const char* p = c->b_.data() + pos;
            pos += n;
            return p;
        }
        // A relative jump as the crate writes them: an int64 offset from where it is stored.
        void jump(const char* what) {
            const std::uint64_t start = pos;
            const std::int64_t offset = read<std::int64_t>(what);
            if (offset < 8 || std::uint64_t(offset) > c->b_.size() - start)
                c->fail(std::string(what) + " at byte " + std::to_string(start) + " jumps to " +
                        std::to_string(std::int64_t(start) + offset) + ", outside the file");
            pos = start + std::uint64_t(offset);
        }
    };
    Cursor at(std::uint64_t pos) const { return Cursor{this, pos}; }

    // ---- bootstrap and sections ----

    void header() {
        if (b_.size() < 88) fail("the file is too small for a crate header");
        major_ = static_cast<unsigned char>(b_[8]);
        minor_ = static_cast<unsigned char>(b_[9]);
        patch_ = static_cast<unsigned char>(b_[10]);
        const std::string name = version_name(major_, minor_, patch_);
        if (version() > v(0, 14, 0)) fail("crate version " + name + " is newer than rigscope reads (0.4.0 to 0.14.0)");
        if (version() < v(0, 4, 0)) fail("crate version " + name + " is older than rigscope reads (0.4.0 to 0.14.0)");
    }

    void sections() {
        Cursor c = at(16);
        const std::uint64_t toc = c.read<std::uint64_t>("the table of contents' offset");
        Cursor t = at(toc);
        const std::uint64_t count = t.read<std::uint64_t>("the table of contents");
        if (count > (b_.size() - t.pos) / 32) fail("the table of contents claims " + std::to_string(count) + " sections, more than the file holds");
        for (std::uint64_t i = 0; i < count; ++i) {
            const char* name = t.bytes(16, "a section name");
            Section s;
            s.start = t.read<std::uint64_t>("a section's start");
            s.size = t.read<std::uint64_t>("a section's size");
            s.present = true;
            const std::string n(name, strnlen(name, 16));
            if (s.start > b_.size() || s.size > b_.size() - s.start)
                fail("section " + n + " (" + std::to_string(s.size) + " bytes at " + std::to_string(s.start) + ") lies outside the file");
            sections_[n] = s;
        }
        for (const char* n : {"TOKENS", "STRINGS", "FIELDS", "FIELDSETS", "PATHS", "SPECS"})
            if (!sections_.count(n)) fail(std::string("the ") + n + " section is missing");
        read_tokens();
        read_strings();
        read_fields();
        read_field_sets();
        read_paths();
        read_specs();
    }

    std::uint64_t count_in(Cursor& c, std::uint64_t element_bytes, const char* what) {
        const std::uint64_t n = c.read<std::uint64_t>(what);
        if (element_bytes && n > (b_.size() - c.pos) / element_bytes)
            fail(std::string(what) + " claims " + std::to_string(n) + " entries, more than the file's " + std::to_string(b_.size()) + " bytes hold");
        return n;
    }

    void read_tokens() {
        Cursor c = at(sections_["TOKENS"].start);
        const std::uint64_t count = c.read<std::uint64_t>("the token count");
        const std::uint64_t size = c.read<std::uint64_t>("the tokens' size");
        const std::uint64_t packed = c.read<std::uint64_t>("the tokens' compressed size");
        const char* in = c.bytes(packed, "the tokens");
        if (size > packed * kMaxLz4Ratio + 64) fail("the tokens claim " + std::to_string(size) + " bytes from " + std::to_string(packed) + " compressed (an LZ4 bomb)");
        if (count > size) fail("the token count " + std::to_string(count) + " exceeds the tokens' " + std::to_string(size) + " bytes");
        charge(size + count * sizeof(std::string), "the tokens");
        std::string chars(size, '\0');
        decompress_blocks(path_, in, packed, &chars[0], size, "the tokens");
        std::size_t p = 0;
        tokens_.reserve(count);
        for (std::uint64_t i = 0; i < count; ++i) {
            const std::size_t end = chars.find('\0', p);
            if (end == std::string::npos) fail("the tokens section holds fewer than its " + std::to_string(count) + " tokens");
            tokens_.push_back(chars.substr(p, end - p));
            p = end + 1;
        }
    }

    const std::string& token(std::uint64_t i) const {
        if (i >= tokens_.size()) fail("a token index " + std::to_string(i) + " is past the " + std::to_string(tokens_.size()) + " tokens");
        return tokens_[i];
    }
    const std::string& string_at(std::uint64_t i) const {
        if (i >= strings_.size()) fail("a string index " + std::to_string(i) + " is past the " + std::to_string(strings_.size()) + " strings");
        return token(strings_[i]);
    }
    const std::string& path_at(std::uint64_t i) const {
        if (i >= paths_.size()) fail("a path index " + std::to_string(i) + " is past the " + std::to_string(paths_.size()) + " paths");
        return paths_[i];
    }

    void read_strings() {
        Cursor c = at(sections_["STRINGS"].start);
        const std::uint64_t n = count_in(c, 4, "the strings section");
        charge(n * 4, "the strings");
        strings_.resize(n);
        for (auto& s : strings_) s = c.read<std::uint32_t>("a string");
    }

    // Compressed integers: a uint64 size, then LZ4 blocks of the coding (a common value, 2-bit
    // codes, then each delta that is not the common one at the width its code names).
    template <class Int>
    std::vector<Int> compressed_ints(Cursor& c, std::uint64_t n, const char* what) {
        using S = typename std::make_signed<Int>::type;
        const std::uint64_t packed = c.read<std::uint64_t>(what);
        const char* in = c.bytes(packed, what);
        std::vector<Int> out;
        if (n == 0) return out;
        if (n / 4 > packed * kMaxLz4Ratio) fail(std::string(what) + " claim " + std::to_string(n) + " integers from " + std::to_string(packed) + " compressed bytes (an LZ4 bomb)");
        const std::uint64_t encoded = sizeof(Int) + (n * 2 + 7) / 8 + n * sizeof(Int);
        charge(encoded + n * sizeof(Int), what);
        char* work = scratch(encoded);
        const std::size_t got = decompress_some(in, packed, work, encoded, what);
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
            S delta;
            if (code == 0) {
                delta = common;
            } else if (code == 1) {
                if (sizeof(Int) == 4) delta = S(*reinterpret_cast<const std::int8_t*>(take(1)));
                else {
                    std::int16_t x;
                    std::memcpy(&x, take(2), 2);
                    delta = S(x);
                }
            } else if (code == 2) {
                if (sizeof(Int) == 4) {
                    std::int16_t x;
                    std::memcpy(&x, take(2), 2);
                    delta = S(x);
                } else {
                    std::int32_t x;
                    std::memcpy(&x, take(4), 4);
                    delta = S(x);
                }
            } else {
                std::memcpy(&delta, take(sizeof(S)), sizeof(S));
            }
            prev = S(typename std::make_unsigned<S>::type(prev) + typename std::make_unsigned<S>::type(delta));
            out[i] = Int(prev);
        }
        return out;
    }

    // A buffer of at least `bytes` for the integer coding's decompressed bytes, kept for the next
    // array: a fresh one per array is a fresh mapping, zero-filled and faulted in page by page,
    // which was a third of the bench tube's load.
    char* scratch(std::size_t bytes) {
        if (bytes > scratch_size_) {
            scratch_.reset(new char[bytes]);
            scratch_size_ = bytes;
            detail::advise_huge(scratch_.get(), bytes);
        }
        return scratch_.get();
    }

    std::size_t decompress_some(const char* in, std::size_t in_size, char* out, std::size_t out_size, const char* what) {
        if (in_size == 0) fail(std::string(what) + ": an empty compressed block");
        const int chunks = static_cast<unsigned char>(in[0]);
        if (chunks == 0) {
            const int got = LZ4_decompress_safe(in + 1, out, int(std::min<std::size_t>(in_size - 1, LZ4_MAX_INPUT_SIZE)),
                                                int(std::min<std::size_t>(out_size, LZ4_MAX_INPUT_SIZE)));
            if (got < 0) fail(std::string(what) + ": the LZ4 data is corrupt");
            return std::size_t(got);
        }
        std::size_t pos = 1, total = 0;
        for (int i = 0; i < chunks; ++i) {
            std::int32_t size;
            if (in_size - pos < 4) fail(std::string(what) + ": an LZ4 chunk header runs past its data");
            std::memcpy(&size, in + pos, 4);
            pos += 4;
            if (size < 0 || std::size_t(size) > in_size - pos) fail(std::string(what) + ": an LZ4 chunk runs past its data");
            const int got = LZ4_decompress_safe(in + pos, out + total, size, int(std::min<std::size_t>(out_size - total, LZ4_MAX_INPUT_SIZE)));
            if (got < 0) fail(std::string(what) + ": the LZ4 data is corrupt");
            pos += std::size_t(size);
            total += std::size_t(got);
        }
        return total;
    }

    void read_fields() {
        Cursor c = at(sections_["FIELDS"].start);
        const std::uint64_t n = c.read<std::uint64_t>("the field count");
        auto names = compressed_ints<std::uint32_t>(c, n, "the field names");
        const std::uint64_t packed = c.read<std::uint64_t>("the field values' size");
        const char* in = c.bytes(packed, "the field values");
        if (n * 8 > packed * kMaxLz4Ratio + 64) fail("the fields claim " + std::to_string(n) + " values from " + std::to_string(packed) + " compressed bytes (an LZ4 bomb)");
        charge(n * 16, "the fields");
        std::vector<std::uint64_t> reps(n);
        if (n) decompress_blocks(path_, in, packed, reinterpret_cast<char*>(reps.data()), n * 8, "the field values");
        fields_.resize(n);
        for (std::uint64_t i = 0; i < n; ++i) {
            token(names[i]);
            fields_[i] = {names[i], Rep{reps[i]}};
        }
    }

    void read_field_sets() {
        Cursor c = at(sections_["FIELDSETS"].start);
        const std::uint64_t n = c.read<std::uint64_t>("the field-set count");
        field_sets_ = compressed_ints<std::uint32_t>(c, n, "the field sets");
        for (auto f : field_sets_)
            if (f != ~0u && f >= fields_.size()) fail("a field set names field " + std::to_string(f) + " of " + std::to_string(fields_.size()));
        if (!field_sets_.empty() && field_sets_.back() != ~0u) fail("the field sets are not terminated");
    }

    void read_paths() {
        Cursor c = at(sections_["PATHS"].start);
        const std::uint64_t total = c.read<std::uint64_t>("the path count");
        const std::uint64_t n = c.read<std::uint64_t>("the encoded path count");
        if (total > b_.size() || n > b_.size()) fail("the paths section claims " + std::to_string(std::max(total, n)) + " paths, more than the file could hold");
        auto index = compressed_ints<std::uint32_t>(c, n, "the path indexes");
        auto element = compressed_ints<std::int32_t>(c, n, "the path element tokens");
        auto jumps = compressed_ints<std::int32_t>(c, n, "the path jumps");
        charge(total * (sizeof(std::string) + 32), "the paths");
        paths_.assign(total, std::string());
        path_is_property_.assign(total, false);
        // Depth-first with an explicit stack: a sibling is resumed after the child subtree. Each
        // encoded path is visited once, so a jump table that loops is refused, not followed.
        std::vector<bool> seen(n, false);
        std::vector<std::pair<std::uint64_t, std::string>> pending;
        std::uint64_t i = 0;
        std::string parent;
        bool have_parent = false;
        if (n == 0) return;
        for (;;) {
            if (i >= n) fail("the path jumps lead past the " + std::to_string(n) + " encoded paths");
            if (seen[i]) fail("the path jumps loop (path " + std::to_string(i) + " is reached twice)");
            seen[i] = true;
            if (index[i] >= total) fail("a path index " + std::to_string(index[i]) + " is past the " + std::to_string(total) + " paths");
            std::string here;
            if (!have_parent) {
                here = "/";
                have_parent = true;
            } else {
                const std::int32_t e = element[i];
                const std::string& name = token(std::uint64_t(e < 0 ? -std::int64_t(e) : e));
                if (e < 0) {
                    here = parent + "." + name;
                    path_is_property_[index[i]] = true;
                } else {
                    here = parent == "/" ? "/" + name : parent + "/" + name;
                }
            }
            paths_[index[i]] = here;
            const std::int32_t jump = jumps[i];
            const bool child = jump > 0 || jump == -1, sibling = jump >= 0;
            if (child && sibling) {
                if (std::uint64_t(jump) > n - i) fail("a path jump leads past the encoded paths");
                pending.emplace_back(i + std::uint64_t(jump), parent);
            }
            if (child) {
                parent = here;
                ++i;
            } else if (sibling) {
                ++i;
            } else {
                if (pending.empty()) break;
                i = pending.back().first;
                parent = pending.back().second;
                pending.pop_back();
            }
        }
    }

    void read_specs() {
        Cursor c = at(sections_["SPECS"].start);
        const std::uint64_t n = c.read<std::uint64_t>("the spec count");
        auto p = compressed_ints<std::uint32_t>(c, n, "the spec paths");
        auto f = compressed_ints<std::uint32_t>(c, n, "the spec field sets");
        auto t = compressed_ints<std::uint32_t>(c, n, "the spec types");
        specs_.resize(n);
        for (std::uint64_t i = 0; i < n; ++i) {
            path_at(p[i]);
            if (f[i] >= field_sets_.size()) fail("a spec's field set " + std::to_string(f[i]) + " is past the field sets");
            if (f[i] && field_sets_[f[i] - 1] != ~0u) fail("a spec's field set does not begin a set");
            specs_[i] = {p[i], f[i], t[i]};
        }
    }

    // ---- values ----

    // One number of `s` from raw bytes, as a double (every kind converts exactly but 64-bit ints).
    static double number_from(const char* p, const Shape& s) {
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
    static void numbers_from(const char* p, std::uint64_t count, const Shape& s, std::vector<double>& out) {
        out.reserve(out.size() + count);
        for (std::uint64_t i = 0; i < count; ++i, p += s.bytes) out.push_back(number_from(p, s));
    }

    // The type the layer model keeps a numeric array of `s` in: floats and halves as floats,
    // 32-bit ints as they are, the rest (doubles, bytes, 64-bit ints) as doubles.
    static Numbers::Type stored_type(const Shape& s) {
        if (s.kind == 'f' || s.kind == 'h') return Numbers::Type::Float;
        if (s.bytes == 4 && s.kind == 'i') return Numbers::Type::Int32;
        if (s.bytes == 4 && s.kind == 'u') return Numbers::Type::UInt32;
        return Numbers::Type::Double;
    }
    static std::uint64_t stored_bytes(const Shape& s) { return stored_type(s) == Numbers::Type::Double ? 8 : 4; }

    // `count` numbers of `s` from raw bytes in their stored type (quaternions turned to the
    // model's real-first order), sized once on huge pages: a mesh's arrays fault far less.
    template <class T>
    static Numbers typed_from(const char* p, std::uint64_t count, const Shape& s, bool quaternions) {
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
    static Numbers stored_from(const char* p, std::uint64_t count, const Shape& s, bool quaternions) {
        switch (stored_type(s)) {
            case Numbers::Type::Float: return typed_from<float>(p, count, s, quaternions);
            case Numbers::Type::Int32: return typed_from<std::int32_t>(p, count, s, quaternions);
            case Numbers::Type::UInt32: return typed_from<std::uint32_t>(p, count, s, quaternions);
            default: return typed_from<double>(p, count, s, quaternions);
        }
    }

    // Quaternions are stored imaginary first (i, j, k, real); the layer model holds (real, i, j, k).
    template <class T>
    static void quaternions_to_wxyz(std::vector<T>& n) {
        for (std::size_t e = 0; e + 4 <= n.size(); e += 4) std::rotate(n.begin() + long(e), n.begin() + long(e) + 3, n.begin() + long(e) + 4);
    }

    Value numeric_scalar(const Rep& r, const Shape& s) {
        Value out;
        std::vector<double> n;
        if (r.inlined()) {
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
        } else {
            Cursor c = at(r.payload());
            const char* p = c.bytes(std::uint64_t(s.width) * std::uint64_t(s.bytes), "a value");
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

    Value numeric_array(const Rep& r, const Shape& s) {
        Value out;
        out.kind = Value::Kind::NumberArray;
        out.width = s.width;
        if (r.payload() == 0) return out;  // an empty array
        Cursor c = at(r.payload());
        if (version() < v(0, 5, 0)) c.read<std::uint32_t>("an array's rank");  // 0.4.x stores a rank of 1 first
        const std::uint64_t count = version() < v(0, 7, 0) ? c.read<std::uint32_t>("an array size") : c.read<std::uint64_t>("an array size");
        const std::uint64_t numbers = count * std::uint64_t(s.width);
        if (count > b_.size() * kMaxLz4Ratio * 8) fail("an array claims " + std::to_string(count) + " elements");
        charge(numbers * stored_bytes(s), "the arrays");
        const bool ints = s.width == 1 && (s.kind == 'i' || s.kind == 'u') && s.bytes >= 4;
        const bool floats = s.width == 1 && (s.kind == 'f' || s.kind == 'd' || s.kind == 'h');
        if (r.compressed() && ints && count >= 16) {
            if (s.bytes == 4 && s.kind == 'i') out.numbers = Numbers(compressed_ints<std::int32_t>(c, count, "a compressed integer array"));
            else if (s.bytes == 4) out.numbers = Numbers(compressed_ints<std::uint32_t>(c, count, "a compressed integer array"));
            else {
                auto v64 = compressed_ints<std::int64_t>(c, count, "a compressed integer array");
                std::vector<double> d(v64.size());
                for (std::size_t i = 0; i < v64.size(); ++i) d[i] = s.kind == 'u' ? double(std::uint64_t(v64[i])) : double(v64[i]);
                out.numbers = Numbers(std::move(d));
            }
            return out;
        }
        if (r.compressed() && floats && count >= 16) {
            out.numbers = s.kind == 'd' ? compressed_floats<double>(c, count, s) : compressed_floats<float>(c, count, s);
            return out;
        }
        const char* p = c.bytes(numbers * std::uint64_t(s.bytes), "an array");
        out.numbers = stored_from(p, numbers, s, is_quaternion(r.type()));
        return out;
    }

    // A compressed float array: integers (code 'i', every value a whole number) or indexes into
    // a lookup table of the distinct values (code 't').
    template <class T>
    Numbers compressed_floats(Cursor& c, std::uint64_t count, const Shape& s) {
        const char code = c.read<char>("a compressed array's code");
        std::vector<T> out;
        if (code == 'i') {
            auto v32 = compressed_ints<std::int32_t>(c, count, "a compressed float array");
            detail::reserve_huge(out, v32.size());
            for (auto x : v32) out.push_back(T(x));
        } else if (code == 't') {
            const std::uint32_t table = c.read<std::uint32_t>("a lookup table's size");
            const char* p = c.bytes(std::uint64_t(table) * std::uint64_t(s.bytes), "a lookup table");
            std::vector<double> lut;
            numbers_from(p, table, s, lut);
            auto idx = compressed_ints<std::uint32_t>(c, count, "a lookup table's indexes");
            detail::reserve_huge(out, idx.size());
            for (auto i : idx) {
                if (i >= lut.size()) fail("a compressed array indexes entry " + std::to_string(i) + " of its " + std::to_string(lut.size()) + "-entry table");
                out.push_back(T(lut[i]));
            }
        } else {
            fail(std::string("a compressed array has the unknown code '") + code + "'");
        }
        return Numbers(std::move(out));
    }

    static Value text_value(Value::Kind k, std::string s) {
        Value out;
        out.kind = k;
        out.text = std::move(s);
        return out;
    }

    Value string_list(Cursor& c, int kind) {
        const std::uint64_t n = count_in(c, 4, "a list");
        charge(n * sizeof(Value), "the lists");
        Value out;
        out.kind = Value::Kind::List;
        for (std::uint64_t i = 0; i < n; ++i) {
            const std::uint32_t x = c.read<std::uint32_t>("a list entry");
            if (kind == tPathVector || kind == tPathListOp) out.items.push_back(text_value(Value::Kind::Path, path_at(x)));
            else if (kind == tStringVector || kind == tStringListOp) out.items.push_back(text_value(Value::Kind::String, string_at(x)));
            else out.items.push_back(text_value(Value::Kind::String, token(x)));
        }
        return out;
    }

    // A list op's lists with their edits, in the order the crate stores them: explicit, added,
    // prepended, appended, deleted, ordered (header bits 1, 2, 5, 6, 3, 4; bit 0 marks an
    // explicit list op, whose explicit list may be empty).
    std::vector<std::pair<ListEdit, Value>> list_op_edits(const Rep& r) {
        Cursor c = at(r.payload());
        const std::uint8_t header = c.read<std::uint8_t>("a list op");
        std::vector<std::pair<ListEdit, Value>> out;
        const std::pair<int, ListEdit> lists[] = {{1, ListEdit::Explicit}, {2, ListEdit::Add},    {5, ListEdit::Prepend},
                                                  {6, ListEdit::Append},   {3, ListEdit::Delete}, {4, ListEdit::Reorder}};
        for (const auto& l : lists) {
            if (!(header & (1 << l.first))) {
                if (l.first == 1 && (header & 1)) {  // an explicit empty list
                    Value empty;
                    empty.kind = Value::Kind::List;
                    out.push_back({ListEdit::Explicit, std::move(empty)});
                }
                continue;
            }
            out.push_back({l.second, r.type() == tReferenceListOp || r.type() == tPayloadListOp ? arc_list(c, r.type()) : string_list(c, r.type())});
        }
        return out;
    }

    // A list op's items, all of its lists together but the deleted and the reordered (what
    // rigscope asks of such a list, apiSchemas, is membership).
    Value list_op(const Rep& r) {
        Value out;
        out.kind = Value::Kind::List;
        for (auto& e : list_op_edits(r)) {
            if (e.first == ListEdit::Delete || e.first == ListEdit::Reorder) continue;
            for (auto& i : e.second.items) out.items.push_back(std::move(i));
        }
        return out;
    }

    // A reference or payload as the text reader holds it: the asset path, with the prim path and
    // the layer offset as its items (an SdfReference: asset string, prim path, offset and scale,
    // custom data; an SdfPayload: the same without custom data, and before crate 0.8.0 without
    // the offset).
    Value arc_item(Cursor& c, bool reference) {
        Value out = text_value(Value::Kind::Asset, string_at(c.read<std::uint32_t>("an arc's asset path")));
        const std::string& prim = path_at(c.read<std::uint32_t>("an arc's prim path"));
        if (!prim.empty() && prim != "/") out.items.push_back(text_value(Value::Kind::Path, prim));
        if (reference || version() >= v(0, 8, 0)) {
            Value offset, o, sc;
            offset.kind = Value::Kind::Dict;
            o.kind = sc.kind = Value::Kind::Number;
            o.number = c.read<double>("an arc's layer offset");
            sc.number = c.read<double>("an arc's layer scale");
            offset.dict = {{"offset", o}, {"scale", sc}};
            out.items.push_back(std::move(offset));
        }
        if (reference) dictionary_at(c);  // custom data: read past, not kept
        return out;
    }

    Value arc_list(Cursor& c, int kind) {
        const std::uint64_t n = count_in(c, 8, "a list of arcs");
        charge(n * sizeof(Value) * 3, "the lists");
        Value out;
        out.kind = Value::Kind::List;
        for (std::uint64_t i = 0; i < n; ++i) out.items.push_back(arc_item(c, kind == tReferenceListOp));
        return out;
    }

    Value dictionary(const Rep& r) {
        Cursor c = at(r.payload());
        return dictionary_at(c);
    }

    Value dictionary_at(Cursor& c) {
        const std::uint64_t n = count_in(c, 12, "a dictionary");
        Value out;
        out.kind = Value::Kind::Dict;
        for (std::uint64_t i = 0; i < n; ++i) {
            const std::string key = string_at(c.read<std::uint32_t>("a dictionary key"));
            c.jump("a dictionary value");
            const Rep inner{c.read<std::uint64_t>("a dictionary value")};
            out.dict.emplace_back(key, value(inner));
        }
        return out;
    }

    Value value(const Rep& r) {
        if (depth_ >= kMaxValueDepth) fail("values nest deeper than " + std::to_string(kMaxValueDepth) + " levels");
        if (!unpacking_.insert(r.bits).second) fail("a value contains itself (value rep at byte " + std::to_string(r.payload()) + ")");
        ++depth_;
        Value out = value_inner(r);
        --depth_;
        unpacking_.erase(r.bits);
        return out;
    }

    Value value_inner(const Rep& r) {
        const int t = r.type();
        const Shape s = shape_of(t);
        if (s.width) return r.array() ? numeric_array(r, s) : numeric_scalar(r, s);
        const std::uint32_t x = std::uint32_t(r.payload());
        switch (t) {
            case tToken:
                if (r.array()) return token_array(r, false);
                return text_value(Value::Kind::String, token(x));
            case tString:
                if (r.array()) return token_array(r, true);
                return text_value(Value::Kind::String, string_at(x));
            case tAssetPath:
                if (r.array()) return token_array(r, false);
                return text_value(Value::Kind::Asset, token(x));
            case tSpecifier: case tPermission: case tVariability: {
                Value out;
                out.kind = Value::Kind::Number;
                out.number = x;
                return out;
            }
            case tTokenVector: case tPathVector: case tStringVector: {
                Cursor c = at(r.payload());
                return string_list(c, t);
            }
            case tDoubleVector: {
                Cursor c = at(r.payload());
                const std::uint64_t n = count_in(c, 8, "a double vector");
                Value out;
                out.kind = Value::Kind::NumberArray;
                charge(n * 8, "the arrays");
                out.numbers = stored_from(c.bytes(n * 8, "a double vector"), n, Shape{1, 8, 'd'}, false);
                return out;
            }
            case tTokenListOp: case tStringListOp: case tPathListOp: case tReferenceListOp: case tPayloadListOp: return list_op(r);
            case tPayload: {
                Cursor c = at(r.payload());
                return arc_item(c, false);
            }
            case tVariantSelectionMap: {
                // set name -> selected variant, both strings.
                Cursor c = at(r.payload());
                const std::uint64_t n = count_in(c, 8, "a variant selection map");
                Value out;
                out.kind = Value::Kind::Dict;
                for (std::uint64_t i = 0; i < n; ++i) {
                    std::string set = string_at(c.read<std::uint32_t>("a variant set's name"));
                    out.dict.emplace_back(std::move(set), text_value(Value::Kind::String, string_at(c.read<std::uint32_t>("a variant selection"))));
                }
                return out;
            }
            case tLayerOffsetVector: {
                // (offset, scale) per sublayer.
                Cursor c = at(r.payload());
                const std::uint64_t n = count_in(c, 16, "the layer offsets");
                Value out;
                out.kind = Value::Kind::NumberArray;
                out.width = 2;
                charge(n * 16, "the arrays");
                std::vector<double> offsets;
                for (std::uint64_t i = 0; i < 2 * n; ++i) offsets.push_back(c.read<double>("a layer offset"));
                out.numbers = Numbers(std::move(offsets));
                return out;
            }
            case tDictionary: return dictionary(r);
            case tValueBlock: case tAnimationBlock: return Value{};
            case tTimeSamples: fail("time samples where a single value belongs");
            case tValue: {
                Cursor c = at(r.payload());
                c.jump("a value");
                return value(Rep{c.read<std::uint64_t>("a value")});
            }
            default: {
                // Composition arcs and other kinds rigscope only needs to see (references, payloads,
                // variant selections, layer offsets, ...): a marker that names the kind.
                Value out;
                out.kind = Value::Kind::Token;
                out.text = type_name(t);
                return out;
            }
        }
    }

    Value token_array(const Rep& r, bool strings) {
        Value out;
        out.kind = Value::Kind::List;
        if (r.payload() == 0) return out;
        Cursor c = at(r.payload());
        if (version() < v(0, 5, 0)) c.read<std::uint32_t>("an array's rank");
        const std::uint64_t n = version() < v(0, 7, 0) ? c.read<std::uint32_t>("an array size") : c.read<std::uint64_t>("an array size");
        if (n > (b_.size() - c.pos) / 4) fail("an array claims " + std::to_string(n) + " entries, more than the file holds");
        charge(n * (sizeof(Value) + 16), "the arrays");
        for (std::uint64_t i = 0; i < n; ++i) {
            const std::uint32_t x = c.read<std::uint32_t>("an array entry");
            out.items.push_back(text_value(r.type() == tAssetPath ? Value::Kind::Asset : Value::Kind::String, strings ? string_at(x) : token(x)));
        }
        return out;
    }

    void time_samples(const Rep& r, PropertySpec& p) {
        Cursor c = at(r.payload());
        c.jump("time samples");
        const Rep times_rep{c.read<std::uint64_t>("the sample times")};
        c.jump("time samples' values");
        const std::uint64_t n = count_in(c, 8, "the time samples");
        const Value times = value(times_rep);
        if (times.kind != Value::Kind::NumberArray || times.numbers.size() != n)
            fail("attribute " + p.name + " has " + std::to_string(n) + " sample values for " + std::to_string(times.numbers.size()) + " times");
        charge(n * sizeof(std::pair<double, Value>), "the time samples");
        for (std::uint64_t i = 0; i < n; ++i) {
            const Rep vr{c.read<std::uint64_t>("a sample value")};
            const double t = times.numbers[i];
            if (!p.samples.empty() && !(t > p.samples.back().first)) fail("attribute " + p.name + "'s sample times are not increasing");
            p.samples.emplace_back(t, value(vr));
        }
    }

    // ---- specs into the layer ----

    void build(Layer& layer) {
        std::map<std::string, PrimSpec*> prims;
        std::vector<std::pair<std::string, std::unique_ptr<PrimSpec>>> owned;  // in spec order
        std::map<std::string, std::vector<std::string>> child_order;
        struct Prop {
            std::string prim;
            PropertySpec spec;
        };
        std::vector<Prop> props;
        for (const Spec& s : specs_) {
            const std::string& path = path_at(s.path);
            std::vector<std::pair<std::string, Rep>> fields;
            for (std::size_t f = s.field_set; f < field_sets_.size() && field_sets_[f] != ~0u; ++f)
                fields.emplace_back(token(fields_[field_sets_[f]].first), fields_[field_sets_[f]].second);
            if (s.type == 7) {  // the pseudo-root: layer metadata
                for (const auto& f : fields) {
                    if (f.first == "primChildren") {
                        for (const auto& c : strings_of_list(value(f.second))) child_order["/"].push_back(c);
                        continue;
                    }
                    layer.metadata[f.first] = value(f.second);
                }
            } else if (s.type == 6 || s.type == 10) {  // a prim, or a variant (a prim body inside its prim)
                auto prim = std::make_unique<PrimSpec>();
                prim->name = path.substr(path.find_last_of('/') + 1);
                if (s.type == 10) {
                    // /Char/{rig=hero}: the body of variant hero of set rig, named as its prim.
                    const std::string parent = path.substr(0, path.find_last_of('/'));
                    prim->name = parent.substr(parent.find_last_of('/') + 1);
                    prim->specifier = PrimSpec::Specifier::Over;
                }
                charge(sizeof(PrimSpec), "the prims");
                for (const auto& f : fields) {
                    if (f.first == "references" || f.first == "payload" || f.first == "variantSetNames") {
                        // Arcs and variant set names keep their list edits, which composition applies.
                        const int t = f.second.type();
                        const std::string key = f.first == "variantSetNames" ? "variantSets" : f.first;
                        if (t == tReferenceListOp || t == tPayloadListOp || t == tStringListOp || t == tTokenListOp) {
                            for (auto& e : list_op_edits(f.second)) prim->metadata.push_back({key, std::move(e)});
                        } else {
                            prim->metadata.push_back({key, {ListEdit::Explicit, value(f.second)}});
                        }
                        continue;
                    }
                    if (f.first == "specifier") {
                        const auto sp = value(f.second).number;
                        prim->specifier = sp == 0 ? PrimSpec::Specifier::Def : sp == 1 ? PrimSpec::Specifier::Over : PrimSpec::Specifier::Class;
                    } else if (f.first == "typeName") {
                        prim->type = value(f.second).text;
                    } else if (f.first == "primChildren") {
                        child_order[path] = strings_of_list(value(f.second));
                    } else if (f.first == "properties") {
                        continue;
                    } else if (f.first == "variantSelection") {
                        prim->metadata.push_back({"variants", {ListEdit::Explicit, value(f.second)}});
                    } else if (f.first == "variantChildren" || f.first == "variantSetChildren") {
                        continue;  // the variant specs themselves say what there is
                    } else {
                        prim->metadata.push_back({f.first, {ListEdit::Explicit, value(f.second)}});
                    }
                }
                prims[path] = prim.get();
                owned.emplace_back(path, std::move(prim));
            } else if (s.type == 1 || s.type == 8) {  // an attribute or a relationship
                const auto dot = path.find('.');
                if (dot == std::string::npos) fail("property spec " + path + " has no property name");
                Prop p;
                p.prim = path.substr(0, dot);
                p.spec.name = path.substr(dot + 1);
                if (s.type == 8) p.spec.type = "rel";
                for (const auto& f : fields) {
                    if (f.first == "typeName") {
                        std::string t = value(f.second).text;
                        p.spec.array = t.size() > 2 && t.compare(t.size() - 2, 2, "[]") == 0;
                        p.spec.type = p.spec.array ? t.substr(0, t.size() - 2) : t;
                    } else if (f.first == "default") {
                        p.spec.value = value(f.second);
                        p.spec.has_default = true;
                    } else if (f.first == "timeSamples") {
                        if (f.second.type() != tTimeSamples) fail("attribute " + path + "'s timeSamples are a " + type_name(f.second.type()));
                        time_samples(f.second, p.spec);
                    } else if (f.first == "targetPaths" || f.first == "connectionPaths") {
                        for (const auto& t : value(f.second).items) p.spec.targets.push_back(t.text);
                        p.spec.has_default = true;
                    } else if (f.first == "variability") {
                        p.spec.uniform = value(f.second).number == 1;
                    } else if (f.first == "custom") {
                        p.spec.custom = value(f.second).number != 0;
                    } else if (f.first == "spline") {
                        fail("attribute " + path + " is a spline, which rigscope does not read (bake it to time samples)");
                    } else {
                        p.spec.metadata[f.first] = value(f.second);
                    }
                }
                props.push_back(std::move(p));
            }  // a variant set's own spec (type 11) holds only the names of its variants
        }
        for (auto& p : props) {
            auto it = prims.find(p.prim);
            if (it == prims.end()) fail("property " + p.prim + "." + p.spec.name + " belongs to no prim spec");
            it->second->properties.push_back(std::move(p.spec));
        }
        // The tree, children in primChildren order (then any the order does not name, in spec order).
        std::map<std::string, std::unique_ptr<PrimSpec>> by_path;
        std::vector<std::string> order;
        for (auto& o : owned) {
            order.push_back(o.first);
            by_path[o.first] = std::move(o.second);
        }
        auto parent_of = [](const std::string& p) {
            const auto slash = p.find_last_of('/');
            return slash == 0 ? std::string("/") : p.substr(0, slash);
        };
        std::map<std::string, std::vector<std::string>> children;
        for (const auto& p : order) children[parent_of(p)].push_back(p);
        for (auto& c : children) {
            auto& want = child_order[c.first];
            std::vector<std::string> sorted;
            for (const auto& name : want) {
                const std::string full = c.first == "/" ? "/" + name : c.first + "/" + name;
                if (std::find(c.second.begin(), c.second.end(), full) != c.second.end() &&
                    std::find(sorted.begin(), sorted.end(), full) == sorted.end())
                    sorted.push_back(full);
            }
            for (const auto& p : c.second)
                if (std::find(sorted.begin(), sorted.end(), p) == sorted.end()) sorted.push_back(p);
            c.second = std::move(sorted);
        }
        // Attach leaves first so each subtree is whole when it moves into its parent.
        std::vector<std::string> deepest_first = order;
        std::stable_sort(deepest_first.begin(), deepest_first.end(), [](const std::string& a, const std::string& b) {
            return std::count(a.begin(), a.end(), '/') > std::count(b.begin(), b.end(), '/');
        });
        for (const auto& p : deepest_first) {
            auto& prim = by_path[p];
            if (!prim) continue;
            for (const auto& c : children[p]) {
                if (!by_path[c]) continue;
                const std::string leaf = c.substr(c.find_last_of('/') + 1);
                if (leaf.size() > 2 && leaf.front() == '{' && leaf.back() == '}' && leaf.find('=') != std::string::npos) {
                    // {set=variant}: the body joins its prim's variant set.
                    const std::string set = leaf.substr(1, leaf.find('=') - 1);
                    const std::string variant = leaf.substr(leaf.find('=') + 1, leaf.size() - leaf.find('=') - 2);
                    auto vs = std::find_if(prim->variant_sets.begin(), prim->variant_sets.end(), [&](const auto& x) { return x.first == set; });
                    if (vs == prim->variant_sets.end()) {
                        prim->variant_sets.emplace_back(set, std::vector<std::pair<std::string, std::unique_ptr<PrimSpec>>>{});
                        vs = prim->variant_sets.end() - 1;
                    }
                    vs->second.emplace_back(variant, std::move(by_path[c]));
                    continue;
                }
                prim->children.push_back(std::move(by_path[c]));
            }
        }
        for (const auto& c : children["/"]) {
            if (!by_path[c]) fail("prim " + c + " has no parent prim spec");
            layer.roots.push_back(std::move(by_path[c]));
        }
        for (auto& b : by_path)
            if (b.second) fail("prim " + b.first + " has no parent prim spec");
    }

    static std::vector<std::string> strings_of_list(const Value& v) {
        std::vector<std::string> out;
        for (const auto& i : v.items) out.push_back(i.text);
        return out;
    }
};

}  // namespace

void decompress_blocks(const std::string& path, const char* in, std::size_t in_size, char* out, std::size_t out_size,
                       const std::string& what) {
    if (in_size == 0) throw bad_input(path, "usdc: " + what + ": an empty compressed block");
    const int chunks = static_cast<unsigned char>(in[0]);
    std::size_t total = 0;
    if (chunks == 0) {
        const int got = LZ4_decompress_safe(in + 1, out, int(std::min<std::size_t>(in_size - 1, LZ4_MAX_INPUT_SIZE)),
                                            int(std::min<std::size_t>(out_size, LZ4_MAX_INPUT_SIZE)));
        if (got < 0) throw bad_input(path, "usdc: " + what + ": the LZ4 data is corrupt");
        total = std::size_t(got);
    } else {
        std::size_t pos = 1;
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
    }
    if (total != out_size)
        throw bad_input(path, "usdc: " + what + " decompress to " + std::to_string(total) + " bytes, not the " + std::to_string(out_size) + " the file claims");
}

Layer parse_crate(const std::string& path, const std::string& bytes, std::uint64_t max_memory) {
    return Crate(path, bytes, max_memory).parse();
}

}  // namespace rigscope::usd
