// EXT_meshopt_compression and KHR_meshopt_compression through Debian's meshoptimizer (0.18).
// Every precondition the library asserts (strides, counts, filter widths) is checked here first:
// a file must get an error naming it, never an assertion or a read past the compressed bytes.
#include <cmath>
#include <cstring>
#include <meshoptimizer.h>

#include "rigscope/core/huge_pages.h"
#include "io/gltf/gltf_document.h"
#include "io/gltf/gltf_extensions.h"

namespace rigscope::gltf {

namespace {

constexpr const char* kExt = "EXT_meshopt_compression";
constexpr const char* kKhr = "KHR_meshopt_compression";

// The first byte of a vertex stream is 0xA0 | version; Debian's 0.18 decodes version 0 only,
// which is all EXT_ allows. KHR_ also allows version 1 (meshoptimizer 0.23 and later).
constexpr unsigned char kVertexHeader = 0xA0;

const nlohmann::json* meshopt_object(const nlohmann::json& obj, const char** name) {
    if (!obj.is_object() || !obj.contains("extensions") || !obj["extensions"].is_object()) return nullptr;
    for (const char* n : {kExt, kKhr})
        if (obj["extensions"].contains(n)) {
            if (name) *name = n;
            return &obj["extensions"][n];
        }
    return nullptr;
}

std::size_t whole(const Document& doc, const nlohmann::json& ext, const char* key, const std::string& where, double fallback) {
    const double v = doc.number(ext, key, where, fallback);
    if (!(v >= 0 && v <= 9007199254740992.0) || v != std::floor(v)) doc.fail(where + "." + key + ": missing or not a whole number");
    return static_cast<std::size_t>(v);
}

}  // namespace

bool is_meshopt_fallback(const nlohmann::json& buffer) {
    const nlohmann::json* ext = meshopt_object(buffer, nullptr);
    return ext && !buffer.contains("uri") && ext->is_object() && ext->contains("fallback") && (*ext)["fallback"].is_boolean() &&
           (*ext)["fallback"].get<bool>();
}

void decode_meshopt_views(const Document& doc, nlohmann::json& root, Buffers& buffers) {
    if (!root.contains("bufferViews") || !root["bufferViews"].is_array()) return;
    nlohmann::json& views = root["bufferViews"];
    const std::size_t original_buffers = buffers.size();
    for (std::size_t i = 0; i < views.size(); ++i) {
        const char* name = nullptr;
        const nlohmann::json* found = meshopt_object(views[i], &name);
        if (!found) continue;
        const nlohmann::json& ext = *found;
        const std::string where = "bufferViews[" + std::to_string(i) + "].extensions." + name;
        if (!ext.is_object()) doc.fail(where + ": expected an object");
        const int buffer = doc.index(ext, "buffer", where, original_buffers);
        if (buffer < 0) doc.fail(where + ": missing buffer");
        const std::size_t offset = whole(doc, ext, "byteOffset", where, 0);
        const std::size_t length = whole(doc, ext, "byteLength", where, -1);
        const std::size_t stride = whole(doc, ext, "byteStride", where, -1);
        const std::size_t count = whole(doc, ext, "count", where, -1);
        const std::string mode = doc.string(ext, "mode", where);
        const std::string filter = doc.string(ext, "filter", where, "NONE");
        if (offset + length > buffers[buffer].size() || offset + length < offset)
            doc.fail(where + ": byteOffset + byteLength (" + std::to_string(offset + length) + ") past the end of buffer " +
                     std::to_string(buffer) + " (" + std::to_string(buffers[buffer].size()) + " bytes)");
        if (mode == "ATTRIBUTES") {
            if (stride == 0 || stride > 256 || stride % 4 != 0)
                doc.fail(where + ": byteStride " + std::to_string(stride) + " invalid for ATTRIBUTES (a multiple of 4, at most 256)");
        } else if (mode == "TRIANGLES" || mode == "INDICES") {
            if (stride != 2 && stride != 4) doc.fail(where + ": byteStride " + std::to_string(stride) + " invalid for " + mode + " (2 or 4)");
            if (mode == "TRIANGLES" && count % 3 != 0) doc.fail(where + ": TRIANGLES count " + std::to_string(count) + " is not a multiple of 3");
        } else {
            doc.fail(where + ": unknown mode '" + mode + "' (ATTRIBUTES, TRIANGLES or INDICES)");
        }
        if (filter != "NONE") {
            if (mode != "ATTRIBUTES") doc.fail(where + ": filter " + filter + " on " + mode + " data (filters apply to ATTRIBUTES only)");
            if (filter == "OCTAHEDRAL") {
                if (stride != 4 && stride != 8) doc.fail(where + ": OCTAHEDRAL filter needs byteStride 4 or 8, not " + std::to_string(stride));
            } else if (filter == "QUATERNION") {
                if (stride != 8) doc.fail(where + ": QUATERNION filter needs byteStride 8, not " + std::to_string(stride));
            } else if (filter == "EXPONENTIAL") {
                // byteStride is a multiple of 4 already (ATTRIBUTES).
            } else if (filter == "COLOR") {
                doc.fail(where + ": the COLOR filter needs meshoptimizer 0.25 or later; this build has 0." +
                         std::to_string(MESHOPTIMIZER_VERSION / 10 % 100) + " (colours are not geometry: re-export without it)");
            } else {
                doc.fail(where + ": unknown filter '" + filter + "'");
            }
        }
        // The codecs' least cost: a byte per triangle or index, and for attributes two header
        // bits per 16 bytes of a byte lane (all-zero data), so at most 64 decoded bytes per
        // encoded byte (allowed 512, a margin). A count past that is a lie, refused before
        // allocating for it.
        const double most = mode == "TRIANGLES" ? 3.0 * static_cast<double>(length)
                            : mode == "INDICES" ? static_cast<double>(length)
                                                : static_cast<double>(length) * 512.0 / static_cast<double>(stride);
        if (static_cast<double>(count) > most)
            doc.fail(where + ": count " + std::to_string(count) + " cannot fit in " + std::to_string(length) + " compressed bytes");
        const double decoded_size = static_cast<double>(count) * static_cast<double>(stride);
        // Held as a buffer of the load, like the file's own.
        doc.charge(decoded_size, where + " (count " + std::to_string(count) + " x byteStride " + std::to_string(stride) + ", decoded)");

        const unsigned char* src = buffers[buffer].data() + offset;
        Bytes out;  // zero-filled, as the decoders may leave bytes unwritten
        out.reserve(count * stride);
        detail::advise_huge(out.data(), count * stride);
        out.assign(count * stride, 0);
        int rc = 0;
        if (mode == "ATTRIBUTES") {
            if (length > 0 && src[0] != kVertexHeader)
                doc.fail(where + ": vertex stream version " + std::to_string(src[0] & 0x0F) + ((src[0] & 0xF0) == kVertexHeader ?
                         " needs a newer meshoptimizer than this build's (it decodes version 0)" : " is not a meshopt vertex stream"));
            rc = meshopt_decodeVertexBuffer(out.data(), count, stride, src, length);
        } else if (mode == "TRIANGLES") {
            rc = meshopt_decodeIndexBuffer(out.data(), count, stride, src, length);
        } else {
            rc = meshopt_decodeIndexSequence(out.data(), count, stride, src, length);
        }
        if (rc != 0) doc.fail(where + ": corrupt or truncated " + mode + " stream (meshoptimizer error " + std::to_string(rc) + ")");
        if (filter == "OCTAHEDRAL") meshopt_decodeFilterOct(out.data(), count, stride);
        else if (filter == "QUATERNION") meshopt_decodeFilterQuat(out.data(), count, stride);
        else if (filter == "EXPONENTIAL") meshopt_decodeFilterExp(out.data(), count, stride);

        // The view now describes the decoded bytes; its own byteStride (attributes) still holds.
        nlohmann::json& view = views[i];
        view["buffer"] = buffers.size();
        view["byteOffset"] = 0;
        view["byteLength"] = count * stride;
        view["extensions"].erase(name);
        buffers.push_back(std::move(out));
    }
}

}  // namespace rigscope::gltf
