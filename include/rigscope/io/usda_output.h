// USD output: a text layer (.usda) that sublayers a USD input and adds over-specs on its prims
// (src/io/usd/usda_writer.cpp; docs/usd_notes.md, "USD output"). The run layer fills the specs
// (run/usd_output_run.h); this writes them and reads back what it needs of the input's stage.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "rigscope/core/scene.h"
#include "rigscope/io/output.h"

namespace rigscope {

// True when `path` names a file the USD reader reads (.usd, .usda, .usdc, .usdz, any case).
bool is_usd_path(const std::string& path);

// One attribute of an over-spec: a default value (the bind frame) and time samples, each the
// text of an array value (append_usda_array).
struct UsdaAttribute {
    std::string type;           // "float[]", "color3f[]", "point3f[]"
    std::string name;           // "primvars:rigscope:tension", "points"
    std::string interpolation;  // "vertex", or "" for none
    std::optional<std::string> default_value;  // "None" blocks the attribute (a weaker layer's value too)
    std::vector<std::pair<double, std::string>> samples;  // time code and value, codes ascending
};

// An over-spec of the prim at `path` (absolute, "/Rig/Tube"); `type_name` retypes it ("" keeps
// the input's type); `uninstance` authors instanceable = false (USD ignores every opinion below
// an instance, so the prims under it could take no output otherwise).
struct UsdaOver {
    std::string path;
    std::string type_name;
    std::vector<UsdaAttribute> attributes;
    bool uninstance = false;
};

struct UsdaLayer {
    std::string sublayer;     // the input, as an asset path relative to the output's folder
    // Stage metadata, which a stage takes from its root layer alone, so the input's are restated
    // (the time codes would otherwise be rescaled against the sublayer's rate).
    std::string default_prim;
    std::string up_axis = "Y";
    double meters_per_unit = 0.01;
    double time_codes_per_second = 24;
    std::optional<std::pair<double, double>> time_code_range;  // start and end time codes
    std::vector<UsdaOver> overs;
};

// What the writer needs of the input's composed stage (its sublayers, references and payloads
// included) beyond the scene: its defaultPrim (else its first root prim), the paths of its
// SkelRoot prims, of the prims under one that UsdSkel would skin but rigscope does not read (a
// Sphere, BasisCurves... with joint influences of their own or inherited), of its instanceable
// prims (USD ignores opinions below an instance), and per prim the primvars with an authored
// :indices array (which would index the values the layer writes). Composes the file again, as
// the reader did (allow_outside: --allow-outside-uris); throws Error (exit 3).
struct UsdStageFacts {
    std::string default_prim;
    std::set<std::string> skel_roots;
    std::set<std::string> unread_skinned;
    std::set<std::string> instances;
    // The instances whose own layers hold opinions below them: USD ignores those while the prim
    // is an instance and would apply them were it made an ordinary prim.
    std::set<std::string> instances_with_local_opinions;
    std::map<std::string, std::set<std::string>> indexed_primvars;  // prim path -> "primvars:displayColor", ...
};
UsdStageFacts read_usd_stage_facts(const std::string& path, std::uint64_t max_memory, bool allow_outside);

// The prim path of scene.meshes[mesh] read by the USD reader: its node and the node's ancestors
// are the prims above it, named as they are.
std::string usd_prim_path(const Scene& scene, int mesh);

// The asset path of `input` relative to the folder of `output` (both as given, made absolute).
// Throws Error (exit 2) for a path an asset path cannot hold ('@@@', a line break).
std::string usd_relative_asset_path(const std::string& input, const std::string& output);

// Appends `count` elements of `width` floats as a USD array value: [1.5, 2] or [(1, 2, 3), ...].
void append_usda_array(std::string& out, const float* values, std::size_t count, int width);

// Writes the layer, `#usda 1.0`, every over nested under its parents' overs.
void write_usda_layer(const UsdaLayer& layer, OutputFile& out);

}  // namespace rigscope
