#include "io/writers/glb_builder.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace rigscope::gltf {

namespace {

constexpr int kUnsignedByte = 5121;
constexpr int kUnsignedShort = 5123;
constexpr int kUnsignedInt = 5125;
constexpr int kFloat = 5126;

constexpr std::uint32_t kGlbMagic = 0x46546C67;  // "glTF"
constexpr std::uint32_t kChunkJson = 0x4E4F534A;
constexpr std::uint32_t kChunkBin = 0x004E4942;

const char* type_name(int components) {
    switch (components) {
        case 1: return "SCALAR";
        case 2: return "VEC2";
        case 3: return "VEC3";
        case 4: return "VEC4";
        case 16: return "MAT4";
        default: throw std::invalid_argument("glTF accessor with " + std::to_string(components) + " components");
    }
}

// Per-component min and max, as the doubles of the stored floats so the JSON matches the data
// bit for bit (the validator compares them exactly).
void bounds(const float* data, std::size_t count, int components, json& min, json& max) {
    std::vector<float> lo(components, std::numeric_limits<float>::infinity());
    std::vector<float> hi(components, -std::numeric_limits<float>::infinity());
    for (std::size_t i = 0; i < count; ++i)
        for (int c = 0; c < components; ++c) {
            const float v = data[i * components + c];
            lo[c] = std::min(lo[c], v);
            hi[c] = std::max(hi[c], v);
        }
    min = json::array();
    max = json::array();
    for (int c = 0; c < components; ++c) {
        min.push_back(static_cast<double>(lo[c]));
        max.push_back(static_cast<double>(hi[c]));
    }
}

void append_u32(std::string& out, std::uint32_t v) {
    char b[4];
    std::memcpy(b, &v, 4);  // GLB is little-endian, as are the machines rigscope runs on
    out.append(b, 4);
}

}  // namespace

GlbBuilder::GlbBuilder() {
    root_ = json::object();
    root_["asset"] = {{"version", "2.0"}, {"generator", "rigscope"}};
}

int GlbBuilder::append(const char* name, json value) {
    json& list = root_[name];
    if (!list.is_array()) list = json::array();
    list.push_back(std::move(value));
    return static_cast<int>(list.size()) - 1;
}

int GlbBuilder::add_view(const void* data, std::size_t bytes, ViewTarget target) {
    // Every view starts on a 4-byte boundary, which satisfies every component type's alignment
    // and the vertex-attribute rule that elements start on multiples of 4.
    bin_.resize((bin_.size() + 3) & ~std::size_t(3), '\0');
    json view = {{"buffer", 0}, {"byteLength", bytes}};
    if (!bin_.empty()) view["byteOffset"] = bin_.size();
    if (target != kNoTarget) view["target"] = static_cast<int>(target);
    bin_.append(static_cast<const char*>(data), bytes);
    return append("bufferViews", std::move(view));
}

int GlbBuilder::add_accessor(json accessor) { return append("accessors", std::move(accessor)); }

int GlbBuilder::add_floats(const float* data, std::size_t count, int components, ViewTarget target, bool with_bounds) {
    json a = {{"bufferView", add_view(data, count * components * sizeof(float), target)},
              {"componentType", kFloat},
              {"count", count},
              {"type", type_name(components)}};
    if (with_bounds) bounds(data, count, components, a["min"], a["max"]);
    return add_accessor(std::move(a));
}

int GlbBuilder::add_indices(const std::vector<std::uint32_t>& indices, std::size_t vertex_count) {
    json a = {{"componentType", kUnsignedInt}, {"count", indices.size()}, {"type", "SCALAR"}};
    if (vertex_count <= 65535) {
        std::vector<std::uint16_t> narrow(indices.begin(), indices.end());
        a["bufferView"] = add_view(narrow.data(), narrow.size() * 2, kElementArrayBuffer);
        a["componentType"] = kUnsignedShort;
    } else {
        a["bufferView"] = add_view(indices.data(), indices.size() * 4, kElementArrayBuffer);
    }
    return add_accessor(std::move(a));
}

int GlbBuilder::add_joints(const std::vector<std::uint16_t>& joints, bool as_bytes) {
    json a = {{"count", joints.size() / 4}, {"type", "VEC4"}};
    if (as_bytes) {
        std::vector<std::uint8_t> narrow(joints.begin(), joints.end());
        a["bufferView"] = add_view(narrow.data(), narrow.size(), kArrayBuffer);
        a["componentType"] = kUnsignedByte;
    } else {
        a["bufferView"] = add_view(joints.data(), joints.size() * 2, kArrayBuffer);
        a["componentType"] = kUnsignedShort;
    }
    return add_accessor(std::move(a));
}

int GlbBuilder::add_deltas(const std::vector<float>& deltas) {
    const std::size_t count = deltas.size() / 3;
    std::vector<std::uint32_t> moved;
    for (std::size_t v = 0; v < count; ++v)
        if (deltas[3 * v] != 0.0f || deltas[3 * v + 1] != 0.0f || deltas[3 * v + 2] != 0.0f)
            moved.push_back(static_cast<std::uint32_t>(v));
    const bool wide = count > 65536;
    const std::size_t index_size = wide ? 4 : 2;
    if (moved.size() * (index_size + 12) >= count * 12)
        return add_floats(deltas.data(), count, 3, kArrayBuffer, true);

    json a = {{"componentType", kFloat}, {"count", count}, {"type", "VEC3"}};
    bounds(deltas.data(), count, 3, a["min"], a["max"]);
    // No bufferView: the accessor starts as zeros, and a target that moves nothing needs no data.
    if (!moved.empty()) {
        std::vector<float> values;
        values.reserve(moved.size() * 3);
        for (std::uint32_t v : moved) values.insert(values.end(), &deltas[3 * v], &deltas[3 * v] + 3);
        json indices = {{"componentType", wide ? kUnsignedInt : kUnsignedShort}};
        if (wide) {
            indices["bufferView"] = add_view(moved.data(), moved.size() * 4, kNoTarget);
        } else {
            std::vector<std::uint16_t> narrow(moved.begin(), moved.end());
            indices["bufferView"] = add_view(narrow.data(), narrow.size() * 2, kNoTarget);
        }
        a["sparse"] = {{"count", moved.size()},
                       {"indices", std::move(indices)},
                       {"values", {{"bufferView", add_view(values.data(), values.size() * 4, kNoTarget)}}}};
    }
    return add_accessor(std::move(a));
}

void GlbBuilder::write(OutputFile& out) {
    bin_.resize((bin_.size() + 3) & ~std::size_t(3), '\0');
    if (!bin_.empty()) root_["buffers"] = json::array({{{"byteLength", bin_.size()}}});
    std::string text = root_.dump(-1, ' ', false, json::error_handler_t::replace);
    text.resize((text.size() + 3) & ~std::size_t(3), ' ');  // the spec pads the JSON chunk with spaces

    const std::uint64_t total = 12 + 8 + text.size() + (bin_.empty() ? 0 : 8 + bin_.size());
    if (total > std::numeric_limits<std::uint32_t>::max())
        throw std::length_error("glTF binary would be " + std::to_string(total >> 20) + " MiB, over GLB's 4 GiB limit");
    std::string head;
    append_u32(head, kGlbMagic);
    append_u32(head, 2);
    append_u32(head, static_cast<std::uint32_t>(total));
    append_u32(head, static_cast<std::uint32_t>(text.size()));
    append_u32(head, kChunkJson);
    out.write(head);
    out.write(text);
    if (bin_.empty()) return;
    head.clear();
    append_u32(head, static_cast<std::uint32_t>(bin_.size()));
    append_u32(head, kChunkBin);
    out.write(head);
    // In slices, so OutputFile's buffer stays at its block size instead of copying the whole chunk.
    constexpr std::size_t kSlice = 1 << 20;
    for (std::size_t at = 0; at < bin_.size(); at += kSlice)
        out.write(std::string_view(bin_).substr(at, kSlice));
}

}  // namespace rigscope::gltf
