// Vertex selections from the command line: "12,40,100..110".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rigscope {

// Parses a comma-separated list of file vertex ids (Scene::vertex_ids says what an id means for
// a file) and inclusive ranges "a..b". Ids come back in the order written, each once (a repeat
// keeps its first place), so outputs follow the user's order. Spaces around items are allowed.
// Throws Error(kExitUsage) for a malformed list, an empty one, a backwards range, or an id
// >= vertex_count (the message names the id and the count).
std::vector<std::uint32_t> parse_vertex_list(const std::string& spec, std::size_t vertex_count);

}  // namespace rigscope
