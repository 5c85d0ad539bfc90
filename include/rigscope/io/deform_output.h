// What `deform` writes: positions per frame, mesh and vertex, as CSV rows or one JSON document
// (docs/commands.md: deform).
#pragma once

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "rigscope/io/json_writer.h"
#include "rigscope/io/output.h"
#include "rigscope/io/run_info.h"

namespace rigscope {

class RowBlocks;

// The least a deform output of `frames` frames takes: per frame and vertex, a CSV row holds 7
// numbers (at least a digit each), 6 commas, a newline and the mesh's name; a JSON position
// "[x,y,z]" 7 bytes. `meshes` pairs each mesh's name with its vertex count.
double deform_output_min_bytes(bool csv, const std::vector<std::pair<std::string, std::size_t>>& meshes, std::size_t frames);

class DeformWriter {
public:
    // Writes the CSV header, or the JSON document's opening: the header, the run's clip and fps.
    // threads: how many format a frame's CSV rows (the run's --threads; the same bytes for any).
    DeformWriter(OutputFile& out, bool csv, const RunInfo& run, unsigned threads = 1);
    ~DeformWriter();
    // One frame: each mesh's name and positions, in the same order every frame.
    void frame(const Frame& f, const std::vector<std::string>& names, const std::vector<const std::vector<Eigen::Vector3f>*>& positions);
    // Closes the JSON document; CSV needs nothing.
    void end();

private:
    OutputFile& out_;
    bool csv_;
    JsonWriter json_;
    std::unique_ptr<RowBlocks> rows_;  // CSV rows formatted in blocks (src/io/writers/row_blocks.h)
};

}  // namespace rigscope
