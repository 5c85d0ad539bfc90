// What `rigscope volume` writes (docs/methods.md "Volume" names the measures, docs/commands.md the
// columns): the CSV `frame,mesh,region,volume,ratio` and the JSON of the same rows with the
// meshes' closure and regions. The run layer measures; these only format.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "rigscope/core/volume.h"
#include "rigscope/io/output.h"
#include "rigscope/io/run_info.h"

namespace rigscope {

// A measured mesh: how it closes, its regions and their bind measures.
struct VolumeMeshInfo {
    int mesh = -1;                 // index into the scene's meshes
    std::string name;
    VolumeClosure closure;
    std::size_t faces = 0, degenerate_faces = 0;
    double bind_volume = 0;        // closed meshes: the volume as stored
    double diagonal = 0;           // the bind mesh's bounding-box diagonal (volume_ratio's floor)
    std::vector<VolumeRegion> regions;
    std::vector<std::string> region_names;  // each region's joint node name
    std::vector<std::int32_t> face_region;  // per file face, its region or -1 (VolumeLayout::face_region; the writers skip it)
};

// One measured value per frame: a closed mesh's volume (region -1, written `*`) or a region's.
struct VolumeColumn {
    std::size_t mesh = 0;  // index into VolumeTable::meshes
    int region = -1;
};

struct VolumeTable {
    std::vector<VolumeMeshInfo> meshes;
    std::vector<VolumeColumn> columns;      // per mesh: `*` when closed, then its regions in the skin's order
    std::size_t frames = 0;
    std::vector<double> volumes, ratios;    // frame-major, [frame * columns.size() + column]; a ratio NaN: none
    std::vector<std::string> notes;         // open meshes, skipped meshes and faces

    double volume(std::size_t frame, std::size_t column) const { return volumes[frame * columns.size() + column]; }
    double ratio(std::size_t frame, std::size_t column) const { return ratios[frame * columns.size() + column]; }
    // "*" or the region's joint name.
    const std::string& region_name(std::size_t column) const;
};

void write_volume_csv(OutputFile& out, const RunInfo& run, const VolumeTable& table);
void write_volume_json(OutputFile& out, const RunInfo& run, const VolumeTable& table);

}  // namespace rigscope
