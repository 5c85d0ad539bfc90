// The run layer's tension step (src/run/tension_run.cpp): evaluate_tension_at reaches frames that
// are not in the input's list, outside the clip included, where sampling holds the end keys.
#include <catch2/catch.hpp>

#include <vector>

#include "corpus.h"
#include "rigscope/run/input.h"
#include "rigscope/run/tension_run.h"

using namespace rigscope;

namespace {

// T of every mesh, in order, concatenated.
std::vector<float> all_t(const std::vector<MeshTension>& meshes) {
    std::vector<float> out;
    for (const MeshTension& mt : meshes) out.insert(out.end(), mt.t.begin(), mt.t.end());
    return out;
}

}  // namespace

TEST_CASE("evaluate_tension_at outside the clip gives the end keys' T", "[run][tension]") {
    TensionOptions opt;
    opt.input.file = test::source_dir() + "/data/bend_cylinder.glb";
    Input in = load_input(opt.input);
    std::vector<MeshTension> meshes = prepare_tension(in, opt);
    REQUIRE(in.has_clip);
    REQUIRE(in.frames.size() == 91);  // frames 1..91: the first and last keys of every channel
    Pose pose;

    // Frames on keys sample the keys exactly (sample_channel compares at float resolution), and
    // times past either end hold those keys: the same T, bit for bit.
    evaluate_tension_frame(in, meshes, 0, pose, nullptr);
    const std::vector<float> first = all_t(meshes);
    evaluate_tension_at(in, meshes, Frame{false, 0, in.clip.start - 1.0}, pose, nullptr);
    CHECK(all_t(meshes) == first);

    evaluate_tension_frame(in, meshes, in.frames.size() - 1, pose, nullptr);
    const std::vector<float> last = all_t(meshes);
    evaluate_tension_at(in, meshes, Frame{false, 0, in.clip.end + 1.0}, pose, nullptr);
    CHECK(all_t(meshes) == last);

    // The bend moves the mesh: the two ends differ, so the checks above compare real poses.
    CHECK(first != last);

    // A time between two frames (in no frame list) is evaluated at its own pose, neither end's.
    evaluate_tension_at(in, meshes, Frame{false, 0, 45.5 / in.fps}, pose, nullptr);
    const std::vector<float> between = all_t(meshes);
    CHECK(between != first);
    CHECK(between != last);
}
