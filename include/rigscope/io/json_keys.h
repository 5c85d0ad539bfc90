// JSON member names that more than one place spells: the header every JSON output opens with,
// and the members merge reads back from chunk outputs (farm/merge_json.cpp) or a chunk record.
// Writer and reader name them from here, so a key cannot drift between them.
#pragma once

#include <string_view>

namespace rigscope::json_keys {

// The header (write_json_header).
constexpr std::string_view rigscope = "rigscope";
constexpr std::string_view command = "command";
constexpr std::string_view input = "input";
constexpr std::string_view old_input = "old";
constexpr std::string_view new_input = "new";

// Members of the outputs that merge joins or recomputes.
constexpr std::string_view chunk = "chunk";
constexpr std::string_view index = "index";
constexpr std::string_view count = "count";
constexpr std::string_view range = "range";
constexpr std::string_view t_s = "t_s";
constexpr std::string_view t_c = "t_c";
constexpr std::string_view auto_range = "auto";
constexpr std::string_view percentile = "percentile";
constexpr std::string_view frames = "frames";
constexpr std::string_view frame = "frame";
constexpr std::string_view time = "time";
constexpr std::string_view times = "times";
constexpr std::string_view meshes = "meshes";
constexpr std::string_view mesh = "mesh";
constexpr std::string_view name = "name";
constexpr std::string_view summary = "summary";
constexpr std::string_view measure = "measure";
constexpr std::string_view measure_summary = "measure_summary";
constexpr std::string_view vertices = "vertices";
constexpr std::string_view vertex = "vertex";
constexpr std::string_view min_t = "min_t";
constexpr std::string_view max_t = "max_t";
constexpr std::string_view min = "min";
constexpr std::string_view max = "max";
constexpr std::string_view min_index = "min_index";
constexpr std::string_view max_index = "max_index";
constexpr std::string_view min_frame = "min_frame";
constexpr std::string_view max_frame = "max_frame";
constexpr std::string_view t = "t";
constexpr std::string_view compress = "compress";
constexpr std::string_view stretch = "stretch";
constexpr std::string_view t_area = "t_area";
constexpr std::string_view lambda_max = "lambda_max";
constexpr std::string_view lambda_min = "lambda_min";
constexpr std::string_view bake = "bake";
constexpr std::string_view qx = "qx";
constexpr std::string_view qy = "qy";
constexpr std::string_view qz = "qz";
constexpr std::string_view qw = "qw";
constexpr std::string_view controls = "controls";
constexpr std::string_view series = "series";
constexpr std::string_view weights = "weights";
constexpr std::string_view regions = "regions";  // regions' curves: each region's values per frame
constexpr std::string_view values = "values";
constexpr std::string_view x = "x";
constexpr std::string_view y = "y";

// A chunk record's tension_range state (farm/tension_chunk.cpp, read by merge_support.cpp) and
// the tension node group's parameters it carries.
constexpr std::string_view params = "params";
constexpr std::string_view falloff = "falloff";
constexpr std::string_view stretch_area = "stretch_area";
constexpr std::string_view compress_area = "compress_area";
constexpr std::string_view weight_limit = "weight_limit";
constexpr std::string_view smooth_k = "smooth_k";

}  // namespace rigscope::json_keys
