// glTF extensions that change how geometry is stored (compression, quantization): which ones
// rigscope reads, and the decoders the container layer (gltf_document.cpp) calls once, at load,
// so that the scene conversion sees plain accessors whatever the file used.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rigscope/core/scene.h"
#include "rigscope/core/uninit_allocator.h"

namespace rigscope::gltf {

class Document;

// A buffer's bytes, and the document's buffers. Grown without writing the new bytes
// (UninitAllocator, core/uninit_allocator.h): a file's bytes are read over them at once, and zeroing them
// first was a pass over the whole file (the bench tube's 17.8 MB, 3% of its load's samples in
// memset, over pages the kernel had just zeroed).
using Bytes = std::vector<std::uint8_t, UninitAllocator<std::uint8_t>>;
using Buffers = std::vector<Bytes>;

// Extensions rigscope implements (a file that lists one of these in extensionsRequired is read).
// Besides the geometry ones, extensions that only concern materials and textures: rigscope
// reads geometry only, so ignoring them changes no number it reports.
const std::vector<std::string>& supported_extensions();

// True for a buffer that only reserves room for meshopt's uncompressed fallback (no uri, no data).
bool is_meshopt_fallback(const nlohmann::json& buffer);

// EXT_meshopt_compression / KHR_meshopt_compression: decodes every compressed buffer view,
// appends the bytes to `buffers` and points the view at them. Checks every count and stride
// against the compressed data, the library's limits and the load's budget before decoding.
void decode_meshopt_views(const Document& doc, nlohmann::json& root, Buffers& buffers);

// Accessor contents that come from a decoder rather than a buffer view (Draco), as doubles in
// the accessor's own units (normalised integers already mapped to [0,1] / [-1,1]).
struct DecodedAccessor {
    int components = 0;
    std::vector<double> values;
};
using DecodedAccessors = std::map<int, DecodedAccessor>;

// KHR_draco_mesh_compression: decodes every compressed primitive; its attribute and index
// accessors are filled from the Draco mesh, each checked against the accessor's count and type.
void decode_draco_primitives(const Document& doc, const Buffers& buffers, DecodedAccessors& out);

// Skinned meshes stored in quantized units with the dequantization folded into the inverse bind
// matrices (gltfpack): moves it back into the mesh, so that the stored mesh is the bind pose.
void move_dequantization_into_meshes(Scene& scene);

}  // namespace rigscope::gltf
