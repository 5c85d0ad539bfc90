// The layer Alembic calls AbcCoreOgawa, on top of the Ogawa container: the archive's root group
// (versions, the top object, metadata, time samplings, indexed metadata), objects (a property
// compound, child objects, a block of child headers) and properties (scalar, array, compound,
// with their headers packed in one block per compound). Samples are stored once per change:
// a property keeps its first sample, then those from its first to its last changed index, and
// repeats the nearest for the others (Alembic's own rule, Foundation.h's verifyIndex). Identical
// sample contents anywhere in the file are written once and referenced by offset.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "io/alembic/ogawa_file.h"

namespace rigscope::abc {

// Alembic's plain-old-data types, by their numbers in the file.
enum Pod : int {
    kBool = 0, kU8, kI8, kU16, kI16, kU32, kI32, kU64, kI64, kF16, kF32, kF64, kString, kWstring,
};
int pod_bytes(int pod);  // 0 for strings
const char* pod_name(int pod);

// A name from the file as messages and outputs show it: control bytes as \\xNN (a corrupt
// name must not break an error's one line).
std::string printable(const char* p, std::size_t n);

// A number for messages: 9 significant digits, no trailing zeros (0.125, 0.0416666667).
std::string number(double v);

using MetaData = std::map<std::string, std::string>;
MetaData parse_metadata(const std::string& text);

struct TimeSampling {
    enum Kind { Uniform, Cyclic, Acyclic } kind = Uniform;
    double time_per_cycle = 1.0;
    std::vector<double> times;  // the first cycle's times (uniform: one)
    std::uint32_t max_samples = 0;
    double time(std::uint64_t index) const;
    // Seconds per sample where the sampling has one (uniform, or cyclic of one sample a cycle).
    bool has_step() const { return kind == Uniform || (kind == Cyclic && times.size() == 1); }
    std::string describe() const;
};

struct Property {
    enum Type { Compound = 0, Scalar = 1, Array = 2 } type = Compound;
    std::string name;
    int pod = 0;
    int extent = 0;
    std::uint32_t samples = 0;        // samples the property has (nextSampleIndex)
    std::uint32_t first_changed = 0;  // as Alembic's header stores them
    std::uint32_t last_changed = 0;
    std::uint32_t sampling = 0;       // index into the archive's time samplings
    MetaData meta;
    std::uint64_t group = 0;          // the property's group offset
    std::vector<Property> children;   // a compound's, read with it

    const Property* child(const std::string& n) const;
    // The stored sample holding sample `index` (< samples).
    std::uint32_t stored(std::uint32_t index) const;
    std::uint32_t stored_count() const;
};

struct Object {
    std::string name;
    std::string path;  // "/a/b"
    MetaData meta;
    Property props;    // the object's top compound
    std::vector<Object> children;
    std::string schema() const {
        auto it = meta.find("schema");
        return it == meta.end() ? std::string() : it->second;
    }
};

class Archive {
public:
    // Reads the root, the time samplings and the whole object and property tree (not the samples).
    Archive(const std::string& path, LoadBudget& budget);

    OgawaFile& file() { return file_; }
    const Object& top() const { return top_; }
    const std::vector<TimeSampling>& samplings() const { return samplings_; }
    const TimeSampling& sampling_of(const Property& p) const { return samplings_.at(p.sampling); }

    // The data block of sample `index` of an array property, and its dimensions' element count
    // (checked against the block's size). `what` names the property in errors.
    DataRef array_sample(const Property& p, std::uint32_t index, const std::string& what, std::uint64_t& elements);
    // The same, with its bytes (past the 16-byte key), typed data checked against pod and extent.
    std::vector<char> array_bytes(const Property& p, std::uint32_t index, const std::string& what, std::uint64_t& elements);
    // A scalar property's sample `index` as bytes (past the key).
    std::vector<char> scalar_bytes(const Property& p, std::uint32_t index, const std::string& what);

private:
    void read_object(Object& o, std::uint64_t group, int depth);
    void read_compound(Property& c, std::uint64_t group, const std::string& owner, int depth);
    const std::vector<std::uint64_t>& property_children(const Property& p, const std::string& what);
    void visit(std::uint64_t group, const std::string& what, int depth);

    OgawaFile file_;
    std::vector<TimeSampling> samplings_;
    std::vector<MetaData> indexed_;
    Object top_;
    std::vector<std::uint64_t> visited_;  // groups read as objects or compounds (a cycle guard)
    std::map<std::uint64_t, std::vector<std::uint64_t>> sample_groups_;
};

}  // namespace rigscope::abc
