// Layer stacks: a root layer and its sublayers, stronger first, each with the map of its time
// codes into the root's (its layer offset, and the rates' ratio as Pcp applies it), the sublayers
// opened through LayerFiles. Cycles of sublayers and nesting past kMaxArcDepth are refused naming
// the files; so are relocates, which rigscope does not compose.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "io/usd/usd_layer.h"
#include "io/usd/usd_layer_files.h"

namespace rigscope::usd {

// Chains of sublayers, and of references (usd_compose.cpp), deeper than any production asset nests.
constexpr int kMaxArcDepth = 64;

// A layer offset: a time t in the inner layer is offset + scale x t outside (SdfLayerOffset).
struct TimeMap {
    double offset = 0.0;
    double scale = 1.0;
    double apply(double t) const { return offset + scale * t; }
    // This map after `inner`: t -> this(inner(t)).
    TimeMap after(const TimeMap& inner) const { return {offset + scale * inner.offset, scale * inner.scale}; }
};

// A root layer and its sublayers, strongest first, each with the map of its times into the root's.
struct LayerStack {
    struct Entry {
        const Layer* layer;
        TimeMap map;
    };
    std::vector<Entry> layers;
};

// A spec of one layer of a stack.
struct Site {
    const PrimSpec* spec;
    int layer;  // index into the stack's layers
};

// A layer's rate, by Pcp's rule: timeCodesPerSecond, else framesPerSecond, else 24.
double time_codes_per_second(const Layer& layer);

// A layer offset as the readers hold it (a Dict of offset and scale); refused naming `file` and
// `what` when it maps no time code to one (a scale of 0, a number that is not finite).
TimeMap layer_offset(const Value& dict, const std::string& file, const std::string& what);

// The specs at `path` (a prim path) of each layer of the stack, stronger first.
std::vector<Site> sites_at(const LayerStack& stack, const std::string& path);

// Every layer stack of one stage, each built once (a layer referenced twice shares its stack).
class LayerStacks {
public:
    // `stage` names the stage's root file in the flatten command of refusals.
    LayerStacks(LayerFiles& files, std::string stage) : files_(files), stage_(std::move(stage)) {}
    const LayerStack& of(const Layer& root);
    const Layer& root_of(const LayerStack& stack) const { return *roots_.at(&stack); }

private:
    LayerFiles& files_;
    std::string stage_;
    std::map<const Layer*, std::unique_ptr<LayerStack>> stacks_;
    std::map<const LayerStack*, const Layer*> roots_;
    void add_layer(LayerStack& stack, const Layer& layer, const TimeMap& map, std::vector<const Layer*>& chain);
};

}  // namespace rigscope::usd
