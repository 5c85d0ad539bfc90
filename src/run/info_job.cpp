// The `info` job (run/info_job.h).
#include "rigscope/run/info_job.h"

#include "rigscope/core/error.h"
#include "rigscope/io/info_report.h"
#include "rigscope/io/output.h"

namespace rigscope {

bool InfoJobOptions::writes_json() const {
    // -o info.json asks for JSON as plainly as --json does.
    const std::string ext = extension_format(out);
    if (json && !ext.empty() && ext != "json")
        throw Error(kExitUsage, out + ": the extension says " + (ext[0] == '.' ? ext.substr(1) : ext) + " but --json says json");
    return json || ext == "json";
}

void InfoJobOptions::validate() const { writes_json(); }

InfoJobResult run_info(const InfoJobOptions& opt, const Input& in) {
    opt.validate();
    const bool json = opt.writes_json();
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
