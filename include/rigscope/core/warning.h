// A reader's warning: what it passed over, repaired or read one way where DCCs differ, with a kind
// a test or a Python user can match on instead of the text (docs/formats.md, "Warnings"). The
// text is what `info`, the per-frame commands' stderr lines and Python's RigscopeWarning show.
#pragma once

#include <string>
#include <utility>

namespace rigscope {

enum class WarningKind {
    // Something the file holds that rigscope does not read, passed over as USD or the DCCs do:
    // a prim that is not a Mesh, a mesh without points, an animation channel for no node, a
    // missing image, an unlisted variant set, a target outside its reference, a zero-weight shape.
    Skipped,
    // A per-vertex attribute of a mesh not read (a UV set or the normals: malformed, indexed
    // out of range or missing on some primitives); the geometry itself is read.
    AttributeDropped,
    // Skin weights repaired or used as stored: vertices with no weight, zero, negative or
    // non-finite weights ignored, blend weights clamped, sums other than 1, weights without a
    // skin, binding properties without SkelBindingAPI.
    SkinWeights,
    // Time sampling: long stretches between keys sampled at a few frames, keys outside the take,
    // a cache sampled at another rate than the frames follow.
    Sampling,
    // A transform read one of the ways DCCs differ on, or that cannot be used: a rest pose that is
    // not the bind pose, a skinned mesh's node transform, a root transform kept as a node, a
    // matrix that cannot be inverted.
    Transform,
    // Names that clash: node names that repeat (named by id instead), one node shared by meshes
    // driven differently.
    Naming,
    // Data another input replaces: a point cache over a mesh's skin or morph targets.
    Replaced,
};

// The kind's name as Python and the docs spell it: "skipped", "attribute_dropped", ...
const char* warning_kind_name(WarningKind kind);

struct Warning {
    WarningKind kind = WarningKind::Skipped;
    std::string message;

    Warning() = default;
    Warning(WarningKind k, std::string m) : kind(k), message(std::move(m)) {}
    bool operator==(const Warning& o) const { return kind == o.kind && message == o.message; }
    bool operator!=(const Warning& o) const { return !(*this == o); }
};

}  // namespace rigscope
