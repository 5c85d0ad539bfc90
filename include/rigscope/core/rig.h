// A rig description: joystick controls (methods.md section 3) that drive a mesh's morph targets.
//
// Drivers do not survive export to glTF or FBX, so the rig travels as its own small JSON file
// (docs/rig.md, docs/rig.schema.json). The Rig struct is what the file says, by name; resolving it
// against a Scene gives node, mesh and target indices, once, before any frame is evaluated.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "rigscope/core/scene.h"

namespace rigscope {

// A signed axis of the control's translation: "+x" is {0, +1}, "-z" is {2, -1}.
struct SignedAxis {
    int index = 0;  // 0 = x, 1 = y, 2 = z
    int sign = 1;   // +1 or -1
};

// How far the control moves for the full shape along one joystick axis. The rest position is
// always the centre; min (negative) is the offset where the axis reaches -1, max (positive) where
// it reaches +1. A half-travel h is min = -h, max = h.
struct Travel {
    double min = -1.0;
    double max = 1.0;
};

// The four corner targets of one joystick, by corner. An empty name is an absent corner.
enum Corner { kUpLeft = 0, kUpRight = 1, kDownLeft = 2, kDownRight = 3 };
constexpr const char* kCornerNames[4] = {"up_left", "up_right", "down_left", "down_right"};

struct RigControl {
    std::string name;  // label in outputs; the node's name when the file gives none
    std::string node;  // the control node
    std::array<SignedAxis, 2> axes;  // joystick X (positive = right), joystick Y (positive = up)
    std::array<Travel, 2> travel;
    std::string mesh;
    std::array<std::string, 4> targets;  // by Corner
};

struct Rig {
    std::string source;  // the path it was read from, for messages
    std::vector<RigControl> controls;
};

// One driven morph target: a mesh of the scene and a target index in it.
struct DrivenTarget {
    int mesh = -1;
    int target = -1;
};

struct ResolvedControl {
    std::string name;
    int node = -1;
    std::array<SignedAxis, 2> axes;
    std::array<Travel, 2> travel;
    // Per mesh instance the control drives (a glTF mesh used by two nodes is two Scene meshes),
    // the target index per Corner, -1 for an absent corner. A corner may name a channel of
    // in-between shapes instead (Mesh::channels): its index in `channels`, and the corner's
    // weight drives the channel's targets as morph_channel_weights says.
    struct MeshTargets {
        int mesh = -1;
        std::array<int, 4> targets{{-1, -1, -1, -1}};
        std::array<int, 4> channels{{-1, -1, -1, -1}};
    };
    std::vector<MeshTargets> meshes;
};

struct ResolvedRig {
    std::vector<ResolvedControl> controls;
    std::vector<DrivenTarget> driven;  // every (mesh, target) some control drives, each once
};

// Resolves names against the scene. Throws Error(kExitMismatch) for a node, mesh or target the
// scene lacks, listing the names it has.
ResolvedRig resolve_rig(const Rig& rig, const Scene& scene);

}  // namespace rigscope
