#include "rigscope/tension_chunk.h"

#include <algorithm>

#include "rigscope/chunk.h"
#include "rigscope/tension_output.h"

namespace rigscope {

void TensionChunkExtremes::begin(const TensionRun& run, const std::vector<TensionMeshView>& meshes) {
    active_ = run.chunk_count > 1 && run.auto_range;
    if (!active_) return;
    run_ = run;
    meshes_ = meshes;
    // Starting at 1 as the single run's range pass does, so merged extremes are the same.
    for (const auto& m : meshes) {
        min_.emplace_back(m.tension->topo.welded_count(), 1.0f);
        max_.emplace_back(m.tension->topo.welded_count(), 1.0f);
    }
}

void TensionChunkExtremes::frame() {
    if (!active_) return;
    for (std::size_t m = 0; m < meshes_.size(); ++m) {
        // The measure's T: stretch side for the minima, compress side for the maxima.
        const auto& ts = meshes_[m].tension->stretch_t();
        const auto& tc = meshes_[m].tension->compress_t();
        for (std::size_t w = 0; w < ts.size(); ++w) {
            min_[m][w] = std::min(min_[m][w], ts[w]);
            max_[m][w] = std::max(max_[m][w], tc[w]);
        }
    }
}

void TensionChunkExtremes::end() {
    if (!active_) return;
    std::string b = "{\"params\":";
    append_tension_params(b, run_.params);
    b += ",\"percentile\":";
    append_number(b, run_.percentile);
    b += ",\"meshes\":[";
    for (std::size_t m = 0; m < meshes_.size(); ++m) {
        b += m ? ",{\"name\":" : "{\"name\":";
        append_json_string(b, meshes_[m].name);
        for (int side = 0; side < 2; ++side) {
            const auto& v = side ? max_[m] : min_[m];
            b += side ? "],\"max\":[" : ",\"min\":[";
            for (std::size_t w = 0; w < v.size(); ++w) {
                if (w) b += ',';
                append_number(b, v[w]);
            }
        }
        b += "]}";
    }
    b += "]}";
    set_chunk_state("tension_range", std::move(b));
}

}  // namespace rigscope
