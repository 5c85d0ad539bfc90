// read_usd: a USD file by its first bytes (a text layer, a binary crate layer or a usdz package),
// its stage composed with the files it names (usd_compose.cpp), then evaluated into the scene
// (usd_scene.cpp).
#include <algorithm>
#include <fstream>
#include <sys/stat.h>

#include "io/load_budget.h"
#include "io/usd/crate_reader.h"
#include "io/usd/usd_compose.h"
#include "io/usd/usd_layer_files.h"
#include "io/usd/usd_scene.h"
#include "io/usd/usda_parser.h"
#include "io/usd/usdz_package.h"
#include "rigscope/core/error.h"
#include "io/usd/usd_reader.h"
#include "rigscope/io/load.h"

namespace rigscope {

namespace {

bool starts_with(const std::string& s, const char* prefix, std::size_t n) { return s.size() >= n && s.compare(0, n, prefix, n) == 0; }

usd::Layer parse_layer(const std::string& name, const std::string& bytes, std::uint64_t max_memory) {
    if (starts_with(bytes, "PXR-USDC", 8)) return usd::parse_crate(name, bytes, max_memory);
    if (starts_with(bytes, "#usda", 5)) return usd::parse_usda(name, bytes, max_memory);
    throw bad_input(name, "not a USD layer (it begins with neither '#usda' nor 'PXR-USDC')");
}

}  // namespace

}  // namespace rigscope

namespace rigscope::usd {

Layer layer_from_bytes(const std::string& path, std::string& bytes, std::uint64_t budget) {
    usd::Layer layer;
    if (starts_with(bytes, "PK\x03\x04", 4)) {
        // usdz: the root layer is the package's first file.
        const auto entries = usd::read_package(path, bytes);
        const usd::PackageEntry& root = entries.front();
        const auto dot = root.name.find_last_of('.');
        std::string ext = dot == std::string::npos ? "" : root.name.substr(dot);
        std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        if (ext != ".usda" && ext != ".usdc" && ext != ".usd")
            throw bad_input(path, "usdz: the first entry '" + root.name + "' is not a USD layer");
        std::string inner = bytes.substr(root.offset, root.size);
        bytes.clear();
        bytes.shrink_to_fit();
        layer = parse_layer(path + "[" + root.name + "]", inner, budget);
        layer.path = path;
    } else if (starts_with(bytes, "PXR-USDC", 8) || starts_with(bytes, "#usda", 5)) {
        layer = parse_layer(path, bytes, budget);
    } else {
        throw bad_input(path, "not a USD file (neither '#usda' nor 'PXR-USDC' nor a zip at its start)");
    }
    return layer;
}

namespace {

// The stage the root's bytes open, composed (usd_compose.h), into the scene. The layers' budget
// is the load's: what the scene builds is charged to what they leave.
Scene compose_and_build(LayerFiles& files, std::string bytes) {
    const Layer& root = files.open_root(std::move(bytes));
    std::vector<std::string> warnings, arcs;
    const Layer composed = compose_stage(files, root, warnings, arcs);
    Scene scene = build_scene(composed, files.budget().left());
    scene.warnings.insert(scene.warnings.begin(), warnings.begin(), warnings.end());
    scene.composed = std::move(arcs);
    for (const auto& [path, how] : files.files_read()) scene.read_files.push_back({path, how});
    return scene;
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

namespace {

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

Layer read_stage(const std::string& path, std::uint64_t max_memory, bool allow_outside) {
    LayerFiles files(path, max_memory, allow_outside, true);
    const Layer& root = files.open_root(read_whole(path, max_memory));
    std::vector<std::string> warnings, arcs;
    return compose_stage(files, root, warnings, arcs);
}

}  // namespace rigscope::usd

namespace rigscope {

Scene read_usd(const std::string& path, const LoadOptions& options) {
    return usd::scene_from_file(path, usd::read_whole(path, options.max_memory), options.max_memory, options.allow_outside_uris);
}

}  // namespace rigscope
