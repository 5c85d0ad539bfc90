// The crate's specs into the layer's prim tree (private to the crate reader): the pseudo-root's
// fields as layer metadata, prim and variant specs as PrimSpecs, attribute and relationship specs
// as their prims' properties, children in primChildren order.
#pragma once

#include "io/usd/crate_sections.h"
#include "io/usd/crate_values.h"
#include "io/usd/usd_layer.h"

namespace rigscope::usd::crate {

void build_layer(CrateBytes& c, const CrateTables& t, CrateValues& values, Layer& layer);

}  // namespace rigscope::usd::crate
