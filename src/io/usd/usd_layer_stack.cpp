#include "io/usd/usd_layer_stack.h"

#include <algorithm>
#include <cmath>

#include "io/usd/usd_compose.h"
#include "rigscope/core/error.h"

namespace rigscope::usd {

double time_codes_per_second(const Layer& layer) {
    for (const char* key : {"timeCodesPerSecond", "framesPerSecond"})
        if (auto it = layer.metadata.find(key); it != layer.metadata.end() && it->second.kind == Value::Kind::Number &&
                                                 it->second.number > 0 && std::isfinite(it->second.number))
            return it->second.number;
    return 24.0;
}

TimeMap layer_offset(const Value& dict, const std::string& file, const std::string& what) {
    TimeMap m;
    for (const auto& e : dict.dict) {
        if (e.second.kind != Value::Kind::Number) continue;
        if (e.first == "offset") m.offset = e.second.number;
        else if (e.first == "scale") m.scale = e.second.number;
    }
    if (!std::isfinite(m.offset) || !std::isfinite(m.scale) || m.scale == 0)
        throw bad_input(file, what + " has the layer offset (offset = " + std::to_string(m.offset) + "; scale = " +
                                  std::to_string(m.scale) + "), which maps no time code to one");
    return m;
}

// The specs at `path` of each layer of the stack, strongest first.
std::vector<Site> sites_at(const LayerStack& stack, const std::string& path) {
    std::vector<Site> out;
    for (std::size_t i = 0; i < stack.layers.size(); ++i) {
        std::vector<const PrimSpec*> level;
        std::size_t at = 1;
        bool first = true;
        while (at <= path.size()) {
            std::size_t next = path.find('/', at);
            if (next == std::string::npos) next = path.size();
            const std::string name = path.substr(at, next - at);
            std::vector<const PrimSpec*> found;
            if (first) {
                for (auto it = stack.layers[i].layer->roots.rbegin(); it != stack.layers[i].layer->roots.rend(); ++it)
                    if ((*it)->name == name) found.push_back(it->get());
            } else {
                for (const PrimSpec* p : level)
                    for (auto it = p->children.rbegin(); it != p->children.rend(); ++it)
                        if ((*it)->name == name) found.push_back(it->get());
            }
            level = std::move(found);
            first = false;
            at = next + 1;
        }
        for (const PrimSpec* p : level) out.push_back({p, int(i)});
    }
    return out;
}

const LayerStack& LayerStacks::of(const Layer& layer) {
    auto it = stacks_.find(&layer);
    if (it != stacks_.end()) return *it->second;
    auto stack = std::make_unique<LayerStack>();
    std::vector<const Layer*> chain;
    add_layer(*stack, layer, TimeMap{}, chain);
    const LayerStack* s = stack.get();
    roots_[s] = &layer;
    stacks_[&layer] = std::move(stack);
    return *s;
}

void LayerStacks::add_layer(LayerStack& stack, const Layer& layer, const TimeMap& map, std::vector<const Layer*>& chain) {
    const std::string file = files_.name_of(layer);
    if (std::find(chain.begin(), chain.end(), &layer) != chain.end()) {
        std::string cycle;
        for (const Layer* l : chain) cycle += files_.name_of(*l) + " -> ";
        throw bad_input(file, "a cycle of sublayers: " + cycle + file);
    }
    if (int(chain.size()) >= kMaxArcDepth) throw bad_input(file, "sublayers nest deeper than " + std::to_string(kMaxArcDepth) + " layers");
    if (layer.metadata.count("relocates")) throw bad_input(file, "the layer has relocates, which rigscope does not compose" + flatten_hint(stage_));
    stack.layers.push_back({&layer, map});
    auto subs = layer.metadata.find("subLayers");
    if (subs == layer.metadata.end()) return;
    chain.push_back(&layer);
    // Text: a list of assets, each with its offset; crate: a string list and subLayerOffsets.
    const Value* offsets = nullptr;
    if (auto o = layer.metadata.find("subLayerOffsets"); o != layer.metadata.end()) offsets = &o->second;
    if (offsets && offsets->kind != Value::Kind::NumberArray)
        throw bad_input(file, "the layer's subLayerOffsets are not read" + flatten_hint(file));
    std::vector<const Value*> items;
    if (subs->second.kind == Value::Kind::List) for (const auto& i : subs->second.items) items.push_back(&i);
    else if (subs->second.kind == Value::Kind::Asset || subs->second.kind == Value::Kind::String) items.push_back(&subs->second);
    else if (!subs->second.is_none() && !(subs->second.kind == Value::Kind::NumberArray && subs->second.numbers.empty()))
        throw bad_input(file, "the layer's subLayers are not a list of asset paths");
    const double tcps = time_codes_per_second(layer);
    for (std::size_t k = 0; k < items.size(); ++k) {
        const Value& item = *items[k];
        if (item.kind != Value::Kind::Asset && item.kind != Value::Kind::String) throw bad_input(file, "the layer's subLayers hold something other than an asset path");
        const std::string what = "subLayers names @" + item.text + "@";
        TimeMap offset;
        for (const auto& part : item.items)
            if (part.kind == Value::Kind::Dict) offset = layer_offset(part, file, what);
        if (offsets && offsets->width == 2 && 2 * k + 1 < offsets->numbers.size()) {
            Value d;
            d.kind = Value::Kind::Dict;
            Value o, s;
            o.kind = s.kind = Value::Kind::Number;
            o.number = offsets->numbers[2 * k];
            s.number = offsets->numbers[2 * k + 1];
            d.dict = {{"offset", o}, {"scale", s}};
            offset = layer_offset(d, file, what);
        }
        const Layer& sub = files_.open(layer, item.text, what);
        // A sublayer of another rate is scaled into this one's, as Pcp does.
        offset.scale *= tcps / time_codes_per_second(sub);
        add_layer(stack, sub, map.after(offset), chain);
    }
    chain.pop_back();
}

}  // namespace rigscope::usd
