// USD output of `tension` and `deform` (-o out.usda): a text layer that sublayers the USD input
// and adds, per selected mesh, over-specs at the frames' time codes (docs/usd_notes.md, "USD
// output"). The writer is io's (rigscope/io/usda_output.h); this gathers what it writes.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "rigscope/io/usda_output.h"
#include "rigscope/run/input.h"
#include "rigscope/run/progress.h"
#include "rigscope/run/tension_gltf.h"

namespace rigscope {

// Throws Error (exit 2) for what a .usda output cannot be: the input is not USD (the layer holds
// over-specs of the input's prims; a glTF or FBX input has none), or an option that poses the rig
// otherwise than the stage does (--animation, --cache, --rom, --rig: the primvars would not
// belong to the animation usdview plays), or --chunk (a layer is not merged from chunks).
void check_usda_output(const InputOptions& input, const std::string& out);

// A layer holds every time sample of every attribute as text until it is written (USD's text
// format lists an attribute's samples together), so its size is known before the first frame:
// refused (exit 3) when `numbers_per_vertex` numbers per selected file vertex and frame, at the
// longest a float's text and separator take, would pass --max-memory with the scene.
void check_usda_budget(const Input& in, std::size_t numbers_per_vertex);

class UsdaOutput {
public:
    // `points`: write each mesh's deformed points (and retype the SkelRoots above skinned ones
    // as Xform, as UsdSkel.BakeSkinning does, so UsdSkel does not skin them again); throws Error
    // (exit 2) when such a SkelRoot holds a deformed mesh that is not selected, which would
    // stop moving. Reads the input's stage again (read_usd_stage_facts).
    UsdaOutput(const Input& in, const std::string& input_file, const std::string& out, bool points);

    // Frame in.frames[fi] of the i-th selected mesh (in.meshes[i]): per file vertex T, the maps
    // and the colour (3 floats). The bind frame is the attributes' default value.
    void primvars(std::size_t fi, std::size_t i, const std::vector<float>& t, const std::vector<float>& compress,
                  const std::vector<float>& stretch, const std::vector<float>& rgb);
    // Its deformed positions (world space, metres: deform's), written in the mesh's own space and
    // the stage's units. The bind frame is the input's own points, and not written.
    void points(std::size_t fi, std::size_t i, const std::vector<Eigen::Vector3f>& world);

    // One float of the i-th selected mesh at frame fi, as the attribute `name` (custom, no
    // interpolation: regions' rigscope:region:NAME curves). Written after the primvars, by name.
    void scalar(std::size_t fi, std::size_t i, const std::string& name, float value);

    void write(OutputFile& out) const;

private:
    struct Series {
        std::string default_value;
        bool has_default = false;
        std::map<double, std::string> samples;
    };
    double time_code(std::size_t fi) const;
    void add(Series& s, std::size_t fi, std::string value);

    const Input& in_;
    UsdaLayer layer_;
    std::vector<std::string> prim_paths_;
    std::vector<std::string> retyped_;      // SkelRoots retyped as Xform
    std::vector<std::string> uninstanced_;  // instances above a written prim, made ordinary prims
    std::map<std::string, std::set<std::string>> indexed_;  // UsdStageFacts::indexed_primvars
    std::vector<std::map<std::string, Series>> series_;  // per selected mesh, by attribute name
    Pose pose_;
};

// tension -o out.usda: primvars:rigscope:tension, :compress, :stretch and primvars:displayColor
// per selected mesh at every frame; with bake_points the deformed points too.
void write_tension_usda(const Input& in, const std::string& input_file, std::vector<MeshTension>& meshes, const TensionRunInfo& run,
                        const std::string& out, bool bake_points, TensionColor color, const FrameProgress& progress = {});

}  // namespace rigscope
