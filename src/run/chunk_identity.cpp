// What defines a chunked run, computed from its job's options rather than from a front end's
// command line: the CLI and Python fill the same options structs, so they give one list for one
// run, and a value typed "0.50" is the 0.5 it parses to (chunk_run.h).
#include <optional>
#include <type_traits>

#include "rigscope/io/output.h"
#include "rigscope/run/check_job.h"
#include "rigscope/run/chunk_run.h"
#include "rigscope/run/deform_job.h"
#include "rigscope/run/diff_job.h"
#include "rigscope/run/drive_job.h"
#include "rigscope/run/info_job.h"
#include "rigscope/run/intersect_job.h"
#include "rigscope/run/lint_checks.h"
#include "rigscope/run/option_table.h"
#include "rigscope/run/report_job.h"
#include "rigscope/run/rivet_job.h"
#include "rigscope/run/tension_job.h"
#include "rigscope/run/volume_job.h"
#include "rigscope/run/bake_job.h"
#include "rigscope/run/regions_job.h"

namespace rigscope {

namespace {

// The list under construction, one canonical text per kind of value.
struct Identity {
    ChunkOptions o;

    void none(const char* name) { o.emplace_back(name, std::vector<std::string>{}); }
    void text(const char* name, const std::string& v) { o.emplace_back(name, std::vector<std::string>{v}); }
    // A path or list whose empty value means "none" (every mesh, no --rig).
    void path(const char* name, const std::string& v) {
        if (v.empty()) none(name);
        else text(name, v);
    }
    void number(const char* name, double v) { text(name, number_text(v)); }
    void integer(const char* name, long v) {
        std::string s;
        append_number(s, v);
        text(name, s);
    }
    void flag(const char* name, bool v) { text(name, v ? "true" : "false"); }
    void number(const char* name, const std::optional<double>& v) {
        if (v) number(name, *v);
        else none(name);
    }
};

// The input options of a command that offers --weld and --skinning (`weld`, `skinning`): the
// others work on file vertices, or do not skin, and the options' defaults stand.
void add_input(Identity& id, const InputOptions& in, bool weld, bool skinning) {
    id.text("FILE", in.file);
    id.path("--mesh", in.mesh);
    // merge compares every option but this, which only decides whether a run may start; it
    // reads it back to list a per-frame glTF run's frames.
    id.number("--max-memory", in.max_memory_mib);
    id.flag("--allow-outside-uris", in.allow_outside_uris);
    id.path("--frames", in.frames);
    id.path("--clip", in.clip);
    if (in.fps == 0) id.none("--fps");  // the file's rate
    else id.number("--fps", in.fps);
    id.path("--animation", in.animation);
    id.path("--cache", in.cache);
    // Alembic's unit: chunks read at another scale are another run.
    id.text("--abc-unit", in.abc_unit);
    id.text("--retarget", in.retarget);
    id.path("--rig", in.rig);
    id.flag("--rom", in.rom);
    id.number("--rom-angle", in.rom_options.angle_deg);
    id.integer("--rom-frames", in.rom_options.frames_per_sweep);
    id.path("--joints", in.joints);
    if (weld) id.text("--weld", in.weld);
    if (skinning) id.text("--skinning", in.skinning);
}

// A table's rows (run/option_table.h) that shape the run, in table order, each as its field's
// kind of value is written.
template <typename Options>
void add_rows(Identity& id, const OptionTable<Options>& table, const Options& opt) {
    for (const OptionSpec<Options>& s : table) {
        if (!s.identity) continue;
        visit_option(s, opt, [&](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, double>) id.number(s.name, v);
            else if constexpr (std::is_same_v<T, int>) id.integer(s.name, v);
            else if constexpr (std::is_same_v<T, std::string>) {
                if (s.path) id.path(s.name, v);
                else id.text(s.name, v);
            } else if constexpr (std::is_same_v<T, std::optional<double>>) id.number(s.name, v);
            else if constexpr (std::is_same_v<T, std::optional<long>>) {
                if (v) id.integer(s.name, *v);
                else id.none(s.name);
            } else if (v) {
                id.text(s.name, *v);  // --reference-match given, index too: unlike unset, it lets a suspect order pass
            } else {
                id.none(s.name);
            }
        });
    }
}

void add_tension(Identity& id, const TensionOptions& t) {
    add_input(id, t.input, true, true);
    add_rows(id, tension_reference_options(), t);
    add_rows(id, tension_map_options(), t);
}

// The files whose content a chunk's record fingerprints, by the option that named them.
void add_inputs(ChunkSpec& s, const InputOptions& in, const std::string& new_file, const std::string& reference) {
    for (auto [name, path] : {std::pair{"FILE", &in.file}, {"NEW", &new_file}, {"--animation", &in.animation}, {"--rig", &in.rig},
                              {"--reference", &reference}})
        if (!path->empty()) s.inputs.emplace_back(name, *path);
}

ChunkSpec spec_of(const char* command, const InputOptions& in, const std::string& output, ChunkOptions identity) {
    ChunkSpec s;
    s.command = command;
    s.spec = in.chunk;
    s.output = output;
    s.options = std::move(identity);
    return s;
}

}  // namespace

ChunkOptions chunk_identity(const TensionJobOptions& opt) {
    Identity id;
    add_tension(id, opt.tension);
    id.path("--vertices", opt.vertices);
    id.number("--auto-range", opt.auto_range);
    id.flag("--bake-max", opt.bake_max);
    id.flag("--bake-points", opt.bake_points);
    id.text("--color", opt.color.empty() ? "maps" : opt.color);
    id.text("--format", opt.format);
    return id.o;
}

ChunkOptions chunk_identity(const BakeJobOptions& opt) {
    Identity id;
    add_tension(id, opt.tension);
    id.text("--map", opt.map);
    id.text("--color", opt.color);
    id.integer("--size", opt.size);
    id.integer("--padding", opt.padding);
    if (opt.range) id.o.emplace_back("--range", std::vector<std::string>{number_text(opt.range->first), number_text(opt.range->second)});
    else id.none("--range");
    id.path("--uv", opt.uv);
    id.flag("--udim", opt.udim);
    id.text("--format", opt.format);
    return id.o;
}

ChunkOptions chunk_identity(const RegionsJobOptions& opt) {
    Identity id;
    add_tension(id, opt.tension);
    id.text("--by", opt.by);
    id.text("--map", opt.map);
    id.text("--format", opt.format);
    return id.o;
}

ChunkOptions chunk_identity(const CheckJobOptions& opt) {
    Identity id;
    add_tension(id, opt.tension);
    id.number("--max-stretch", opt.max_stretch);
    id.number("--max-compress", opt.max_compress);
    id.number("--max-lambda", opt.max_lambda);
    id.number("--min-lambda", opt.min_lambda);
    id.number("--max-volume-loss", opt.max_volume_loss);
    id.integer("--worst", opt.worst);
    id.number("--max-size", opt.html.max_mb);
    id.flag("--lint", opt.lint);
    // validate() refuses it with --chunk; named so that every option of check is.
    id.number("--max-intersections", opt.max_intersections ? std::optional<double>(double(*opt.max_intersections)) : std::nullopt);
    return id.o;
}

ChunkOptions chunk_identity(const DiffJobOptions& opt) {
    Identity id;
    add_input(id, opt.input, true, true);
    id.text("NEW", opt.new_file);
    id.text("--match", opt.match);
    id.number("--match-tolerance", opt.match_tolerance);
    id.path("--align", opt.align);
    if (opt.frame_offset) id.integer("--frame-offset", *opt.frame_offset);
    else id.none("--frame-offset");
    id.number("--max-displacement", opt.max_displacement);
    id.number("--max-t-change", opt.max_t_change);
    id.integer("--worst", opt.worst);
    id.path("--format", opt.format);
    return id.o;
}

ChunkOptions chunk_identity(const DeformJobOptions& opt) {
    Identity id;
    add_input(id, opt.input, false, true);
    id.text("--format", opt.format);
    id.text("--axes", opt.axes);
    return id.o;
}

ChunkOptions chunk_identity(const VolumeJobOptions& opt) {
    Identity id;
    add_input(id, opt.input, true, true);
    id.text("--format", opt.format);
    return id.o;
}

ChunkOptions chunk_identity(const IntersectJobOptions& opt) {
    Identity id;
    add_input(id, opt.input, true, true);
    id.text("--format", opt.format);
    return id.o;
}

ChunkOptions chunk_identity(const DriveJobOptions& opt) {
    Identity id;
    add_input(id, opt.input, false, false);
    id.text("--format", opt.format);
    return id.o;
}

ChunkOptions chunk_identity(const RivetJobOptions& opt) {
    Identity id;
    add_input(id, opt.input, true, true);
    id.path("--vertices", opt.vertices);
    id.path("--joint", opt.joint);
    id.flag("--bake", opt.bake);
    id.text("--format", opt.format);
    id.number("--max-fit-error", opt.max_fit_error);
    return id.o;
}

ChunkOptions chunk_identity(const ReportJobOptions& opt) {
    Identity id;
    add_tension(id, opt.tension);
    id.integer("--worst", opt.report.worst);
    id.number("--max-size", opt.report.max_mb);
    return id.o;
}

ChunkOptions chunk_identity(const InfoJobOptions& opt) {
    Identity id;
    add_input(id, opt.input, false, false);
    id.flag("--json", opt.json);
    return id.o;
}

ChunkOptions lint_identity(const InputOptions& input, const LintOptions& lint) {
    Identity id;
    add_input(id, input, false, false);
    id.number("--weight-tolerance", lint.params.weight_tolerance);
    id.integer("--max-influences", lint.params.max_influences);
    id.number("--min-weight", lint.params.min_weight);
    id.path("--mirror", lint.mirror);
    id.o.emplace_back("--mirror-names", lint.mirror_names);
    id.number("--mirror-tolerance", lint.params.mirror_tolerance);
    id.number("--bind-tolerance", lint.params.bind_tolerance);
    id.number("--scale-tolerance", lint.params.scale_tolerance);
    id.number("--area-tolerance", lint.params.area_tolerance);
    id.flag("--strict", lint.strict);
    return id.o;
}

ChunkSpec chunk_spec(const TensionJobOptions& opt) {
    ChunkSpec s = spec_of("tension", opt.tension.input, opt.out, chunk_identity(opt));
    add_inputs(s, opt.tension.input, "", opt.tension.reference);
    if (opt.bake_max) s.refusal = "--bake-max colours each vertex by its maximum over all frames: run it without --chunk";
    else if (opt.format == "gltf" && opt.auto_range)
        s.refusal = "--auto-range colours glTF frames by the range of all frames, which a chunk does not see: chunk CSV or JSON "
                    "(merge applies the range), or run glTF without --chunk";
    return s;
}

ChunkSpec chunk_spec(const CheckJobOptions& opt) {
    ChunkSpec s = spec_of("check", opt.tension.input, opt.junit, chunk_identity(opt));
    add_inputs(s, opt.tension.input, "", opt.tension.reference);
    return s;
}

ChunkSpec chunk_spec(const DiffJobOptions& opt) {
    ChunkSpec s = spec_of("diff", opt.input, opt.out, chunk_identity(opt));
    add_inputs(s, opt.input, opt.new_file, "");
    if (opt.format == "gltf") s.refusal = "diff glTF colours each vertex by its largest displacement over all frames: run it without --chunk";
    return s;
}

ChunkSpec chunk_spec(const DeformJobOptions& opt) {
    ChunkSpec s = spec_of("deform", opt.input, opt.out, chunk_identity(opt));
    add_inputs(s, opt.input, "", "");
    return s;
}

ChunkSpec chunk_spec(const VolumeJobOptions& opt) {
    // Each frame's ratios are to the bind mesh, not to other frames: chunks join row by row.
    ChunkSpec s = spec_of("volume", opt.input, opt.out, chunk_identity(opt));
    add_inputs(s, opt.input, "", "");
    return s;
}

ChunkSpec chunk_spec(const IntersectJobOptions& opt) {
    // Each frame's pairs are its own: chunks join frame by frame (merge takes the most
    // zero-area triangles of any chunk's frames, as a single run does).
    ChunkSpec s = spec_of("intersect", opt.input, opt.out, chunk_identity(opt));
    add_inputs(s, opt.input, "", "");
    return s;
}

ChunkSpec chunk_spec(const DriveJobOptions& opt) {
    ChunkSpec s = spec_of("drive", opt.input, opt.out, chunk_identity(opt));
    add_inputs(s, opt.input, "", "");
    if (opt.format == "gltf") s.refusal = "drive --format gltf bakes one animation over all frames: run it without --chunk";
    return s;
}

ChunkSpec chunk_spec(const RegionsJobOptions& opt) {
    // Each frame's means are of that frame alone: chunks join row by row. The region file and
    // masks are inputs: fingerprinted, so that merge refuses chunks made from different ones.
    ChunkSpec s = spec_of("regions", opt.tension.input, opt.out, chunk_identity(opt));
    add_inputs(s, opt.tension.input, "", opt.tension.reference);
    for (const std::string& f : region_files(opt.by)) s.inputs.emplace_back("--by", f);
    const std::string f = opt.format.empty() ? extension_format(opt.out) : opt.format;
    if (f == "usda" || f == "gltf")
        s.refusal = "regions --format " + f + " writes one animation over all frames: run it without --chunk (CSV and JSON chunks merge)";
    return s;
}

ChunkSpec chunk_spec(const RivetJobOptions& opt) {
    ChunkSpec s = spec_of("rivet", opt.input, opt.out, chunk_identity(opt));
    add_inputs(s, opt.input, "", "");
    return s;
}

}  // namespace rigscope
