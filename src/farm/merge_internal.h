// Shared by the merge sources: chunk files mapped read-only, exact number text, and what a
// tension run's chunks need recomputed over all frames.
#pragma once

#include <array>
#include <charconv>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "rigscope/farm/chunk.h"
#include "rigscope/io/output.h"
#include "rigscope/core/tension.h"

namespace rigscope::merge_detail {

// A chunk output mapped into memory: chunks can be far larger than the merge should allocate.
class MappedFile {
public:
    explicit MappedFile(const std::string& path);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    MappedFile(MappedFile&& o) noexcept : data_(o.data_), size_(o.size_) { o.data_ = nullptr; o.size_ = 0; }
    std::string_view text() const { return {static_cast<const char*>(data_), size_}; }

private:
    void* data_ = nullptr;
    std::size_t size_ = 0;
};

// Appends in blocks so a gigabyte chunk never sits whole in the output buffer.
void emit(OutputFile& out, std::string_view s);

// Numbers written by append_number read back to the same value; false when `s` is not one.
template <typename T>
bool parse_number(std::string_view s, T& v) {
    auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// --auto-range over every chunk's frames: what each chunk recorded of its per-vertex extremes,
// combined as a single pass over all frames would have.
struct AutoRange {
    bool active = false;
    TensionParams params;
    TensionRange range;
    double percentile = 100;
};
AutoRange tension_auto_range(const std::vector<ChunkRecord>& chunks);

// q and -q are one rotation; a baked rivet picks each key's sign by the key before it, which a
// chunk's first key does not have. Per rivet, the whole chunk flips when its first key points
// away from the previous chunk's last, as the single run's choice would have.
class QuaternionContinuity {
public:
    void start_chunk() { decided_.clear(); }
    // Whether this chunk's keys of rivet `key` change sign; call with each key in order, then
    // record() the key as written.
    bool flip(const std::string& key, const double q[4]);
    void record(const std::string& key, const double q[4]);

private:
    std::map<std::string, std::array<double, 4>> last_;
    std::map<std::string, bool> decided_;
};

void merge_csv(const std::vector<ChunkRecord>& chunks, OutputFile& out);
void merge_json(const std::vector<ChunkRecord>& chunks, OutputFile& out);

[[noreturn]] void bad_chunk(const ChunkRecord& r, const std::string& problem);

}  // namespace rigscope::merge_detail
