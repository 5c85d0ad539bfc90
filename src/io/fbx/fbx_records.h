// The FBX record tree, read and checked whole: binary FBX (32- and 64-bit offsets, zlib arrays)
// from its bytes, ASCII FBX through its tokenizer (fbx_ascii_records.cpp) into the same tree,
// so that the scene reader (fbx_scene*.cpp) reads both alike and only files that passed these
// checks. No Assimp types here.
#pragma once

#include "io/load_budget.h"
#include <Eigen/Core>
#include <cstdint>
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

namespace rigscope::fbx {

// Real files nest about six levels deep; the parser recurses, so the limit also bounds its stack.
constexpr int kMaxDepth = 64;

// A file that breaks the format or a limit; the readers turn it into bad_input (exit 3).
struct Malformed : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Prop {
    char type = 0;
    double number = 0.0;      // Y C I F D L
    std::int64_t integer = 0; // Y C I L
    const unsigned char* data = nullptr;  // S R, arrays (still encoded); C: its byte (ASCII: its word)
    std::uint32_t bytes = 0;
    std::uint32_t count = 0;     // arrays: element count
    std::uint32_t encoding = 0;  // arrays: 1 = zlib
    std::string str() const { return std::string(reinterpret_cast<const char*>(data), bytes); }
    bool is_string() const { return type == 'S' || type == 'R'; }
};

struct Record {
    std::string name;
    std::vector<Prop> props;
    std::vector<Record> children;
    const Record* child(const char* n) const {
        for (const Record& c : children)
            if (c.name == n) return &c;
        return nullptr;
    }
};

struct RecordFile {
    bool binary = false;            // read from the binary records
    bool ascii = false;             // read from ASCII FBX text
    std::uint32_t version = 0;      // 7400 for FBX 7.4
    std::vector<unsigned char> bytes;  // the file; Prop::data points into it
    std::deque<std::string> text;      // ASCII: decoded strings and arrays Prop::data points into
    std::vector<Record> top;
    // The load's one memory budget (io/load_budget.h): the file, the records the ASCII and 6.x
    // readers build, and then the scene built from them (read_fbx_scene charges it too).
    mutable LoadBudget budget{"", 0};
    const Record* section(const char* name) const {
        for (const Record& r : top)
            if (r.name == name) return &r;
        return nullptr;
    }
};

// Reads the file (once) and checks all of it (nesting, offsets, every array against its count
// and the memory budget, polygon indices against control points). Throws Malformed, also for a
// file that is neither binary nor ASCII FBX.
RecordFile read_records(const std::string& path, std::uint64_t max_memory);
// The same over the file's bytes (the fuzz target's way in).
RecordFile records_from_bytes(std::vector<unsigned char> bytes, std::uint64_t max_memory);
// The tokenizer: file.bytes (ASCII FBX text) -> file.top and file.version, charged to
// file.budget. Throws Malformed.
void parse_ascii_records(RecordFile& file);
// FBX 6.x's tree (named objects, inline geometry, shapes and takes) rewritten as FBX 7.x's
// (fbx_v6.cpp), charged to file.budget. Throws Malformed.
void upgrade_v6(RecordFile& file);
// Throws Malformed with the budget's message when `bytes` more for `what` do not fit.
void charge(LoadBudget& budget, double bytes, const std::string& what);

int element_size(char type);  // bytes per element of an array type, 0 for other types
// Numeric array -> doubles (zlib-inflated where the file compressed it). Throws Malformed.
std::vector<double> as_doubles(const Prop& p, std::uint64_t max_memory);
// A 16-element array record as a matrix (FBX stores matrices column by column).
bool matrix_of(const Record* r, std::uint64_t max_memory, Eigen::Matrix4d& m);
// "Name\0\1Class" (binary) or "Class::Name" -> Name.
std::string object_name(const Prop& p);
std::string object_class(const Record& r);

}  // namespace rigscope::fbx
