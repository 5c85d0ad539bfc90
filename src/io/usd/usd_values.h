// Reading typed values out of a layer's specs: an attribute at a time code with USD's rules
// (time samples win over the default, held before the first and after the last sample, linear
// between samples in the stored type's arithmetic as Gf runs it, half and float included,
// quaternions by GfSlerp and not normalised, ints and bools held), numbers checked against the
// shape the schema wants.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <string>
#include <vector>

#include "io/usd/usd_layer.h"

namespace rigscope::usd {

// A numeric value of `prop` at time code t (t = NaN: the default, else the first sample):
// `numbers` flat, `width` per element. False when the property has no numeric value there.
bool numbers_at(const PropertySpec& prop, double t, std::vector<double>& numbers, int& width);

// What numbers_at(prop, NaN, ...) gives, without copying the layer's array: the large arrays
// a mesh is read from (points, indices, weights, offsets) in their stored type.
bool stored_numbers(const PropertySpec& prop, Numbers& numbers, int& width);

// Points (3 numbers each, any stored type) times metersPerUnit as rigscope's float positions,
// the product taken in double: a mesh's rest points and each of its point-cache samples.
std::vector<Eigen::Vector3f> points_in_metres(const Numbers& numbers, double meters_per_unit);

// The sample times of the property, ascending (empty when it has only a default).
std::vector<double> sample_times(const PropertySpec& prop);

// The tokens or strings of a token[] / string[] value (the default).
std::vector<std::string> strings_of(const Value& v);

// A USD matrix (row vectors, translation in the last row) as the column-vector matrix rigscope
// uses: the transpose.
Eigen::Matrix4d usd_matrix(const double* m16);

// A USD quaternion as text and crate store it: (real, i, j, k).
inline Eigen::Quaterniond usd_quaternion(const double* wxyz) {
    return Eigen::Quaterniond(wxyz[0], wxyz[1], wxyz[2], wxyz[3]);
}

}  // namespace rigscope::usd
