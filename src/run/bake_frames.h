// bake's frames (run/bake_job.h): the evaluated frames' maps gathered through the plans in
// batches, padded, composed and encoded on the run's threads, each image written to its slot of
// one OutputSet (or kept, without -o). PNG files are made by segments of their rows, gathered and
// deflated together (bake_png); EXR files and kept images from whole planes.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "background_finish.h"
#include "bake_plans.h"
#include "rigscope/io/image_output.h"
#include "rigscope/io/output.h"

namespace rigscope {

class BakeFrames {
public:
    // `paths`: a file per image, frame-major then mesh then tile (empty without -o). `batch`:
    // frames baked side by side (the plans are read once a batch).
    BakeFrames(const BakeJobOptions& opt, const Input& in, const BakePlans& plans, const std::vector<MeshTension>& meshes,
               std::vector<std::string> paths, std::size_t batch, ThreadPool& pool, BakeJobResult& r);
    // Frame `fi` is evaluated in `meshes`: its maps join the batch, baked once it is full or last.
    void add(std::size_t fi);
    // Bakes what waits, then renames every file into place; returns the values clamped.
    std::size_t finish();

private:
    // An image's file as encoded: kept for the frames whose maps are the same values (a static
    // mesh's), which write it instead of baking it again. (Without -o, an image's texels are in
    // made_ and then r_.images, where the repeats copy them from.)
    struct Encoded {
        std::string bytes;
        std::size_t clamped = 0;
    };
    static constexpr std::size_t kKept = std::size_t(-1);

    void flush();
    std::size_t source_of(std::size_t b, std::size_t m) const;
    void interleave(std::size_t frames);
    void gather();
    void encode_fresh(std::size_t frames);
    void bake_png(std::size_t frames);
    void bake_png_segment(const Png16Segments& png, std::size_t k, std::size_t s);
    void encode_image(std::size_t b, std::size_t k);
    void write_all();
    const Encoded& encoded_for(std::size_t b, std::size_t k) const;

    const BakeJobOptions& opt_;
    const Input& in_;
    const BakePlans& plans_;
    const std::vector<MeshTension>& meshes_;
    std::vector<std::string> paths_;
    ThreadPool& pool_;
    BakeJobResult& r_;
    std::string format_;
    std::size_t batch_, channels_, images_, texel_count_, stride_;
    TensionRemap remap_;
    std::vector<std::pair<std::size_t, std::size_t>> image_tile_;  // image k of a frame: (mesh, tile)
    std::vector<std::size_t> pending_;                             // frame indices waiting
    // values_[b][m][c]: frame b of the batch, mesh m, channel c, per welded vertex.
    std::vector<std::vector<std::vector<std::vector<float>>>> values_;
    // same_[b][m]: frame b's map of mesh m is the same values as the frame before it (its
    // values_ are then not made); sources_[m]: what mesh m's map was made from last.
    std::vector<std::vector<char>> same_;
    std::vector<std::vector<std::vector<float>>> sources_;
    bool started_ = false;  // a frame was added
    std::vector<std::vector<float>> interleaved_;
    std::vector<std::vector<std::size_t>> lanes_;  // per mesh: batch frames gathered (fresh ones)
    std::vector<std::vector<float>> planes_, scratch_;
    std::vector<Encoded> encoded_;  // per image of the batch (b * images_ + k), fresh ones only
    // PNG files: made by segments of their rows (bake_png), no image whole; parts_[b * images_ + k]
    // are a fresh image's deflated segments.
    bool by_segments_ = false;
    std::vector<std::vector<Png16Segments::Part>> parts_;
    // Per image k and segment: the filtered bytes last deflated and their part. A segment whose
    // bytes are the same at the next frame (a region the rig leaves still, the map's zeros) takes
    // that part instead of being deflated again.
    std::vector<std::vector<std::vector<std::uint8_t>>> last_raw_;
    std::vector<std::vector<Png16Segments::Part>> last_part_;
    std::vector<Encoded> kept_;     // per image k: the previous batch's last frame's
    std::vector<std::size_t> kept_image_;  // per image k, without -o: that image's index in r_.images
    std::vector<BakeImage> made_;
    OutputSet outputs_;
    BackgroundFinish finishing_;  // (after outputs_: its threads end before the files go)
    std::atomic<std::size_t> clamped_{0};
};

}  // namespace rigscope
