#include "io/gltf/gltf_document.h"
#include "io/gltf/gltf_extensions.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <sys/stat.h>

#include "rigscope/core/huge_pages.h"
#include "rigscope/core/error.h"

namespace rigscope::gltf {

namespace {

constexpr std::uint32_t kGlbMagic = 0x46546C67;  // "glTF"
constexpr std::uint32_t kChunkJson = 0x4E4F534A;
constexpr std::uint32_t kChunkBin = 0x004E4942;

std::uint32_t read_u32(const std::uint8_t* p) {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

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

int base64_value(unsigned char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
}

// Decodes base64; false on a character outside the alphabet, or anything but whitespace and at
// most two '=' after the padding starts (junk there would otherwise be silently dropped).
bool decode_base64(const std::string& in, std::size_t from, std::vector<std::uint8_t>& out) {
    out.clear();
    out.reserve((in.size() - from) * 3 / 4);
    std::uint32_t acc = 0;
    int bits = 0;
    for (std::size_t i = from; i < in.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(in[i]);
        if (c == '=') {
            int pads = 0;
            for (; i < in.size(); ++i) {
                if (in[i] == '=') ++pads;
                else if (in[i] != '\n' && in[i] != '\r' && in[i] != ' ') return false;
            }
            return pads <= 2;
        }
        if (c == '\n' || c == '\r' || c == ' ') continue;
        int v = base64_value(c);
        if (v < 0) return false;
        acc = (acc << 6) | static_cast<std::uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<std::uint8_t>((acc >> bits) & 0xFF));
        }
    }
    return true;
}

std::string percent_decode(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
            std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
            out.push_back(static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16)));
            i += 2;
        } else {
            out.push_back(s[i]);
        }
    }
    return out;
}

// Whether `file` (a URI made into a path) stays inside `dir`: lexically (no leading '/', no ".."
// climbing above the folder) and once symlinks are resolved (a link inside the folder may point
// anywhere). A file that does not exist yet is judged lexically; reading it then fails anyway.
bool inside_folder(const std::string& dir, const std::string& uri) {
    if (uri.empty() || uri[0] == '/' || uri[0] == '\\') return false;
    int depth = 0;
    std::size_t at = 0;
    while (at <= uri.size()) {
        std::size_t next = uri.find_first_of("/\\", at);
        if (next == std::string::npos) next = uri.size();
        const std::string part = uri.substr(at, next - at);
        if (part == "..") {
            if (--depth < 0) return false;
        } else if (!part.empty() && part != ".") {
            ++depth;
        }
        at = next + 1;
    }
    char* real_dir = realpath(dir.empty() ? "." : dir.c_str(), nullptr);
    char* real_file = realpath((dir + uri).c_str(), nullptr);
    bool inside = true;
    if (real_dir && real_file) {
        std::string d = real_dir;
        if (d.back() != '/') d += '/';
        inside = std::string(real_file).rfind(d, 0) == 0;
    }
    std::free(real_dir);
    std::free(real_file);
    return inside;
}

// Extensions rigscope reads or may ignore when a file requires them. KHR_mesh_quantization only
// widens the component types an attribute may use, which the accessor reader accepts anyway;
// the others change materials, textures or lights, none of which rigscope reads. Any other
// required extension (Draco, meshopt, GPU instancing, ...) changes geometry or animation in a
// way rigscope would silently get wrong.
bool extension_supported(const std::string& name) {
    for (const std::string& e : supported_extensions())
        if (name == e) return true;
    return name.rfind("KHR_materials_", 0) == 0 || name == "KHR_lights_punctual" || name == "EXT_texture_avif";
}

// A JSON number as an int (enums: componentType, mode), or -1: converting a double outside the
// int's range is undefined behaviour, and a file may hold any number there.
int small_int(double v) { return v >= 0 && v <= 1e6 && v == std::floor(v) ? static_cast<int>(v) : -1; }

// A file's number in a message: exact while it is a whole number a double holds exactly, else as
// JSON writes it (the cast alone is undefined behaviour past 2^64).
std::string number_text(double v) {
    if (v >= 0 && v < 9007199254740992.0 && v == std::floor(v)) return std::to_string(static_cast<std::uint64_t>(v));
    return json(v).dump();
}

// False for what is not a readable regular file; too_big is the file's size when it holds more
// than `limit` bytes (a URI may name a directory, a device or a huge unrelated file), else 0.
bool read_file(const std::string& path, std::vector<std::uint8_t>& out, std::uint64_t limit, std::uint64_t& too_big) {
    too_big = 0;
    struct stat st {};
    if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
    if (static_cast<std::uint64_t>(st.st_size) > limit) {
        too_big = static_cast<std::uint64_t>(st.st_size);
        return false;
    }
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    f.seekg(0, std::ios::end);
    std::streamoff size = f.tellg();
    if (size < 0 || static_cast<std::uint64_t>(size) > limit) return false;
    f.seekg(0);
    detail::reserve_huge(out, static_cast<std::size_t>(size));  // 2 MB pages: far fewer faults
    out.resize(static_cast<std::size_t>(size));
    return size == 0 || static_cast<bool>(f.read(reinterpret_cast<char*>(out.data()), size));
}

}  // namespace

void Document::fail(const std::string& problem) const { throw bad_input(path_, problem); }

void Document::charge(double bytes, const std::string& what) const {
    const std::string problem = budget_.try_charge(bytes, what);
    if (!problem.empty()) fail(problem);
}

void Document::check_fits(double bytes, const std::string& what) const {
    const std::string problem = budget_.check(bytes, what);
    if (!problem.empty()) fail(problem);
}

Document::Document(const std::string& path, std::uint64_t max_memory, bool allow_outside_uris)
    : path_(path), budget_(path, max_memory) {
    auto slash = path.find_last_of('/');
    dir_ = slash == std::string::npos ? "" : path.substr(0, slash + 1);

    std::vector<std::uint8_t> bytes;
    std::uint64_t too_big = 0;
    if (!read_file(path, bytes, budget_.left(), too_big)) {
        if (too_big) check_fits(double(too_big), "the file");
        fail("cannot read file");
    }
    charge(bytes.size(), "the file");
    std::vector<std::uint8_t> bin_chunk;
    bool has_bin = false;
    std::size_t bin_at = 0, bin_len = 0;
    std::string json_text;
    if (bytes.size() >= 4 && read_u32(bytes.data()) == kGlbMagic) {
        if (bytes.size() < 20) fail("truncated GLB: header shorter than 20 bytes");
        if (read_u32(bytes.data() + 4) != 2) fail("unsupported GLB version " + std::to_string(read_u32(bytes.data() + 4)));
        std::uint64_t declared = read_u32(bytes.data() + 8);
        if (declared > bytes.size()) fail("truncated GLB: header declares " + std::to_string(declared) + " bytes, file has " + std::to_string(bytes.size()));
        std::size_t at = 12;
        bool first = true;
        while (at + 8 <= declared) {
            std::uint64_t len = read_u32(bytes.data() + at);
            std::uint32_t type = read_u32(bytes.data() + at + 4);
            if (at + 8 + len > declared) fail("GLB chunk at byte " + std::to_string(at) + " runs past the end of the file");
            const auto* data = bytes.data() + at + 8;
            if (first) {
                if (type != kChunkJson) fail("GLB's first chunk is not JSON");
                json_text.assign(reinterpret_cast<const char*>(data), len);
            } else if (type == kChunkBin && !has_bin) {
                bin_at = at + 8;
                bin_len = len;
                has_bin = true;
            }
            first = false;
            at += 8 + len;
        }
        if (first) fail("GLB has no JSON chunk");
        if (has_bin) {
            // The binary chunk becomes buffer 0 in place (a memmove to the front): a copy would
            // hold the file twice in memory while it loads.
            bytes.erase(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(bin_at));
            bytes.resize(bin_len);
            bin_chunk = std::move(bytes);
        }
    } else {
        if (bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) != 0 && bytes[0] != '{' && bytes[0] != ' ' &&
            bytes[0] != '\n' && bytes[0] != '\r' && bytes[0] != '\t' && bytes[0] != 0xEF)
            fail("neither a GLB (wrong magic) nor glTF JSON");
        json_text.assign(bytes.begin(), bytes.end());
    }
    try {
        root_ = json::parse(json_text);
    } catch (const json::exception& e) {
        std::string what = e.what();
        if (auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
        fail("invalid JSON: " + what);
    }
    if (!root_.is_object()) fail("glTF JSON is not an object");
    const json& asset = root_.contains("asset") ? root_["asset"] : json();
    if (!asset.is_object()) fail("no 'asset' object: not a glTF 2.0 file");
    std::string version = string(asset, "version", "asset", "");
    if (version.rfind("2.", 0) != 0) fail("unsupported glTF version '" + version + "' (rigscope reads 2.x)");
    for (const json& e : array(root_, "extensionsRequired", "")) {
        if (!e.is_string()) fail("extensionsRequired: expected extension names");
        if (!extension_supported(e.get<std::string>()))
            fail("requires extension " + e.get<std::string>() + ", which rigscope does not implement");
    }

    const json& buffers = array(root_, "buffers", "");
    for (std::size_t i = 0; i < buffers.size(); ++i) {
        const std::string where = "buffers[" + std::to_string(i) + "]";
        const json& b = buffers[i];
        if (!b.is_object()) fail(where + ": expected an object");
        double declared = number(b, "byteLength", where, -1);
        if (declared < 0) fail(where + ": missing byteLength");
        check_fits(declared, where + " (byteLength " + number_text(declared) + ")");
        std::vector<std::uint8_t> data;
        if (is_meshopt_fallback(b)) {
            buffers_.emplace_back();  // room for meshopt's fallback: never read, never allocated
            continue;
        }
        if (!b.contains("uri")) {
            if (i != 0 || !has_bin) fail(where + ": no uri and no GLB binary chunk");
            data = std::move(bin_chunk);
        } else {
            std::string uri = string(b, "uri", where);
            if (uri.rfind("data:", 0) == 0) {
                auto comma = uri.find(',');
                if (comma == std::string::npos || uri.substr(0, comma).find(";base64") == std::string::npos)
                    fail(where + ": malformed data URI (expected data:...;base64,...)");
                if (!decode_base64(uri, comma + 1, data)) fail(where + ": malformed data URI (invalid base64)");
            } else {
                if (uri.find("://") != std::string::npos) fail(where + ": external URI '" + uri + "' is not a local file");
                if (!allow_outside_uris && !inside_folder(dir_, percent_decode(uri)))
                    fail(where + ": URI '" + uri + "' is absolute or leads outside the file's folder (--allow-outside-uris reads it)");
                std::string file = dir_ + percent_decode(uri);
                struct stat st {};
                if (stat(file.c_str(), &st) != 0) fail(where + ": buffer file '" + uri + "' not found");
                if (!read_file(file, data, budget_.left(), too_big)) {
                    if (too_big) check_fits(double(too_big), where + " (buffer file '" + uri + "')");
                    fail(where + ": cannot read buffer file '" + uri + "'");
                }
            }
            charge(data.size(), where);
        }
        if (data.size() < static_cast<std::size_t>(declared))
            fail(where + ": holds " + std::to_string(data.size()) + " bytes, byteLength says " + std::to_string(static_cast<std::uint64_t>(declared)));
        buffers_.push_back(std::move(data));
    }

    decode_meshopt_views(*this, root_, buffers_);
    decode_draco_primitives(*this, buffers_, decoded_);
    count_accessor_uses();

    // Images are not needed for geometry: a missing one is only worth a warning.
    const json& images = array(root_, "images", "");
    for (std::size_t i = 0; i < images.size(); ++i) {
        if (!images[i].is_object() || !images[i].contains("uri") || !images[i]["uri"].is_string()) continue;
        std::string uri = images[i]["uri"].get<std::string>();
        if (uri.rfind("data:", 0) == 0 || uri.find("://") != std::string::npos) continue;
        if (!allow_outside_uris && !inside_folder(dir_, percent_decode(uri)))
            fail("images[" + std::to_string(i) + "]: URI '" + uri + "' is absolute or leads outside the file's folder (--allow-outside-uris reads it)");
        struct stat st {};
        if (stat((dir_ + percent_decode(uri)).c_str(), &st) != 0)
            warnings.push_back(path_ + ": image '" + uri + "' not found (ignored: rigscope needs geometry only)");
    }
}

const json& Document::array(const json& parent, const char* key, const std::string& where) const {
    static const json empty = json::array();
    if (!parent.is_object() || !parent.contains(key)) return empty;
    const json& v = parent[key];
    if (!v.is_array()) fail((where.empty() ? "" : where + ".") + key + ": expected an array");
    return v;
}

std::vector<std::string> Document::extensions_used() const {
    std::vector<std::string> out;
    for (const json& e : array(root_, "extensionsUsed", ""))
        if (e.is_string()) out.push_back(e.get<std::string>());
    return out;
}

std::size_t Document::size_of(const char* key) const { return array(root_, key, "").size(); }

int Document::index(const json& obj, const char* key, const std::string& where, std::size_t bound, int fallback) const {
    if (!obj.is_object() || !obj.contains(key)) return fallback;
    const json& v = obj[key];
    if (!v.is_number_integer() && !v.is_number_unsigned()) fail(where + "." + key + ": expected an index");
    long long i = v.get<long long>();
    if (i < 0 || static_cast<unsigned long long>(i) >= bound)
        fail(where + "." + key + ": index " + std::to_string(i) + " out of range (" + std::to_string(bound) + " entries)");
    return static_cast<int>(i);
}

double Document::number(const json& obj, const char* key, const std::string& where, double fallback) const {
    if (!obj.is_object() || !obj.contains(key)) return fallback;
    const json& v = obj[key];
    if (!v.is_number()) fail(where + "." + key + ": expected a number");
    return v.get<double>();
}

std::string Document::string(const json& obj, const char* key, const std::string& where, const std::string& fallback) const {
    if (!obj.is_object() || !obj.contains(key)) return fallback;
    const json& v = obj[key];
    if (!v.is_string()) fail(where + "." + key + ": expected a string");
    return v.get<std::string>();
}

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

// Fast paths for tightly packed accessors whose conversion is exact (the large arrays: positions,
// indices, joints): one tight loop the compiler vectorises instead of a switch per component.
template <typename C, typename T>
void widen(const std::uint8_t* p, std::size_t n, T* out) {
    for (std::size_t i = 0; i < n; ++i) {
        C v;
        std::memcpy(&v, p + i * sizeof(C), sizeof(C));
        out[i] = static_cast<T>(v);
    }
}

bool packed_copy(const std::uint8_t* p, std::size_t n, int type, float* out) {
    if (type != 5126) return false;
    std::memcpy(out, p, n * sizeof(float));
    return true;
}

bool packed_copy(const std::uint8_t* p, std::size_t n, int type, std::uint32_t* out) {
    switch (type) {
        case 5121: widen<std::uint8_t>(p, n, out); return true;
        case 5123: widen<std::uint16_t>(p, n, out); return true;
        case 5125: widen<std::uint32_t>(p, n, out); return true;
        default: return false;
    }
}

}  // namespace

template <typename T, typename Convert>
std::vector<T> Document::read(int accessor, int* components, Convert convert) const {
    const Element e = element(accessor);
    if (components) *components = e.components;
    if (auto d = decoded_.find(accessor); d != decoded_.end()) {
        std::vector<T> out(d->second.values.size());
        for (std::size_t i = 0; i < out.size(); ++i) out[i] = convert(d->second.values[i]);
        return out;
    }
    const int csize = component_size(e.component_type);
    std::vector<T> out = detail::huge_vector<T>(e.count * e.components, T(0));
    if (e.base && e.stride == static_cast<std::size_t>(csize) * e.components && !e.normalized &&
        packed_copy(e.base, e.count * e.components, e.component_type, out.data())) {
        // Tightly packed and converted exactly: done without the per-component switch.
    } else if (e.base) {
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

// How often the file names each accessor where the scene reader reads it, so that an accessor
// named again is kept for its next use and one named once is freed as soon as its user is done.
void Document::count_accessor_uses() {
    const std::size_t n = size_of("accessors");
    uses_left_.assign(n, 0);
    auto use = [&](const json& obj, const char* key) {
        if (!obj.is_object() || !obj.contains(key) || !obj[key].is_number_unsigned()) return;
        const auto i = obj[key].get<std::uint64_t>();
        if (i < n) ++uses_left_[i];
    };
    auto use_all = [&](const json& obj) {
        if (!obj.is_object()) return;
        for (auto it = obj.begin(); it != obj.end(); ++it)
            if (it->is_number_unsigned() && it->get<std::uint64_t>() < n) ++uses_left_[it->get<std::uint64_t>()];
    };
    auto each = [](const json& obj, const char* key, auto&& fn) {
        if (obj.is_object() && obj.contains(key) && obj[key].is_array())
            for (const json& x : obj[key]) fn(x);
    };
    each(root_, "meshes", [&](const json& m) {
        each(m, "primitives", [&](const json& p) {
            if (p.is_object() && p.contains("attributes")) use_all(p["attributes"]);
            use(p, "indices");
            each(p, "targets", use_all);
        });
    });
    each(root_, "skins", [&](const json& s) { use(s, "inverseBindMatrices"); });
    each(root_, "animations", [&](const json& a) {
        each(a, "samplers", [&](const json& s) {
            use(s, "input");
            use(s, "output");
        });
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
    k.data = std::make_shared<const std::vector<T>>(read(&k.components));
    if (more) kept[accessor] = k;
    if (components) *components = k.components;
    return k.data;
}

Document::Floats Document::floats(int accessor, int* components) const {
    return shared<float>(accessor, components, floats_, [&](int* comps) {
        return read<float>(accessor, comps, [](double v) { return static_cast<float>(v); });
    });
}

Document::Uints Document::uints(int accessor, int* components) const {
    const Element e = element(accessor);
    if (e.component_type == 5126 || e.component_type == 5120 || e.component_type == 5122)
        fail("accessors[" + std::to_string(accessor) + "]: expected unsigned integers, found componentType " + std::to_string(e.component_type));
    // A decoded value may be anything the decoder produced: out of range becomes the largest
    // index, which every caller's range check then refuses (the cast alone would be undefined).
    return shared<std::uint32_t>(accessor, components, uints_, [&](int* comps) {
        return read<std::uint32_t>(accessor, comps, [](double v) {
            return v >= 0 && v <= 4294967295.0 ? static_cast<std::uint32_t>(v) : std::numeric_limits<std::uint32_t>::max();
        });
    });
}

std::size_t Document::accessor_count(int accessor) const { return element(accessor).count; }
int Document::accessor_components(int accessor) const { return element(accessor).components; }

}  // namespace rigscope::gltf
