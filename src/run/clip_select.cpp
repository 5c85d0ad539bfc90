#include "rigscope/run/clip_select.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "rigscope/core/error.h"
#include "rigscope/farm/chunk.h"
#include "rigscope/io/output.h"
#include "rigscope/run/run_budget.h"

namespace rigscope {

namespace {

bool wants_all(const InputOptions& opt, bool all_by_default) { return opt.clip == kAllClips || (opt.clip.empty() && all_by_default); }

// The input's motion is not one of the file's clips: --rom's sweep, a --cache, --animation's clip.
bool own_motion(const Input& in, const InputOptions& opt) { return in.has_rom || in.has_cache || !opt.animation.empty(); }

}  // namespace

InputOptions clip_load_options(const InputOptions& opt) {
    // Those motions are one clip each: "all" of them would be the first, said as every one.
    if (opt.clip == kAllClips && (opt.rom || !opt.cache.empty() || !opt.animation.empty()))
        throw Error(kExitUsage, std::string("--clip all: ") + (opt.rom ? "--rom's sweep" : !opt.cache.empty() ? "--cache" : "--animation's clip") +
                                    " is one motion; drop --clip all (with --animation, --clip NAME picks the animation file's clip)");
    InputOptions o = opt;
    if (o.clip == kAllClips) o.clip.clear();
    return o;
}

ClipPlan plan_clips(const Input& in, const InputOptions& opt, bool all_by_default) {
    ClipPlan p;
    const std::vector<Clip>& clips = in.scene.clips;
    p.file_clips = clips.size();
    if (own_motion(in, opt) || !in.has_clip) {
        p.indices.push_back(-1);
        // The motion asked for instead of the file's clips (--rom, --cache, --animation) is the one
        // "clip" judged; the file's own are not a part it left out.
        p.names.push_back(in.has_clip ? in.clip.name : "bind");
        return p;
    }
    if (wants_all(opt, all_by_default)) {
        for (std::size_t i = 0; i < clips.size(); ++i) {
            p.indices.push_back(static_cast<int>(i));
            p.names.push_back(clips[i].name);
        }
    } else {
        // The one load_input picks, by its rule (a Python call's clip= was not loaded: checked here).
        const std::size_t chosen = static_cast<std::size_t>(pick_clip(in.scene, opt.clip, opt.file) - clips.data());
        p.indices.push_back(static_cast<int>(chosen));
        p.names.push_back(clips[chosen].name);
        for (std::size_t i = 0; i < clips.size(); ++i)
            if (i != chosen) p.not_judged.push_back(clips[i].name);
    }
    if (p.indices.size() > 1 && !opt.chunk.empty()) {
        std::string names;
        for (const std::string& n : p.names) names += (names.empty() ? "" : ", ") + n;
        throw Error(kExitUsage, "--chunk splits one clip's frames: " + opt.file + " has " + std::to_string(p.indices.size()) +
                                    " clips (" + names + "); choose one with --clip NAME");
    }
    return p;
}

void use_clip(Input& in, const InputOptions& opt, int index) {
    if (index < 0) return;
    const Clip& c = in.scene.clips.at(static_cast<std::size_t>(index));
    in.clip = c;
    in.has_clip = true;
    const bool file_caches = std::any_of(in.scene.meshes.begin(), in.scene.meshes.end(), [](const Mesh& m) { return m.cache != nullptr; });
    if (in.clip.channels.empty() && !file_caches)
        throw Error(kExitBadInput, opt.file + ": clip '" + in.clip.name + "' has no channels (empty animation)");
    // As load_input counts the first clip's frame list before making it.
    if (opt.frames.empty()) {
        const double count = std::floor(std::max(0.0, in.clip.end - in.clip.start) * in.fps) + 1;
        check_job_budget(in, count * sizeof(Frame), "the list of " + number_text(count) + " frames of clip '" + in.clip.name + "'",
                         "choose fewer frames (--frames, a lower --fps) or raise --max-memory");
    }
    in.frames = select_frames(in, opt.frames, opt.file);
    if (!opt.chunk.empty()) {
        for_option("--chunk", [&] { parse_chunk_spec(opt.chunk, in.chunk_index, in.chunk_count); });
        in.frames = chunk_frames(in.frames, in.chunk_index, in.chunk_count);
    }
}

std::vector<std::string> clip_outputs(const std::string& out, const ClipPlan& plan, const char* verb) {
    const std::string key = "{clip}";
    if (out.find(key) == std::string::npos || is_stdout_path(out))
        throw Error(kExitUsage, std::string(verb) + " --clip all writes an output per clip: put {clip} in -o's name, e.g. -o 'maps/{clip}.csv' (-o " +
                                    (out.empty() ? "-" : out) + ")");
    std::vector<std::string> outs;
    for (std::size_t k = 0; k < plan.names.size(); ++k) {
        std::string name = plan.names[k].empty() ? "clip" + std::to_string(k) : plan.names[k];
        for (char& c : name)
            if (c == '/' || c == '\\' || static_cast<unsigned char>(c) < 0x20) c = '_';
        std::string path = out;
        for (std::size_t at; (at = path.find(key)) != std::string::npos;) path.replace(at, key.size(), name);
        for (std::size_t j = 0; j < outs.size(); ++j)
            if (outs[j] == path)
                throw Error(kExitUsage, "--clip all: clips '" + plan.names[j] + "' and '" + plan.names[k] + "' would both write " + path);
        outs.push_back(std::move(path));
    }
    return outs;
}

void refuse_clip_placeholder(const char* option, const std::string& out, const InputOptions& opt) {
    if (out.find("{clip}") != std::string::npos && opt.clip != kAllClips)
        throw Error(kExitUsage, std::string(option) + " " + out + ": {clip} names an output per clip, which --clip all writes: add --clip all" +
                                    (opt.clip.empty() ? "" : " (--clip " + opt.clip + " writes one)"));
}

std::string clip_coverage(const ClipPlan& plan) {
    const std::size_t total = plan.names.size() + plan.not_judged.size();
    std::string s = std::to_string(plan.names.size()) + " of " + std::to_string(total) + (total == 1 ? " clip" : " clips") + " judged: ";
    for (std::size_t i = 0; i < plan.names.size(); ++i) s += (i ? ", " : "") + plan.names[i];
    s += "; not judged: ";
    for (std::size_t i = 0; i < plan.not_judged.size(); ++i) s += (i ? ", " : "") + plan.not_judged[i];
    return s;
}

}  // namespace rigscope
