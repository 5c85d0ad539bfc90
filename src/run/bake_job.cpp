// The `bake` job: its refusals, the UV plans per mesh and tile, and the images per frame written
// on the run's threads, none renamed into place before all are written (run/bake_job.h).
#include "rigscope/run/bake_job.h"

#include <algorithm>
#include <atomic>
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

// A mesh's map per welded vertex at the evaluated frame, before --range: one array, or for the
// colour map three (R, G, B), each baked as its own channel.
void map_values(const BakeJobOptions& opt, const MeshTension& mt, const TensionRemap& remap, std::vector<std::vector<float>>& channels) {
    const std::string& map = opt.map;
    if (map == "color") {
        std::vector<float> compress(mt.compress_t().size()), stretch(mt.stretch_t().size());
        remap.compress(mt.compress_t().data(), compress.size(), compress.data());
        remap.stretch(mt.stretch_t().data(), stretch.size(), stretch.data());
        const TensionColor color = opt.color == "t" ? TensionColor::kT : TensionColor::kMaps;
        channels.resize(3);
        for (auto& c : channels) c.resize(mt.t.size());
        for (std::size_t v = 0; v < mt.t.size(); ++v) {
            float rgb[3];
            tension_colour(color, mt.t[v], compress[v], stretch[v], rgb);
            for (int c = 0; c < 3; ++c) channels[std::size_t(c)][v] = rgb[c];
        }
        return;
    }
    channels.resize(1);
    std::vector<float>& out = channels[0];
    if (map == "compress") {
        out.resize(mt.compress_t().size());
        remap.compress(mt.compress_t().data(), out.size(), out.data());
    } else if (map == "stretch") {
        out.resize(mt.stretch_t().size());
        remap.stretch(mt.stretch_t().data(), out.size(), out.data());
    } else if (map == "tension") out = mt.t;
    else if (map == "area") out = mt.t_area;
    else if (map == "lambda_max") out = mt.lambda_max;
    else out = mt.lambda_min;
}

// The UDIM tiles `set`'s UVs touch (1001 + u + 10 v for u in 0..9, v >= 0), and how many of its
// values lie in none.
std::vector<int> udim_tiles(const UvSet& set, std::size_t& outside) {
    std::set<int> tiles;
    outside = 0;
    for (const Eigen::Vector2f& uv : set.uv) {
        const double u = std::floor(double(uv.x())), v = std::floor(double(uv.y()));
        if (!(u >= 0 && u <= 9 && v >= 0 && v < 100)) {
            ++outside;
            continue;
        }
        tiles.insert(1001 + int(u) + 10 * int(v));
    }
    return {tiles.begin(), tiles.end()};
}

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

BakeJobResult run_bake(const BakeJobOptions& opt, Input& in, const FrameProgress& progress) {
    opt.validate();  // every entry, not only the CLI's: Python and check call run_x directly
    require_meshes(in, opt.tension.input.file, "bake");
    const std::string format = verb_output_format("bake", opt.format, opt.out);
    const bool files = !opt.out.empty();
    BakeJobResult r;
    r.size = opt.size;
    r.channels = opt.map == "color" ? 3 : 1;
    r.frames = in.frames.size();
    const std::size_t channels = std::size_t(r.channels);

    // Each mesh's UV set and its plans (one per tile), before any frame is evaluated.
    struct Tile {
        int udim;
        UvRasterPlan plan;
    };
    std::vector<std::vector<Tile>> tiles(in.meshes.size());
    std::vector<const UvSet*> sets(in.meshes.size());
    double plan_bytes = 0;
    for (std::size_t m = 0; m < in.meshes.size(); ++m) {
        const Mesh& mesh = in.scene.meshes[in.meshes[m]];
        if (mesh.uv_sets.empty()) throw bad_input(opt.tension.input.file, "mesh '" + mesh.name + "' has no UVs to bake into (choose another with --mesh)");
        const UvSet* set = &mesh.uv_sets.front();
        if (!opt.uv.empty()) {
            set = nullptr;
            std::string names;
            for (const UvSet& s : mesh.uv_sets) {
                if (s.name == opt.uv) set = &s;
                names += (names.empty() ? "" : ", ") + s.name;
            }
            if (!set) throw Error(kExitUsage, "--uv " + opt.uv + ": mesh '" + mesh.name + "' has the UV sets " + names);
        }
        BakeMeshInfo info;
        info.name = mesh.name;
        info.uv_set = set->name;
        std::vector<int> udims{0};
        if (opt.udim) {
            std::size_t outside = 0;
            udims = udim_tiles(*set, outside);
            if (outside)
                spdlog::warn("{}: mesh '{}': {} UVs of set {} lie in no UDIM tile (u in 0..10, v >= 0): not baked", opt.tension.input.file,
                             mesh.name, outside, set->name);
        }
        for (int u : udims) tiles[m].push_back({u, {}});
        sets[m] = set;
        r.meshes.push_back(std::move(info));
    }
    // What the plans and images will hold, before they are made: at most every texel of a tile
    // covered (a Texel each) or padded (index, offset and up to 8 sources), plus the coverage mask.
    std::size_t tile_count = 0;
    for (const auto& t : tiles) tile_count += t.size();
    const double texels = double(opt.size) * double(opt.size);
    plan_bytes = double(tile_count) * texels * (sizeof(UvRasterPlan::Texel) + 4.0 * 10 + 1);
    const unsigned threads = in.threads ? in.threads : ThreadPool::default_threads();
    // Frames baked side by side: the covered texels' pass reads each plan once for all of them.
    const std::size_t batch = std::max<std::size_t>(kBakeBatch, threads);
    // Per image of a batch: its planes, and the image as written when composed (--range, colour);
    // without -o every image is kept besides.
    const double image_bytes = texels * 4.0 * double(channels);
    const double slot_bytes = image_bytes * ((opt.range || channels > 1) ? 2 : 1);
    // And the batch's values interleaved per vertex for the gather (below), at most a file vertex's.
    double interleaved_bytes = 0;
    for (std::size_t m = 0; m < in.meshes.size(); ++m)
        interleaved_bytes += double(in.scene.meshes[in.meshes[m]].vertex_count()) * double((batch * channels + 3) / 4 * 4) * 4.0;
    check_job_budget(in, plan_bytes + slot_bytes * double(batch * tile_count) + interleaved_bytes +
                             (files ? 0.0 : image_bytes * double(tile_count * in.frames.size())),
                     "bake's texel plans and images (" + std::to_string(opt.size) + " x " + std::to_string(opt.size) + ")",
                     "choose a smaller --size, fewer frames or meshes, or raise --max-memory");
    // The plans, a mesh and tile per task on the run's threads (each plan is one thread's).
    std::vector<std::pair<std::size_t, std::size_t>> plan_tasks;
    for (std::size_t m = 0; m < tiles.size(); ++m)
        for (std::size_t k = 0; k < tiles[m].size(); ++k) plan_tasks.push_back({m, k});
    ThreadPool pool(threads);
    run_tasks(&pool, plan_tasks.size(), [&](std::size_t task) {
        const auto [m, k] = plan_tasks[task];
        const Mesh& mesh = in.scene.meshes[std::size_t(in.meshes[m])];
        const int u = tiles[m][k].udim;
        const UvImage image{opt.size, mesh.uv_v_down, opt.udim ? (u - 1001) % 10 : 0, opt.udim ? (u - 1001) / 10 : 0};
        tiles[m][k].plan = plan_uv_raster(mesh, *sets[m], image, opt.padding);
    });
    for (std::size_t m = 0; m < tiles.size(); ++m) {
        BakeMeshInfo& info = r.meshes[m];
        const Mesh& mesh = in.scene.meshes[std::size_t(in.meshes[m])];
        if (!tiles[m].empty()) {
            const UvRasterPlan& plan = tiles[m].front().plan;
            info.covered = plan.covered.size();
            info.padded = plan.padded.size();
            info.degenerate_faces = plan.degenerate_faces;
            info.outside_faces = plan.outside_faces;
        }
        const UvSet* set = sets[m];
        if (info.degenerate_faces)
            spdlog::warn("{}: mesh '{}': {} UV triangles of set {} have no area and cover no texel", opt.tension.input.file, mesh.name,
                         info.degenerate_faces, set->name);
        if (!opt.udim && info.outside_faces)
            spdlog::warn("{}: mesh '{}': {} faces reach outside UV 0..1: their parts outside are not in the image (--udim bakes every tile)",
                         opt.tension.input.file, mesh.name, info.outside_faces);
    }

    // Every file name, checked before any work: two images may not share one.
    std::map<std::string, std::string> named;  // path -> what writes it
    std::vector<std::string> paths;
    if (files) {
        if (in.frames.size() > 1 && !has(opt.out, "{frame}") && opt.out.substr(opt.out.find_last_of('/') + 1).find('#') == std::string::npos)
            throw Error(kExitUsage, "-o " + opt.out + ": " + std::to_string(in.frames.size()) +
                                        " frames selected but the name has no {frame} (e.g. -o 'maps/{mesh}.{frame}.png', or --frames N)");
        for (std::size_t fi = 0; fi < in.frames.size(); ++fi)
            for (std::size_t m = 0; m < in.meshes.size(); ++m)
                for (const Tile& t : tiles[m]) {
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
    }
    // Frames wait in batches of `threads` so their images are baked and encoded side by side.
    const std::size_t images_per_frame = tile_count;

    std::vector<MeshTension> meshes = prepare_tension(in, opt.tension);
    // The plans gather welded values: their file vertices become welded ones once, in blocks on
    // the run's threads.
    {
        constexpr std::size_t kWeldBlock = 1 << 16;
        std::vector<std::pair<UvRasterPlan*, std::pair<std::size_t, std::size_t>>> work;  // plan, (mesh, first texel)
        for (std::size_t m = 0; m < meshes.size(); ++m)
            for (Tile& t : tiles[m])
                for (std::size_t b = 0; b < t.plan.covered.size(); b += kWeldBlock) work.push_back({&t.plan, {m, b}});
        run_tasks(&pool, work.size(), [&](std::size_t task) {
            UvRasterPlan& plan = *work[task].first;
            const auto [m, b] = work[task].second;
            const std::vector<std::uint32_t>& welded_of = meshes[m].topo.welded_of;
            for (std::size_t k = b; k < std::min(b + kWeldBlock, plan.covered.size()); ++k)
                for (std::uint32_t& v : plan.covered[k].vertex) v = welded_of[v];
        });
    }
    const TensionRunInfo run = describe_run(in, opt.tension);
    const TensionRemap remap(run.range, run.params);

    // The files, a slot each in frame order, opened on the threads that write them and renamed
    // into place only once every one is written.
    OutputSet outputs(in.paths);
    outputs.reserve(files ? paths.size() : 0);
    std::atomic<std::size_t> clamped{0};
    // values[b][m][c]: frame b of the batch, mesh m, channel c, per welded vertex.
    std::vector<std::vector<std::vector<std::vector<float>>>> values(batch, std::vector<std::vector<std::vector<float>>>(meshes.size()));
    std::vector<std::size_t> pending;  // frame indices waiting
    // planes[(b * images_per_frame + k) * channels + c]: channel c of image k of batch frame b,
    // kept from batch to batch. A slot always holds the same tile, whose plan writes the same
    // texels every frame, so the texels it never writes stay 0 from the first allocation on.
    const std::size_t texel_count = std::size_t(opt.size) * std::size_t(opt.size);
    std::vector<std::vector<float>> planes(batch * images_per_frame * channels, std::vector<float>(texel_count, 0.0f));
    // The image as written, when it is not one plane as it is (--range, or colour's channels
    // interleaved).
    const bool composed = opt.range || channels > 1;
    std::vector<std::vector<float>> scratch(composed ? batch * images_per_frame : 0);
    // (tile, first texel) blocks of the covered texels: a task bakes one for every frame of the batch.
    constexpr std::size_t kTexelBlock = 1 << 16;
    auto tile_of = [&](std::size_t k, std::size_t& m) -> const Tile& {  // image k of a frame, and its mesh
        m = 0;
        while (k >= tiles[m].size()) k -= tiles[m++].size();
        return tiles[m][k];
    };
    std::vector<std::pair<std::size_t, std::size_t>> blocks;
    for (std::size_t k = 0, m = 0; k < images_per_frame; ++k)
        for (std::size_t t = 0; t < tile_of(k, m).plan.covered.size(); t += kTexelBlock) blocks.push_back({k, t});
    // The batch's values interleaved per welded vertex, a mesh's layers (frame b, channel c at
    // b * channels + c) side by side, so that a texel reads its three vertices once for all of
    // them; kept from batch to batch.
    const std::size_t stride = (batch * channels + 3) / 4 * 4;
    std::vector<std::vector<float>> interleaved(meshes.size());
    auto flush = [&] {
        const std::size_t frames = pending.size();
        run_tasks(&pool, meshes.size(), [&](std::size_t m) {
            std::vector<float>& to = interleaved[m];
            const std::size_t vertices = values[0][m][0].size();
            to.resize(vertices * stride);  // (lanes past the batch's layers are read, never written)
            for (std::size_t b = 0; b < frames; ++b)
                for (std::size_t c = 0; c < channels; ++c) {
                    const float* from = values[b][m][c].data();
                    const std::size_t l = b * channels + c;
                    for (std::size_t v = 0; v < vertices; ++v) to[v * stride + l] = from[v];
                }
        });
        // The covered texels of every image of the batch, the plan read once for all its frames.
        run_tasks(&pool, blocks.size(), [&](std::size_t task) {
            const auto [k, begin] = blocks[task];
            std::size_t m = 0;
            const Tile& tile = tile_of(k, m);
            std::vector<float*> to;
            for (std::size_t b = 0; b < frames; ++b)
                for (std::size_t c = 0; c < channels; ++c) to.push_back(planes[(b * images_per_frame + k) * channels + c].data());
            bake_uv_covered_interleaved(tile.plan, interleaved[m].data(), stride, to.data(), to.size(), begin,
                                        std::min(begin + kTexelBlock, tile.plan.covered.size()));
        });
        // Then each image: its padding, --range or the channels interleaved, and its file.
        const std::size_t tasks = frames * images_per_frame;
        std::vector<BakeImage> made(tasks);
        run_tasks(&pool, tasks, [&](std::size_t task) {
            const std::size_t b = task / images_per_frame, k = task % images_per_frame;
            std::size_t m = 0;
            const Tile& tile = tile_of(k, m);
            BakeImage& img = made[task];
            img.mesh = m;
            img.frame = pending[b];
            img.udim = tile.udim;
            for (std::size_t c = 0; c < channels; ++c) bake_uv_padding(tile.plan, planes[task * channels + c].data());
            const float* image = planes[task * channels].data();
            if (composed) {
                std::vector<float>& texels = scratch[task];
                texels.resize(texel_count * channels);
                for (std::size_t c = 0; c < channels; ++c) {
                    const float* plane = planes[task * channels + c].data();
                    for (std::size_t t = 0; t < texel_count; ++t) texels[t * channels + c] = plane[t];
                }
                if (opt.range) {
                    const double lo = opt.range->first, scale = 1.0 / (opt.range->second - opt.range->first);
                    for (float& x : texels) x = float((double(x) - lo) * scale);
                }
                image = texels.data();
            }
            if (!files) {
                img.texels.assign(image, image + texel_count * channels);
                return;
            }
            const std::size_t index = pending[b] * images_per_frame + k;
            img.path = paths[index];
            OutputFile& out = outputs.open_at(index, img.path);
            if (format == "png") clamped += write_png16(out, image, opt.size, opt.size, r.channels);
            else write_exr_half(out, image, opt.size, opt.size, r.channels);
            out.finish();  // synced and closed here, on the image's thread
        });
        for (BakeImage& img : made) r.images.push_back(std::move(img));
        pending.clear();
    };
    for_each_tension_frame(
        in, meshes,
        [&](std::size_t fi) {
            const std::size_t b = pending.size();
            for (std::size_t m = 0; m < meshes.size(); ++m) map_values(opt, meshes[m], remap, values[b][m]);
            pending.push_back(fi);
            if (pending.size() == batch || fi + 1 == in.frames.size()) flush();
        },
        progress);
    if (!pending.empty()) flush();
    // Every image written: now each takes its name.
    outputs.commit();
    r.clamped = clamped;
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
