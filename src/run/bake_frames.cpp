// bake's frames in batches (run/bake_frames.h).
#include "bake_frames.h"

#include <algorithm>

#include "rigscope/core/huge_pages.h"
#include "rigscope/core/same_bytes.h"
#include "rigscope/io/image_output.h"
#include "rigscope/run/output_formats.h"
#include "rigscope/run/tension_gltf.h"

namespace rigscope {

namespace {

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

// The per-vertex arrays map_values reads for `map`: the values, and so the image (a function of
// its plan and these alone), are the same when these are the same bits.
std::vector<const std::vector<float>*> map_sources(const std::string& map, const MeshTension& mt) {
    if (map == "color") return {&mt.t, &mt.compress_t(), &mt.stretch_t()};
    if (map == "compress") return {&mt.compress_t()};
    if (map == "stretch") return {&mt.stretch_t()};
    if (map == "tension") return {&mt.t};
    if (map == "area") return {&mt.t_area};
    return {map == "lambda_max" ? &mt.lambda_max : &mt.lambda_min};
}

// Whether `sources` hold the bits of `kept` (a -0 against a 0 counts as different: EXR keeps the
// sign); if not, `kept` takes them.
bool same_or_keep(const std::vector<const std::vector<float>*>& sources, std::vector<std::vector<float>>& kept) {
    bool same = kept.size() == sources.size();
    for (std::size_t k = 0; same && k < sources.size(); ++k) same = same_bytes(kept[k], *sources[k]);
    if (same) return true;
    kept.resize(sources.size());
    for (std::size_t k = 0; k < sources.size(); ++k) kept[k] = *sources[k];
    return false;
}

TensionRemap remap_of(const Input& in, const BakeJobOptions& opt) {
    const TensionRunInfo run = describe_run(in, opt.tension);
    return TensionRemap(run.range, run.params);
}

}  // namespace

BakeFrames::BakeFrames(const BakeJobOptions& opt, const Input& in, const BakePlans& plans, const std::vector<MeshTension>& meshes,
                       std::vector<std::string> paths, std::size_t batch, ThreadPool& pool, BakeJobResult& r)
    : opt_(opt), in_(in), plans_(plans), meshes_(meshes), paths_(std::move(paths)), pool_(pool), r_(r),
      format_(verb_output_format("bake", opt.format, opt.out)), batch_(batch), channels_(std::size_t(r.channels)),
      images_(plans.tile_count), texel_count_(std::size_t(opt.size) * std::size_t(opt.size)), stride_((batch * channels_ + 3) / 4 * 4),
      remap_(remap_of(in, opt)), values_(batch, std::vector<std::vector<std::vector<float>>>(meshes.size())),
      same_(batch, std::vector<char>(meshes.size(), 0)), sources_(meshes.size()), interleaved_(meshes.size()), lanes_(meshes.size()),
      planes_(batch * images_ * channels_), scratch_(batch * images_), encoded_(batch * images_), kept_(images_), kept_image_(images_, 0), outputs_(in.paths) {
    for (std::size_t m = 0; m < plans.tiles.size(); ++m)
        for (std::size_t k = 0; k < plans.tiles[m].size(); ++k) image_tile_.push_back({m, k});
    outputs_.reserve(paths_.size());
    // PNG files by segments, unless the padding reaches so far that a segment's band would gather
    // more than twice its own rows (a sparse layout padded by many texels): then whole planes.
    by_segments_ = !paths_.empty() && format_ == "png";
    if (by_segments_) {
        const std::size_t rows = Png16Segments(opt.size, opt.size, r.channels).rows(0).second;
        for (const auto& tiles : plans.tiles)
            for (const BakeTile& t : tiles) by_segments_ = by_segments_ && 2 * (t.plan->pass_begin.size() - 1) <= rows;
    }
    if (by_segments_) parts_.resize(batch * images_);
}

void BakeFrames::add(std::size_t fi) {
    const std::size_t b = pending_.size();
    // A mesh whose map reads the same bits as at the frame before (a static mesh's) is not mapped
    // again: its image will be the earlier one's (source_of).
    run_tasks(&pool_, meshes_.size(), [&](std::size_t m) {
        same_[b][m] = same_or_keep(map_sources(opt_.map, meshes_[m]), sources_[m]) && started_;
        if (!same_[b][m]) map_values(opt_, meshes_[m], remap_, values_[b][m]);
    });
    started_ = true;
    pending_.push_back(fi);
    if (pending_.size() == batch_ || fi + 1 == in_.frames.size()) flush();
}

std::size_t BakeFrames::finish() {
    if (!pending_.empty()) flush();
    finishing_.wait();
    outputs_.commit();  // every image written and synced: now each takes its name
    return clamped_;
}

// The batch frame whose image of mesh m frame b reuses (b itself when its values are new), or
// kKept: the previous batch's last frame's, in kept_.
std::size_t BakeFrames::source_of(std::size_t b, std::size_t m) const {
    for (;; --b) {
        if (!same_[b][m]) return b;
        if (b == 0) return kKept;
    }
}

void BakeFrames::flush() {
    const std::size_t frames = pending_.size();
    made_.assign(frames * images_, BakeImage{});
    interleave(frames);
    if (by_segments_) {
        bake_png(frames);
    } else {
        gather();
        encode_fresh(frames);
    }
    write_all();
    // The last frame's images stay for the next batch's first frame to reuse: its bytes, or
    // without -o the index of its texels in r_.images.
    for (std::size_t k = 0; k < images_; ++k) {
        const Encoded& last = encoded_for(frames - 1, k);
        if (&last != &kept_[k]) kept_[k] = last;
        const std::size_t s = source_of(frames - 1, image_tile_[k].first);
        if (s != kKept) kept_image_[k] = r_.images.size() + s * images_ + k;
    }
    for (BakeImage& img : made_) r_.images.push_back(std::move(img));
    made_.clear();
    pending_.clear();
}

// The batch's fresh values interleaved per file vertex (the plans' vertices: each takes its welded
// vertex's values), a mesh's layers (lane i of lanes_[m], channel c at i * channels + c) side by
// side, so that a texel reads its three vertices once for all of them; kept from batch to batch.
// Frames whose maps repeat the previous frame's are left out. The weld applied here, to a few
// hundred thousand vertices a batch, spares rewriting every covered texel's vertices once.
void BakeFrames::interleave(std::size_t frames) {
    for (std::size_t m = 0; m < meshes_.size(); ++m) {
        lanes_[m].clear();
        for (std::size_t b = 0; b < frames; ++b)
            if (!same_[b][m]) lanes_[m].push_back(b);
    }
    constexpr std::size_t kVertexBlock = 1 << 16;  // (mesh, first vertex) a task
    std::vector<std::pair<std::size_t, std::size_t>> blocks;
    for (std::size_t m = 0; m < meshes_.size(); ++m) {
        if (lanes_[m].empty()) continue;
        const std::size_t vertices = meshes_[m].topo.welded_of.size();
        if (interleaved_[m].empty()) detail::reserve_huge(interleaved_[m], vertices * stride_);
        interleaved_[m].resize(vertices * stride_);  // (lanes past the batch's layers are read, never written)
        for (std::size_t v = 0; v < vertices; v += kVertexBlock) blocks.push_back({m, v});
    }
    run_tasks(&pool_, blocks.size(), [&](std::size_t task) {
        const auto [m, first] = blocks[task];
        float* to = interleaved_[m].data();
        const std::uint32_t* welded_of = meshes_[m].topo.welded_of.data();
        const std::size_t end = std::min(first + kVertexBlock, meshes_[m].topo.welded_of.size());
        for (std::size_t i = 0; i < lanes_[m].size(); ++i)
            for (std::size_t c = 0; c < channels_; ++c) {
                const float* from = values_[lanes_[m][i]][m][c].data();
                const std::size_t l = i * channels_ + c;
                for (std::size_t v = first; v < end; ++v) to[v * stride_ + l] = from[welded_of[v]];
            }
    });
}

// The covered texels of every fresh image of the batch, in (image, first texel) blocks on the
// threads, each plan read once for all its frames. A plane is made (zeroed) the first time its
// slot is baked and kept: a slot always holds the same tile, whose plan writes the same texels
// every frame, so the texels it never writes stay 0.
void BakeFrames::gather() {
    constexpr std::size_t kTexelBlock = 1 << 16;
    std::vector<std::size_t> fresh_planes;
    std::vector<std::pair<std::size_t, std::size_t>> blocks;
    for (std::size_t k = 0; k < images_; ++k) {
        const auto [m, t] = image_tile_[k];
        if (lanes_[m].empty()) continue;
        for (std::size_t b : lanes_[m])
            for (std::size_t c = 0; c < channels_; ++c)
                if (planes_[(b * images_ + k) * channels_ + c].empty()) fresh_planes.push_back((b * images_ + k) * channels_ + c);
        const std::size_t covered = plans_.tiles[m][t].plan->covered.size();
        for (std::size_t begin = 0; begin < covered; begin += kTexelBlock) blocks.push_back({k, begin});
    }
    run_tasks(&pool_, fresh_planes.size(), [&](std::size_t i) {
        detail::reserve_huge(planes_[fresh_planes[i]], texel_count_);
        planes_[fresh_planes[i]].assign(texel_count_, 0.0f);
    });
    run_tasks(&pool_, blocks.size(), [&](std::size_t task) {
        const auto [k, begin] = blocks[task];
        const auto [m, t] = image_tile_[k];
        const UvRasterPlan& plan = *plans_.tiles[m][t].plan;
        std::vector<float*> to;
        for (std::size_t b : lanes_[m])
            for (std::size_t c = 0; c < channels_; ++c) to.push_back(planes_[(b * images_ + k) * channels_ + c].data());
        bake_uv_covered_interleaved(plan, interleaved_[m].data(), stride_, to.data(), to.size(), begin,
                                    std::min(begin + kTexelBlock, plan.covered.size()));
    });
}

// The images whose values are new: each on a thread, padded, composed and encoded.
void BakeFrames::encode_fresh(std::size_t frames) {
    std::vector<std::size_t> fresh;  // b * images_ + k
    for (std::size_t b = 0; b < frames; ++b)
        for (std::size_t k = 0; k < images_; ++k)
            if (source_of(b, image_tile_[k].first) == b) fresh.push_back(b * images_ + k);
    run_tasks(&pool_, fresh.size(), [&](std::size_t i) { encode_image(fresh[i] / images_, fresh[i] % images_); });
}

// Image k of batch frame b: its padding, --range or the channels interleaved, then its file's
// bytes (or, without -o, its texels).
void BakeFrames::encode_image(std::size_t b, std::size_t k) {
    const std::size_t slot = b * images_ + k;
    const auto [m, t] = image_tile_[k];
    const UvRasterPlan& plan = *plans_.tiles[m][t].plan;
    for (std::size_t c = 0; c < channels_; ++c) bake_uv_padding(plan, planes_[slot * channels_ + c].data());
    const float* image = planes_[slot * channels_].data();
    if (opt_.range || channels_ > 1) {
        std::vector<float>& texels = scratch_[slot];
        texels.resize(texel_count_ * channels_);
        for (std::size_t c = 0; c < channels_; ++c) {
            const float* plane = planes_[slot * channels_ + c].data();
            for (std::size_t x = 0; x < texel_count_; ++x) texels[x * channels_ + c] = plane[x];
        }
        if (opt_.range) {
            const double lo = opt_.range->first, scale = 1.0 / (opt_.range->second - opt_.range->first);
            for (float& x : texels) x = float((double(x) - lo) * scale);
        }
        image = texels.data();
    }
    if (paths_.empty()) {
        made_[slot].texels.assign(image, image + texel_count_ * channels_);
        return;
    }
    Encoded& e = encoded_[slot];
    e.bytes.clear();
    e.clamped = 0;
    if (format_ == "png") e.clamped = write_png16(e.bytes, image, opt_.size, opt_.size, r_.channels);
    else write_exr_half(e.bytes, image, opt_.size, opt_.size, r_.channels);
}

// The batch's fresh images as PNG files, straight from the plans: (image, segment of its file's
// rows) on the threads, each gathering the segment's rows (and the padding's reach either side)
// for all of the batch's frames at once, padding, composing and deflating them while they are in
// the core's cache; then each file joined from its segments. Against gathering whole planes and
// encoding them after, no image is ever whole in memory (4 MiB a plane at 1024, written and read
// back once a frame) and the work is in finer tasks for the threads.
void BakeFrames::bake_png(std::size_t frames) {
    const Png16Segments png(opt_.size, opt_.size, r_.channels);
    const std::size_t segments = png.count();
    if (last_raw_.empty()) {
        last_raw_.assign(images_, std::vector<std::vector<std::uint8_t>>(segments));
        last_part_.assign(images_, std::vector<Png16Segments::Part>(segments));
    }
    std::vector<std::size_t> work;  // k * segments + s
    for (std::size_t k = 0; k < images_; ++k) {
        const std::size_t m = image_tile_[k].first;
        if (lanes_[m].empty()) continue;
        for (std::size_t b : lanes_[m]) parts_[b * images_ + k].resize(segments);
        for (std::size_t s = 0; s < segments; ++s) work.push_back(k * segments + s);
    }
    run_tasks(&pool_, work.size(), [&](std::size_t task) { bake_png_segment(png, work[task] / segments, work[task] % segments); });
    std::vector<std::size_t> fresh;  // b * images_ + k
    for (std::size_t b = 0; b < frames; ++b)
        for (std::size_t k = 0; k < images_; ++k)
            if (source_of(b, image_tile_[k].first) == b) fresh.push_back(b * images_ + k);
    run_tasks(&pool_, fresh.size(), [&](std::size_t i) {
        Encoded& e = encoded_[fresh[i]];
        e.bytes.clear();
        e.clamped = png.join(parts_[fresh[i]], e.bytes);
    });
}

// Segment s of image k's files, one a fresh frame of the batch: its rows as encode_image makes
// them (gathered, padded, composed) in bands a thread keeps, filtered, and deflated unless they
// are the bytes the frame before had there. The frames of the batch in order on one thread, so
// that each compares with the one before it.
void BakeFrames::bake_png_segment(const Png16Segments& png, std::size_t k, std::size_t s) {
    thread_local std::vector<float> bands, composed;
    thread_local std::vector<float*> to;
    thread_local std::vector<std::uint8_t> raw;
    const auto [m, t] = image_tile_[k];
    const UvRasterPlan& plan = *plans_.tiles[m][t].plan;
    const std::size_t n = std::size_t(opt_.size), layers = lanes_[m].size() * channels_, passes = plan.pass_begin.size() - 1;
    const auto [first_row, end_row] = png.rows(s);
    // The rows the padding reads from, as far as it fills (a pass reaches one row further).
    const std::size_t band_row = first_row - std::min(first_row, passes), band_end = std::min(n, end_row + passes);
    const std::size_t band_texels = (band_end - band_row) * n;
    const auto [begin, end] = uv_covered_rows(plan, band_row, band_end);
    // Texels no face covers nor padding fills are 0: the band zeroed first, unless the plan covers
    // every texel of its rows (each entry a distinct texel), all of which the gather writes.
    if (end - begin == band_texels) bands.resize(layers * band_texels);
    else bands.assign(layers * band_texels, 0.0f);
    to.resize(layers);
    for (std::size_t l = 0; l < layers; ++l) to[l] = bands.data() + l * band_texels;
    bake_uv_covered_interleaved(plan, interleaved_[m].data(), stride_, to.data(), layers, begin, end, band_row * n);
    bake_uv_padding_rows(plan, to.data(), layers, band_row, band_end, first_row, end_row);
    const std::size_t texels = (end_row - first_row) * n, skip = (first_row - band_row) * n;
    for (std::size_t i = 0; i < lanes_[m].size(); ++i) {
        const float* values = to[i * channels_] + skip;
        if (opt_.range || channels_ > 1) {  // encode_image's composition
            composed.resize(texels * channels_);
            for (std::size_t c = 0; c < channels_; ++c) {
                const float* plane = to[i * channels_ + c] + skip;
                for (std::size_t x = 0; x < texels; ++x) composed[x * channels_ + c] = plane[x];
            }
            if (opt_.range) {
                const double lo = opt_.range->first, scale = 1.0 / (opt_.range->second - opt_.range->first);
                for (float& x : composed) x = float((double(x) - lo) * scale);
            }
            values = composed.data();
        }
        Png16Segments::Part& part = parts_[lanes_[m][i] * images_ + k][s];
        part.clamped = png.filter(s, values, raw);
        std::vector<std::uint8_t>& last = last_raw_[k][s];
        Png16Segments::Part& kept = last_part_[k][s];
        if (!last.empty() && raw == last) {  // the frame before's bytes: its deflated part
            part.bytes = kept.bytes;
            part.adler = kept.adler;
            continue;
        }
        png.deflate_raw(s, raw, part);
        last.swap(raw);
        kept.bytes = part.bytes;
        kept.adler = part.adler;
    }
}

const BakeFrames::Encoded& BakeFrames::encoded_for(std::size_t b, std::size_t k) const {
    const std::size_t s = source_of(b, image_tile_[k].first);
    return s == kKept ? kept_[k] : encoded_[s * images_ + k];
}

// Every image of the batch, fresh or repeated, into its slot (or kept): the files opened and
// written on the run's threads, then synced and closed by finishing_ while the next frames are
// baked; none renamed yet.
void BakeFrames::write_all() {
    std::vector<OutputFile*> files(paths_.empty() ? 0 : made_.size());
    run_tasks(&pool_, made_.size(), [&](std::size_t task) {
        const std::size_t b = task / images_, k = task % images_;
        BakeImage& img = made_[task];
        img.mesh = image_tile_[k].first;
        img.frame = pending_[b];
        img.udim = plans_.tiles[img.mesh][image_tile_[k].second].udim;
        if (paths_.empty()) {  // a repeated image's texels copied from the earlier one's
            const std::size_t s = source_of(b, img.mesh);
            if (s != b) img.texels = s == kKept ? r_.images[kept_image_[k]].texels : made_[s * images_ + k].texels;
            return;
        }
        const Encoded& e = encoded_for(b, k);
        const std::size_t index = pending_[b] * images_ + k;
        img.path = paths_[index];
        OutputFile& out = outputs_.open_at(index, img.path);
        out.write(e.bytes);
        out.flush();
        files[task] = &out;
        clamped_ += e.clamped;
    });
    if (!paths_.empty()) finishing_.start(std::move(files));
}

}  // namespace rigscope
