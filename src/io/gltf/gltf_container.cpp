// The container step of a glTF load (cgltf's parse): a GLB's chunks or a .gltf's text, the
// JSON, its asset version and the extensions it requires.
#include "io/gltf/gltf_document.h"

#include <cstring>

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

}  // namespace

void Document::parse_container(Bytes& bytes, Bytes& rest, Bytes& bin_chunk,
                               bool& has_bin) {
    std::size_t bin_at = 0, bin_len = 0;
    std::string json_text;
    // The file is bytes then rest: a chunk header past the first part is read from the second.
    const std::size_t head = bytes.size(), file_size = head + rest.size();
    auto u32_at = [&](std::size_t at) {
        std::uint8_t b[4];
        for (int k = 0; k < 4; ++k) b[k] = at + k < head ? bytes[at + k] : rest[at + k - head];
        return read_u32(b);
    };
    if (bytes.size() >= 4 && read_u32(bytes.data()) == kGlbMagic) {
        if (file_size < 20) fail("truncated GLB: header shorter than 20 bytes");
        if (read_u32(bytes.data() + 4) != 2) fail("unsupported GLB version " + std::to_string(read_u32(bytes.data() + 4)));
        std::uint64_t declared = read_u32(bytes.data() + 8);
        if (declared > file_size) fail("truncated GLB: header declares " + std::to_string(declared) + " bytes, file has " + std::to_string(file_size));
        std::size_t at = 12;
        bool first = true;
        while (at + 8 <= declared) {
            std::uint64_t len = u32_at(at);
            std::uint32_t type = u32_at(at + 4);
            if (at + 8 + len > declared) fail("GLB chunk at byte " + std::to_string(at) + " runs past the end of the file");
            if (first) {
                if (type != kChunkJson) fail("GLB's first chunk is not JSON");
                // Within the first part: the split falls after the first chunk (glb_split).
                json_text.assign(reinterpret_cast<const char*>(bytes.data() + at + 8), len);
            } else if (type == kChunkBin && !has_bin) {
                bin_at = at + 8;
                bin_len = len;
                has_bin = true;
            }
            first = false;
            at += 8 + len;
        }
        if (first) fail("GLB has no JSON chunk");
        if (has_bin && bin_at == head) {
            // The binary chunk is the second part, as read: buffer 0 as it is.
            rest.resize(bin_len);
            bin_chunk = std::move(rest);
        } else if (has_bin) {
            // Elsewhere (a chunk before it, or a file read whole): the file in one array, then
            // the chunk moved to its front in place (a copy would hold the file twice in memory).
            bytes.insert(bytes.end(), rest.begin(), rest.end());
            Bytes().swap(rest);
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

}

}  // namespace rigscope::gltf
