// Transforms as OpenUSD evaluates them at a time code: an xformOp stack (each op's own value
// interpolated in its stored type, UsdGeomXformOp's matrix of it, the ops composed in
// xformOpOrder) and a SkelAnimation's joint transforms (translations, rotations and scales
// interpolated as UsdAttribute::Get does, then UsdSkelMakeTransform's matrix, the quaternion used
// as it is, not normalised). The LocalMatrices made here carry copies of the properties, so the
// pose is evaluated at any frame time after the layer is gone.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "io/usd/usd_layer.h"
#include "rigscope/core/local_matrices.h"
#include "rigscope/core/scene.h"

namespace rigscope::usd {

struct XformOp {
    PropertySpec prop;  // a copy (its arrays are shared, not copied)
    std::string kind;   // translate, rotateXYZ, orient, transform, ...
    bool invert = false;
};

// Where messages say a problem is: the layer, and the prim the transform belongs to.
struct TransformPlace {
    std::string file;
    std::string prim;
};

// The prim's xformOps in xformOpOrder. Throws rigscope::Error (exit 3) naming the file and the prim
// for !resetXformStack!, a name that is not an xformOp, or an op the prim lacks.
std::vector<XformOp> xform_ops(const PrimSpec& prim, const TransformPlace& where);

// The stack's local matrix at time code t (NaN: the defaults), translations times metersPerUnit.
// Throws naming the op for a value of the wrong shape or an unknown op.
Eigen::Matrix4d stack_matrix(const std::vector<XformOp>& ops, double t, double meters_per_unit, const TransformPlace& where);

// UsdSkelMakeTransform of one joint: translation (3), quaternion (real first, 4, used unnormalised)
// and scale (3), the rotation's matrix built in float as GfMatrix3f(GfQuatf) does.
Eigen::Matrix4d skel_joint_matrix(const double* translation, const double* rotation, const double* scale, double meters_per_unit);

// True when `t` gives `m` to within rounding: no shear, a quaternion of length 1.
bool holds_as_trs(const Eigen::Matrix4d& m, const Transform& t);

// The time code of a frame time, snapped onto a whole 2^-20 of a code when within 1e-9 of it (a
// frame time n / fps times timeCodesPerSecond lands a hair off the code n it names).
double time_code_of(double seconds, double time_codes_per_second);

// Local matrices of nodes whose xformOps have time samples: stacks[k] poses nodes[k].
std::shared_ptr<const LocalMatrices> xform_matrices(std::vector<int> nodes, std::vector<std::vector<XformOp>> stacks,
                                                    std::vector<TransformPlace> places, double meters_per_unit,
                                                    double time_codes_per_second);

// Local matrices of the joints a SkelAnimation animates: joint k of the animation (its index into
// translations, rotations, scales) poses nodes[k]; a joint the skeleton lacks has node -1 and is
// skipped. The three properties must hold one value per animation joint at every sample (the
// reader checks that first).
std::shared_ptr<const LocalMatrices> skel_animation_matrices(std::vector<int> nodes, std::vector<std::string> names,
                                                             const PropertySpec& translations, const PropertySpec& rotations,
                                                             const PropertySpec& scales, const TransformPlace& where,
                                                             double meters_per_unit, double time_codes_per_second);

}  // namespace rigscope::usd
