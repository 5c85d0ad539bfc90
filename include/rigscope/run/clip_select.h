// Which clips a judging verb evaluates (issue 57): `--clip NAME|INDEX|all`. check, diff and
// report judge every clip of the file by default, each clip on its own frames; a run that judges
// only some says which (ClipPlan::not_judged). The verdict over them is the run layer's.
#pragma once

#include <string>
#include <vector>

#include "rigscope/run/input.h"

namespace rigscope {

// --clip's value that names every clip of the file. A clip literally named "all" is chosen by
// its index.
inline constexpr const char* kAllClips = "all";

struct ClipPlan {
    // The clips evaluated, in the file's order: an index into in.scene.clips, or -1 for the
    // input's own loaded motion (--rom's sweep, --cache, --animation's clip, or no clip at all),
    // which stands as one "clip" of its own.
    std::vector<int> indices;
    std::vector<std::string> names;       // per judged clip: its name ("rom", "cache", "bind" for none)
    std::vector<std::string> not_judged;  // the file's clips --clip NAME left out (not --rom's, --animation's)
    std::size_t file_clips = 0;           // how many clips the file holds

    bool partial() const { return !not_judged.empty(); }
};

// The options load_input is given for a judging verb: --clip all (and, with `all_by_default`,
// none) loads the first clip, the others are selected by use_clip.
InputOptions clip_load_options(const InputOptions& opt);

// What `opt.clip` selects on the loaded input. With `all_by_default` (check, diff, report), no
// --clip is every clip; else (tension, rivet) no --clip is the first, as before.
ClipPlan plan_clips(const Input& in, const InputOptions& opt, bool all_by_default);

// `in` with clip `index` of its scene selected (its frames chosen by opt.frames and opt.chunk, as
// load_input chooses them); index -1 leaves the loaded motion as it is.
void use_clip(Input& in, const InputOptions& opt, int index);

// The loaded clip and frames of an input, put back when a job has selected its clips in turn
// (a Python session's input is used again).
struct ClipRestore {
    Input& in;
    Clip clip;
    bool has_clip;
    std::vector<Frame> frames;
    int chunk_index, chunk_count;
    explicit ClipRestore(Input& i)
        : in(i), clip(i.clip), has_clip(i.has_clip), frames(i.frames), chunk_index(i.chunk_index), chunk_count(i.chunk_count) {}
    ~ClipRestore() {
        in.clip = std::move(clip);
        in.has_clip = has_clip;
        in.frames = std::move(frames);
        in.chunk_index = chunk_index;
        in.chunk_count = chunk_count;
    }
    ClipRestore(const ClipRestore&) = delete;
    ClipRestore& operator=(const ClipRestore&) = delete;
};

// --clip all on a verb whose output is per frame (tension, rivet): one output per clip, `out`
// with {clip} replaced by each clip's name ('/', '\\' and control characters as '_'; an empty
// name "clip<index>"), so that each file is what --clip NAME writes: the formats' frames are one
// clip's (frame 1 of Walk and of Run would share a row's key in a clip column, and the readers
// of each format, merge, Python and the per-frame glTF files, assume one clip). Throws Error
// (exit 2) for an `out` without {clip} (or stdout), or two clips that would write one file.
std::vector<std::string> clip_outputs(const std::string& out, const ClipPlan& plan, const char* verb);

// Throws Error (exit 2) for {clip} in an output's name (`option`'s) when --clip is not all: only
// --clip all writes an output per clip, and the name would otherwise be written as it stands.
void refuse_clip_placeholder(const char* option, const std::string& out, const InputOptions& opt);

// "1 of 3 clips judged: Walk; not judged: Run, Idle": what a partial run says beside its verdict.
std::string clip_coverage(const ClipPlan& plan);

}  // namespace rigscope
