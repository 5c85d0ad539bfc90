// The `deform` job (run/deform_run.h): the refusals, the free-space check and the writer.
#include "rigscope/core/error.h"
#include "rigscope/io/deform_output.h"
#include "rigscope/io/output.h"
#include "rigscope/run/deform_run.h"

namespace rigscope {

void DeformJobOptions::validate() const {
    if (format != "csv" && format != "json") throw Error(kExitUsage, "deform writes csv or json, not " + format);
    if (axes != "file" && axes != "y-up") throw Error(kExitUsage, "--axes is file or y-up, not " + axes);
}

DeformJobResult run_deform(const DeformJobOptions& opt, const Input& in, const FrameProgress& progress) {
    DeformJobResult r;
    std::vector<std::pair<std::string, std::size_t>> sizes;
    for (int m : in.meshes) {
        sizes.emplace_back(in.scene.meshes[m].name, in.scene.meshes[m].vertex_count());
        r.vertices += in.scene.meshes[m].vertex_count();
    }
    // Refused before a byte is written when the least it takes is past the folder's free space.
    check_free_space(opt.out, deform_output_min_bytes(opt.format == "csv", sizes, in.frames.size()));
    OutputFile out(opt.out, in.paths);
    DeformWriter writer(out, opt.format == "csv", run_info(in, opt.input.file));
    DeformRun deform(in, parse_axes_option(opt.axes));
    std::vector<std::string> names;
    std::vector<const std::vector<Eigen::Vector3f>*> positions;
    for (std::size_t i = 0; i < in.meshes.size(); ++i) {
        names.push_back(in.scene.meshes[in.meshes[i]].name);
        positions.push_back(&deform.positions(i));
    }
    deform.for_each_frame([&](std::size_t fi) { writer.frame(in.frames[fi], names, positions); }, progress);
    writer.end();
    out.commit();
    r.frames = in.frames.size();
    r.meshes = in.meshes.size();
    return r;
}

DeformJobResult load_and_run_deform(const DeformJobOptions& opt, const FrameProgress& progress) {
    opt.validate();
    const Input in = load_input(opt.input);
    return run_deform(opt, in, progress);
}

}  // namespace rigscope
