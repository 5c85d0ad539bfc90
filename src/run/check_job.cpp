// The `check` job (run/check_job.h).
#include "rigscope/run/check_job.h"

#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <spdlog/spdlog.h>

#include "rigscope/core/error.h"
#include "rigscope/farm/check_chunk.h"
#include "rigscope/io/output.h"
#include "rigscope/run/intersect_job.h"
#include "rigscope/run/option_table.h"
#include "rigscope/run/run_budget.h"
#include "rigscope/run/volume_job.h"

namespace rigscope {

void CheckJobOptions::validate() const {
    if (!json.empty() && !tension.input.chunk.empty())
        throw Error(kExitUsage, "check --json gives the run's verdict: merge the chunks' --junit reports instead");
    if (!max_stretch && !max_compress && !max_lambda && !min_lambda && !max_volume_loss && !max_intersections)
        throw Error(kExitUsage, "check needs --max-stretch, --max-compress, --max-lambda, --min-lambda, --max-volume-loss and/or --max-intersections");
    if (max_volume_loss && !(std::isfinite(*max_volume_loss) && *max_volume_loss > 0))
        throw Error(kExitUsage, "--max-volume-loss: must be a positive number (the share of a bind volume that may be lost, e.g. 0.1)");
    if (max_intersections && *max_intersections < 0) throw Error(kExitUsage, "--max-intersections: must be 0 or more");
    if ((max_lambda || min_lambda) && tension.measure != "principal")
        throw Error(kExitUsage, "--max-lambda and --min-lambda need --measure principal");
    // The CLI's validators saw the command line; these see what Python passes.
    auto positive = [](const std::optional<double>& v, const char* option) {
        if (v && !(*v > 0 && *v < 1e300)) throw Error(kExitUsage, std::string(option) + ": must be a positive number");
    };
    positive(max_stretch, "--max-stretch");
    positive(max_compress, "--max-compress");
    positive(max_lambda, "--max-lambda");
    positive(min_lambda, "--min-lambda");
    refuse_contradicting_limits();
    if (worst < 1) throw Error(kExitUsage, "--worst: must be 1 or more");
    if (!html.out.empty()) html.validate();
    // The maps' parameters and the page's size budget shape only the --html page: check judges T
    // itself, so without --html they would be accepted and change nothing.
    if (html.out.empty()) {
        for (const OptionSpec<TensionOptions>& s : tension_map_options())
            if (s.page_only && option_given(s, tension))
                throw Error(kExitUsage, std::string(s.name) + ": only shapes the --html page (check judges T itself); add --html FILE or drop it");
        if (html.max_mb != ReportOptions{}.max_mb)
            throw Error(kExitUsage, "--max-size: only shapes the --html page (check judges T itself); add --html FILE or drop it");
    }
    if (lint) {
        lint_options.validate();
        // Lint judges the bind pose once; a chunk of frames would repeat it in every part.
        if (!tension.input.chunk.empty()) throw Error(kExitUsage, "check --lint judges the bind pose once: run it without --chunk");
    }
    check_tension_options(tension);
}

void CheckJobOptions::refuse_contradicting_limits() const {
    // At rest every T (and lambda) is 1: a stretch limit fails T below it, so one above 1 fails
    // every vertex before it moves, as a compress limit below 1 does. Swapped limits are the
    // usual slip; said as such, with the side each limit is on.
    const std::string why = " (stretch limits are below 1: T < limit fails; compress limits above 1: T > limit fails)";
    if (max_stretch && max_compress && *max_stretch >= *max_compress)
        throw Error(kExitUsage, "--max-stretch " + number_text(*max_stretch) + " and --max-compress " + number_text(*max_compress) +
                                    " are the wrong way round: every T is below one or above the other, so every vertex fails" + why);
    if (max_stretch && *max_stretch > 1)
        throw Error(kExitUsage, "--max-stretch " + number_text(*max_stretch) + " is above 1, the rest's T: every vertex fails at rest" + why);
    if (max_compress && *max_compress < 1)
        throw Error(kExitUsage, "--max-compress " + number_text(*max_compress) + " is below 1, the rest's T: every vertex fails at rest" + why);
    const std::string lambda_why = " (--min-lambda is below 1: lambda_min < limit fails; --max-lambda above 1: lambda_max > limit fails)";
    if (min_lambda && max_lambda && *min_lambda >= *max_lambda)
        throw Error(kExitUsage, "--min-lambda " + number_text(*min_lambda) + " and --max-lambda " + number_text(*max_lambda) +
                                    " are the wrong way round: every vertex fails" + lambda_why);
    if (min_lambda && *min_lambda > 1)
        throw Error(kExitUsage, "--min-lambda " + number_text(*min_lambda) + " is above 1, the rest's stretch: every vertex fails at rest" + lambda_why);
    if (max_lambda && *max_lambda < 1)
        throw Error(kExitUsage, "--max-lambda " + number_text(*max_lambda) + " is below 1, the rest's stretch: every vertex fails at rest" + lambda_why);
}

CheckLimits CheckJobOptions::limits() const {
    CheckLimits l;
    l.max_stretch = max_stretch.value_or(0);
    l.max_compress = max_compress.value_or(0);
    l.has_stretch = max_stretch.has_value();
    l.has_compress = max_compress.has_value();
    l.max_lambda = max_lambda.value_or(0);
    l.min_lambda = min_lambda.value_or(0);
    l.has_max_lambda = max_lambda.has_value();
    l.has_min_lambda = min_lambda.has_value();
    l.worst = worst;
    l.file = tension.input.file;
    l.relpath = relpath;
    return l;
}

void require_animation(const Input& in, const InputOptions& opt) {
    if (in.has_clip) {
        // The clip is there but only the bind pose was asked for: said, since a verdict on it
        // alone says nothing of how the rig moves.
        bool bind_only = !in.frames.empty();
        for (const Frame& f : in.frames) bind_only = bind_only && f.bind;
        if (bind_only)
            spdlog::warn("{}: --frames {}: only the bind pose is evaluated, not the clip '{}' (drop --frames to judge every frame)", opt.file,
                         opt.frames, in.clip.name);
        return;
    }
    if (opt.frames.empty())
        throw Error(kExitUsage, "nothing to check: " + opt.file +
                                    " has no animation (use --rom or --animation, or --frames bind to judge the bind pose alone)");
    spdlog::warn("{} has no animation: only the bind pose is evaluated (--frames {}), where T is 1 unless a reference differs", opt.file,
                 opt.frames);
}

void require_meshes(const Input& in, const std::string& file, const char* verb) {
    if (in.meshes.empty())
        throw Error(kExitUsage, std::string("nothing to ") + verb + ": " + file +
                                    " has no mesh (its skeleton and animation alone have no vertices; use --animation to put them on a mesh)");
}

std::vector<std::pair<std::string, std::string>> CheckJobResult::chunk_state() const {
    // A chunk judges one clip (plan_clips refuses --chunk over several): its verdict's limits
    // name it.
    // --max-volume-loss: the chunk's ratios, judged again by merge over every chunk's frames.
    const VolumeLossVerdict* volume = clips.empty() || !clips[worst_clip].volume ? nullptr : &*clips[worst_clip].volume;
    return check_chunk_state(verdict.given, info, meshes, has_rom ? &rom : nullptr, not_judged, volume,
                             has_intersections ? &intersections : nullptr);
}

Input load_check_input(const CheckJobOptions& opt) { return load_input(clip_load_options(opt.tension.input)); }

CheckJobResult load_and_run_check(const CheckJobOptions& opt, const FrameProgress& progress) {
    opt.validate();  // before the file is read
    const RunStart start;
    Input in = load_check_input(opt);
    return run_check(opt, in, progress, start);
}

namespace {

// One clip of `in` (selected) evaluated once and judged.
CheckClipResult judge_clip(const CheckLimits& file_limits, const std::string& name, const Input& in, std::vector<MeshTension>& meshes,
                           const FrameProgress& progress) {
    CheckClipResult c;
    c.clip = name;
    CheckLimits l = file_limits;
    l.clip = name;
    // Per welded vertex, the lowest and highest T seen and where: enough to rank violations
    // without keeping any frame.
    VertexTensionExtremes extremes;
    extremes.reset(meshes, false);
    // Which frames failed, for --rom's sweeps: a T past a limit of its side, by the verdict's
    // own rule (core/check_verdict.h).
    std::vector<char> frame_failed(in.frames.size(), 0);
    for_each_tension_frame(
        in, meshes,
        [&](std::size_t fi) {
            for (std::size_t m = 0; m < meshes.size(); ++m) {
                const MeshTension& mt = meshes[m];
                extremes.add(m, mt, static_cast<std::uint32_t>(fi));
                char failed = 0;
                for (float t : mt.stretch_t()) failed |= stretch_t_fails(l, t);
                for (float t : mt.compress_t()) failed |= compress_t_fails(l, t);
                frame_failed[fi] |= failed;
            }
        },
        progress);
    for (std::size_t m = 0; m < meshes.size(); ++m)
        c.meshes.push_back(check_mesh_extremes(in.scene.meshes[meshes[m].mesh].name, extremes, m, meshes[m].topo.welded_of, in.frames));
    c.frames = in.frames.size();
    if (in.has_rom) {
        c.has_rom = true;
        c.rom = CheckRom{in.rom, in.frames, std::move(frame_failed)};
    }
    // Judged once; the text, JUnit, JSON and the page all read this verdict.
    c.verdict = judge_check(l, c.meshes);
    return c;
}

// --max-volume-loss over the clip selected on `in`: its volumes measured (run/volume_job.h) and
// judged here, once. `keep`: the measures kept for the --html page.
VolumeLossVerdict judge_clip_volume(double limit, const Input& in, const std::string& file, const FrameProgress& progress,
                                    std::optional<VolumeTable>* keep) {
    VolumeTable t = measure_volumes(in, file, progress);
    std::vector<VolumeSeries> series(t.columns.size());
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
        series[c].mesh = t.meshes[t.columns[c].mesh].name;
        series[c].region = t.region_name(c);
        for (std::size_t f = 0; f < t.frames; ++f) series[c].ratios.push_back(t.ratio(f, c));
    }
    VolumeLossVerdict v = judge_volume_loss(limit, std::move(series), in.frames);
    if (keep) *keep = std::move(t);
    return v;
}

// What the page marks of a clip's other verdicts (issue 59).
ReportPageMarks page_marks(const CheckJobOptions& opt, const CheckJobResult& r, const CheckClipResult& c) {
    ReportPageMarks m;
    if (r.has_intersections) {
        m.intersections = &c.intersect_frames;
        m.intersection_limit = r.intersections.limit;
    }
    if (c.volume_table) {
        m.volume = &*c.volume_table;
        m.volume_limit = *opt.max_volume_loss;
        m.volume_failed = c.volume && c.volume->failed();
    }
    return m;
}

}  // namespace

CheckJobResult run_check(const CheckJobOptions& opt, Input& in, const FrameProgress& progress, const RunStart& start) {
    opt.validate();
    refuse_outputs_over_inputs(in, {opt.json, opt.junit, opt.html.out});
    CheckJobResult r;
    r.limits = opt.limits();
    r.info = start.info;
    require_animation(in, opt.tension.input);
    const ClipPlan plan = plan_clips(in, opt.tension.input, true);
    r.not_judged = plan.not_judged;
    // Per frame the job keeps one byte (which frames failed, for --rom); per file vertex and clip,
    // its extremes twice (the tracker's, then the report's with frames and file ids).
    double vertices = 0;
    for (int m : in.meshes) vertices += double(in.scene.meshes[m].vertex_count());
    check_run_budget(in, opt.tension, in.frames.size() + static_cast<std::uint64_t>(96 * vertices * double(plan.indices.size())), "check");
    std::vector<MeshTension> meshes = prepare_tension(in, opt.tension);
    // Its path and viewer checked before any frame is evaluated.
    std::unique_ptr<ReportPage> page = opt.html.out.empty() ? nullptr : std::make_unique<ReportPage>(opt.html, in);
    if (opt.lint) {
        // The same loaded input (its clip as loaded): one read of the file for both verdicts.
        r.lint = lint_checks(opt.lint_options, in);
        r.has_lint = true;
    }
    {
        // One clip is usually the one loaded (load_input picked it by the same --clip): nothing to
        // select or put back. A Python session's clip= may name another than the session's.
        const int first = plan.indices.front();
        const bool several = plan.indices.size() > 1 ||
                             (first >= 0 && (!in.has_clip || in.clip.name != in.scene.clips[static_cast<std::size_t>(first)].name));
        std::optional<ClipRestore> restore;
        if (several) restore.emplace(in);
        for (std::size_t k = 0; k < plan.indices.size(); ++k) {
            if (several) use_clip(in, opt.tension.input, plan.indices[k]);
            r.clips.push_back(judge_clip(r.limits, plan.names[k], in, meshes, progress));
            CheckClipResult& clip = r.clips.back();
            if (opt.max_volume_loss)
                clip.volume = judge_clip_volume(*opt.max_volume_loss, in, opt.tension.input.file, progress, page ? &clip.volume_table : nullptr);
            r.frames += r.clips.back().frames;
            if (opt.max_intersections) {
                // The same clip and frames through the intersect job, judged here once.
                IntersectJobOptions ij;
                ij.input = opt.tension.input;
                ij.input.chunk.clear();
                ij.out.clear();
                r.intersections.limit = static_cast<std::size_t>(*opt.max_intersections);
                std::vector<IntersectFrame> frames = run_intersect(ij, in, progress).frames;
                add_intersection_frames(r.intersections, plan.names[k], in.scene, in.frames, frames);
                r.has_intersections = true;
                if (page) clip.intersect_frames = std::move(frames);  // the faces the page marks
            }
        }
        // The input's: every file read, and the chunk the clips ran.
        r.paths = in.paths;
        r.chunk_index = in.chunk_index;
        r.chunk_count = in.chunk_count;
        for (std::size_t k = 0; k < r.clips.size(); ++k)
            if (r.clips[k].failed()) {
                r.worst_clip = k;
                break;
            }
        // The worst clip's, as a run of one clip has them.
        const CheckClipResult& worst = r.clips[r.worst_clip];
        r.meshes = worst.meshes;
        r.has_rom = worst.has_rom;
        r.rom = worst.rom;
        r.verdict = worst.verdict;
        r.info.seconds = start.until_now().seconds;
        // The file's verdict is the worst clip's (with --lint, the lint's too): decided here, the
        // writers only say it.
        bool failed = (r.has_lint && r.lint.failed()) || (r.has_intersections && r.intersections.failed());
        std::vector<CheckClipReport> reports;
        for (const CheckClipResult& c : r.clips) {
            failed = failed || c.failed();
            reports.push_back(CheckClipReport{&c.verdict, &c.meshes, c.has_rom ? &c.rom : nullptr, c.volume ? &*c.volume : nullptr});
        }
        r.outcome = check_clips_outcome(reports, r.worst_clip, failed, r.not_judged, r.info, r.has_lint ? &r.lint : nullptr,
                                        r.has_intersections ? &r.intersections : nullptr);
        if (page) {
            // One page: every judged clip with its own verdict on the page's clip menu, opening
            // on the worst.
            if (r.clips.size() == 1) {
                r.html = page->write(in, meshes, describe_run(in, opt.tension), &r.verdict, progress, page_marks(opt, r, r.clips.front()));
            } else {
                std::vector<ReportPageClip> clips;
                for (std::size_t k = 0; k < r.clips.size(); ++k)
                    clips.push_back(ReportPageClip{plan.indices[k], plan.names[k], &r.clips[k].verdict, page_marks(opt, r, r.clips[k])});
                r.html = page->write_clips(in, opt.tension, meshes, clips, r.worst_clip, progress);
            }
            r.has_html = true;
        }
    }
    return r;
}

}  // namespace rigscope
