// Local matrices that a reader evaluates itself, for nodes whose file interpolates their
// transforms in a way animation channels cannot say: USD interpolates each xformOp's own values
// (Euler angles, a matrix element by element, a scale through a mirror) and a SkelAnimation's
// components in their stored precision, and may leave a quaternion unnormalised or a stack
// sheared. A clip holds them (Clip::matrices) beside its channels: sample_pose takes these nodes'
// local matrices from here and their channels stay for what reads channels (info, glTF output,
// retargeting), which match the file at its samples.
//
// Nothing here knows a file format: the USD reader derives from LocalMatrices.
#pragma once

#include <Eigen/Core>
#include <string>
#include <utility>
#include <vector>

namespace rigscope {

class LocalMatrices {
public:
    explicit LocalMatrices(std::vector<int> nodes) : nodes_(std::move(nodes)) {}
    virtual ~LocalMatrices() = default;
    LocalMatrices(const LocalMatrices&) = delete;
    LocalMatrices& operator=(const LocalMatrices&) = delete;

    // The nodes (indices into Scene::nodes) it poses.
    const std::vector<int>& nodes() const { return nodes_; }

    // Node nodes()[k]'s local matrix at `seconds` into out[k], for every k. Called from several
    // threads at once. Throws rigscope::Error naming the file if it cannot evaluate (a reader
    // checks its values when it builds the object, so this is not expected).
    virtual void at(double seconds, Eigen::Matrix4d* out) const = 0;

    // The times (seconds) of the file's samples, ascending: where the matrices are the file's own
    // values rather than an interpolation (writers that key channels check and key them there).
    virtual std::vector<double> sample_times() const = 0;

    // What messages call node nodes()[k] (USD: its prim path, or its skeleton's path and joint).
    virtual std::string name(std::size_t k) const = 0;

private:
    std::vector<int> nodes_;
};

}  // namespace rigscope
