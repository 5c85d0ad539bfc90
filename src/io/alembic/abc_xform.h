// An IXform's local matrices (AbcGeom's Xform schema, `.xform`): an op list (scale, translate,
// axis-angle rotate, matrix, rotate about X, Y or Z; one byte each, on its own sampling, often
// the default one) and the ops' channel values per sample (`.vals`, scalar or array of doubles,
// on the sampling of the frames). Ops compose as AbcGeom's XformSample::getMatrix does: the first
// op is the outermost, applied to the point last. `.inherits` false makes the node's matrix its
// world matrix.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "io/alembic/abc_archive.h"

namespace rigscope::abc {

struct XformTrack {
    std::vector<Eigen::Matrix4d> locals;  // one per sample of .vals (one when static)
    const TimeSampling* sampling = nullptr;
    std::vector<bool> inherits;           // one per sample of .inherits (empty: inherits)
    const TimeSampling* inherits_sampling = nullptr;
    bool animated() const { return locals.size() > 1 || inherits.size() > 1; }
    // The sample times of its animated parts, for meshes whose points do not move.
    std::vector<double> times() const;
    Eigen::Matrix4d local_at(double t) const;
    bool inherits_at(double t) const;
};

// Reads the `.xform` compound of object `path` (bad input naming it on a malformed op list or
// values that do not match it).
XformTrack read_xform(Archive& a, const Property& xform, const std::string& path);

// The sample of `count` samples on `s` nearest `t` (the earlier on a tie), as Alembic's
// ISampleSelector picks by default.
std::uint32_t near_index(const TimeSampling& s, std::uint32_t count, double t);

}  // namespace rigscope::abc
