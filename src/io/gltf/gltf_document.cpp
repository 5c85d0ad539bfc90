// The glTF document: the constructor runs the three steps of a load, each in a file of its own
// as cgltf splits them (parse, load_buffers, validate): the container (gltf_container.cpp),
// the buffers (gltf_buffers.cpp) and the accessors (gltf_accessors.cpp). Here: the steps in
// order, the budget, and the typed JSON access every step and the scene reader use.
#include "io/gltf/gltf_document.h"
#include "io/gltf/gltf_extensions.h"

#include <cmath>

#include "rigscope/core/error.h"

namespace rigscope::gltf {

std::string number_text(double v) {
    if (v >= 0 && v < 9007199254740992.0 && v == std::floor(v)) return std::to_string(static_cast<std::uint64_t>(v));
    return json(v).dump();
}

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

    Bytes bytes, rest;
    if (!read_into(path, bytes, "the file", &rest)) fail("cannot read file");
    charge(double(bytes.size()) + double(rest.size()), "the file");
    Bytes bin_chunk;
    bool has_bin = false;
    parse_container(bytes, rest, bin_chunk, has_bin);
    load_buffers(std::move(bin_chunk), has_bin, allow_outside_uris);
    decode_meshopt_views(*this, root_, buffers_);
    decode_draco_primitives(*this, buffers_, decoded_);
    count_accessor_uses();
    check_images(allow_outside_uris);
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

}  // namespace rigscope::gltf
