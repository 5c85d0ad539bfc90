// The input options' tables (run/option_table.h): every verb's FILE, --frames, --fps ... written
// once, for the CLI's registration and chunk identity's records.
#include "rigscope/run/option_table.h"

namespace rigscope {

namespace {

#define RIGSCOPE_FIELD(member) RIGSCOPE_OPTION_FIELD(InputOptions, member)

using Spec = OptionSpec<InputOptions>;
constexpr auto row = option_row<InputOptions>;

Spec range(Spec s, const char* what, double lo, double hi) {
    s.check = OptionCheck::range, s.range_what = what, s.lo = lo, s.hi = hi;
    return s;
}

Spec one_of(Spec s, std::vector<std::string> choices) {
    s.check = OptionCheck::one_of, s.choices = std::move(choices);
    return s;
}

Spec offered(Spec s, OptionOffered by) {
    s.offered = by;
    return s;
}

Spec path(Spec s) {
    s.path = true;
    return s;
}

// The row's Python keyword: load()'s, or (frames, chunk) that of the calls that evaluate frames.
Spec py(Spec s, const char* keyword) {
    s.python = keyword;
    return s;
}

}  // namespace

const OptionTable<InputOptions>& input_options() {
    static const OptionTable<InputOptions> table = [] {
        constexpr OptionOffered frames = OptionOffered::per_frame, on_request = OptionOffered::on_request;
        OptionTable<InputOptions> t;
        Spec file = row("FILE", RIGSCOPE_FIELD(file),
                        "Skinned or cached, animated mesh (.fbx, .gltf, .glb, .dae, .usd, .usda, .usdc, .usdz, .abc; .obj, .ply with --cache)");
        file.required = true, file.python = "file";
        t.push_back(file);
        t.push_back(py(path(row("--mesh", RIGSCOPE_FIELD(mesh), "Mesh name or index (default: every mesh)")), "mesh"));
        // merge compares every option but --max-memory, which only decides whether a run may
        // start; it reads it back to list a per-frame glTF run's frames.
        t.push_back(py(range(row("--max-memory", RIGSCOPE_FIELD(max_memory_mib), "Memory budget of loading a file: refuse files that need more (MiB)"),
                             "a size in MiB", 1.0 / 1024, kMaxMemoryMiB),
                       "max_memory"));
        t.push_back(py(row("--allow-outside-uris", RIGSCOPE_FIELD(allow_outside_uris),
                           "glTF buffers and images, USD sublayers, references and payloads: read files named by absolute paths or outside the "
                           "file's folder (UNSAFE for files from outside)"),
                       "allow_outside_uris"));
        t.push_back(offered(py(path(row("--frames", RIGSCOPE_FIELD(frames), "Frames: 1..91, 1..91:5, 0,10,20, bind (default: every frame of the clip)")),
                               "frames"),
                            frames));
        t.push_back(offered(py(path(row("--clip", RIGSCOPE_FIELD(clip),
                                        "Animation by name or index, or all (check, diff: every clip by default; tension, report, rivet: the first "
                                        "by default, all writes an output per clip, {clip} in -o)")),
                               "clip"),
                            frames));
        Spec fps = range(row("--fps", RIGSCOPE_FIELD(fps), "Frame rate for frame numbers (default: the file's, else 24)"), "a frame rate",
                         kMinFps, kMaxFps);
        fps.zero_none = true, fps.python = "fps";  // 0: the file's rate
        t.push_back(offered(fps, frames));
        t.push_back(offered(py(path(row("--animation", RIGSCOPE_FIELD(animation), "Take the clip from this file, matched by joint name")), "animation"),
                            frames));
        t.push_back(offered(py(path(row("--cache", RIGSCOPE_FIELD(cache),
                                        "Animate the mesh with this point cache instead: PC2, MDD, or a numbered OBJ sequence (cloth_0001.obj, or "
                                        "the pattern cloth_####.obj)")),
                               "cache"),
                            frames));
        // Alembic's unit, which every verb reads: chunks read at another scale are another run.
        t.push_back(py(one_of(row("--abc-unit", RIGSCOPE_FIELD(abc_unit),
                                  "Unit of Alembic (.abc) inputs, caches and references, which Alembic does not store: m (default; Blender), cm "
                                  "(Maya) or mm; points and translations are scaled to metres"),
                              {"m", "cm", "mm"}),
                       "abc_unit"));
        t.push_back(offered(py(one_of(row("--retarget", RIGSCOPE_FIELD(retarget),
                                          "With --animation: 'rotation' (default: the clip's rotations and root translation on this rig's rest) "
                                          "or 'full' (every channel as the animation file has it)"),
                                      {"rotation", "full"}),
                               "retarget"),
                            frames));
        Spec chunk = row("--chunk", RIGSCOPE_FIELD(chunk), "Process part I of N contiguous parts of the frames (I counts from 0)");
        chunk.identity = false;  // chunks of one run differ in it alone
        chunk.python = "chunk";  // check()'s and diff()'s (I, N)
        t.push_back(offered(chunk, frames));
        t.push_back(offered(py(path(row("--rig", RIGSCOPE_FIELD(rig), "Rig file (docs/rig.md): joystick controls that drive morph targets")), "rig"),
                            frames));
        Spec rom = row("--rom", RIGSCOPE_FIELD(rom), "Evaluate a synthetic range-of-motion clip instead of the file's (docs/rig_ci.md: rom)");
        rom.excludes = {"--clip", "--animation"}, rom.python = "rom";
        t.push_back(offered(rom, frames));
        Spec angle = row("--rom-angle", RIGSCOPE_FIELD(rom_options.angle_deg), "--rom: sweep each joint axis to +/- this many degrees (default 60)");
        angle.needs = "--rom", angle.python = "rom_angle";
        t.push_back(offered(angle, frames));
        Spec sweep = row("--rom-frames", RIGSCOPE_FIELD(rom_options.frames_per_sweep),
                         "--rom: frames per joint-axis sweep, a multiple of 4 (default 24)");
        sweep.needs = "--rom", sweep.python = "rom_frames";
        t.push_back(offered(sweep, frames));
        Spec joints = path(row("--joints", RIGSCOPE_FIELD(joints), "--rom: sweep only these joints (comma-separated names)"));
        joints.needs = "--rom", joints.python = "joints";
        t.push_back(offered(joints, frames));
        // Offered by the verbs where they act (cli_common.h): recorded by those that offer them.
        t.push_back(offered(py(one_of(row("--weld", RIGSCOPE_FIELD(weld), "Weld vertices that share a position and skin influences"), {"on", "off"}),
                               "weld"),
                            on_request));
        t.push_back(offered(py(one_of(row("--skinning", RIGSCOPE_FIELD(skinning),
                                          "Skinning method: 'file' (each skin's own, FBX SkinningType; default), 'linear' or 'dq' (dual "
                                          "quaternion) for every skin"),
                                      {"file", "linear", "dq"}),
                               "skinning"),
                            on_request));
        // The output is the same for any count, and --max-output only decides whether a run may
        // start: neither is the run's identity.
        Spec threads = range(row("--threads", RIGSCOPE_FIELD(threads),
                                 "Threads for per-frame work (default and 0: every core); output is the same for any count"),
                             "a number", 0, kMaxThreads);
        threads.identity = false, threads.python = "threads";
        t.push_back(offered(threads, on_request));
        Spec output = range(row("--max-output", RIGSCOPE_FIELD(max_output_mb),
                                "Refuse a run whose output would be larger than this, in MB (10^6 bytes; default 2000), before writing "
                                "(docs/commands.md: --max-output)"),
                            "a size in MB", 1e-6, 1e12);
        output.identity = false;
        // A Session call returns arrays (their memory is load()'s budget, Session::check_budget);
        // batch() takes max_output=, as the batch's option.
        output.no_python = "a Session call returns arrays, not a file";
        t.push_back(offered(output, on_request));
        return t;
    }();
    return table;
}

const OptionTable<InputOptions>& rom_input_options() {
    static const OptionTable<InputOptions> table = [] {
        OptionTable<InputOptions> t;
        // Session.rom() is a call on a loaded file: FILE, --fps and --max-memory are load()'s.
        Spec file = row("FILE", RIGSCOPE_FIELD(file), "Skinned mesh (.fbx, .gltf, .glb, .dae, .usd, .usda, .usdc, .usdz)");
        file.required = true, file.no_python = "load()'s file";
        t.push_back(file);
        Spec fps = row("--fps", RIGSCOPE_FIELD(fps), "Frame rate of the clip (default: the file's, else 24)");
        fps.check = OptionCheck::positive, fps.no_python = "load()'s fps";
        t.push_back(fps);
        t.push_back(py(row("--rom-angle", RIGSCOPE_FIELD(rom_options.angle_deg), "Sweep each joint axis to +/- this many degrees (default 60)"),
                       "rom_angle"));
        t.push_back(py(row("--rom-frames", RIGSCOPE_FIELD(rom_options.frames_per_sweep), "Frames per joint-axis sweep, a multiple of 4 (default 24)"),
                       "rom_frames"));
        t.push_back(py(path(row("--joints", RIGSCOPE_FIELD(joints), "Sweep only these joints (comma-separated names)")), "joints"));
        Spec memory = row("--max-memory", RIGSCOPE_FIELD(max_memory_mib), "Refuse files whose arrays need more than this (MiB)");
        memory.check = OptionCheck::positive, memory.no_python = "load()'s max_memory";
        t.push_back(memory);
        for (Spec& s : t) s.identity = false;  // rom is never chunked
        return t;
    }();
    return table;
}

#undef RIGSCOPE_FIELD

}  // namespace rigscope
