#include "io/fbx/fbx_records.h"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>

namespace rigscope::fbx {

namespace {

// A byte position as people write it: 1,204,311.
std::string at_byte(std::uint64_t v) {
    std::string d = std::to_string(v), out;
    for (std::size_t i = 0; i < d.size(); ++i) {
        if (i && (d.size() - i) % 3 == 0) out += ',';
        out += d[i];
    }
    return out;
}

class Parser {
public:
    Parser(const std::vector<unsigned char>& buf, bool wide) : buf_(buf), wide_(wide) {}

    std::vector<Record> top_level() {
        std::vector<Record> out;
        std::uint64_t off = 27;
        Record r;
        while (off < buf_.size() && parse(off, buf_.size(), 0, r)) out.push_back(std::move(r));
        return out;
    }

private:
    // Where a part that needs bytes up to `needed` ends past `end`: the file's end (truncated) or
    // its record's. Each message names the byte it happened at, so a broken copy can be looked at.
    [[noreturn]] void past(const std::string& what, std::uint64_t at, std::uint64_t needed, std::uint64_t end) const {
        if (end >= buf_.size() && needed > buf_.size())
            throw Malformed("truncated: " + what + " at byte " + at_byte(at) + " ends past the end of the file (" + at_byte(buf_.size()) +
                            " bytes)");
        throw Malformed(what + " at byte " + at_byte(at) + " runs to byte " + at_byte(needed) + ", past the end of its record at byte " +
                        at_byte(end));
    }

    std::uint64_t read_uint(std::uint64_t& off, std::uint64_t end, int bytes, const char* what) {
        if (off + bytes > end) past(what, off, off + bytes, end);
        std::uint64_t v = 0;
        for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | buf_[off + i];
        off += bytes;
        return v;
    }

    // Parses one record at off; false for the null record that ends a list.
    bool parse(std::uint64_t& off, std::uint64_t limit, int depth, Record& rec) {
        if (depth > kMaxDepth) throw Malformed("records nested deeper than " + std::to_string(kMaxDepth) + " levels");
        const int w = wide_ ? 8 : 4;
        const std::uint64_t start = off;
        const std::uint64_t end = read_uint(off, limit, w, "record header");
        const std::uint64_t nprops = read_uint(off, limit, w, "record header");
        const std::uint64_t plen = read_uint(off, limit, w, "record header");
        const std::uint64_t nlen = read_uint(off, limit, 1, "record header");
        if (end == 0 && nprops == 0 && plen == 0 && nlen == 0) return false;
        const std::string name = off + nlen <= std::min<std::uint64_t>(limit, buf_.size())
                                     ? std::string(reinterpret_cast<const char*>(&buf_[off]), nlen)
                                     : std::string();
        const std::string what = name.empty() ? std::string("record") : "record '" + name + "'";
        if (end > limit) past(what, start, end, limit);
        if (end <= off) throw Malformed(what + " at byte " + at_byte(start) + " ends at byte " + at_byte(end) + ", before its own header ends");
        if (off + nlen > end) past("name of the " + what, start, off + nlen, end);
        rec = Record{};
        rec.name = name;
        off += nlen;
        const std::uint64_t props_end = off + plen;
        if (props_end > end) past("property list of " + what, start, props_end, end);
        if (nprops > plen) throw Malformed(what + " at byte " + at_byte(start) + " claims " + std::to_string(nprops) + " properties in " +
                                           std::to_string(plen) + " bytes");
        rec.props.reserve(nprops);
        for (std::uint64_t i = 0; i < nprops; ++i) rec.props.push_back(parse_prop(off, props_end));
        off = props_end;
        while (off < end) {
            Record c;
            if (!parse(off, end, depth + 1, c)) break;
            rec.children.push_back(std::move(c));
        }
        off = end;
        return true;
    }

    Prop parse_prop(std::uint64_t& off, std::uint64_t end) {
        Prop p;
        const std::uint64_t at = off;
        p.type = static_cast<char>(read_uint(off, end, 1, "property"));
        auto take = [&](int n) { return read_uint(off, end, n, "property"); };
        switch (p.type) {
            case 'Y': p.integer = static_cast<std::int16_t>(take(2)); p.number = double(p.integer); break;
            case 'C':  // FBX 6 key lists hold letters (L, C, U, s, n) as C: the byte is kept
                p.data = &buf_[off];
                p.bytes = 1;
                p.integer = take(1) != 0;
                p.number = double(p.integer);
                break;
            case 'I': p.integer = static_cast<std::int32_t>(take(4)); p.number = double(p.integer); break;
            case 'L': p.integer = static_cast<std::int64_t>(take(8)); p.number = double(p.integer); break;
            case 'F': { std::uint32_t u = std::uint32_t(take(4)); float f; std::memcpy(&f, &u, 4); p.number = f; break; }
            case 'D': { std::uint64_t u = take(8); double d; std::memcpy(&d, &u, 8); p.number = d; break; }
            case 'S':
            case 'R': {
                p.bytes = std::uint32_t(take(4));
                if (off + p.bytes > end) past("string property", at, off + p.bytes, end);
                p.data = &buf_[off];
                off += p.bytes;
                break;
            }
            case 'f': case 'd': case 'l': case 'i': case 'b': {
                p.count = std::uint32_t(take(4));
                p.encoding = std::uint32_t(take(4));
                p.bytes = std::uint32_t(take(4));
                if (off + p.bytes > end) past("array property", at, off + p.bytes, end);
                p.data = &buf_[off];
                off += p.bytes;
                break;
            }
            default: {
                // The type byte of a broken file may be any byte; the message stays printable.
                char hex[8];
                std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned char>(p.type));
                throw Malformed(std::string("unknown property type ") + hex + " at byte " + at_byte(at));
            }
        }
        return p;
    }

    const std::vector<unsigned char>& buf_;
    bool wide_;
};

}  // namespace

int element_size(char type) {
    switch (type) {
        case 'd': case 'l': return 8;
        case 'f': case 'i': return 4;
        case 'b': return 1;
        default: return 0;
    }
}

namespace {

// Every array of the file is checked before anything reads the file (Assimp included): its
// claimed size against what is left of the memory budget (before inflating), a plain array's
// stored bytes against its element count, and a zlib array inflated in small pieces to exactly
// count x element size with no bytes left over. Assimp 5.2.5 takes such arrays as they come:
// a lying one silently loses the mesh or hides bad keys.
class ArrayCheck {
public:
    // Every array's inflated size on top of what the load holds, summed: the arrays are decoded
    // one by one later, but a file must not claim more than the budget could ever hold.
    explicit ArrayCheck(const LoadBudget& held) : arrays_(held) {}

    void walk(const Record& r) {
        for (const Prop& p : r.props)
            if (element_size(p.type)) check(r.name, p);
        for (const Record& c : r.children) walk(c);
    }

private:
    void check(const std::string& name, const Prop& p) {
        const std::string what = "array '" + name + "'";
        const std::uint64_t bytes = std::uint64_t(p.count) * element_size(p.type);
        charge(arrays_, double(bytes), what + " (" + std::to_string(p.count) + " elements)");
        if (p.encoding == 0) {
            if (p.bytes != bytes)
                throw Malformed(what + " holds " + std::to_string(p.bytes) + " bytes for " + std::to_string(p.count) +
                                " elements of " + std::to_string(element_size(p.type)) + " bytes");
            return;
        }
        if (p.encoding != 1) throw Malformed(what + " has unknown encoding " + std::to_string(p.encoding));
        z_stream z{};
        if (inflateInit(&z) != Z_OK) throw Malformed("zlib could not start");
        z.next_in = const_cast<unsigned char*>(p.data);
        z.avail_in = p.bytes;
        std::uint64_t got = 0;
        int rc = Z_OK;
        while (rc == Z_OK) {
            z.next_out = scratch_;
            z.avail_out = sizeof scratch_;
            rc = inflate(&z, Z_NO_FLUSH);
            got += sizeof scratch_ - z.avail_out;
            if (got > bytes) break;
        }
        const std::uint64_t unused = z.avail_in;
        inflateEnd(&z);
        if (got > bytes || (rc == Z_STREAM_END && got != bytes))
            throw Malformed(what + " inflates to " + (got > bytes ? "more than " : "") + std::to_string(got) + " bytes, not the " +
                            std::to_string(bytes) + " of its " + std::to_string(p.count) + " elements");
        if (rc != Z_STREAM_END) throw Malformed(what + " holds bad zlib data");
        if (unused) throw Malformed(what + " has " + std::to_string(unused) + " bytes after its zlib data");
    }

    LoadBudget arrays_;
    unsigned char scratch_[1 << 16];
};

}  // namespace

void charge(LoadBudget& budget, double bytes, const std::string& what) {
    const std::string problem = budget.try_charge(bytes, what);
    if (!problem.empty()) throw Malformed(problem);
}

// Decodes a numeric array property into doubles (zlib-inflated where the file compressed it).
std::vector<double> as_doubles(const Prop& p, std::uint64_t max_memory) {
    int size = 0;
    switch (p.type) {
        case 'd': case 'l': size = 8; break;
        case 'f': case 'i': size = 4; break;
        case 'b': size = 1; break;
        default: throw Malformed("expected a numeric array");
    }
    const std::uint64_t raw_bytes = std::uint64_t(p.count) * size;
    if (raw_bytes > max_memory) throw Malformed(over_budget_message(double(raw_bytes), "an array", max_memory, 0));
    if (raw_bytes > (1ull << 31)) throw Malformed("an array of " + std::to_string(p.count) + " elements, past FBX's 2 GiB");
    std::vector<unsigned char> raw(raw_bytes);
    if (p.encoding == 0) {
        if (p.bytes != raw_bytes) throw Malformed("array size disagrees with its element count");
        if (raw_bytes) std::memcpy(raw.data(), p.data, raw_bytes);
    } else if (p.encoding == 1) {
        uLongf got = static_cast<uLongf>(raw_bytes);
        if (uncompress(raw.data(), &got, p.data, p.bytes) != Z_OK || got != raw_bytes)
            throw Malformed("array does not inflate to its element count");
    } else {
        throw Malformed("unknown array encoding");
    }
    std::vector<double> out(p.count);
    for (std::uint32_t i = 0; i < p.count; ++i) {
        const unsigned char* e = raw.data() + std::size_t(i) * size;
        switch (p.type) {
            case 'd': { double d; std::memcpy(&d, e, 8); out[i] = d; break; }
            case 'f': { float f; std::memcpy(&f, e, 4); out[i] = f; break; }
            case 'l': { std::int64_t v; std::memcpy(&v, e, 8); out[i] = double(v); break; }
            case 'i': { std::int32_t v; std::memcpy(&v, e, 4); out[i] = v; break; }
            default: out[i] = e[0]; break;
        }
    }
    return out;
}

bool matrix_of(const Record* r, std::uint64_t max_memory, Eigen::Matrix4d& m) {
    if (!r || r->props.empty()) return false;
    const std::vector<double> a = as_doubles(r->props[0], max_memory);
    if (a.size() != 16) return false;
    for (int c = 0; c < 4; ++c)  // FBX stores matrices column by column
        for (int row = 0; row < 4; ++row) m(row, c) = a[c * 4 + row];
    return true;
}

// "Name\0\1Class" (binary) or "Class::Name" (ASCII style) -> Name, as Assimp names its nodes.
std::string object_name(const Prop& p) {
    std::string s = p.str();
    const auto sep = s.find(std::string("\0\1", 2));
    if (sep != std::string::npos) return s.substr(0, sep);
    const auto colons = s.find("::");
    return colons == std::string::npos ? s : s.substr(colons + 2);
}

std::string object_class(const Record& r) { return r.props.size() > 2 && r.props[2].type == 'S' ? r.props[2].str() : ""; }
namespace {

// Assimp 5.2.5 drops a mesh whose polygon indices leave its control points, silently.
void check_polygons(const Record& geometry, const std::string& name, std::uint64_t max_memory) {
    const Record* v = geometry.child("Vertices");
    const Record* pvi = geometry.child("PolygonVertexIndex");
    if (!pvi || pvi->props.empty()) return;
    const std::string what = "geometry '" + name + "'";
    // Polygons without a Vertices record (a fuzzed name) index no control points at all: the
    // readers after this check take its range as given.
    std::int64_t points = 0;
    if (v && !v->props.empty()) {
        if (!element_size(v->props[0].type) || v->props[0].count % 3)
            throw Malformed(what + ": Vertices is not an array of x, y, z triples");
        points = v->props[0].count / 3;
    }
    const std::vector<double> idx = as_doubles(pvi->props[0], max_memory);
    for (std::size_t i = 0; i < idx.size(); ++i) {
        // A double array (ASCII, or a fuzzed binary type) may hold what no index is.
        if (!(std::fabs(idx[i]) < 4294967296.0) || idx[i] != std::floor(idx[i]))
            throw Malformed(what + ": polygon vertex index " + std::to_string(idx[i]) + " at position " + std::to_string(i) +
                            " is not an integer index");
        const std::int64_t k = static_cast<std::int64_t>(idx[i]);
        const std::int64_t point = k < 0 ? ~k : k;
        if (point >= points)
            throw Malformed(what + ": polygon vertex index " + std::to_string(point) + " at position " + std::to_string(i) +
                            " is past its " + std::to_string(points) + " control points");
    }
}

}  // namespace

RecordFile read_records(const std::string& path, std::uint64_t max_memory) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Malformed("cannot open the file");
    in.seekg(0, std::ios::end);
    const std::uint64_t size = static_cast<std::uint64_t>(in.tellg());
    if (size > max_memory) throw Malformed(over_budget_message(double(size), "the file", max_memory, 0));
    in.seekg(0);
    std::vector<unsigned char> buf(size);
    if (size && !in.read(reinterpret_cast<char*>(buf.data()), std::streamsize(size))) throw Malformed("cannot read the file");
    return records_from_bytes(std::move(buf), max_memory);
}

RecordFile records_from_bytes(std::vector<unsigned char> bytes, std::uint64_t max_memory) {
    RecordFile out;
    const std::uint64_t size = bytes.size();
    out.budget = LoadBudget("", max_memory);
    charge(out.budget, double(size), "the file");
    out.bytes = std::move(bytes);
    const std::vector<unsigned char>& buf = out.bytes;
    static const char magic[] = "Kaydara FBX Binary  ";
    if (size >= 18 && std::memcmp(buf.data(), magic, 18) == 0) {
        if (size < 27 || std::memcmp(buf.data(), magic, sizeof magic) != 0) throw Malformed("broken binary FBX header");
        out.binary = true;
        std::memcpy(&out.version, &buf[23], 4);
        out.top = Parser(buf, out.version >= 7500).top_level();
    } else {
        // ASCII FBX opens with its "; FBX 7.4.0 project file" comment or the FBXHeaderExtension block.
        const std::string head(reinterpret_cast<const char*>(buf.data()), std::min<std::size_t>(size, 1024));
        if (head.find("; FBX") == std::string::npos && head.find("FBXHeaderExtension") == std::string::npos)
            throw Malformed("not an FBX file (neither the binary FBX header nor an ASCII FBX header)");
        out.ascii = true;
        parse_ascii_records(out);
    }
    if (out.version < 6000)
        throw Malformed("FBX " + std::to_string(out.version / 1000) + "." + std::to_string(out.version / 100 % 10) + " (version " +
                        std::to_string(out.version) + ") is older than FBX 6 and not read: save it as FBX 6.1 or later");
    if (out.version < 7000) upgrade_v6(out);
    {
        auto check = std::make_unique<ArrayCheck>(out.budget);
        for (const Record& r : out.top) check->walk(r);
    }
    if (const Record* objects = out.section("Objects"))
        for (const Record& r : objects->children)
            if (r.name == "Geometry" && object_class(r) == "Mesh" && r.props.size() >= 2 && r.props[1].is_string())
                check_polygons(r, object_name(r.props[1]), max_memory);
    return out;
}

}  // namespace rigscope::fbx
