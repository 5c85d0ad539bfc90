// The crate's structural sections (TOKENS, STRINGS, FIELDS, FIELDSETS, PATHS, SPECS) read into
// tables, each entry checked against the others (a field names a token there is, a spec a path
// there is), so that the later steps (crate_values.cpp, crate_specs.cpp) index them safely.
// Private to the crate reader.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "io/usd/crate_format.h"

namespace rigscope::usd::crate {

struct Spec {
    std::uint32_t path, field_set, type;
};

struct CrateTables {
    const CrateBytes* source = nullptr;  // for the messages of an index out of range
    std::vector<std::string> tokens;
    std::vector<std::uint32_t> strings;  // token index per string
    std::vector<std::pair<std::uint32_t, Rep>> fields;  // name token, value rep
    std::vector<std::uint32_t> field_sets;  // field indexes, each set ended by ~0u
    std::vector<std::string> paths;
    std::vector<Spec> specs;

    const std::string& token(std::uint64_t i) const;
    const std::string& string_at(std::uint64_t i) const;
    const std::string& path_at(std::uint64_t i) const;
};

// The version from the bootstrap header into `c` (refused outside 0.4.0 to 0.14.0).
void read_header(CrateBytes& c);
// The table of contents, then each section in the order the next one needs them.
CrateTables read_sections(CrateBytes& c);

}  // namespace rigscope::usd::crate
