// Values read from a chunk record's state (numbers, frame labels), where a bad one is blamed on
// the record: "REC: check state: 'x' is not a number". Shared by the check and diff records.
#pragma once

#include <charconv>
#include <string>
#include <string_view>

#include "rigscope/core/error.h"
#include "rigscope/core/frames.h"
#include "rigscope/farm/chunk.h"

namespace rigscope {

// `kind`: the state's name in messages ("check", "diff").
[[noreturn]] inline void bad_state(const ChunkRecord& r, const char* kind, const std::string& problem) {
    throw bad_input(r.record_path, std::string(kind) + " state: " + problem);
}

template <typename T>
T state_number(const ChunkRecord& r, const char* kind, std::string_view s) {
    T v{};
    auto res = std::from_chars(s.data(), s.data() + s.size(), v);
    if (res.ec != std::errc() || res.ptr != s.data() + s.size()) bad_state(r, kind, "'" + std::string(s) + "' is not a number");
    return v;
}

// A frame as append_frame(json) wrote it: a number, or "bind".
inline Frame state_frame(const ChunkRecord& r, const char* kind, std::string_view s) {
    if (s == "\"bind\"") return Frame{true, 0, 0.0};
    return Frame{false, state_number<long>(r, kind, s), 0.0};
}

}  // namespace rigscope
