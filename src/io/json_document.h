// Outputs built as an nlohmann document (info, lint: many optional members, written once per run,
// so their convenience costs nothing) written through the one JSON writer: the header every JSON
// output opens with first, then the document's members in its (sorted) order. Names from files
// that are not valid UTF-8 are replaced rather than refused. indent >= 0 pretty-prints (info's
// JSON has always been indented for reading; scripts grep its lines), -1 writes one line.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "rigscope/io/json_keys.h"
#include "rigscope/io/json_writer.h"

namespace rigscope {

inline std::string json_with_header(std::string_view command, std::string_view input, const nlohmann::json& members, int indent = -1) {
    std::string out;
    JsonWriter w(out);
    w.begin_object();
    write_json_header(w, command, input);
    for (const auto& [k, v] : members.items()) {
        if (k == json_keys::rigscope || k == json_keys::command || k == json_keys::input) continue;
        w.key_escaped(k).raw(v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
    w.end_object();
    // ordered_json keeps the header first; the values are the text just written, read back.
    if (indent >= 0) out = nlohmann::ordered_json::parse(out).dump(indent);
    out += '\n';
    return out;
}

}  // namespace rigscope
