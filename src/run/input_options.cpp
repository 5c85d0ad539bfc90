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

}  // namespace

const OptionTable<InputOptions>& input_options() {
    static const OptionTable<InputOptions> table = [] {
        constexpr OptionOffered frames = OptionOffered::per_frame, on_request = OptionOffered::on_request;
        OptionTable<InputOptions> t;
        Spec file = row("FILE", RIGSCOPE_FIELD(file),
                        "Skinned or cached, animated mesh (.fbx, .gltf, .glb, .dae, .usd, .usda, .usdc, .usdz, .abc; .obj, .ply with --cache)");
        file.required = true;
        t.push_back(file);
        t.push_back(path(row("--mesh", RIGSCOPE_FIELD(mesh), "Mesh name or index (default: every mesh)")));
        // merge compares every option but --max-memory, which only decides whether a run may
        // start; it reads it back to list a per-frame glTF run's frames.
        t.push_back(range(row("--max-memory", RIGSCOPE_FIELD(max_memory_mib), "Memory budget of loading a file: refuse files that need more (MiB)"),
                          "a size in MiB", 1.0 / 1024, kMaxMemoryMiB));
        t.push_back(row("--allow-outside-uris", RIGSCOPE_FIELD(allow_outside_uris),
                        "glTF buffers and images, USD sublayers, references and payloads: read files named by absolute paths or outside the "
                        "file's folder (UNSAFE for files from outside)"));
        t.push_back(offered(path(row("--frames", RIGSCOPE_FIELD(frames), "Frames: 1..91, 1..91:5, 0,10,20, bind (default: every frame of the clip)")),
                            frames));
        t.push_back(offered(path(row("--clip", RIGSCOPE_FIELD(clip),
                                     "Animation by name or index, or all (check, diff: every clip by default; tension, report, rivet: the first "
                                     "by default, all writes an output per clip, {clip} in -o)")),
                            frames));
        Spec fps = range(row("--fps", RIGSCOPE_FIELD(fps), "Frame rate for frame numbers (default: the file's, else 24)"), "a frame rate",
                         kMinFps, kMaxFps);
        fps.zero_none = true;  // the file's rate
        t.push_back(offered(fps, frames));
        t.push_back(offered(path(row("--animation", RIGSCOPE_FIELD(animation), "Take the clip from this file, matched by joint name")), frames));
        t.push_back(offered(path(row("--cache", RIGSCOPE_FIELD(cache),
                                     "Animate the mesh with this point cache instead: PC2, MDD, or a numbered OBJ sequence (cloth_0001.obj, or "
                                     "the pattern cloth_####.obj)")),
                            frames));
        // Alembic's unit, which every verb reads: chunks read at another scale are another run.
        t.push_back(one_of(row("--abc-unit", RIGSCOPE_FIELD(abc_unit),
                               "Unit of Alembic (.abc) inputs, caches and references, which Alembic does not store: m (default; Blender), cm "
                               "(Maya) or mm; points and translations are scaled to metres"),
                           {"m", "cm", "mm"}));
        t.push_back(offered(one_of(row("--retarget", RIGSCOPE_FIELD(retarget),
                                       "With --animation: 'rotation' (default: the clip's rotations and root translation on this rig's rest) "
                                       "or 'full' (every channel as the animation file has it)"),
                                   {"rotation", "full"}),
                            frames));
        Spec chunk = row("--chunk", RIGSCOPE_FIELD(chunk), "Process part I of N contiguous parts of the frames (I counts from 0)");
        chunk.identity = false;  // chunks of one run differ in it alone
        t.push_back(offered(chunk, frames));
        t.push_back(offered(path(row("--rig", RIGSCOPE_FIELD(rig), "Rig file (docs/rig.md): joystick controls that drive morph targets")), frames));
        Spec rom = row("--rom", RIGSCOPE_FIELD(rom), "Evaluate a synthetic range-of-motion clip instead of the file's (docs/rig_ci.md: rom)");
        rom.excludes = {"--clip", "--animation"};
        t.push_back(offered(rom, frames));
        Spec angle = row("--rom-angle", RIGSCOPE_FIELD(rom_options.angle_deg), "--rom: sweep each joint axis to +/- this many degrees (default 60)");
        angle.needs = "--rom";
        t.push_back(offered(angle, frames));
        Spec sweep = row("--rom-frames", RIGSCOPE_FIELD(rom_options.frames_per_sweep),
                         "--rom: frames per joint-axis sweep, a multiple of 4 (default 24)");
        sweep.needs = "--rom";
        t.push_back(offered(sweep, frames));
        Spec joints = path(row("--joints", RIGSCOPE_FIELD(joints), "--rom: sweep only these joints (comma-separated names)"));
        joints.needs = "--rom";
        t.push_back(offered(joints, frames));
        // Offered by the verbs where they act (cli_common.h): recorded by those that offer them.
        t.push_back(offered(one_of(row("--weld", RIGSCOPE_FIELD(weld), "Weld vertices that share a position and skin influences"), {"on", "off"}),
                            on_request));
        t.push_back(offered(one_of(row("--skinning", RIGSCOPE_FIELD(skinning),
                                       "Skinning method: 'file' (each skin's own, FBX SkinningType; default), 'linear' or 'dq' (dual "
                                       "quaternion) for every skin"),
                                   {"file", "linear", "dq"}),
                            on_request));
        // The output is the same for any count, and --max-output only decides whether a run may
        // start: neither is the run's identity.
        Spec threads = range(row("--threads", RIGSCOPE_FIELD(threads),
                                 "Threads for per-frame work (default and 0: every core); output is the same for any count"),
                             "a number", 0, kMaxThreads);
        threads.identity = false;
        t.push_back(offered(threads, on_request));
        Spec output = range(row("--max-output", RIGSCOPE_FIELD(max_output_mb),
                                "Refuse a run whose output would be larger than this, in MB (10^6 bytes; default 2000), before writing "
                                "(docs/commands.md: --max-output)"),
                            "a size in MB", 1e-6, 1e12);
        output.identity = false;
        t.push_back(offered(output, on_request));
        return t;
    }();
    return table;
}

const OptionTable<InputOptions>& rom_input_options() {
    static const OptionTable<InputOptions> table = [] {
        OptionTable<InputOptions> t;
        Spec file = row("FILE", RIGSCOPE_FIELD(file), "Skinned mesh (.fbx, .gltf, .glb, .dae, .usd, .usda, .usdc, .usdz)");
        file.required = true;
        t.push_back(file);
        Spec fps = row("--fps", RIGSCOPE_FIELD(fps), "Frame rate of the clip (default: the file's, else 24)");
        fps.check = OptionCheck::positive;
        t.push_back(fps);
        t.push_back(row("--rom-angle", RIGSCOPE_FIELD(rom_options.angle_deg), "Sweep each joint axis to +/- this many degrees (default 60)"));
        t.push_back(row("--rom-frames", RIGSCOPE_FIELD(rom_options.frames_per_sweep), "Frames per joint-axis sweep, a multiple of 4 (default 24)"));
        t.push_back(path(row("--joints", RIGSCOPE_FIELD(joints), "Sweep only these joints (comma-separated names)")));
        Spec memory = row("--max-memory", RIGSCOPE_FIELD(max_memory_mib), "Refuse files whose arrays need more than this (MiB)");
        memory.check = OptionCheck::positive;
        t.push_back(memory);
        for (Spec& s : t) s.identity = false;  // rom is never chunked
        return t;
    }();
    return table;
}

#undef RIGSCOPE_FIELD

}  // namespace rigscope
