// The container side of writing glTF: one binary buffer of 4-byte aligned buffer views, the
// accessors over them (with the min/max the spec requires), and the GLB framing. The scene side
// (gltf_writer.cpp) decides what to store and never touches byte offsets.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rigscope/io/output.h"

namespace rigscope::gltf {

using nlohmann::json;

enum ViewTarget : int { kNoTarget = 0, kArrayBuffer = 34962, kElementArrayBuffer = 34963 };

class GlbBuilder {
public:
    GlbBuilder();

    json& root() { return root_; }

    // Float elements of `components` floats each (16: MAT4). `bounds` adds min/max, required on
    // POSITION and animation inputs.
    int add_floats(const float* data, std::size_t count, int components, ViewTarget target, bool bounds);
    // Triangle indices as UNSIGNED_SHORT when every vertex fits below the restart value 65535,
    // else UNSIGNED_INT.
    int add_indices(const std::vector<std::uint32_t>& indices, std::size_t vertex_count);
    // JOINTS_n: VEC4 of UNSIGNED_BYTE when the skin has at most 256 joints, else UNSIGNED_SHORT.
    int add_joints(const std::vector<std::uint16_t>& joints, bool as_bytes);
    // VEC3 deltas (count * 3 floats) with min/max, stored sparse when few are non-zero: face rigs
    // have dozens of targets that each move a small region.
    int add_deltas(const std::vector<float>& deltas);

    // Appends `name` to the top-level array, creating it: the validator rejects empty arrays, so
    // none is made until something goes in. Returns the new entry's index.
    int append(const char* name, json value);

    // Writes the GLB (header, JSON chunk, BIN chunk) into out.
    void write(OutputFile& out);

private:
    int add_view(const void* data, std::size_t bytes, ViewTarget target);
    int add_accessor(json accessor);

    json root_;
    std::string bin_;
};

}  // namespace rigscope::gltf
