// The steps of stage composition (usd_compose.cpp runs them), private to the USD reader: a prim's
// index grown arc by arc (usd_compose_arcs.cpp: references and payloads; usd_compose_variants.cpp:
// variant selections), then its opinions resolved into one composed spec
// (usd_compose_prims.cpp). Composition is what every step shares: the files, the stage's layer
// stacks, and what info and the warnings are told.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "io/usd/usd_compose.h"
#include "io/usd/usd_layer_stack.h"
#include "io/usd/usd_prim_index.h"

namespace rigscope::usd {

// Bounds past which a stage is refused rather than composed without end: a chain of arcs deeper
// than any production asset nests (kMaxArcDepth, usd_layer_stack.h, which bounds sublayers too),
// arcs in one prim's index, and the composed namespace's depth (the parser's bound for one layer).
constexpr std::size_t kMaxIndexNodes = 10000;
constexpr int kMaxComposedDepth = 512;

struct Composition {
    Composition(LayerFiles& f, const Layer& r, std::vector<Warning>& w, std::vector<std::string>& c)
        : files(f), root(r), warnings(w), composed(c), stacks(f, f.name_of(r)) {}
    LayerFiles& files;
    const Layer& root;
    std::vector<Warning>& warnings;
    std::vector<std::string>& composed;  // what was composed, once each, in the order met (info)
    std::set<std::string> local_below_instances;  // Layer::instances_with_local_opinions
    LayerStacks stacks;

    // The file of the site's layer, for messages.
    std::string name_of(const IndexNode& n, const Site& s) const { return files.name_of(*n.stack->layers[std::size_t(s.layer)].layer); }
    [[noreturn]] void fail_in(const std::string& file, const std::string& what) const;
    void charge(double bytes) { files.budget().charge(bytes, "the composed prims"); }
    // A file as info names it: relative to the root layer's folder when inside it (the stage's
    // own files), else as opened.
    std::string shown(const std::string& file) const;
    // `what` into `composed`, unless it is there.
    void record(std::string what);
};

// A time map as info names it: nothing for the identity.
std::string offset_text(const TimeMap& m);

// ---- arcs (usd_compose_arcs.cpp) ----
// The node's references and payloads as child nodes, their list edits applied over its sites.
void add_arcs(Composition& c, IndexNode& node, const std::string& prim_path, int depth, std::size_t& count);

// ---- variants (usd_compose_variants.cpp) ----
// The node's variant sets, each with its selected variant (from anywhere in the prim's index) as
// a child node; false when none was added.
bool add_variants(Composition& c, IndexNode& node, IndexNode& root_node, const std::string& prim_path, int depth, std::size_t& count);

// ---- composed prims (usd_compose_prims.cpp) ----
// The prim at `index` and its namespace below as composed specs.
std::unique_ptr<PrimSpec> compose_prim(Composition& c, IndexNode& index, const std::string& name, const std::string& prim_path, int depth);

}  // namespace rigscope::usd
