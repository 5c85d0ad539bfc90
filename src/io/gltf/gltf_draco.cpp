// KHR_draco_mesh_compression through Debian's Draco (1.5.5). The extension names, per glTF
// attribute, the Draco attribute's unique id; the primitive's accessors keep their count,
// type and componentType, and are filled from the decoded mesh (never from their buffer view).
#include <cmath>
#include <limits>

#include <draco/compression/decode.h>
#include <draco/mesh/mesh.h>

#include "io/gltf/gltf_document.h"
#include "io/gltf/gltf_extensions.h"

namespace rigscope::gltf {

namespace {

constexpr const char* kDraco = "KHR_draco_mesh_compression";

// glTF's normalisation of an integer component (the same rule as uncompressed accessors).
double normalise(double v, int component_type) {
    switch (component_type) {
        case 5120: return std::max(v / 127.0, -1.0);
        case 5121: return v / 255.0;
        case 5122: return std::max(v / 32767.0, -1.0);
        case 5123: return v / 65535.0;
        default: return v;
    }
}

void store(const Document& doc, DecodedAccessors& out, int accessor, DecodedAccessor&& data, const std::string& where) {
    auto it = out.find(accessor);
    if (it != out.end() && it->second.values != data.values)
        doc.fail(where + ": accessor " + std::to_string(accessor) + " is decoded from two Draco buffers that disagree");
    out[accessor] = std::move(data);
}

}  // namespace

void decode_draco_primitives(const Document& doc, const Buffers& buffers, DecodedAccessors& out) {
    const nlohmann::json& root = doc.root();
    const nlohmann::json& meshes = doc.array(root, "meshes", "");
    const nlohmann::json& accessors = doc.array(root, "accessors", "");
    const nlohmann::json& views = doc.array(root, "bufferViews", "");
    for (std::size_t m = 0; m < meshes.size(); ++m) {
        const std::string mwhere = "meshes[" + std::to_string(m) + "]";
        const nlohmann::json& prims = doc.array(meshes[m], "primitives", mwhere);
        for (std::size_t p = 0; p < prims.size(); ++p) {
            const nlohmann::json& prim = prims[p];
            if (!prim.is_object() || !prim.contains("extensions") || !prim["extensions"].is_object() ||
                !prim["extensions"].contains(kDraco))
                continue;
            const std::string pwhere = mwhere + ".primitives[" + std::to_string(p) + "]";
            const std::string where = pwhere + ".extensions." + kDraco;
            const nlohmann::json& ext = prim["extensions"][kDraco];
            if (!ext.is_object()) doc.fail(where + ": expected an object");
            const double mode = doc.number(prim, "mode", pwhere, 4);
            if (mode != 4 && mode != 5) doc.fail(where + ": Draco primitives are triangles or strips, mode is " + nlohmann::json(mode).dump());
            const int view = doc.index(ext, "bufferView", where, views.size());
            if (view < 0) doc.fail(where + ": missing bufferView");
            const std::string vwhere = "bufferViews[" + std::to_string(view) + "]";
            const nlohmann::json& bv = views[view];
            const int buffer = doc.index(bv, "buffer", vwhere, buffers.size());
            const double offset = doc.number(bv, "byteOffset", vwhere, 0), length = doc.number(bv, "byteLength", vwhere, -1);
            if (buffer < 0 || !(offset >= 0 && length >= 0) || offset + length > static_cast<double>(buffers[buffer].size()))
                doc.fail(vwhere + ": Draco data past the end of its buffer, or no buffer");

            draco::DecoderBuffer input;
            input.Init(reinterpret_cast<const char*>(buffers[buffer].data()) + static_cast<std::size_t>(offset),
                       static_cast<std::size_t>(length));
            draco::Decoder decoder;
            auto decoded = decoder.DecodeMeshFromBuffer(&input);
            if (!decoded.ok()) doc.fail(where + ": Draco data does not decode (" + decoded.status().error_msg_string() + ")");
            const std::unique_ptr<draco::Mesh> mesh = std::move(decoded).value();
            const std::size_t points = mesh->num_points();

            if (!ext.contains("attributes") || !ext["attributes"].is_object()) doc.fail(where + ": missing attributes");
            const nlohmann::json& attrs = prim.contains("attributes") ? prim["attributes"] : nlohmann::json();
            for (auto it = ext["attributes"].begin(); it != ext["attributes"].end(); ++it) {
                const std::string awhere = where + ".attributes." + it.key();
                if (!it.value().is_number_unsigned()) doc.fail(awhere + ": expected a Draco attribute id");
                const draco::PointAttribute* attr = mesh->GetAttributeByUniqueId(it.value().get<std::uint32_t>());
                if (!attr) doc.fail(awhere + ": Draco data has no attribute " + std::to_string(it.value().get<std::uint32_t>()));
                const int acc = doc.index(attrs, it.key().c_str(), pwhere + ".attributes", accessors.size());
                if (acc < 0) doc.fail(awhere + ": the primitive has no " + it.key() + " accessor");
                const std::size_t count = doc.accessor_count(acc);
                const int comps = doc.accessor_components(acc);
                if (count != points)
                    doc.fail(awhere + ": Draco data holds " + std::to_string(points) + " points, accessors[" + std::to_string(acc) +
                             "] says " + std::to_string(count));
                if (attr->num_components() != comps)
                    doc.fail(awhere + ": Draco attribute has " + std::to_string(attr->num_components()) + " components, accessors[" +
                             std::to_string(acc) + "] " + std::to_string(comps));
                const nlohmann::json& a = accessors[acc];
                const int ctype = a.contains("componentType") && a["componentType"].is_number_integer() ? a["componentType"].get<int>() : 0;
                const bool normalized = a.contains("normalized") && a["normalized"].is_boolean() && a["normalized"].get<bool>();
                const bool integral = attr->data_type() != draco::DT_FLOAT32 && attr->data_type() != draco::DT_FLOAT64;
                if (!attr->is_mapping_identity() && attr->indices_map_size() < points)
                    doc.fail(awhere + ": Draco attribute maps " + std::to_string(attr->indices_map_size()) + " of " +
                             std::to_string(points) + " points");
                DecodedAccessor d;
                d.components = comps;
                d.values.resize(points * static_cast<std::size_t>(comps));
                double v[4] = {0, 0, 0, 0};
                std::int64_t iv[4] = {0, 0, 0, 0};
                for (std::size_t i = 0; i < points; ++i) {
                    const draco::AttributeValueIndex avi = attr->mapped_index(draco::PointIndex(static_cast<std::uint32_t>(i)));
                    if (avi.value() >= attr->size()) doc.fail(awhere + ": point " + std::to_string(i) + " maps past the attribute's values");
                    const bool ok = integral ? attr->ConvertValue<std::int64_t>(avi, static_cast<std::int8_t>(comps), iv)
                                             : attr->ConvertValue<double>(avi, static_cast<std::int8_t>(comps), v);
                    if (!ok) doc.fail(awhere + ": value " + std::to_string(i) + " does not convert");
                    for (int c = 0; c < comps; ++c) {
                        const double x = integral ? static_cast<double>(iv[c]) : v[c];
                        d.values[i * comps + c] = integral && normalized ? normalise(x, ctype) : x;
                    }
                }
                store(doc, out, acc, std::move(d), awhere);
            }

            const int indices = doc.index(prim, "indices", pwhere, accessors.size());
            const std::size_t faces = mesh->num_faces();
            if (indices < 0) {
                if (faces) doc.fail(where + ": Draco data has faces but the primitive has no indices accessor");
                continue;
            }
            if (doc.accessor_count(indices) != faces * 3)
                doc.fail(where + ": Draco data holds " + std::to_string(faces) + " triangles, accessors[" + std::to_string(indices) +
                         "] says " + std::to_string(doc.accessor_count(indices)) + " indices");
            DecodedAccessor d;
            d.components = 1;
            d.values.reserve(faces * 3);
            for (draco::FaceIndex f(0); f < mesh->num_faces(); ++f)
                for (int k = 0; k < 3; ++k) d.values.push_back(mesh->face(f)[k].value());
            store(doc, out, indices, std::move(d), where + ": indices");
        }
    }
}

}  // namespace rigscope::gltf
