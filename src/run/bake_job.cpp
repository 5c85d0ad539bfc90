// The `bake` job: its refusals, the UV plans per mesh and tile, and the images per frame written
// on the run's threads, none renamed into place before all are written (run/bake_job.h).
#include "rigscope/run/bake_job.h"

#include "bake_frames.h"
#include "bake_plans.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <spdlog/spdlog.h>

#include "rigscope/core/error.h"
#include "rigscope/core/uv_raster.h"
#include "rigscope/io/image_output.h"
#include "rigscope/io/output.h"
#include "rigscope/run/check_job.h"
#include "rigscope/run/clip_select.h"
#include "rigscope/run/output_names.h"
#include "rigscope/run/run_budget.h"
#include "rigscope/run/tension_gltf.h"
#include "rigscope/run/output_formats.h"

namespace rigscope {

namespace {

// Frames a batch bakes at once, at least: the plan (28 bytes a covered texel) is streamed once a
// batch, so more frames share it; each costs its images' memory (size x size x 4 bytes a channel).
constexpr std::size_t kBakeBatch = 4;

const std::set<std::string> kMaps = {"compress", "stretch", "tension", "area", "lambda_max", "lambda_min", "color"};

std::string lower_extension(const std::string& path) {
    const auto slash = path.find_last_of('/');
    const auto dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    std::string e = path.substr(dot + 1);
    for (char& c : e) c = char(std::tolower(static_cast<unsigned char>(c)));
    return e;
}

bool has(const std::string& s, const char* key) { return s.find(key) != std::string::npos; }

}  // namespace

void BakeJobOptions::validate() const {
    check_tension_options(tension);
    if (tension.input.clip == kAllClips)
        throw Error(kExitUsage, "bake evaluates one clip: name it with --clip NAME (--clip all is check's, tension's, report's and rivet's)");
    // Farm chunks need a chunk record and identity (run/chunk_run.h), which bake has not yet.
    if (!tension.input.chunk.empty())
        throw Error(kExitUsage, "bake does not run in --chunk parts yet: select the chunk's frames with --frames instead");
    if (!kMaps.count(map)) throw Error(kExitUsage, "--map is compress, stretch, tension, area, lambda_max, lambda_min or color, not " + map);
    if (color != "maps" && color != "t") throw Error(kExitUsage, "--color is maps or t, not " + color);
    if (color != "maps" && map != "color") throw Error(kExitUsage, "--color " + color + " chooses --map color's colours: give --map color");
    if (map == "color" && range) throw Error(kExitUsage, "--map color is in 0..1 already: --range maps one-channel maps");
    if (map == "area" && tension.measure != "area") throw Error(kExitUsage, "--map area is the area measure's T: give --measure area");
    if ((map == "lambda_max" || map == "lambda_min") && tension.measure != "principal")
        throw Error(kExitUsage, "--map " + map + " is a principal stretch: give --measure principal");
    if (size < 1 || size > kMaxBakeSize)
        throw Error(kExitUsage, "--size " + std::to_string(size) + " is not in 1.." + std::to_string(kMaxBakeSize) + " texels");
    if (padding < 0 || padding > kMaxBakePadding)
        throw Error(kExitUsage, "--padding " + std::to_string(padding) + " is not in 0.." + std::to_string(kMaxBakePadding) + " texels");
    if (range && !(std::isfinite(range->first) && std::isfinite(range->second) && range->first < range->second))
        throw Error(kExitUsage, "--range " + number_text(range->first) + "," + number_text(range->second) + " is not LO,HI with LO < HI");
    if (!format.empty()) check_verb_format("bake", format);
    if (out.empty()) {
        if (udim) throw Error(kExitUsage, "--udim names a file per tile: give -o with {udim}");
        return;  // the images stay in memory (Python)
    }
    if (is_stdout_path(out)) throw Error(kExitUsage, "bake writes a file per frame and mesh: give -o 'maps/{mesh}.{frame}.png', not stdout");
    const std::string f = verb_output_format("bake", format, out);
    if (f.empty()) throw Error(kExitUsage, "-o " + out + ": bake writes .png or .exr files (or --format png|exr)");
    refuse_other_format_extension("-o", out, f);
    const std::string ext = lower_extension(out);
    if ((ext == "png" || ext == "exr") && ext != f)
        throw Error(kExitUsage, "-o " + out + ": the extension ." + ext + " says " + ext + " but --format is " + f + ": name it ." + f);
    if (f == "png" && !range && map != "compress" && map != "stretch" && map != "color")
        throw Error(kExitUsage, "--map " + map + " is not in 0..1, which a PNG holds: give --range LO,HI (e.g. --range 0.5,2), or write .exr");
    if (udim && !has(out, "{udim}")) throw Error(kExitUsage, "--udim writes a file per tile: put {udim} in -o (-o " + out + ")");
    if (!udim && has(out, "{udim}")) throw Error(kExitUsage, "-o " + out + ": {udim} numbers UDIM tiles: give --udim");
}

std::string bake_file_mesh_name(const std::string& name, std::size_t index) {
    std::string s = name;
    for (char& c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) && static_cast<unsigned char>(c) < 0x80) && c != '.' && c != '_' && c != '-') c = '_';
    if (s.find_first_not_of('.') == std::string::npos) s = "mesh" + std::to_string(index);
    return s;
}

std::string bake_file_name(const std::string& pattern, const std::string& mesh, const Frame& f, int udim) {
    std::string p = pattern;
    auto replace = [&p](const std::string& key, const std::string& by) {
        for (std::size_t at = 0; (at = p.find(key, at)) != std::string::npos; at += by.size()) p.replace(at, key.size(), by);
    };
    replace("{frame}", "####");
    p = frame_file_name(p, f);
    replace("{udim}", std::to_string(udim));
    replace("{mesh}", mesh);
    return p;
}

namespace {

// Refuses a run whose plans and images would pass --max-memory, before they are made: at most
// every texel of a tile covered (a Texel each) or padded (index, offset and up to 8 sources) with
// its coverage mask; per image of a batch its planes, and the image as written when composed
// (--range, colour); the batch's values interleaved per vertex; without -o every image kept.
void check_bake_budget(const BakeJobOptions& opt, const Input& in, const BakePlans& plans, std::size_t channels, std::size_t batch) {
    const double texels = double(opt.size) * double(opt.size);
    const double plan_bytes = double(plans.tile_count) * texels * (sizeof(UvRasterPlan::Texel) + 4.0 * 10 + 1);
    const double image_bytes = texels * 4.0 * double(channels);
    const double slot_bytes = image_bytes * ((opt.range || channels > 1) ? 2 : 1);
    double interleaved_bytes = 0;
    for (std::size_t m = 0; m < in.meshes.size(); ++m)
        interleaved_bytes += double(in.scene.meshes[in.meshes[m]].vertex_count()) * double((batch * channels + 3) / 4 * 4) * 4.0;
    const bool files = !opt.out.empty();
    check_job_budget(in, plan_bytes + slot_bytes * double(batch * plans.tile_count) + interleaved_bytes +
                             (files ? 0.0 : image_bytes * double(plans.tile_count * in.frames.size())),
                     "bake's texel plans and images (" + std::to_string(opt.size) + " x " + std::to_string(opt.size) + ")",
                     "choose a smaller --size, fewer frames or meshes, or raise --max-memory");
}

// Every file name, frame-major then mesh then tile, checked before any work (two images may not
// share one, nor overwrite an input), and their folders made.
std::vector<std::string> bake_paths(const BakeJobOptions& opt, const Input& in, const BakePlans& plans, const BakeJobResult& r) {
    std::vector<std::string> paths;
    if (opt.out.empty()) return paths;
    if (in.frames.size() > 1 && !has(opt.out, "{frame}") && opt.out.substr(opt.out.find_last_of('/') + 1).find('#') == std::string::npos)
        throw Error(kExitUsage, "-o " + opt.out + ": " + std::to_string(in.frames.size()) +
                                    " frames selected but the name has no {frame} (e.g. -o 'maps/{mesh}.{frame}.png', or --frames N)");
    std::map<std::string, std::string> named;  // path -> what writes it
    for (std::size_t fi = 0; fi < in.frames.size(); ++fi)
        for (std::size_t m = 0; m < in.meshes.size(); ++m)
            for (const BakeTile& t : plans.tiles[m]) {
                const std::string path = bake_file_name(opt.out, bake_file_mesh_name(r.meshes[m].name, m), in.frames[fi], t.udim);
                std::string what = "mesh '" + r.meshes[m].name + "'";
                if (opt.udim) what += " tile " + std::to_string(t.udim);
                const auto [it, fresh] = named.emplace(path, what);
                if (!fresh && in.meshes.size() > 1 && !has(opt.out, "{mesh}"))
                    throw Error(kExitUsage, "-o " + opt.out + ": " + std::to_string(in.meshes.size()) +
                                                " meshes selected but the name has no {mesh} (e.g. -o 'maps/{mesh}.{frame}.png', or --mesh NAME)");
                if (!fresh) throw Error(kExitUsage, "-o " + opt.out + ": " + it->second + " and " + what + " would both write " + path);
                paths.push_back(path);
            }
    refuse_outputs_over_inputs(in, paths);
    for (const std::string& path : paths) {
        const std::filesystem::path parent = std::filesystem::path(path).parent_path();
        std::error_code ec;
        if (!parent.empty() && !std::filesystem::is_directory(parent, ec) && !std::filesystem::create_directories(parent, ec))
            throw Error(kExitCannotWrite, path + ": cannot make the folder '" + parent.string() + "' (" + ec.message() + ")");
    }
    return paths;
}

}  // namespace

BakeJobResult run_bake(const BakeJobOptions& opt, Input& in, const FrameProgress& progress) {
    opt.validate();  // every entry, not only the CLI's: Python and check call run_x directly
    require_meshes(in, opt.tension.input.file, "bake");
    BakeJobResult r;
    r.size = opt.size;
    r.channels = opt.map == "color" ? 3 : 1;
    r.frames = in.frames.size();
    // Each mesh's UV set and its plans (one per tile), before any frame is evaluated.
    BakePlans plans = choose_bake_uv_sets(opt, in, r);
    const unsigned threads = in.threads ? in.threads : ThreadPool::default_threads();
    // Frames baked side by side: the covered texels' pass reads each plan once for all of them.
    const std::size_t batch = std::max<std::size_t>(kBakeBatch, threads);
    check_bake_budget(opt, in, plans, std::size_t(r.channels), batch);
    ThreadPool pool(threads);
    make_bake_plans(opt, in, plans, pool, r);
    std::vector<std::string> paths = bake_paths(opt, in, plans, r);
    std::vector<MeshTension> meshes = prepare_tension(in, opt.tension);
    BakeFrames frames(opt, in, plans, meshes, std::move(paths), batch, pool, r);
    for_each_tension_frame(in, meshes, [&](std::size_t fi) { frames.add(fi); }, progress);
    r.clamped = frames.finish();
    if (r.clamped)
        spdlog::warn("{}: {} texel values outside 0..1 were clamped in the PNG files{}", opt.tension.input.file, r.clamped,
                     opt.range ? " (--range " + number_text(opt.range->first) + "," + number_text(opt.range->second) + ")" : " (--range LO,HI maps another span)");
    return r;
}

BakeJobResult load_and_run_bake(const BakeJobOptions& opt, const FrameProgress& progress) {
    opt.validate();
    Input in = load_input(opt.tension.input);
    return run_bake(opt, in, progress);
}

}  // namespace rigscope
