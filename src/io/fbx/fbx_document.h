// FBX as objects and connections: the layer between the record tree (fbx_records.h, binary or
// ASCII) and the scene (fbx_scene*.cpp). Property lookups fall back on the file's PropertyTemplate
// defaults, as the FBX SDK does. No Assimp types here.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "io/fbx/fbx_records.h"

namespace rigscope::fbx {

struct Object {
    std::int64_t id = 0;
    const Record* rec = nullptr;
    std::string kind;  // record name: Model, Geometry, Deformer, AnimationCurve, ...
    std::string cls;   // Mesh, LimbNode, Skin, Cluster, BlendShapeChannel, Shape, ...
    std::string name;
};

struct Link {
    std::int64_t src = 0, dst = 0;
    std::string prop;  // "OP": the destination's property the source drives; empty for "OO"
};

class Document {
public:
    // Reads Objects, Connections, Definitions and GlobalSettings. Connections naming unknown
    // objects or of other kinds ("PO", "PP": constraints and the like) are kept out, never fatal.
    explicit Document(const RecordFile& file);

    const std::vector<Object>& objects() const { return objects_; }
    const Object* find(std::int64_t id) const;
    // Objects connected into `dst` (sources), of `kind` (any when null), in file order.
    std::vector<std::pair<const Object*, const Link*>> sources(std::int64_t dst, const char* kind = nullptr) const;
    // Objects `src` is connected into (destinations), in file order; id 0 (the scene root) is not an object.
    std::vector<std::pair<const Object*, const Link*>> destinations(std::int64_t src, const char* kind = nullptr) const;

    // Properties70 "P" entry of an object, else of its kind's template, else null.
    const Record* property(const Object& o, const char* name) const;
    double number(const Object& o, const char* name, double fallback) const;
    Eigen::Vector3d vec3(const Object& o, const char* name, const Eigen::Vector3d& fallback) const;
    // GlobalSettings properties.
    double global_number(const char* name, double fallback) const;
    // The file's Creator string (top level, else FBXHeaderExtension's), "" without one.
    const std::string& creator() const { return creator_; }
    // The application that last saved the file (SceneInfo's LastSaved|ApplicationName, else
    // Original|ApplicationName: "3ds Max", "Maya", "MotionBuilder"), "" without one.
    const std::string& application() const { return application_; }
    // The Takes section's LocalTime of the take of that name (files whose AnimationStack has no
    // LocalStart/LocalStop), false when there is none.
    bool take_time(const std::string& name, std::int64_t& start, std::int64_t& stop) const;

private:
    std::vector<Object> objects_;
    std::unordered_map<std::int64_t, std::size_t> by_id_;
    std::vector<Link> links_;
    std::unordered_multimap<std::int64_t, std::size_t> by_src_, by_dst_;
    std::unordered_map<std::string, const Record*> templates_;  // kind -> its Properties70
    const Record* globals_ = nullptr;
    std::string creator_, application_;
    const Record* takes_ = nullptr;
};

// A "P" record's value components (props 4..), as numbers.
const Record* find_p(const Record* properties70, const char* name);

}  // namespace rigscope::fbx
