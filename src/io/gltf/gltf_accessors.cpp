// The accessors step of a glTF load (cgltf's validate and accessor reads): each accessor's
// type, count, view and stride checked against its buffer before it is read, then read (sparse
// applied, normalised integers mapped) into float or unsigned arrays, kept while the file names
// the accessor again.
#include "io/gltf/gltf_document.h"

#include <cmath>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <limits>

#include "rigscope/core/error.h"
#include "rigscope/core/huge_pages.h"

namespace rigscope::gltf {

namespace {

int component_size(int type) {
    switch (type) {
        case 5120: case 5121: return 1;  // BYTE, UNSIGNED_BYTE
        case 5122: case 5123: return 2;  // SHORT, UNSIGNED_SHORT
        case 5125: case 5126: return 4;  // UNSIGNED_INT, FLOAT
        default: return 0;
    }
}

int type_components(const std::string& type) {
    if (type == "SCALAR") return 1;
    if (type == "VEC2") return 2;
    if (type == "VEC3") return 3;
    if (type == "VEC4") return 4;
    if (type == "MAT2") return 4;
    if (type == "MAT3") return 9;
    if (type == "MAT4") return 16;
    return 0;
}

// A JSON number as an int (enums: componentType, mode), or -1: converting a double outside the
// int's range is undefined behaviour, and a file may hold any number there.
int small_int(double v) { return v >= 0 && v <= 1e6 && v == std::floor(v) ? static_cast<int>(v) : -1; }

}  // namespace

Document::Element Document::element(int accessor) const {
    const json& accessors = array(root_, "accessors", "");
    if (accessor < 0 || static_cast<std::size_t>(accessor) >= accessors.size())
        fail("accessor " + std::to_string(accessor) + " out of range");
    const std::string where = "accessors[" + std::to_string(accessor) + "]";
    const json& a = accessors[accessor];
    if (!a.is_object()) fail(where + ": expected an object");
    Element e;
    const double ctype = number(a, "componentType", where, 0);
    e.component_type = small_int(ctype);
    const int csize = component_size(e.component_type);
    if (csize == 0) fail(where + ": invalid componentType " + json(ctype).dump());
    e.components = type_components(string(a, "type", where));
    if (e.components == 0) fail(where + ": invalid type '" + string(a, "type", where) + "'");
    e.normalized = a.contains("normalized") && a["normalized"].is_boolean() && a["normalized"].get<bool>();
    double count = number(a, "count", where, -1);
    if (count < 0 || count != std::floor(count)) fail(where + ": missing or invalid count");
    check_fits(count * e.components * 4.0, where + " (count " + number_text(count) + ")");
    e.count = static_cast<std::size_t>(count);
    const std::size_t elem_size = static_cast<std::size_t>(csize) * e.components;
    int view = index(a, "bufferView", where, size_of("bufferViews"));
    if (view < 0) return e;  // all zeros (sparse may fill it)
    const std::string vwhere = "bufferViews[" + std::to_string(view) + "]";
    const json& bv = root_["bufferViews"][view];
    int buffer = index(bv, "buffer", vwhere, buffers_.size());
    if (buffer < 0) fail(vwhere + ": missing buffer");
    const double view_offset = number(bv, "byteOffset", vwhere, 0);
    const double view_length = number(bv, "byteLength", vwhere, -1);
    if (view_length < 0 || view_offset < 0) fail(vwhere + ": missing or negative byteLength/byteOffset");
    if (view_offset + view_length > static_cast<double>(buffers_[buffer].size()))
        fail(vwhere + ": byteOffset + byteLength (" + number_text(view_offset + view_length) +
             ") past the end of buffer " + std::to_string(buffer) + " (" + std::to_string(buffers_[buffer].size()) + " bytes)");
    const double stride = number(bv, "byteStride", vwhere, 0);
    if (!(stride >= 0 && stride <= 252)) fail(vwhere + ": byteStride " + json(stride).dump() + " out of range (4 to 252)");
    e.stride = stride > 0 ? static_cast<std::size_t>(stride) : elem_size;
    if (e.stride < elem_size) fail(vwhere + ": byteStride " + std::to_string(e.stride) + " smaller than the element size");
    const double acc_offset = number(a, "byteOffset", where, 0);
    if (acc_offset < 0) fail(where + ": negative byteOffset");
    if (e.count == 0) return e;  // nothing to read, and the offset may point anywhere
    if (acc_offset + double(e.count - 1) * e.stride + elem_size > view_length)
        fail(where + ": " + std::to_string(e.count) + " elements run past the end of " + vwhere);
    e.base = buffers_[buffer].data() + static_cast<std::size_t>(view_offset + acc_offset);
    return e;
}

namespace {

double component(const std::uint8_t* p, int type, bool normalized) {
    switch (type) {
        case 5120: { std::int8_t v; std::memcpy(&v, p, 1); return normalized ? std::max(v / 127.0, -1.0) : v; }
        case 5121: { std::uint8_t v = *p; return normalized ? v / 255.0 : v; }
        case 5122: { std::int16_t v; std::memcpy(&v, p, 2); return normalized ? std::max(v / 32767.0, -1.0) : v; }
        case 5123: { std::uint16_t v; std::memcpy(&v, p, 2); return normalized ? v / 65535.0 : v; }
        case 5125: { std::uint32_t v; std::memcpy(&v, p, 4); return v; }
        case 5126: { float v; std::memcpy(&v, p, 4); return v; }
        default: return 0;
    }
}

}  // namespace

namespace {

// A tightly packed run of C in a buffer's bytes as a range of C (read by memcpy: the bytes need
// no alignment), so that an array is built from it by one assign, never zero-filled first.
template <typename C>
struct PackedIter {
    using iterator_category = std::random_access_iterator_tag;
    using value_type = C;
    using difference_type = std::ptrdiff_t;
    using pointer = const C*;
    using reference = C;
    const std::uint8_t* p;
    C operator*() const {
        C v;
        std::memcpy(&v, p, sizeof(C));
        return v;
    }
    C operator[](difference_type i) const { return *(*this + i); }
    PackedIter& operator++() { p += sizeof(C); return *this; }
    PackedIter operator++(int) { PackedIter o = *this; p += sizeof(C); return o; }
    PackedIter& operator--() { p -= sizeof(C); return *this; }
    PackedIter& operator+=(difference_type n) { p += n * difference_type(sizeof(C)); return *this; }
    PackedIter operator+(difference_type n) const { return PackedIter{p + n * difference_type(sizeof(C))}; }
    difference_type operator-(const PackedIter& o) const { return (p - o.p) / difference_type(sizeof(C)); }
    bool operator==(const PackedIter& o) const { return p == o.p; }
    bool operator!=(const PackedIter& o) const { return p != o.p; }
    bool operator<(const PackedIter& o) const { return p < o.p; }
};

template <typename C, typename T>
void assign_packed(const std::uint8_t* p, std::size_t n, std::vector<T>& out) {
    out.clear();  // keeps the capacity reserved for it
    out.assign(PackedIter<C>{p}, PackedIter<C>{p + n * sizeof(C)});
}

// Fast paths for tightly packed accessors whose conversion is exact (the large arrays: positions,
// indices, joints): one tight loop the compiler vectorises instead of a switch per component,
// writing each element once (zero-filling first was a second pass over fresh pages).
bool packed_assign(const std::uint8_t* p, std::size_t n, int type, std::vector<float>& out) {
    if (type != 5126) return false;
    assign_packed<float>(p, n, out);
    return true;
}

bool packed_assign(const std::uint8_t* p, std::size_t n, int type, std::vector<std::uint32_t>& out) {
    switch (type) {
        case 5121: assign_packed<std::uint8_t>(p, n, out); return true;
        case 5123: assign_packed<std::uint16_t>(p, n, out); return true;
        case 5125: assign_packed<std::uint32_t>(p, n, out); return true;
        default: return false;
    }
}

}  // namespace

template <typename T, typename Convert>
std::vector<T> Document::read_element(int accessor, const Element& e, Convert convert, std::vector<T> room) const {
    if (auto d = decoded_.find(accessor); d != decoded_.end()) {
        std::vector<T> out(d->second.values.size());
        for (std::size_t i = 0; i < out.size(); ++i) out[i] = convert(d->second.values[i]);
        return out;
    }
    const int csize = component_size(e.component_type);
    std::vector<T> out = std::move(room);
    if (out.capacity() < e.count * e.components) detail::reserve_huge(out, e.count * e.components);
    if (e.base && e.stride == static_cast<std::size_t>(csize) * e.components && !e.normalized &&
        packed_assign(e.base, e.count * e.components, e.component_type, out)) {
        // Tightly packed and converted exactly: done without the per-component switch.
    } else if (out.assign(e.count * e.components, T(0)); e.base) {
        for (std::size_t i = 0; i < e.count; ++i)
            for (int c = 0; c < e.components; ++c)
                out[i * e.components + c] = convert(component(e.base + i * e.stride + c * csize, e.component_type, e.normalized));
    }
    const json& a = root_["accessors"][accessor];
    if (a.contains("sparse")) {
        const std::string where = "accessors[" + std::to_string(accessor) + "].sparse";
        const json& s = a["sparse"];
        if (!s.is_object() || !s.contains("indices") || !s.contains("values")) fail(where + ": expected indices and values");
        const double count = number(s, "count", where, 0);
        if (!(count >= 0 && count <= static_cast<double>(e.count)) || count != std::floor(count))
            fail(where + ".count: " + json(count).dump() + " is not a count from 0 to the accessor's " + std::to_string(e.count));
        const std::size_t n = static_cast<std::size_t>(count);
        auto view_bytes = [&](const json& part, const std::string& pw, std::size_t need) {
            int view = index(part, "bufferView", pw, size_of("bufferViews"));
            if (view < 0) fail(pw + ": missing bufferView");
            const json& bv = root_["bufferViews"][view];
            int buffer = index(bv, "buffer", "bufferViews[" + std::to_string(view) + "]", buffers_.size());
            const double view_offset = number(bv, "byteOffset", "bufferViews", 0), part_offset = number(part, "byteOffset", pw, 0);
            if (!(view_offset >= 0 && part_offset >= 0)) fail(pw + ": negative byteOffset");
            const double off = view_offset + part_offset;
            if (buffer < 0 || off + need > buffers_[buffer].size()) fail(pw + ": runs past the end of its buffer");
            return buffers_[buffer].data() + static_cast<std::size_t>(off);
        };
        const json& ind = s["indices"];
        const int itype = small_int(number(ind, "componentType", where + ".indices", 0));
        const int isize = component_size(itype);
        // Unsigned types only: a negative index would convert to a huge size_t.
        if (itype != 5121 && itype != 5123 && itype != 5125) fail(where + ".indices: invalid componentType");
        const auto* ip = view_bytes(ind, where + ".indices", n * isize);
        const auto* vp = view_bytes(s["values"], where + ".values", n * e.components * csize);
        for (std::size_t k = 0; k < n; ++k) {
            const auto target = static_cast<std::size_t>(component(ip + k * isize, itype, false));
            if (target >= e.count) fail(where + ": index " + std::to_string(target) + " out of range");
            for (int c = 0; c < e.components; ++c)
                out[target * e.components + c] = convert(component(vp + (k * e.components + c) * csize, e.component_type, e.normalized));
        }
    }
    return out;
}

namespace {

// Calls use(i) for every accessor index `obj[key]` names below n (a value that is not one is
// left to the reader, which refuses it).
template <typename Use>
void use_key(const json& obj, const char* key, std::size_t n, Use&& use) {
    if (!obj.is_object() || !obj.contains(key) || !obj[key].is_number_unsigned()) return;
    const auto i = obj[key].get<std::uint64_t>();
    if (i < n) use(static_cast<std::size_t>(i));
}

template <typename Use>
void use_all(const json& obj, std::size_t n, Use&& use) {
    if (!obj.is_object()) return;
    for (auto it = obj.begin(); it != obj.end(); ++it)
        if (it->is_number_unsigned() && it->get<std::uint64_t>() < n) use(static_cast<std::size_t>(it->get<std::uint64_t>()));
}

template <typename Fn>
void each(const json& obj, const char* key, Fn&& fn) {
    if (obj.is_object() && obj.contains(key) && obj[key].is_array())
        for (const json& x : obj[key]) fn(x);
}

// The accessors a glTF mesh's primitives name (attributes, indices, targets), each as often as
// it is named.
template <typename Use>
void each_mesh_accessor(const json& m, std::size_t n, Use&& use) {
    each(m, "primitives", [&](const json& p) {
        if (p.is_object() && p.contains("attributes")) use_all(p["attributes"], n, use);
        use_key(p, "indices", n, use);
        each(p, "targets", [&](const json& t) { use_all(t, n, use); });
    });
}

}  // namespace

// How often the file names each accessor where the scene reader reads it, so that an accessor
// named again is kept for its next use and one named once is freed as soon as its user is done.
void Document::count_accessor_uses() {
    const std::size_t n = size_of("accessors");
    uses_left_.assign(n, 0);
    auto use = [&](std::size_t i) { ++uses_left_[i]; };
    each(root_, "meshes", [&](const json& m) { each_mesh_accessor(m, n, use); });
    each(root_, "skins", [&](const json& s) { use_key(s, "inverseBindMatrices", n, use); });
    each(root_, "animations", [&](const json& a) {
        each(a, "samplers", [&](const json& s) {
            use_key(s, "input", n, use);
            use_key(s, "output", n, use);
        });
    });
}

void Document::skip_mesh_accessors(int mesh) {
    const json& meshes = array(root_, "meshes", "");
    if (mesh < 0 || static_cast<std::size_t>(mesh) >= meshes.size()) return;
    each_mesh_accessor(meshes[mesh], uses_left_.size(), [&](std::size_t i) {
        if (uses_left_[i] > 0) --uses_left_[i];
    });
}

template <typename T, typename Read>
std::shared_ptr<const std::vector<T>> Document::shared(int accessor, int* components, std::map<int, Kept<T>>& kept, Read read) const {
    const bool counted = accessor >= 0 && static_cast<std::size_t>(accessor) < uses_left_.size();
    if (counted && uses_left_[accessor] > 0) --uses_left_[accessor];
    const bool more = counted && uses_left_[accessor] > 0;
    auto it = kept.find(accessor);
    if (it != kept.end()) {
        Kept<T> k = it->second;
        if (!more) kept.erase(it);
        if (components) *components = k.components;
        return k.data;
    }
    const Element e = element(accessor);
    charge(double(e.count) * e.components * sizeof(T), "accessors[" + std::to_string(accessor) + "]");
    Kept<T> k;
    k.components = e.components;
    std::vector<T> data;
    if (!take_prefetched(accessor, data)) data = read(e);
    // Made mutable, held as const: release() may move it out once nothing else holds it.
    k.data = std::make_shared<std::vector<T>>(std::move(data));
    if (more) kept[accessor] = k;
    if (components) *components = k.components;
    return k.data;
}

std::vector<float> Document::convert_floats(int accessor, const Element& e, std::vector<float> room) const {
    return read_element<float>(accessor, e, [](double v) { return static_cast<float>(v); }, std::move(room));
}

// A decoded value may be anything the decoder produced: out of range becomes the largest
// index, which every caller's range check then refuses (the cast alone would be undefined).
std::vector<std::uint32_t> Document::convert_uints(int accessor, const Element& e, std::vector<std::uint32_t> room) const {
    return read_element<std::uint32_t>(accessor, e, [](double v) {
        return v >= 0 && v <= 4294967295.0 ? static_cast<std::uint32_t>(v) : std::numeric_limits<std::uint32_t>::max();
    }, std::move(room));
}

Document::Floats Document::floats(int accessor, int* components) const {
    return shared<float>(accessor, components, floats_, [&](const Element& e) { return convert_floats(accessor, e); });
}

Document::Uints Document::uints(int accessor, int* components) const {
    const Element e = element(accessor);
    if (e.component_type == 5126 || e.component_type == 5120 || e.component_type == 5122)
        fail("accessors[" + std::to_string(accessor) + "]: expected unsigned integers, found componentType " + std::to_string(e.component_type));
    return shared<std::uint32_t>(accessor, components, uints_, [&](const Element& e) { return convert_uints(accessor, e); });
}

bool Document::release(Uints& u, std::vector<std::uint32_t>& out) {
    if (!u || u.use_count() != 1) return false;
    // Every Uints is made as a mutable vector (shared(), primitive_triangles) and shared as
    // const: the sole holder may take it.
    out = std::move(const_cast<std::vector<std::uint32_t>&>(*u));
    u.reset();
    return true;
}

std::size_t Document::accessor_count(int accessor) const { return element(accessor).count; }
int Document::accessor_components(int accessor) const { return element(accessor).components; }
}  // namespace rigscope::gltf
