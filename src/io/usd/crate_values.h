// Crate value reps into the layer model's Value: tokens, strings, asset paths and their arrays,
// path and string vectors, list ops (with their edits, which composition applies), references
// and payloads, dictionaries, variant selections, layer offsets and time samples; numbers go to
// crate_numbers.cpp. Private to the crate reader.
#pragma once

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "io/usd/crate_format.h"
#include "io/usd/crate_sections.h"
#include "io/usd/usd_layer.h"

namespace rigscope::usd::crate {

// One decoder per layer: values nest (a dictionary's values, a Value rep's target), so it keeps
// the reps being unpacked, which refuses a value that contains itself and bounds the depth.
class CrateValues {
public:
    CrateValues(CrateBytes& c, const CrateTables& t) : c_(c), t_(t) {}

    Value value(const Rep& r);
    // A list op's lists with their edits, in the order the crate stores them.
    std::vector<std::pair<ListEdit, Value>> list_op_edits(const Rep& r);
    // The attribute's time samples, times increasing, into p.samples.
    void time_samples(const Rep& r, PropertySpec& p);

private:
    CrateBytes& c_;
    const CrateTables& t_;
    std::set<std::uint64_t> unpacking_;  // value reps being unpacked: a rep inside itself is a loop
    int depth_ = 0;

    Value value_inner(const Rep& r);
    Value vector_value(const Rep& r);
    Value string_list(Cursor& c, int kind);
    Value list_op(const Rep& r);
    Value arc_item(Cursor& c, bool reference);
    Value arc_list(Cursor& c, int kind);
    Value dictionary_at(Cursor& c);
    Value variant_selections(const Rep& r);
    Value layer_offsets(const Rep& r);
    Value token_array(const Rep& r, bool strings);
};

}  // namespace rigscope::usd::crate
