// A binary crate layer (crate_reader.h) read in steps, each handing the next what it made: the
// header's version, the structural tables (crate_sections.cpp), then the specs into the prim
// tree (crate_specs.cpp), whose values are decoded as they are met (crate_values.cpp). One
// budget sees the layer's bytes first and then every table and value.
#include "io/usd/crate_reader.h"

#include "io/usd/crate_format.h"
#include "io/usd/crate_sections.h"
#include "io/usd/crate_specs.h"
#include "io/usd/crate_values.h"

namespace rigscope::usd {

Layer parse_crate(const std::string& path, const std::string& bytes, std::uint64_t max_memory) {
    crate::CrateBytes c(path, bytes, max_memory);
    c.charge(double(bytes.size()), "the layer");
    crate::read_header(c);
    const crate::CrateTables tables = crate::read_sections(c);
    Layer layer;
    layer.path = path;
    layer.format = "usdc " + std::to_string(c.major) + "." + std::to_string(c.minor) + "." + std::to_string(c.patch);
    crate::CrateValues values(c, tables);
    crate::build_layer(c, tables, values, layer);
    layer.held = c.budget.held();
    return layer;
}

}  // namespace rigscope::usd
