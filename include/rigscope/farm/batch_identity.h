// A farm run of a batch (`check lib --task I/N`, issue 57) is one library: each task records the
// batch's identity (every file of the batch in order, with its size and modification time, and
// the options that shape the rows), and `merge` joins only tasks whose identities are equal, so
// that a file renamed, added, removed or rewritten between tasks is refused instead of being
// listed twice or never checked (docs/farm.md "One library").
//
// Why size and modification time for the whole list, and a content hash only of each task's own
// files: a task reads its own files anyway (the hash is taken just before the reader, from the
// page cache it fills), but hashing every file of the library in every task would read the
// whole library N times over the farm's network. A rewrite changes the size or the time; a
// rewrite that keeps both (cp -p of a file of the same size) is not seen across tasks, and each
// row's content hash says what was judged.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace rigscope {

class JsonWriter;

// One file as a task saw it before any work.
struct FileStamp {
    std::string path;          // as the batch reads it; empty: no such file (diff's NEW of an OLD alone)
    bool present = false;      // stat() found a file
    std::uint64_t bytes = 0;
    std::int64_t mtime_ns = 0; // modification time, nanoseconds since the epoch
    std::string fnv1a64;       // content hash, only for the files the task judged ("" otherwise)
};

struct BatchIdentityFile {
    std::string relpath;
    FileStamp file;
    FileStamp partner;  // diff: NEW
};

struct BatchIdentity {
    std::string command;
    // The options that shape a file's row, by CLI name, as a chunk records them (run/chunk_run.h).
    std::vector<std::pair<std::string, std::vector<std::string>>> options;
    std::vector<BatchIdentityFile> files;  // every file of the batch, in the batch's order
};

// stat() of `path` (following links); present false when it does not exist.
FileStamp stamp_file(const std::string& path);

// Empty when a and b are one batch's identity; else the first difference, in words, b's value
// first ("file 3 of 4: lib/c2.glb vs lib/c.glb (renamed, added or removed between tasks)").
// Content hashes are not compared (each task hashes only its own files).
std::string batch_identity_difference(const BatchIdentity& a, const BatchIdentity& b);

// The "identity" member of a batch summary, and read back (throws nlohmann::json::exception for
// a malformed one).
void write_batch_identity(JsonWriter& w, const BatchIdentity& id);
BatchIdentity read_batch_identity(const nlohmann::json& j);

}  // namespace rigscope
