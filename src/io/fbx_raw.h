// A small reader of binary FBX for the few facts Assimp 5.2.5 does not pass on: the clusters'
// Transform / TransformLink, the Pose/BindPose matrices and the blend-shape channels (name,
// DeformPercent). Only the skinning cross-check and morph defaults use it; the scene itself comes
// from Assimp. No Assimp types here.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace rigscope::fbx {

struct RawCluster {
    std::string bone;                 // Model name of the linked joint
    std::vector<std::string> meshes;  // Model names of the meshes whose skin holds the cluster
    Eigen::Matrix4d transform = Eigen::Matrix4d::Identity();       // mesh space -> bone space at bind
    Eigen::Matrix4d transform_link = Eigen::Matrix4d::Identity();  // bone's global matrix at bind
    bool has_transform = false;
    bool has_link = false;
};

struct RawShapeChannel {
    std::string name;
    double deform_percent = 0.0;
};

struct RawFbx {
    bool parsed = false;
    bool ascii = false;   // not a binary FBX: left to Assimp's ASCII reader
    std::string problem;  // why parsed is false: the file breaks the binary format or a limit
    std::vector<RawCluster> clusters;
    std::map<std::string, Eigen::Matrix4d> bind_pose;       // Model name -> global matrix
    std::map<std::string, RawShapeChannel> shape_channels;  // Shape geometry name -> its channel
    // Animation curves checked before Assimp reads the file (fuzz finding: one key value of
    // -6e9 made Assimp 5.2.5 allocate until the machine ran out of its 24 GB). Assimp splits
    // a rotation curve wherever consecutive values differ by more than 180 degrees; this is the
    // number of keys that would make over every curve (its own keys included), and the first
    // curve holding a NaN or infinite key value ("'name'", or "id N" when unnamed), if any.
    std::uint64_t split_keys = 0;
    std::string nonfinite_curve;
};

// Never throws for a malformed file: returns parsed = false with the reason.
RawFbx read_raw_fbx(const std::string& path, std::uint64_t max_memory);

}  // namespace rigscope::fbx
