// KHR_mesh_quantization: every component type the extension allows for POSITION, morph-target
// POSITION deltas, JOINTS and WEIGHTS, read back exactly as the extension's dequantization rule
// says (glTF 2.0 3.11: normalized signed max(c / (2^(n-1) - 1), -1), unsigned c / (2^n - 1);
// not normalized: the integer's value). Expected values are that rule applied here, per value.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>
#include <vector>

#include "rigscope/io/load.h"

using namespace rigscope;
using nlohmann::json;

namespace {

struct Type {
    int component_type;
    bool normalized;
    int size;
};

double rule(double c, const Type& t) {
    if (!t.normalized) return c;
    switch (t.component_type) {
        case 5120: return std::max(c / 127.0, -1.0);
        case 5121: return c / 255.0;
        case 5122: return std::max(c / 32767.0, -1.0);
        case 5123: return c / 65535.0;
    }
    return c;
}

void put(std::vector<std::uint8_t>& bin, double v, int type) {
    std::uint8_t b[4];
    switch (type) {
        case 5120: { auto x = static_cast<std::int8_t>(v); std::memcpy(b, &x, 1); break; }
        case 5121: { auto x = static_cast<std::uint8_t>(v); std::memcpy(b, &x, 1); break; }
        case 5122: { auto x = static_cast<std::int16_t>(v); std::memcpy(b, &x, 2); break; }
        case 5123: { auto x = static_cast<std::uint16_t>(v); std::memcpy(b, &x, 2); break; }
        default: { auto x = static_cast<float>(v); std::memcpy(b, &x, 4); break; }
    }
    const int size = type == 5120 || type == 5121 ? 1 : type == 5122 || type == 5123 ? 2 : 4;
    bin.insert(bin.end(), b, b + size);
}

std::string base64(const std::vector<std::uint8_t>& in) {
    static const char* abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (std::size_t i = 0; i < in.size(); i += 3) {
        const std::size_t n = std::min<std::size_t>(3, in.size() - i);
        std::uint32_t v = static_cast<std::uint32_t>(in[i]) << 16;
        if (n > 1) v |= static_cast<std::uint32_t>(in[i + 1]) << 8;
        if (n > 2) v |= in[i + 2];
        for (std::size_t k = 0; k < 4; ++k) out += k <= n ? abc[(v >> (18 - 6 * k)) & 63] : '=';
    }
    return out;
}

// Adds a vertex-attribute accessor, elements padded to a 4-byte stride as glTF requires.
int add_accessor(json& doc, std::vector<std::uint8_t>& bin, const std::vector<double>& values, int comps, const Type& t) {
    const int elem = comps * t.size, stride = (elem + 3) / 4 * 4;
    while (bin.size() % 4) bin.push_back(0);
    const std::size_t offset = bin.size();
    for (std::size_t i = 0; i < values.size(); i += comps) {
        for (int c = 0; c < comps; ++c) put(bin, values[i + c], t.component_type);
        for (int p = elem; p < stride; ++p) bin.push_back(0);
    }
    json view = {{"buffer", 0}, {"byteOffset", offset}, {"byteLength", bin.size() - offset}, {"byteStride", stride}};
    doc["bufferViews"].push_back(view);
    json a = {{"bufferView", doc["bufferViews"].size() - 1},
              {"componentType", t.component_type},
              {"count", values.size() / comps},
              {"type", comps == 1 ? "SCALAR" : comps == 3 ? "VEC3" : "VEC4"}};
    if (t.normalized) a["normalized"] = true;
    doc["accessors"].push_back(a);
    return static_cast<int>(doc["accessors"].size() - 1);
}

Scene load_doc(json doc, std::vector<std::uint8_t> bin) {
    while (bin.size() % 4) bin.push_back(0);
    doc["buffers"] = json::array({{{"byteLength", bin.size()}, {"uri", "data:application/octet-stream;base64," + base64(bin)}}});
    char name[] = "/tmp/rigscope_quantized_XXXXXX";
    const int fd = mkstemp(name);
    REQUIRE(fd >= 0);
    close(fd);
    const std::string path = std::string(name) + ".gltf";
    std::rename(name, path.c_str());
    std::ofstream(path) << doc.dump();
    Scene s = load_scene(path);
    std::remove(path.c_str());
    return s;
}

json base_doc() {
    return {{"asset", {{"version", "2.0"}}},
            {"extensionsUsed", {"KHR_mesh_quantization"}},
            {"extensionsRequired", {"KHR_mesh_quantization"}},
            {"bufferViews", json::array()},
            {"accessors", json::array()}};
}

}  // namespace

TEST_CASE("KHR_mesh_quantization: POSITION and morph deltas of every allowed type", "[load][quantized]") {
    const std::vector<Type> position_types = {{5120, false, 1}, {5120, true, 1}, {5121, false, 1}, {5121, true, 1},
                                              {5122, false, 2}, {5122, true, 2}, {5123, false, 2}, {5123, true, 2}};
    const std::vector<Type> delta_types = {{5120, false, 1}, {5120, true, 1}, {5122, false, 2}, {5122, true, 2}};
    for (const Type& pt : position_types)
        for (const Type& dt : delta_types) {
            INFO("POSITION componentType " << pt.component_type << (pt.normalized ? " normalized" : "") << ", delta "
                                           << dt.component_type << (dt.normalized ? " normalized" : ""));
            const bool psigned = pt.component_type == 5120 || pt.component_type == 5122;
            const double pmax = pt.size == 1 ? (psigned ? 127 : 255) : (psigned ? 32767 : 65535);
            const double pmin = psigned ? -pmax - 1 : 0;  // -128 / -32768: the clamp to -1 matters
            const std::vector<double> pos = {pmin, 0, pmax, 1, pmax, pmin, pmax - 1, 2, 3};
            const double dmax = dt.size == 1 ? 127 : 32767;
            const std::vector<double> delta = {-dmax - 1, dmax, 0, 1, -1, 5, 0, 0, -dmax};
            json doc = base_doc();
            std::vector<std::uint8_t> bin;
            const int pa = add_accessor(doc, bin, pos, 3, pt);
            const int da = add_accessor(doc, bin, delta, 3, dt);
            doc["meshes"] = json::array({{{"primitives", json::array({{{"attributes", {{"POSITION", pa}}}, {"targets", json::array({{{"POSITION", da}}})}}})}}});
            doc["nodes"] = json::array({{{"mesh", 0}}});
            const Scene s = load_doc(doc, bin);
            REQUIRE(s.meshes.size() == 1);
            const Mesh& m = s.meshes[0];
            REQUIRE(m.positions.size() == 3);
            REQUIRE(m.targets.size() == 1);
            CHECK(s.extensions == std::vector<std::string>{"KHR_mesh_quantization"});
            for (int v = 0; v < 3; ++v)
                for (int c = 0; c < 3; ++c) {
                    CHECK(m.positions[v][c] == static_cast<float>(rule(pos[v * 3 + c], pt)));
                    CHECK(m.targets[0].deltas[v][c] == static_cast<float>(rule(delta[v * 3 + c], dt)));
                }
        }
}

TEST_CASE("KHR_mesh_quantization: JOINTS and WEIGHTS of every allowed type", "[load][quantized]") {
    const std::vector<Type> joint_types = {{5121, false, 1}, {5123, false, 2}};
    const std::vector<Type> weight_types = {{5121, true, 1}, {5123, true, 2}, {5126, false, 4}};
    for (const Type& jt : joint_types)
        for (const Type& wt : weight_types) {
            INFO("JOINTS componentType " << jt.component_type << ", WEIGHTS componentType " << wt.component_type);
            const double full = wt.component_type == 5121 ? 255 : wt.component_type == 5123 ? 65535 : 1;
            // Two vertices: one bone at full weight; three bones whose integer weights sum to full.
            const std::vector<double> weights = {full, 0, 0, 0, wt.component_type == 5126 ? 0.5 : std::floor(full / 2),
                                                 wt.component_type == 5126 ? 0.25 : std::floor(full / 4), 0,
                                                 wt.component_type == 5126 ? 0.25 : full - std::floor(full / 2) - std::floor(full / 4)};
            const std::vector<double> joints = {2, 0, 0, 0, 1, 2, 0, 0};
            json doc = base_doc();
            std::vector<std::uint8_t> bin;
            const int pa = add_accessor(doc, bin, {0, 0, 0, 1, 0, 0}, 3, {5126, false, 4});
            const int ja = add_accessor(doc, bin, joints, 4, jt);
            const int wa = add_accessor(doc, bin, weights, 4, wt);
            doc["meshes"] = json::array({{{"primitives", json::array({{{"attributes", {{"POSITION", pa}, {"JOINTS_0", ja}, {"WEIGHTS_0", wa}}}, {"mode", 0}}})}}});
            doc["nodes"] = json::array({{{"mesh", 0}, {"skin", 0}}, {{"name", "a"}}, {{"name", "b"}}, {{"name", "c"}}});
            doc["skins"] = json::array({{{"joints", {1, 2, 3}}}});
            const Scene s = load_doc(doc, bin);
            REQUIRE(s.meshes.size() == 1);
            const Influences& in = s.meshes[0].influences;
            REQUIRE(in.vertex_count() == 2);
            REQUIRE(in.offsets[1] == 1);
            CHECK(in.joints[0] == 2);
            CHECK(in.weights[0] == 1.0f);
            REQUIRE(in.offsets[2] - in.offsets[1] == 3);
            const Type& w = wt;
            double sum = 0;
            for (int k = 4; k < 8; ++k) sum += static_cast<float>(rule(weights[k], w));
            const int order[3] = {4, 5, 7};
            for (int k = 0; k < 3; ++k) {
                CHECK(in.joints[1 + k] == joints[order[k]]);
                CHECK(in.weights[1 + k] == static_cast<float>(static_cast<float>(rule(weights[order[k]], w)) / sum));
            }
        }
}
