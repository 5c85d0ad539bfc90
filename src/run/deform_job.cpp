// The `deform` job (run/deform_job.h): the refusals, the free-space check and the writer.
#include "rigscope/core/error.h"
#include "rigscope/io/deform_output.h"
#include "rigscope/io/output.h"
#include "rigscope/run/abc_output_run.h"
#include "rigscope/run/check_job.h"
#include "rigscope/run/deform_engine.h"
#include "rigscope/run/deform_job.h"
#include "rigscope/run/run_budget.h"
#include "rigscope/run/usd_output_run.h"
#include "rigscope/run/output_formats.h"

namespace rigscope {

void DeformJobOptions::validate() const {
    check_verb_format("deform", format);
    if (format == "abc") check_abc_output(out, "deform");
    // An archive holds the run's frames in one sampling; merge joins CSV and JSON chunks, not archives.
    if (format == "abc" && !input.chunk.empty())
        throw Error(kExitUsage, "--chunk with an Alembic output: merge joins CSV and JSON chunks, not archives; write the frames in one run");
    if (axes != "file" && axes != "y-up") throw Error(kExitUsage, "--axes is file or y-up, not " + axes);
    if (format == "usda") {
        if (out.empty() || is_stdout_path(out))
            throw Error(kExitUsage, "deform --format usda needs -o FILE.usda (the layer names the input relative to its own folder)");
        if (axes != "file") throw Error(kExitUsage, "--axes y-up: a USD layer holds the points in the stage's own axes");
        check_usda_output(input, out);
    }
}

DeformJobResult run_deform(const DeformJobOptions& opt, const Input& in, const FrameProgress& progress) {
    opt.validate();  // a caller with its own loaded input (Python) gets the same refusals
    // A file without a mesh has no vertex to write: refused as tension refuses it, never a
    // header-only file with an ok status (issue 41).
    require_meshes(in, opt.input.file, "write");
    refuse_outputs_over_inputs(in, {opt.out});
    DeformJobResult r;
    if (opt.format == "abc") {
        // Alembic is Y-up whatever --axes says: the writer turns the file's axes as Blender's exporter does.
        write_deform_abc(in, opt.out, opt.input.max_output_mb, progress);
        r.frames = in.frames.size();
        r.meshes = in.meshes.size();
        for (int m : in.meshes) r.vertices += in.scene.meshes[m].vertex_count();
        return r;
    }
    if (opt.format == "usda") {
        check_usda_budget(in, 3);  // the points
        UsdaOutput usda(in, opt.input.file, opt.out, true);
        OutputFile out(opt.out, in.paths);
        DeformEngine deform(in);
        deform.for_each_frame([&](std::size_t fi) {
            for (std::size_t i = 0; i < in.meshes.size(); ++i) usda.points(fi, i, deform.positions(i));
        }, progress);
        usda.write(out);
        out.commit();
        r.frames = in.frames.size();
        r.meshes = in.meshes.size();
        for (int m : in.meshes) r.vertices += in.scene.meshes[m].vertex_count();
        return r;
    }
    std::vector<std::pair<std::string, std::size_t>> sizes;
    for (int m : in.meshes) {
        sizes.emplace_back(in.scene.meshes[m].name, in.scene.meshes[m].vertex_count());
        r.vertices += in.scene.meshes[m].vertex_count();
    }
    // Refused before a byte is written when the least it takes is past the folder's free space.
    check_output_size(opt.out, deform_output_min_bytes(opt.format == "csv", sizes, in.frames.size()), opt.input.max_output_mb);
    OutputFile out(opt.out, in.paths);
    DeformWriter writer(out, opt.format == "csv", output_run_info(in, opt.input.file), in.threads);
    DeformEngine deform(in, parse_axes_option(opt.axes));
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
