// Ogawa, the container of Alembic archives (docs/alembic_notes.md): a 16-byte header ("Ogawa",
// a frozen flag, version 1, the root group's offset), then groups and data blocks anywhere in the
// file. A group is a count and that many 64-bit child offsets, the top bit marking a data block;
// a data block is a 64-bit size and its bytes. Offset 0 is the empty group or empty data.
//
// Read with pread, never whole: a cache of 262k points over 231 samples is 700 MB, of which a run
// holds two samples at a time. Every offset and count is checked against the file's size before
// it is used, and every buffer against the load's memory budget before it is allocated.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/load_budget.h"

namespace rigscope::abc {

// A data block: its bytes start at `pos` (after the size field) and hold `size` bytes.
struct DataRef {
    std::uint64_t pos = 0;
    std::uint64_t size = 0;
};

class OgawaFile {
public:
    // Opens `path`, refusing (bad input, exit 3) an HDF5 archive by name, a file that is not Ogawa,
    // one still being written (not frozen) and another Ogawa version.
    OgawaFile(const std::string& path, LoadBudget& budget);
    ~OgawaFile();
    OgawaFile(const OgawaFile&) = delete;
    OgawaFile& operator=(const OgawaFile&) = delete;

    const std::string& path() const { return path_; }
    std::uint64_t size() const { return size_; }
    std::uint64_t root() const { return root_; }
    int fd() const { return fd_; }

    static bool is_data(std::uint64_t child) { return (child >> 63) != 0; }

    // The child offsets of the group at `pos` (a child raw offset without the data bit; 0 is the
    // empty group). `what` names the group in errors ("object /a/b").
    std::vector<std::uint64_t> group(std::uint64_t pos, const std::string& what);
    // The data block a child offset names (the data bit set, or 0 for empty data).
    DataRef data(std::uint64_t child, const std::string& what) const;
    // `n` bytes from `offset`, refused past the end of the file.
    void read(std::uint64_t offset, std::uint64_t n, void* out, const std::string& what) const;
    // A data block's bytes, charged to the budget first.
    std::vector<char> bytes(const DataRef& d, const std::string& what);

    [[noreturn]] void fail(const std::string& problem) const;
    LoadBudget& budget() { return budget_; }

private:
    std::string path_;
    LoadBudget& budget_;
    int fd_ = -1;
    std::uint64_t size_ = 0;
    std::uint64_t root_ = 0;
};

}  // namespace rigscope::abc
