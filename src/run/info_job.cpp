// The `info` job (run/info_job.h).
#include "rigscope/run/info_job.h"
#include "rigscope/run/output_formats.h"

#include "rigscope/core/error.h"
#include "rigscope/io/info_report.h"
#include "rigscope/io/output.h"

namespace rigscope {

// --json or -o's extension saying json (run/output_formats.h); refused when the two disagree.
void InfoJobOptions::validate() const { verb_output_format("info", json ? "json" : "", out); }

InfoJobResult run_info(const InfoJobOptions& opt, const Input& in) {
    opt.validate();
    const bool json = verb_output_format("info", opt.json ? "json" : "", opt.out) == "json";
    InfoJobResult r;
    r.text = json ? info_json(in.scene, in.meshes, in.weld) : info_text(in.scene, in.meshes, in.weld);
    r.meshes = in.meshes.size();
    for (int m : in.meshes) r.vertices += in.scene.meshes[m].vertex_count();
    r.clips = in.scene.clips.size();
    r.paths = in.paths;
    return r;
}

Input load_info_input(const InfoJobOptions& opt) { return load_input(opt.input, false); }

InfoJobResult load_and_run_info(const InfoJobOptions& opt) {
    opt.validate();  // before the file is read
    return run_info(opt, load_info_input(opt));
}

}  // namespace rigscope
