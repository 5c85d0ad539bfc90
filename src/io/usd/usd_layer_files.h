// The layers of one stage: the root file, and every file its sublayers, references and payloads
// name, each read once. Asset paths resolve as OpenUSD's default resolver anchors them: against the
// folder of the layer that writes them, and inside a .usdz against the package (a package's
// entries never reach outside it). A file outside the root file's folder (an absolute path, or one
// that climbs out with ../) is refused unless allow_outside (--allow-outside-uris, the glTF
// reader's option): a file from outside must not make rigscope read any file it may read. Every
// file is charged to the load's one budget before it is read, and the layers it parses into after.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "io/load_budget.h"
#include "io/usd/usd_layer.h"
#include "io/usd/usdz_package.h"

namespace rigscope::usd {

class LayerFiles {
public:
    // `root_path` names the root file (and its folder confines the others). With read_files
    // false no file but the root is read (the root's bytes given to open_root): a package's own
    // entries still are.
    LayerFiles(std::string root_path, std::uint64_t max_memory, bool allow_outside, bool read_files);
    ~LayerFiles();

    // The root layer from the root file's bytes (a text or crate layer, or a usdz package whose
    // first entry is the root layer).
    const Layer& open_root(std::string bytes);

    // The layer that `asset`, written in layer `from`, names; `what` says where (for messages:
    // "prim /A references @b.usda@"). Throws rigscope::Error (exit 3) naming `from`'s file, the
    // file resolved and the problem.
    const Layer& open(const Layer& from, const std::string& asset, const std::string& what);

    // The file a layer was read from (a package's entry as package[entry]), for messages.
    std::string name_of(const Layer& layer) const;

    LoadBudget& budget() { return budget_; }

    // Every file opened besides the root, as (path, how the stage reached it: "subLayers names
    // @layout.usda@ in shot.usda"), in the order opened: the run's outputs may not replace one.
    const std::vector<std::pair<std::string, std::string>>& files_read() const { return files_read_; }

private:
    struct Package;
    struct Opened;
    std::string root_path_;
    std::string root_dir_;  // the root file's folder, with a trailing '/'
    bool allow_outside_;
    bool read_files_;
    LoadBudget budget_;
    std::vector<std::unique_ptr<Package>> packages_;
    std::vector<std::unique_ptr<Opened>> opened_;
    std::map<std::string, Opened*> by_key_;
    std::map<const Layer*, Opened*> by_layer_;
    std::vector<std::pair<std::string, std::string>> files_read_;

    Opened& add(std::unique_ptr<Layer> layer, std::string key, std::string dir, Package* package, std::string name);
    std::unique_ptr<Layer> parse(const std::string& name, const std::string& bytes);
    Opened& open_file(const std::string& path, const std::string& from_name, const std::string& what);
    // A usdz's bytes held as a package (charged to the budget as `what`), and its root layer opened.
    Opened& open_package_root(const std::string& path, std::string bytes, const std::string& key, const std::string& what);
    Opened& open_entry(Package& package, const std::string& entry, const std::string& from_name, const std::string& what);
};

// `path` with "." and "x/.." taken out, lexically ("../" left where it climbs past the start).
std::string normalize_path(const std::string& path);

}  // namespace rigscope::usd
