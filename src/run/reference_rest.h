// How `--reference FILE` becomes the rest positions of a mesh (internal to the tension run):
// the reference's units checked against the bind mesh's, and its vertices paired with the file's
// by index or by position (issue 42).
#pragma once

#include <string>
#include <vector>

#include <Eigen/Core>

#include "rigscope/core/scene.h"
#include "rigscope/core/topology.h"
#include "rigscope/run/tension_run.h"

namespace rigscope {

// Names for messages: the file and its mesh, the reference file and its mesh.
struct ReferenceNames {
    std::string file, mesh, reference, reference_mesh;
};

// Per file vertex of the mesh whose bind positions are `bind` and whose weld is `topo`, its rest
// position from the reference's positions `ref` (the reference mesh at its own bind pose, file
// vertices), after --reference-scale:
// - index: ref has as many vertices as the mesh (vertex i is file vertex i), or as many as its
//   welded vertices (welded vertices in order of their first file vertex, each file vertex
//   taking its welded vertex's);
// - position: ref welded by position, paired with the mesh's welded vertices at their bind
//   positions within opt.reference_tolerance of the bind mesh's diagonal.
// Refuses (exit 5) a reference whose size is more than kReferenceSizeFactor from the bind
// mesh's (a warning with --reference-scale), counts that pair neither way, and a position
// pairing that leaves vertices unpaired (naming how many and the tolerance that would pair all).
std::vector<Eigen::Vector3f> reference_rest(const std::vector<Eigen::Vector3f>& bind, const Topology& topo,
                                            std::vector<Eigen::Vector3f> ref, const TensionOptions& opt,
                                            const ReferenceNames& names);

// Bounding-box diagonals further apart than this factor are not one mesh in one unit. What it
// catches are the power-of-ten slips between exporters (Maya and 3ds Max in centimetres, Blender
// and glTF in metres: 100x; millimetres: 1000x); a sculpt grown or shrunk a few times, or inches
// against centimetres (2.54x), passes.
constexpr double kReferenceSizeFactor = 10;

// After the rest lengths are made: T of the bind pose against the reference, `t` per welded
// vertex. Far from 1 on most vertices (outside 0.5-2 on more than half) means another vertex
// order: refused (exit 5) naming --reference-match position, or only a warning where the user
// chose --reference-match index.
void check_reference_order(const std::vector<float>& t, const TensionOptions& opt, const ReferenceNames& names);

}  // namespace rigscope
