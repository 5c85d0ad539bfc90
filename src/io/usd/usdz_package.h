// usdz packages: a zip whose entries are stored (not compressed), the root layer being the first
// entry. Only the central directory's word is taken, and every entry's bytes are checked to lie
// inside the file, so a package cannot claim more than it holds (a zip bomb) or point outside.
#pragma once

#include <string>
#include <vector>

namespace rigscope::usd {

struct PackageEntry {
    std::string name;
    std::size_t offset = 0;  // of the entry's bytes in the package
    std::size_t size = 0;
};

// The entries in the central directory's order. Throws rigscope::Error (exit 3) naming `path`.
std::vector<PackageEntry> read_package(const std::string& path, const std::string& bytes);

}  // namespace rigscope::usd
