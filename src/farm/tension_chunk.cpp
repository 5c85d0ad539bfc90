#include "rigscope/farm/tension_chunk.h"

#include "rigscope/io/output.h"

namespace rigscope {

std::string tension_range_state(const TensionRun& run, const std::vector<std::string>& mesh_names, const VertexTensionExtremes& extremes) {
    std::string b = "{\"params\":";
    append_tension_params(b, run.params);
    b += ",\"percentile\":";
    append_number(b, run.percentile);
    b += ",\"meshes\":[";
    for (std::size_t m = 0; m < mesh_names.size(); ++m) {
        b += m ? ",{\"name\":" : "{\"name\":";
        append_json_string(b, mesh_names[m]);
        for (int side = 0; side < 2; ++side) {
            const auto& v = side ? extremes.max[m] : extremes.min[m];
            b += side ? "],\"max\":[" : ",\"min\":[";
            for (std::size_t w = 0; w < v.size(); ++w) {
                if (w) b += ',';
                append_number(b, v[w]);
            }
        }
        b += "]}";
    }
    b += "]}";
    return b;
}

}  // namespace rigscope
