// read_usd: a USD file by its first bytes (a text layer, a binary crate layer or a usdz package),
// its stage composed with the files it names (usd_compose.cpp), then evaluated into the scene
// (usd_scene.cpp). The file is read in one place (read_whole), for read_usd and read_stage alike;
// layers are parsed in one place too (LayerFiles, usd_layer_files.cpp), root or not.
#include <fstream>
#include <sys/stat.h>

#include "io/load_budget.h"
#include "io/usd/usd_compose.h"
#include "io/usd/usd_layer_files.h"
#include "io/usd/usd_reader.h"
#include "io/usd/usd_scene.h"
#include "rigscope/core/error.h"
#include "rigscope/io/load.h"

namespace rigscope::usd {

namespace {

// The stage the root's bytes open, composed (usd_compose.h), into the scene. The layers' budget
// is the load's: what the scene builds is charged to what they leave.
Scene compose_and_build(LayerFiles& files, std::string bytes) {
    const Layer& root = files.open_root(std::move(bytes));
    std::vector<Warning> warnings;
    std::vector<std::string> arcs;
    const Layer composed = compose_stage(files, root, warnings, arcs);
    Scene scene = build_scene(composed, files.budget().left());
    scene.warnings.insert(scene.warnings.begin(), warnings.begin(), warnings.end());
    scene.composed = std::move(arcs);
    for (const auto& [path, how] : files.files_read()) scene.read_files.push_back({path, how});
    return scene;
}

// The file's bytes, held whole while parsed: charged to the budget before they are read.
std::string read_whole(const std::string& path, std::uint64_t max_memory) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) throw bad_input(path, "no such file");
    LoadBudget(path, max_memory).charge(double(st.st_size), "the file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw bad_input(path, "cannot be opened");
    std::string bytes(static_cast<std::size_t>(st.st_size), '\0');
    if (!in.read(&bytes[0], std::streamsize(bytes.size()))) throw bad_input(path, "cannot be read");
    return bytes;
}

}  // namespace

Scene scene_from_bytes(const std::string& path, std::string bytes, std::uint64_t budget) {
    // Bytes alone: no other file is read (a package's own entries are).
    LayerFiles files(path, budget, false, false);
    return compose_and_build(files, std::move(bytes));
}

Scene scene_from_file(const std::string& path, std::string bytes, std::uint64_t budget, bool allow_outside) {
    LayerFiles files(path, budget, allow_outside, true);
    return compose_and_build(files, std::move(bytes));
}

Layer read_stage(const std::string& path, std::uint64_t max_memory, bool allow_outside) {
    LayerFiles files(path, max_memory, allow_outside, true);
    const Layer& root = files.open_root(read_whole(path, max_memory));
    std::vector<Warning> warnings;
    std::vector<std::string> arcs;
    return compose_stage(files, root, warnings, arcs);
}

}  // namespace rigscope::usd

namespace rigscope {

Scene read_usd(const std::string& path, const LoadOptions& options) {
    return usd::scene_from_file(path, usd::read_whole(path, options.max_memory), options.max_memory, options.allow_outside_uris);
}

}  // namespace rigscope
