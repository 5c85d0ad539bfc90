// One USD layer as its specs: the prim tree with each prim's metadata and properties, before any
// composition. The readers (usda_parser.cpp, crate_reader.cpp) fill it; usd_compose.cpp composes the
// stage's layers into one such layer of composed prims and usd_scene.cpp turns it into the scene.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "io/usd/usd_numbers.h"

namespace rigscope::usd {

// A value as the layer holds it. Numeric arrays (points, matrices, quaternions) are kept flat:
// `numbers` holds every number in order and `width` the numbers per element, so a point array of a
// million entries costs its floats, not a tree of tuples (and a copy of the value, none).
struct Value {
    enum class Kind { None, Number, String, Token, Asset, Path, Tuple, List, Dict, NumberArray };
    Kind kind = Kind::None;
    double number = 0.0;             // Number
    std::string text;                // String, Token (an identifier such as a bool), Asset, Path
    Numbers numbers;                 // NumberArray (a list of numbers or of numeric tuples), numeric Tuple
    int width = 1;                   // numbers per element of a NumberArray or Tuple
    std::vector<Value> items;        // Tuple or List of other values
    std::vector<std::pair<std::string, Value>> dict;  // Dict: key, value (the type is dropped)

    bool is_none() const { return kind == Kind::None; }
    std::size_t element_count() const { return kind == Kind::NumberArray ? numbers.size() / std::size_t(width) : items.size(); }
};

// A list-edit as metadata and relationships hold it: `prepend x = ...`, `append`, `add`,
// `delete`, `reorder`, or the explicit value.
enum class ListEdit { Explicit, Prepend, Append, Add, Delete, Reorder };

struct PropertySpec {
    std::string name;           // with its namespaces, e.g. primvars:skel:jointIndices
    std::string type;           // value type without [] (float3, quatf, matrix4d, token), "rel" for a relationship
    bool array = false;
    bool uniform = false;
    bool custom = false;
    bool has_default = false;
    Value value;                                   // the default value (None when blocked)
    std::vector<std::pair<double, Value>> samples;  // time samples, time code ascending
    std::vector<std::string> targets;              // relationship targets or connections, as written
    std::map<std::string, Value> metadata;         // interpolation, elementSize, weight, ...
    int line = 0;                                  // where the text declared it, for messages
};

struct PrimSpec {
    enum class Specifier { Def, Over, Class };
    Specifier specifier = Specifier::Def;
    std::string name;
    std::string type;  // the schema type name: Xform, Mesh, Skeleton, ... (empty for a typeless prim)
    // Metadata in the order written, with its list edit (apiSchemas, references, kind, ...).
    std::vector<std::pair<std::string, std::pair<ListEdit, Value>>> metadata;
    std::vector<PropertySpec> properties;
    std::vector<std::unique_ptr<PrimSpec>> children;
    // Variant sets: name -> variant name -> the variant's prim body (metadata, properties, children).
    std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::unique_ptr<PrimSpec>>>>> variant_sets;
    int line = 0;

    const Value* meta(const std::string& key) const {
        for (const auto& m : metadata)
            if (m.first == key) return &m.second.second;
        return nullptr;
    }
    // The last spec of the property (a layer that declares one twice keeps the later, as Sdf does).
    const PropertySpec* property(const std::string& n) const {
        for (auto it = properties.rbegin(); it != properties.rend(); ++it)
            if (it->name == n) return &*it;
        return nullptr;
    }
    PropertySpec* property(const std::string& n) {
        for (auto it = properties.rbegin(); it != properties.rend(); ++it)
            if (it->name == n) return &*it;
        return nullptr;
    }
};

struct Layer {
    std::string path;   // the file it was read from
    std::string format;  // "usda 1.0", "usda 1.1"
    std::map<std::string, Value> metadata;  // startTimeCode, upAxis, metersPerUnit, subLayers, ...
    std::vector<std::unique_ptr<PrimSpec>> roots;
    std::uint64_t held = 0;  // bytes the parse charged (its input's bytes included), for the load's budget
    // A composed stage's instances whose own layer stack holds opinions below them, which USD
    // ignores while they are instances (and would apply were one made an ordinary prim).
    std::set<std::string> instances_with_local_opinions;
};

}  // namespace rigscope::usd
