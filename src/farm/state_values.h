// Values read from a chunk record's state (numbers, frame labels), where a bad one is blamed on
// the record: "REC: check state: 'x' is not a number". Shared by the check and diff records.
#pragma once

#include <charconv>
#include <string>
#include <string_view>
#include <vector>

#include "rigscope/core/error.h"
#include "rigscope/core/frames.h"
#include "rigscope/farm/chunk.h"
#include "rigscope/io/json_text.h"

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

// A limit a run may not have: "null" for none (has false), else its number.
inline void state_limit(const ChunkRecord& r, const char* kind, std::string_view text, bool& has, double& value) {
    has = text != "null";
    if (has) value = state_number<double>(r, kind, text);
}

// An object of a record's state with its members taken by key: a missing one is the record's
// error, `missing` + key + "'" ("no 'max_stretch'", "a mesh without 'lo_t'").
struct StateMembers {
    const ChunkRecord& r;
    const char* kind;
    std::string_view s;
    std::vector<json_text::Member> members;
    const char* missing = "no '";

    json_text::Span get(const char* key) const {
        const json_text::Member* m = json_text::find(members, key);
        if (!m) bad_state(r, kind, missing + std::string(key) + "'");
        return m->value;
    }
    // The value's text ("null", a number as written).
    std::string_view text(const char* key) const { return get(key).of(s); }
};

// Each chunk's state of `kind` handed to `read(record, state text)`, in chunk order (a merge's
// chunks come in frame order): a record without one is refused with `missing`, and text that
// is not JSON is the record's error, not a crash of the merge.
template <typename Read>
void read_chunk_states(const std::vector<ChunkRecord>& chunks, const char* kind, const char* missing, Read read) {
    for (const ChunkRecord& r : chunks) {
        const std::string* state = nullptr;
        for (const auto& [name, text] : r.state)
            if (name == kind) state = &text;
        if (!state) bad_state(r, kind, missing);
        const std::string_view s = *state;
        try {
            read(r, s);
        } catch (const json_text::SyntaxError& e) {
            bad_state(r, kind, e.what());
        }
    }
}

}  // namespace rigscope
