// The stage's composition (usd_compose.h): the root layer stack's prims, each composed from its
// prim index (usd_compose_prims.cpp, which grows the index by arc: usd_compose_arcs.cpp,
// usd_compose_variants.cpp), and the stage metadata, which are the root layer's alone.
#include "io/usd/usd_compose.h"

#include <algorithm>
#include <sstream>

#include "io/usd/usd_compose_build.h"
#include "rigscope/core/error.h"

namespace rigscope::usd {

void Composition::fail_in(const std::string& file, const std::string& what) const { throw bad_input(file, what); }

std::string Composition::shown(const std::string& file) const {
    const std::string& r = files.name_of(root);
    const std::size_t slash = r.find_last_of('/');
    if (slash == std::string::npos || file.compare(0, slash + 1, r, 0, slash + 1) != 0) return file;
    return file.substr(slash + 1);
}

void Composition::record(std::string what) {
    if (std::find(composed.begin(), composed.end(), what) == composed.end()) composed.push_back(std::move(what));
}

std::string offset_text(const TimeMap& m) {
    if (m.offset == 0 && m.scale == 1) return "";
    std::ostringstream s;
    s.precision(10);
    s << " (offset " << m.offset << ", scale " << m.scale << ")";
    return s.str();
}

std::string flatten_hint(const std::string& path) {
    return " (flatten it with usd-core: python3 -c \"from pxr import Usd; Usd.Stage.Open('" + path +
           "').Export('flat.usda')\")";
}

Layer compose_stage(LayerFiles& files, const Layer& root, std::vector<Warning>& warnings, std::vector<std::string>& composed) {
    Composition c(files, root, warnings, composed);
    const LayerStack& stack = c.stacks.of(root);
    Layer out;
    out.path = root.path;
    out.format = root.format;
    // Stage metadata are the root layer's alone (Usd reads startTimeCode, metersPerUnit,
    // upAxis... from it, not from sublayers or references).
    out.metadata = root.metadata;
    out.metadata.erase("subLayers");
    out.metadata.erase("subLayerOffsets");
    for (std::size_t k = 1; k < stack.layers.size(); ++k)
        c.record("sublayer " + c.shown(files.name_of(*stack.layers[k].layer)) + offset_text(stack.layers[k].map));
    std::vector<std::string> names;
    for (const auto& e : stack.layers)
        for (const auto& r : e.layer->roots)
            if (std::find(names.begin(), names.end(), r->name) == names.end()) names.push_back(r->name);
    for (const auto& name : names) {
        IndexNode index;
        index.stack = &stack;
        index.site_path = "/" + name;
        index.describe = files.name_of(root) + "</" + name + ">";
        index.sites = sites_at(stack, "/" + name);
        out.roots.push_back(compose_prim(c, index, name, "/" + name, 0));
    }
    out.instances_with_local_opinions = std::move(c.local_below_instances);
    return out;
}

}  // namespace rigscope::usd
