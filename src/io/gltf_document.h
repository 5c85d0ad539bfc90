// The container layer of glTF 2.0: JSON, buffers (GLB chunk, data URI, external file), buffer
// views and accessors, each checked against its bounds before use. The scene conversion
// (gltf_reader.cpp) reads typed arrays through this and never touches raw bytes.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gltf_extensions.h"

namespace rigscope::gltf {

using nlohmann::json;

class Document {
public:
    // Reads a .gltf or .glb file and its buffers; throws rigscope::Error (exit 3).
    Document(const std::string& path, std::uint64_t max_memory);

    const json& root() const { return root_; }
    const std::string& path() const { return path_; }

    // Accessor contents converted to floats (normalised integers mapped to [0,1] / [-1,1]),
    // `components` per element; sparse accessors applied. Throws naming the accessor.
    std::vector<float> read_floats(int accessor, int* components = nullptr) const;
    // Accessor contents as unsigned integers (indices, joint indices).
    std::vector<std::uint32_t> read_uints(int accessor, int* components = nullptr) const;
    std::size_t accessor_count(int accessor) const;
    int accessor_components(int accessor) const;

    // Typed JSON access with errors that name the JSON path ("meshes[0].primitives").
    const json& array(const json& parent, const char* key, const std::string& where) const;  // [] if absent
    int index(const json& obj, const char* key, const std::string& where, std::size_t bound, int fallback = -1) const;
    double number(const json& obj, const char* key, const std::string& where, double fallback) const;
    std::string string(const json& obj, const char* key, const std::string& where, const std::string& fallback = "") const;
    std::size_t size_of(const char* key) const;  // number of entries in a top-level array
    // extensionsUsed as the file lists it (for `info`).
    std::vector<std::string> extensions_used() const;

    [[noreturn]] void fail(const std::string& problem) const;
    std::vector<std::string> warnings;

private:
    struct Element {
        const std::uint8_t* base = nullptr;  // null: an accessor without a buffer view (zeros)
        std::size_t stride = 0;
        int component_type = 0;
        int components = 0;
        bool normalized = false;
        std::size_t count = 0;
    };
    Element element(int accessor) const;
    template <typename T, typename Convert>
    std::vector<T> read(int accessor, int* components, Convert convert) const;

    std::string path_;
    std::string dir_;
    std::uint64_t max_memory_;
    json root_;
    std::vector<std::vector<std::uint8_t>> buffers_;
    DecodedAccessors decoded_;  // accessors filled by a decoder (Draco), not from a buffer view
};

}  // namespace rigscope::gltf
