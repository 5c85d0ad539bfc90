// What every step of the crate reader shares (private to src/io/usd/crate_*.cpp): the crate's
// type numbering, a value rep's bits, the numeric shape of a type, and CrateBytes, the layer's
// bytes with the reading state the steps pass along (version, memory budget, the integer coding's
// scratch buffer). The steps: crate_sections.cpp reads the structural tables, crate_values.cpp
// and crate_numbers.cpp turn value reps into values, crate_specs.cpp builds the prim tree, and
// crate_reader.cpp runs them in that order. The format was learned from OpenUSD's crateFile.cpp
// and integerCoding.cpp (docs/usd_notes.md); no code of theirs is here.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "io/load_budget.h"
#include "io/usd/usd_numbers.h"

namespace rigscope::usd::crate {

// LZ4 expands at most 255:1; the integer coding needs at least 2 bits per integer. Counts that
// claim more than that from the compressed bytes there are are refused before anything is
// allocated (an LZ4 bomb).
constexpr std::uint64_t kMaxLz4Ratio = 255;

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

// The type's name as OpenUSD spells it: messages, and the marker of a value rigscope only sees.
const char* type_name(int t);

// A value rep: 64 bits that say the type, whether it is an array, inlined or compressed, and a
// payload (the inlined value, or the byte offset of the value).
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

Shape shape_of(int t);
inline bool is_quaternion(int t) { return t == tQuatd || t == tQuatf || t == tQuath; }
inline bool is_matrix(int t) { return t == tMatrix2d || t == tMatrix3d || t == tMatrix4d; }
double half_to_double(std::uint16_t h);

constexpr std::uint32_t version_code(int a, int b, int c) { return std::uint32_t(a) << 16 | std::uint32_t(b) << 8 | std::uint32_t(c); }

class CrateBytes;

// The integer coding of n integers (a common delta, 2-bit codes, then each delta that is not the
// common one at the width its code names), decompressed and checked whole by
// CrateBytes::int_coding: the deltas its codes name fit in its bytes, so that next() decodes
// without a check per integer. next() hands the integers on in order, any number at a time, into
// the array that keeps them or through a small buffer into another type.
template <class Int>
class IntCoding {
public:
    std::uint64_t size() const { return n_; }
    // The next `count` integers (at most size() in all) into out.
    void next(Int* out, std::size_t count);

private:
    friend class CrateBytes;
    using U = std::conditional_t<sizeof(Int) == 8, std::uint64_t, std::uint32_t>;
    std::uint64_t n_ = 0, i_ = 0;
    const unsigned char* codes_ = nullptr;
    const char* deltas_ = nullptr;  // the next delta that is not the common one
    U common_ = 0, prev_ = 0;       // integers summed as unsigned: a hostile file's overflow wraps, as it does in two's complement
};

// A bounded cursor over the file: every read checks that its bytes are there.
struct Cursor {
    const CrateBytes* c;
    std::uint64_t pos;
    void need(std::uint64_t n, const char* what) const;
    template <class T>
    T read(const char* what);
    const char* bytes(std::uint64_t n, const char* what);
    // A relative jump as the crate writes them: an int64 offset from where it is stored.
    void jump(const char* what);
};

// The layer's bytes and what each step reads them with. One per parse, handed from step to step:
// the budget must see every table and value of the layer, and the scratch buffer outlives one array.
class CrateBytes {
public:
    CrateBytes(const std::string& path, const std::string& bytes, std::uint64_t max_memory)
        : path(path), b(bytes), budget(path, max_memory) {}

    const std::string& path;
    const std::string& b;
    LoadBudget budget;  // the layer's bytes, then every table and value decoded from them
    int major = 0, minor = 0, patch = 0;  // set by read_header (crate_sections.cpp)

    std::uint32_t version() const { return version_code(major, minor, patch); }
    [[noreturn]] void fail(const std::string& what) const;
    void charge(double bytes, const char* what);
    Cursor at(std::uint64_t pos) const { return Cursor{this, pos}; }
    // A uint64 count of elements of `element_bytes` each, refused when the file cannot hold them.
    std::uint64_t count_in(Cursor& c, std::uint64_t element_bytes, const char* what);

    // Compressed integers (crate_compression.cpp): a uint64 size, then LZ4 blocks of the coding.
    // Instantiated for std::uint32_t, std::int32_t and std::int64_t. int_coding reads, checks
    // and charges them and decompresses the coding into the scratch buffer, which the coding
    // reads from until the next int_coding; compressed_ints decodes them whole into a vector.
    template <class Int>
    IntCoding<Int> int_coding(Cursor& c, std::uint64_t n, const char* what);
    template <class Int>
    std::vector<Int> compressed_ints(Cursor& c, std::uint64_t n, const char* what);

    // Room for a numeric array of n T's that the layer keeps, written once by the caller before
    // it is read (crate_numbers.cpp). Arrays of 64 KB and more are carved from shared blocks of
    // at least 16 MB advised onto huge pages: a mesh's counts and points (2 and 3 MB) are below
    // what one array's advice covers, and the bench tube's layer took a 4 KB page fault each
    // otherwise. Smaller ones get arrays of their own (a small file faults no huge page).
    template <class T>
    Numbers numbers(std::size_t n, T*& data);

private:
    std::shared_ptr<char[]> block_;  // numbers(): the block arrays are carved from
    std::size_t block_size_ = 0, block_used_ = 0;
    std::unique_ptr<char[]> scratch_;  // scratch(): the integer coding's bytes
    std::size_t scratch_size_ = 0;
    char* scratch(std::size_t bytes);
};

template <class T>
T Cursor::read(const char* what) {
    need(sizeof(T), what);
    T out;
    std::memcpy(&out, c->b.data() + pos, sizeof(T));
    pos += sizeof(T);
    return out;
}

// LZ4 blocks as OpenUSD's TfFastCompression writes them (a chunk count, then the chunks) into at
// most `out_size` bytes: the bytes written. Throws naming `path` and `what` (crate_compression.cpp).
std::size_t lz4_blocks(const std::string& path, const char* in, std::size_t in_size, char* out, std::size_t out_size,
                       const std::string& what);

}  // namespace rigscope::usd::crate
