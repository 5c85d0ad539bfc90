#include "io/gltf/gltf_extensions.h"

namespace rigscope::gltf {

const std::vector<std::string>& supported_extensions() {
    static const std::vector<std::string> names = {
        // Geometry: decoded or dequantized (gltf_meshopt.cpp, gltf_draco.cpp, gltf_document.cpp).
        "KHR_mesh_quantization", "EXT_meshopt_compression", "KHR_meshopt_compression", "KHR_draco_mesh_compression",
        // Appearance only: rigscope reads no material or texture, so these change nothing it reports.
        "KHR_texture_transform", "KHR_texture_basisu", "EXT_texture_webp", "KHR_materials_unlit", "KHR_materials_emissive_strength",
        "KHR_materials_clearcoat", "KHR_materials_transmission", "KHR_materials_volume", "KHR_materials_ior",
        "KHR_materials_specular", "KHR_materials_sheen", "KHR_materials_variants"};
    return names;
}

}  // namespace rigscope::gltf
