// Each verb's own options (run/option_table.h), after the input options it shares: the CLI
// registers these rows, chunk identity records them, tests check --help and the docs by them.
#include <string>

#include "rigscope/core/uv_raster.h"
#include "rigscope/run/bake_job.h"
#include "rigscope/run/check_job.h"
#include "rigscope/run/deform_job.h"
#include "rigscope/run/diff_job.h"
#include "rigscope/run/drive_job.h"
#include "rigscope/run/info_job.h"
#include "rigscope/run/intersect_job.h"
#include "rigscope/run/lint_job.h"
#include "rigscope/run/option_table.h"
#include "rigscope/run/output_formats.h"
#include "rigscope/run/regions_job.h"
#include "rigscope/run/report_page.h"
#include "rigscope/run/rivet_job.h"
#include "rigscope/run/rom_job.h"
#include "rigscope/run/tension_job.h"
#include "rigscope/run/volume_job.h"

namespace rigscope {

OptionRule format_rule(const char* verb) {
    const VerbFormats& v = verb_formats(verb);
    OptionRule r;
    r.name = "--format";
    r.help = or_list(v.formats) + " (default: from -o's extension" + (*v.fallback ? std::string(", else ") + v.fallback : "") + ")";
    r.check = OptionCheck::one_of, r.choices = v.formats;
    r.no_python = "the CLI's output format: a Session call returns the values";
    return r;
}

namespace {

// -o: where the output goes, which differs between a run's chunks (not its identity).
template <typename Options>
OptionSpec<Options> output_row(OptionField<Options> field, const char* help) {
    OptionSpec<Options> s = option_row<Options>("-o,--output", field, help);
    s.identity = false;
    s.no_python = "a Session call returns the values instead of writing them";
    return s;
}

template <typename Options>
OptionSpec<Options> with_check(OptionSpec<Options> s, OptionCheck check, double lo = 0, double hi = 0) {
    s.check = check, s.lo = lo, s.hi = hi;
    return s;
}

// A row of another table bound to a field of this one (check's --max-size is the page's).
template <typename Options, typename Other>
OptionSpec<Options> row_of(const OptionTable<Other>& table, const char* name, OptionField<Options> field) {
    OptionSpec<Options> s;
    static_cast<OptionRule&>(s) = table_row(table, name);
    s.field = field;
    return s;
}

}  // namespace

const OptionTable<DeformJobOptions>& deform_options() {
    using O = DeformJobOptions;
    static const OptionTable<O> table = [] {
        OptionTable<O> t;
        t.push_back(output_row<O>(RIGSCOPE_OPTION_FIELD(O, out),
                                  "Output file (.csv, .json, .abc; .usda: the points over a USD input) or - for stdout (several inputs: with a "
                                  "placeholder, out/{relpath}.csv)"));
        t.push_back(format_row<O>("deform", RIGSCOPE_OPTION_FIELD(O, format)));
        OptionSpec<O> axes = option_row<O>("--axes", RIGSCOPE_OPTION_FIELD(O, axes),
                                           "Positions in the file's axes ('file', default) or turned to glTF's Y-up ('y-up'); info says which the file has");
        axes.check = OptionCheck::one_of, axes.choices = {"file", "y-up"};
        axes.no_python = "deform() returns the positions in the file's axes";
        t.push_back(axes);
        return t;
    }();
    return table;
}

const OptionTable<VolumeJobOptions>& volume_options() {
    using O = VolumeJobOptions;
    static const OptionTable<O> table = [] {
        OptionTable<O> t;
        t.push_back(output_row<O>(RIGSCOPE_OPTION_FIELD(O, out),
                                  "Output file (.csv, .json) or - for stdout (several inputs: with a placeholder, out/{relpath}.csv)"));
        // Not format_row: --help and CLI11's refusal have listed csv first, validate()'s json
        // first (run/output_formats.h), and both texts stay as they were; test_option_table.cpp
        // checks the choices are the formats table's.
        OptionSpec<O> format = option_row<O>("--format", RIGSCOPE_OPTION_FIELD(O, format), "csv or json (default: from -o's extension, else csv)");
        format.check = OptionCheck::one_of, format.choices = {"csv", "json"};
        format.no_python = "the CLI's output format: volume() returns the values";
        t.push_back(format);
        return t;
    }();
    return table;
}

const OptionTable<IntersectJobOptions>& intersect_options() {
    using O = IntersectJobOptions;
    static const OptionTable<O> table = [] {
        OptionTable<O> t;
        t.push_back(output_row<O>(RIGSCOPE_OPTION_FIELD(O, out),
                                  "Output file (.json, .csv) or - for stdout (several inputs: with a placeholder, out/{relpath}.json)"));
        t.push_back(format_row<O>("intersect", RIGSCOPE_OPTION_FIELD(O, format)));
        return t;
    }();
    return table;
}

const OptionTable<DriveJobOptions>& drive_options() {
    using O = DriveJobOptions;
    static const OptionTable<O> table = [] {
        OptionTable<O> t;
        t.push_back(output_row<O>(RIGSCOPE_OPTION_FIELD(O, out), "Output file (.csv, .json, .glb) or - for stdout"));
        t.push_back(format_row<O>("drive", RIGSCOPE_OPTION_FIELD(O, format)));
        return t;
    }();
    return table;
}

const OptionTable<RivetJobOptions>& rivet_options() {
    using O = RivetJobOptions;
    static const OptionTable<O> table = [] {
        OptionTable<O> t;
        OptionSpec<O> vertices = option_row<O>("--vertices", RIGSCOPE_OPTION_FIELD(O, vertices), "File vertex ids: 12,40,100..110");
        vertices.required = true, vertices.path = true, vertices.python = "vertices";
        t.push_back(vertices);
        OptionSpec<O> joint = option_row<O>("--joint", RIGSCOPE_OPTION_FIELD(O, joint),
                                            "Joint the rivet follows (default: the vertex's heaviest influence whose parent is also one)");
        joint.path = true, joint.python = "joint";
        t.push_back(joint);
        OptionSpec<O> bake = option_row<O>("--bake", RIGSCOPE_OPTION_FIELD(O, bake),
                                           "Per-frame transforms of the vertices (position, normal and edge frame) instead of a fit");
        bake.python = "bake";
        t.push_back(bake);
        t.push_back(output_row<O>(RIGSCOPE_OPTION_FIELD(O, out), "Output file (.json, .csv, .glb) or - for stdout"));
        t.push_back(format_row<O>("rivet", RIGSCOPE_OPTION_FIELD(O, format)));
        OptionSpec<O> fit = option_row<O>("--max-fit-error", RIGSCOPE_OPTION_FIELD(O, max_fit_error),
                                          "Fail (exit 1) where a fit's max error passes this share of the mesh's diagonal (default: warn past 0.01)");
        fit.check = OptionCheck::positive;
        fit.no_python = "a verdict of the CLI's: rivets() returns each fit's max_error_relative";
        t.push_back(fit);
        OptionSpec<O> junit = option_row<O>("--junit", RIGSCOPE_OPTION_FIELD(O, junit), "With --max-fit-error: also write the verdict as a JUnit XML report here");
        junit.identity = false;  // a report's name, as -o
        junit.no_python = "the report of --max-fit-error's verdict";
        t.push_back(junit);
        return t;
    }();
    return table;
}

const OptionTable<InfoJobOptions>& info_options() {
    using O = InfoJobOptions;
    static const OptionTable<O> table = [] {
        OptionTable<O> t;
        OptionSpec<O> json = option_row<O>("--json", RIGSCOPE_OPTION_FIELD(O, json), "JSON instead of text");
        json.no_python = "info() returns the JSON's dict";
        t.push_back(json);
        t.push_back(output_row<O>(RIGSCOPE_OPTION_FIELD(O, out),
                                  "Output file or - for stdout; a .json name writes JSON (several inputs: with a placeholder, {relpath}.json)"));
        return t;
    }();
    return table;
}

const OptionTable<DiffJobOptions>& diff_options() {
    using O = DiffJobOptions;
    static const OptionTable<O> table = [] {
        OptionTable<O> t;
        OptionSpec<O> s = option_row<O>("NEW", RIGSCOPE_OPTION_FIELD(O, new_file),
                                        "The changed version of FILE (.fbx, .gltf, .glb, .dae, .usd, .usda, .usdc, .usdz)");
        s.python = "new";
        t.push_back(s);
        s = option_row<O>("--match", RIGSCOPE_OPTION_FIELD(O, match), "Pair vertices by index (default) or by rest position (welded vertices, any order)");
        s.check = OptionCheck::one_of, s.choices = {"index", "position"}, s.python = "match";
        t.push_back(s);
        s = with_check(option_row<O>("--match-tolerance", RIGSCOPE_OPTION_FIELD(O, match_tolerance),
                                     "--match position: pair within this fraction of OLD's mesh diagonal (default 1e-5)"),
                       OptionCheck::range, 0, 1);
        s.python = "match_tolerance";
        t.push_back(s);
        s = option_row<O>("--align", RIGSCOPE_OPTION_FIELD(O, align), "start: NEW's first clip frame is OLD's first clip frame");
        s.check = OptionCheck::one_of, s.choices = {"start"}, s.path = true, s.python = "align";
        t.push_back(s);
        s = option_row<O>("--frame-offset", RIGSCOPE_OPTION_FIELD(O, frame_offset), "OLD frame f is NEW frame f+K (default 0)");
        s.excludes = {"--align"}, s.python = "frame_offset";
        t.push_back(s);
        s = with_check(option_row<O>("--max-displacement", RIGSCOPE_OPTION_FIELD(O, max_displacement), "Fail where a vertex moves more than this (metres)"),
                       OptionCheck::non_negative);
        s.python = "max_displacement";
        t.push_back(s);
        s = with_check(option_row<O>("--max-t-change", RIGSCOPE_OPTION_FIELD(O, max_t_change), "Fail where a vertex's T changes by more than this"),
                       OptionCheck::non_negative);
        s.python = "max_t_change";
        t.push_back(s);
        s = option_row<O>("--junit", RIGSCOPE_OPTION_FIELD(O, junit),
                          "Also write a JUnit XML report here (several pairs: one for the batch, a testsuite per pair)");
        s.identity = false, s.no_python = "diff() returns the verdict (passed, summary, report)";
        t.push_back(s);
        s = with_check(option_row<O>("--worst", RIGSCOPE_OPTION_FIELD(O, worst), "How many of the worst vertices and frames to list (default 10)"),
                       OptionCheck::positive);
        s.python = "worst";
        t.push_back(s);
        s = output_row<O>(RIGSCOPE_OPTION_FIELD(O, out), "Per-vertex output (.csv, .json, .glb) or - for stdout; without it, only the summary");
        s.python = "output", s.no_python = nullptr;  // diff() writes it as the CLI does (chunk= needs one)
        t.push_back(s);
        s = format_row<O>("diff", RIGSCOPE_OPTION_FIELD(O, format));
        s.python = "format", s.no_python = nullptr;
        s.path = true;  // "" without -o: no per-vertex output
        t.push_back(s);
        return t;
    }();
    return table;
}

const OptionTable<ReportOptions>& report_page_options() {
    using O = ReportOptions;
    static const OptionTable<O> table = [] {
        OptionTable<O> t;
        OptionSpec<O> worst = with_check(option_row<O>("--worst", RIGSCOPE_OPTION_FIELD(O, worst),
                                                       "Rows of the worst-vertex table: the vertices farthest from T = 1 (default 10)"),
                                         OptionCheck::positive);
        worst.python = "worst";
        t.push_back(worst);
        OptionSpec<O> size = with_check(option_row<O>("--max-size", RIGSCOPE_OPTION_FIELD(O, max_mb),
                                                      "Page size budget in MB (10^6 bytes, default 40); beyond it frames are subsampled"),
                                        OptionCheck::range, 0.5, 4096.0);
        size.python = "max_size";
        t.push_back(size);
        OptionSpec<O> out = output_row<O>(RIGSCOPE_OPTION_FIELD(O, out),
                                          "The page to write (.html; several inputs: a page per file by placeholder, out/{relpath}.html, and "
                                          "index.html beside them)");
        out.required = true, out.python = "path", out.no_python = nullptr;  // report(path): the page
        t.push_back(out);
        return t;
    }();
    return table;
}

const OptionTable<CheckJobOptions>& check_options() {
    using O = CheckJobOptions;
    static const OptionTable<O> table = [] {
        OptionTable<O> t;
        // The limits, then the reports, --lint, --max-intersections and --worst, as --help has
        // listed them; chunk identity's order (identity_rank) is the limits, --worst, --max-size,
        // --lint, --max-intersections.
        auto limit = [&](const char* name, OptionField<O> field, const char* help, int rank, const char* python) {
            OptionSpec<O> s = with_check(option_row<O>(name, field, help), OptionCheck::positive);
            s.identity_rank = rank, s.python = python;
            t.push_back(s);
        };
        limit("--max-stretch", RIGSCOPE_OPTION_FIELD(O, max_stretch), "Fail where T falls below this (e.g. 0.7)", 1, "max_stretch");
        limit("--max-compress", RIGSCOPE_OPTION_FIELD(O, max_compress), "Fail where T rises above this (e.g. 1.5)", 1, "max_compress");
        limit("--max-lambda", RIGSCOPE_OPTION_FIELD(O, max_lambda), "With --measure principal: fail where lambda_max rises above this (e.g. 1.3)", 1,
              "max_lambda");
        limit("--min-lambda", RIGSCOPE_OPTION_FIELD(O, min_lambda), "With --measure principal: fail where lambda_min falls below this (e.g. 0.7)", 1,
              "min_lambda");
        limit("--max-volume-loss", RIGSCOPE_OPTION_FIELD(O, max_volume_loss),
              "Fail where a closed mesh's or joint region's volume loses more than this share of its bind volume at any frame (e.g. 0.1; rigscope "
              "volume)",
              1, "max_volume_loss");
        auto report = [&](const char* name, OptionField<O> field, const char* help, const char* python, const char* no_python) {
            OptionSpec<O> s = option_row<O>(name, field, help);
            s.identity = false;  // a report's name
            s.python = python, s.no_python = no_python;
            t.push_back(s);
        };
        report("--junit", RIGSCOPE_OPTION_FIELD(O, junit),
               "Also write a JUnit XML report here (several inputs: one for the batch, or one per file with a placeholder, {stem}.xml)", "junit",
               nullptr);
        report("--json", RIGSCOPE_OPTION_FIELD(O, json),
               "Also write the verdict as JSON here: the limits, counts and worst vertices (several inputs: with a placeholder, {stem}.json)",
               nullptr, "check() returns the document as CheckResult.summary");
        report("--html", RIGSCOPE_OPTION_FIELD(O, html.out), "Also write the HTML report (rigscope report) with the verdict and limits", "html",
               nullptr);
        OptionSpec<O> size = row_of<O>(report_page_options(), "--max-size", RIGSCOPE_OPTION_FIELD(O, html.max_mb));
        size.identity_rank = 3;
        // Not report()'s max_size: check(html=) writes its page at the default budget.
        size.python = nullptr, size.no_python = "check(html=)'s page has the default budget (report(max_size=) sets one)";
        t.push_back(size);
        OptionSpec<O> lint = option_row<O>(
            "--lint", RIGSCOPE_OPTION_FIELD(O, lint),
            "Also run the rig lint (rigscope lint, its default tolerances) on the bind pose: its errors fail the check too");
        lint.identity_rank = 4, lint.no_python = "Session.lint() is the lint's call";
        t.push_back(lint);
        OptionSpec<O> crossing = with_check(option_row<O>("--max-intersections", RIGSCOPE_OPTION_FIELD(O, max_intersections),
                                                          "Fail where a frame has more than N face pairs that pass through each other (rigscope "
                                                          "intersect; 0: any)"),
                                            OptionCheck::count, 0, 1e12);
        // validate() refuses it with --chunk; named so that every option of check is.
        crossing.identity_rank = 5, crossing.identity_as_number = true, crossing.python = "max_intersections";
        t.push_back(crossing);
        OptionSpec<O> worst = with_check(option_row<O>("--worst", RIGSCOPE_OPTION_FIELD(O, worst), "How many of the worst vertices to list (default 10)"),
                                         OptionCheck::positive);
        worst.identity_rank = 2, worst.python = "worst";
        t.push_back(worst);
        return t;
    }();
    return table;
}

const OptionTable<TensionJobOptions>& tension_job_options() {
    using O = TensionJobOptions;
    static const OptionTable<O> table = [] {
        OptionTable<O> t;
        OptionSpec<O> s = option_row<O>("--vertices", RIGSCOPE_OPTION_FIELD(O, vertices), "Vertex ids for CSV rows and JSON series: 12,40,100..110");
        s.path = true, s.no_python = "the rows the CLI writes: tension() returns every vertex";
        t.push_back(s);
        s = with_check(option_row<O>("--auto-range", RIGSCOPE_OPTION_FIELD(O, auto_range),
                                     "Two passes: set t_s and t_c from the observed extremes (or this percentile of per-vertex extremes)"),
                       OptionCheck::range, 50, 100);
        s.implicit_value = "100", s.python = "auto_range";
        t.push_back(s);
        s = option_row<O>("--bake-max", RIGSCOPE_OPTION_FIELD(O, bake_max),
                          "glTF: one file of the rest mesh with each vertex's maximum maps over the frames (_TENSION: the T farthest from 1)");
        s.no_python = "a glTF file: tension()'s arrays give the maximum over the frames";
        t.push_back(s);
        // Chunk identity lists --bake-points before --color, then --format (identity_rank).
        s = option_row<O>("--color", RIGSCOPE_OPTION_FIELD(O, color),
                          "glTF COLOR_0, USD displayColor and Alembic Cd: maps (R = compress, G = stretch; default) or t (heat map of T: log2 T in "
                          "[-1, 1], blue-white-red)");
        s.check = OptionCheck::one_of, s.choices = {"maps", "t"}, s.identity_empty = "maps", s.identity_rank = 2;
        s.no_python = "the colours of the files the CLI writes";
        t.push_back(s);
        s = option_row<O>("--bake-points", RIGSCOPE_OPTION_FIELD(O, bake_points),
                          "USD output: the deformed points too, for viewers that do not skin (the SkelRoots above become Xforms)");
        s.identity_rank = 1, s.no_python = "the points of the USD layer the CLI writes";
        t.push_back(s);
        s = format_row<O>("tension", RIGSCOPE_OPTION_FIELD(O, format));
        s.identity_rank = 3;
        t.push_back(s);
        t.push_back(output_row<O>(RIGSCOPE_OPTION_FIELD(O, out),
                                  "Output file, - for stdout; glTF: out_####.glb writes one file per frame (several inputs: with a placeholder, "
                                  "out/{relpath}.csv)"));
        return t;
    }();
    return table;
}

const OptionTable<RegionsJobOptions>& regions_options() {
    using O = RegionsJobOptions;
    static const OptionTable<O> table = [] {
        OptionTable<O> t;
        OptionSpec<O> by = option_row<O>("--by", RIGSCOPE_OPTION_FIELD(O, by),
                                         "joints (each skin joint, weighted by its skin weights; default), @FILE.json ({region: [vertex ids]} or "
                                         "{region: {\"id\": weight}}) or 'masks/{region}.png' (a region per mask image, weighted by the mask at each "
                                         "vertex's UV)");
        by.python = "by";
        t.push_back(by);
        OptionSpec<O> map = option_row<O>("--map", RIGSCOPE_OPTION_FIELD(O, map), "compress (default), stretch or tension (T)");
        map.check = OptionCheck::one_of, map.choices = {"compress", "stretch", "tension"}, map.python = "map";
        t.push_back(map);
        t.push_back(format_row<O>("regions", RIGSCOPE_OPTION_FIELD(O, format)));
        t.push_back(output_row<O>(RIGSCOPE_OPTION_FIELD(O, out),
                                  "Output file (.csv, .json, .usda over a USD input, .glb: the input with the curves as morph weights) or - for "
                                  "stdout (several inputs: with a placeholder, curves/{relpath}.csv)"));
        return t;
    }();
    return table;
}

const OptionTable<BakeJobOptions>& bake_options() {
    using O = BakeJobOptions;
    static const OptionTable<O> table = [] {
        OptionTable<O> t;
        OptionSpec<O> s = option_row<O>("--map", RIGSCOPE_OPTION_FIELD(O, map),
                                        "compress (default), stretch, tension (T: needs --range for PNG), area (--measure area), lambda_max, "
                                        "lambda_min (--measure principal), color (RGB: --color)");
        s.check = OptionCheck::one_of, s.choices = {"compress", "stretch", "tension", "area", "lambda_max", "lambda_min", "color"};
        s.python = "map";
        t.push_back(s);
        s = option_row<O>("--color", RIGSCOPE_OPTION_FIELD(O, color),
                          "With --map color: maps (R compress, G stretch; default) or t (stretch blue, T = 1 white, compression red)");
        s.check = OptionCheck::one_of, s.choices = {"maps", "t"}, s.python = "color";
        t.push_back(s);
        // --size and --padding have no CLI validator: validate() refuses a value outside
        // 1..kMaxBakeSize and 0..kMaxBakePadding in its own words ("is not in 1..16384 texels").
        s = option_row<O>("--size", RIGSCOPE_OPTION_FIELD(O, size), "");
        s.help = "Image side in texels (default 1024, at most " + std::to_string(kMaxBakeSize) + ")", s.python = "size";
        t.push_back(s);
        s = option_row<O>("--padding", RIGSCOPE_OPTION_FIELD(O, padding), "Texels of dilation around the UV islands (8-neighbour passes; default 2)");
        s.python = "padding";
        t.push_back(s);
        s = option_row<O>("--range", RIGSCOPE_OPTION_FIELD(O, range), "LO,HI: write (value - LO) / (HI - LO) (T into 0..1: --range 0.5,2)");
        s.python = "range";
        t.push_back(s);
        s = option_row<O>("--uv", RIGSCOPE_OPTION_FIELD(O, uv), "UV set by name (default: the mesh's first: TEXCOORD_0, FBX's first layer, USD st)");
        s.path = true, s.python = "uv";  // "": each mesh's first
        t.push_back(s);
        s = option_row<O>("--udim", RIGSCOPE_OPTION_FIELD(O, udim), "An image per UDIM tile the UVs touch ({udim} in -o: 1001, 1002, ...)");
        s.no_python = "names a file per UDIM tile: bake() writes no file";
        t.push_back(s);
        t.push_back(format_row<O>("bake", RIGSCOPE_OPTION_FIELD(O, format)));
        s = output_row<O>(RIGSCOPE_OPTION_FIELD(O, out),
                          "Image files: 'maps/{mesh}.{frame}.png' ({mesh}, {frame}, {udim}; .png or .exr; several inputs: "
                          "'maps/{relpath}/{mesh}.{frame}.png')");
        s.required = true;
        t.push_back(s);
        return t;
    }();
    return table;
}

const OptionTable<LintJobOptions>& lint_options() {
    using O = LintJobOptions;
    static const OptionTable<O> table = [] {
        OptionTable<O> t;
        // The row added, to set more of it before the next add (which may move the rows).
        auto add = [&](const char* name, OptionField<O> field, const char* help, const char* python) {
            OptionSpec<O> s = option_row<O>(name, field, help);
            s.python = python;
            // What lint() does instead, where it takes no keyword: it returns the JSON document.
            if (!python) s.no_python = "lint() returns the JSON document as a dict, every finding and parameter";
            t.push_back(s);
            return &t.back();
        };
        // The checks' parameters (validate(): LintOptions::validate's ranges and words).
        add("--weight-tolerance", RIGSCOPE_OPTION_FIELD(O, lint.params.weight_tolerance),
            "weights_sum, seam_weights, mirror: largest weight difference (default 1e-3)", "weight_tolerance");
        add("--max-influences", RIGSCOPE_OPTION_FIELD(O, lint.params.max_influences), "influences: most non-zero weights per vertex (default 4)",
            "max_influences");
        add("--min-weight", RIGSCOPE_OPTION_FIELD(O, lint.params.min_weight), "small_weight: smallest non-zero weight (default 1e-3)", "min_weight");
        add("--mirror", RIGSCOPE_OPTION_FIELD(O, lint.mirror), "mirror: the axis the rig is symmetric in, x|y|z (default: not checked)", "mirror")
            ->path = true;  // "": not checked
        add("--mirror-names", RIGSCOPE_OPTION_FIELD(O, lint.mirror_names), "mirror: joint name parts that swap sides, A=B (repeatable)",
            "mirror_names");
        add("--mirror-tolerance", RIGSCOPE_OPTION_FIELD(O, lint.params.mirror_tolerance),
            "mirror: partner distance, relative to the mesh diagonal (default 1e-5)", "mirror_tolerance");
        add("--bind-tolerance", RIGSCOPE_OPTION_FIELD(O, lint.params.bind_tolerance),
            "bind_pose: largest distance, relative to the mesh diagonal (default 1e-4)", "bind_tolerance");
        add("--scale-tolerance", RIGSCOPE_OPTION_FIELD(O, lint.params.scale_tolerance),
            "joint_scale: largest relative spread of a joint's scale (default 1e-3)", "scale_tolerance");
        // degenerate_face's tolerance: no option sets it, but the report states it and chunk
        // identity has always recorded it (a batch's --task records compare it).
        OptionSpec<O>* area = add("--area-tolerance", RIGSCOPE_OPTION_FIELD(O, lint.params.area_tolerance),
                                  "degenerate_face: largest face area, relative to the squared mesh diagonal (default 1e-12)", nullptr);
        area->cli = false, area->no_python = "no option sets it, in Python either";
        add("--strict", RIGSCOPE_OPTION_FIELD(O, lint.strict), "Warnings fail too (exit 1)", "strict");
        // What is written and where: not the run's identity.
        OptionSpec<O>* format = add("--format", RIGSCOPE_OPTION_FIELD(O, format), "text or json (default: json when -o ends in .json, else text)", nullptr);
        format->check = OptionCheck::one_of, format->choices = {"text", "json"}, format->identity = false;
        add("-o,--output", RIGSCOPE_OPTION_FIELD(O, out), "Output file or - for stdout", nullptr)->identity = false;
        add("--junit", RIGSCOPE_OPTION_FIELD(O, junit), "Also write a JUnit XML report here (one test case per check)", nullptr)->identity = false;
        add("--list", RIGSCOPE_OPTION_FIELD(O, listed), "Findings listed per check in text and JUnit (default 20, 0: all; JSON has all)", nullptr)
            ->identity = false;
        return t;
    }();
    return table;
}

const OptionTable<RomJobOptions>& rom_options() {
    using O = RomJobOptions;
    static const OptionTable<O> table = [] {
        OptionTable<O> t;
        // rom is never chunked: no row is identity.
        OptionSpec<O> s = output_row<O>(RIGSCOPE_OPTION_FIELD(O, out), "Write the clip here as glTF (.glb)");
        s.python = "output", s.no_python = nullptr;  // Session.rom(output=)
        t.push_back(s);
        s = option_row<O>("--list", RIGSCOPE_OPTION_FIELD(O, listing), "Listing on stdout: text or json");
        s.check = OptionCheck::one_of, s.choices = {"text", "json"}, s.identity = false;
        s.no_python = "rom() returns the JSON listing as a dict";
        t.push_back(s);
        return t;
    }();
    return table;
}

}  // namespace rigscope
