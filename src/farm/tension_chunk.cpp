#include "rigscope/farm/tension_chunk.h"

#include "rigscope/io/json_keys.h"
#include "rigscope/io/json_writer.h"

namespace rigscope {

std::string tension_range_state(const TensionRunInfo& run, const std::vector<std::string>& mesh_names, const VertexTensionExtremes& extremes) {
    namespace k = json_keys;
    std::string b;
    JsonWriter w(b);
    w.begin_object().key(k::params);
    write_tension_params(w, run.params);
    w.member(k::percentile, run.percentile).key(k::meshes).begin_array();
    for (std::size_t m = 0; m < mesh_names.size(); ++m) {
        w.begin_object().member(k::name, mesh_names[m]);
        w.number_array(k::min, extremes.min[m].size(), [&](std::size_t i) { return extremes.min[m][i]; });
        w.number_array(k::max, extremes.max[m].size(), [&](std::size_t i) { return extremes.max[m][i]; });
        w.end_object();
    }
    w.end_array().end_object();
    return b;
}

}  // namespace rigscope
