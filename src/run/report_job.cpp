// The `report` job (run/report_job.h).
#include "rigscope/run/report_job.h"

#include <algorithm>
#include <memory>
#include <optional>

#include "rigscope/core/error.h"
#include "rigscope/run/check_job.h"
#include "rigscope/run/clip_select.h"
#include "rigscope/run/run_budget.h"

namespace rigscope {

namespace {

// The page of `plan`'s clips on a loaded input: one clip as `--clip NAME` shows it, several with
// the page's clip menu.
ReportResult report_loaded(const ReportJobOptions& opt, Input& in, const ClipPlan& plan, const FrameProgress& progress) {
    refuse_outputs_over_inputs(in, {opt.report.out});
    require_animation(in, opt.tension.input);
    require_meshes(in, opt.tension.input.file, "report");
    // Beyond the prepared meshes the page holds: every frame's T while it fits in 512 MiB (else
    // a second pass; one clip at a time), and the page itself, within --max-size, and its text.
    double vertices = 0;
    for (int m : in.meshes) vertices += double(in.scene.meshes[m].vertex_count());
    const double series = std::min(8.0 * vertices * double(in.frames.size()), 512.0 * 1024 * 1024);
    check_run_budget(in, opt.tension, static_cast<std::uint64_t>(series + 2 * opt.report.max_mb * 1e6), "report");
    std::vector<MeshTension> meshes = prepare_tension(in, opt.tension);
    // After prepare_tension, which adds a --reference file to the paths the page may not replace.
    ReportPage page(opt.report, in);
    if (plan.indices.size() == 1) return page.write(in, meshes, describe_run(in, opt.tension), nullptr, progress);
    std::vector<ReportPageClip> clips;
    for (std::size_t k = 0; k < plan.indices.size(); ++k) clips.push_back(ReportPageClip{plan.indices[k], plan.names[k], nullptr, {}});
    return page.write_clips(in, opt.tension, meshes, clips, 0, progress);
}

}  // namespace

void ReportJobOptions::validate() const {
    report.validate();
    refuse_clip_placeholder("-o", report.out, tension.input);
    check_tension_options(tension);
}

Input load_report_input(const ReportJobOptions& opt) { return load_input(clip_load_options(opt.tension.input)); }

ReportJobResult run_report(const ReportJobOptions& opt, Input& in, const FrameProgress& progress) {
    opt.validate();
    const ClipPlan plan = plan_clips(in, opt.tension.input, true);
    if (opt.tension.input.clip == kAllClips && opt.report.out.find("{clip}") != std::string::npos) {
        // --clip all with {clip} in -o: a page per clip, each the page --clip NAME writes.
        const std::vector<std::string> outs = clip_outputs(opt.report.out, plan, "report");
        ReportResult first;
        for (std::size_t k = 0; k < plan.indices.size(); ++k) {
            use_clip(in, opt.tension.input, plan.indices[k]);
            ReportJobOptions one = opt;
            one.report.out = outs[k];
            ClipPlan single;
            single.indices = {plan.indices[k]};
            single.names = {plan.names[k]};
            ReportResult r = report_loaded(one, in, single, progress);
            if (k == 0) first = std::move(r);
        }
        return first;
    }
    // Every clip of the file by default (--clip NAME: that one): one page, a clip menu when
    // there are several.
    return report_loaded(opt, in, plan, progress);
}

ReportJobResult load_and_run_report(const ReportJobOptions& opt, const FrameProgress& progress) {
    opt.validate();  // before the file is read
    Input in = load_report_input(opt);
    return run_report(opt, in, progress);
}

}  // namespace rigscope
