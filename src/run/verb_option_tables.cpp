// Each verb's own options (run/option_table.h), after the input options it shares: the CLI
// registers these rows, chunk identity records them, tests check --help and the docs by them.
#include "rigscope/run/check_job.h"
#include "rigscope/run/deform_job.h"
#include "rigscope/run/diff_job.h"
#include "rigscope/run/drive_job.h"
#include "rigscope/run/info_job.h"
#include "rigscope/run/intersect_job.h"
#include "rigscope/run/option_table.h"
#include "rigscope/run/output_formats.h"
#include "rigscope/run/regions_job.h"
#include "rigscope/run/report_page.h"
#include "rigscope/run/rivet_job.h"
#include "rigscope/run/tension_job.h"
#include "rigscope/run/volume_job.h"

namespace rigscope {

OptionRule format_rule(const char* verb) {
    const VerbFormats& v = verb_formats(verb);
    OptionRule r;
    r.name = "--format";
    r.help = or_list(v.formats) + " (default: from -o's extension" + (*v.fallback ? std::string(", else ") + v.fallback : "") + ")";
    r.check = OptionCheck::one_of, r.choices = v.formats;
    return r;
}

namespace {

// -o: where the output goes, which differs between a run's chunks (not its identity).
template <typename Options>
OptionSpec<Options> output_row(OptionField<Options> field, const char* help) {
    OptionSpec<Options> s = option_row<Options>("-o,--output", field, help);
    s.identity = false;
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
        vertices.required = true, vertices.path = true;
        t.push_back(vertices);
        OptionSpec<O> joint = option_row<O>("--joint", RIGSCOPE_OPTION_FIELD(O, joint),
                                            "Joint the rivet follows (default: the vertex's heaviest influence whose parent is also one)");
        joint.path = true;
        t.push_back(joint);
        t.push_back(option_row<O>("--bake", RIGSCOPE_OPTION_FIELD(O, bake),
                                  "Per-frame transforms of the vertices (position, normal and edge frame) instead of a fit"));
        t.push_back(output_row<O>(RIGSCOPE_OPTION_FIELD(O, out), "Output file (.json, .csv, .glb) or - for stdout"));
        t.push_back(format_row<O>("rivet", RIGSCOPE_OPTION_FIELD(O, format)));
        OptionSpec<O> fit = option_row<O>("--max-fit-error", RIGSCOPE_OPTION_FIELD(O, max_fit_error),
                                          "Fail (exit 1) where a fit's max error passes this share of the mesh's diagonal (default: warn past 0.01)");
        fit.check = OptionCheck::positive;
        t.push_back(fit);
        OptionSpec<O> junit = option_row<O>("--junit", RIGSCOPE_OPTION_FIELD(O, junit), "With --max-fit-error: also write the verdict as a JUnit XML report here");
        junit.identity = false;  // a report's name, as -o
        t.push_back(junit);
        return t;
    }();
    return table;
}

const OptionTable<InfoJobOptions>& info_options() {
    using O = InfoJobOptions;
    static const OptionTable<O> table = [] {
        OptionTable<O> t;
        t.push_back(option_row<O>("--json", RIGSCOPE_OPTION_FIELD(O, json), "JSON instead of text"));
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
        t.push_back(s);
        s = option_row<O>("--match", RIGSCOPE_OPTION_FIELD(O, match), "Pair vertices by index (default) or by rest position (welded vertices, any order)");
        s.check = OptionCheck::one_of, s.choices = {"index", "position"};
        t.push_back(s);
        t.push_back(with_check(option_row<O>("--match-tolerance", RIGSCOPE_OPTION_FIELD(O, match_tolerance),
                                             "--match position: pair within this fraction of OLD's mesh diagonal (default 1e-5)"),
                               OptionCheck::range, 0, 1));
        s = option_row<O>("--align", RIGSCOPE_OPTION_FIELD(O, align), "start: NEW's first clip frame is OLD's first clip frame");
        s.check = OptionCheck::one_of, s.choices = {"start"}, s.path = true;
        t.push_back(s);
        s = option_row<O>("--frame-offset", RIGSCOPE_OPTION_FIELD(O, frame_offset), "OLD frame f is NEW frame f+K (default 0)");
        s.excludes = {"--align"};
        t.push_back(s);
        t.push_back(with_check(option_row<O>("--max-displacement", RIGSCOPE_OPTION_FIELD(O, max_displacement),
                                             "Fail where a vertex moves more than this (metres)"),
                               OptionCheck::non_negative));
        t.push_back(with_check(option_row<O>("--max-t-change", RIGSCOPE_OPTION_FIELD(O, max_t_change), "Fail where a vertex's T changes by more than this"),
                               OptionCheck::non_negative));
        s = option_row<O>("--junit", RIGSCOPE_OPTION_FIELD(O, junit),
                          "Also write a JUnit XML report here (several pairs: one for the batch, a testsuite per pair)");
        s.identity = false;
        t.push_back(s);
        t.push_back(with_check(option_row<O>("--worst", RIGSCOPE_OPTION_FIELD(O, worst), "How many of the worst vertices and frames to list (default 10)"),
                               OptionCheck::positive));
        t.push_back(output_row<O>(RIGSCOPE_OPTION_FIELD(O, out),
                                  "Per-vertex output (.csv, .json, .glb) or - for stdout; without it, only the summary"));
        s = format_row<O>("diff", RIGSCOPE_OPTION_FIELD(O, format));
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
        t.push_back(with_check(option_row<O>("--worst", RIGSCOPE_OPTION_FIELD(O, worst),
                                             "Rows of the worst-vertex table: the vertices farthest from T = 1 (default 10)"),
                               OptionCheck::positive));
        t.push_back(with_check(option_row<O>("--max-size", RIGSCOPE_OPTION_FIELD(O, max_mb),
                                             "Page size budget in MB (10^6 bytes, default 40); beyond it frames are subsampled"),
                               OptionCheck::range, 0.5, 4096.0));
        OptionSpec<O> out = output_row<O>(RIGSCOPE_OPTION_FIELD(O, out),
                                          "The page to write (.html; several inputs: a page per file by placeholder, out/{relpath}.html, and "
                                          "index.html beside them)");
        out.required = true;
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
        auto limit = [&](const char* name, OptionField<O> field, const char* help, int rank) {
            OptionSpec<O> s = with_check(option_row<O>(name, field, help), OptionCheck::positive);
            s.identity_rank = rank;
            t.push_back(s);
        };
        limit("--max-stretch", RIGSCOPE_OPTION_FIELD(O, max_stretch), "Fail where T falls below this (e.g. 0.7)", 1);
        limit("--max-compress", RIGSCOPE_OPTION_FIELD(O, max_compress), "Fail where T rises above this (e.g. 1.5)", 1);
        limit("--max-lambda", RIGSCOPE_OPTION_FIELD(O, max_lambda), "With --measure principal: fail where lambda_max rises above this (e.g. 1.3)", 1);
        limit("--min-lambda", RIGSCOPE_OPTION_FIELD(O, min_lambda), "With --measure principal: fail where lambda_min falls below this (e.g. 0.7)", 1);
        limit("--max-volume-loss", RIGSCOPE_OPTION_FIELD(O, max_volume_loss),
              "Fail where a closed mesh's or joint region's volume loses more than this share of its bind volume at any frame (e.g. 0.1; rigscope "
              "volume)",
              1);
        auto report = [&](const char* name, OptionField<O> field, const char* help) {
            OptionSpec<O> s = option_row<O>(name, field, help);
            s.identity = false;  // a report's name
            t.push_back(s);
        };
        report("--junit", RIGSCOPE_OPTION_FIELD(O, junit),
               "Also write a JUnit XML report here (several inputs: one for the batch, or one per file with a placeholder, {stem}.xml)");
        report("--json", RIGSCOPE_OPTION_FIELD(O, json),
               "Also write the verdict as JSON here: the limits, counts and worst vertices (several inputs: with a placeholder, {stem}.json)");
        report("--html", RIGSCOPE_OPTION_FIELD(O, html.out), "Also write the HTML report (rigscope report) with the verdict and limits");
        OptionSpec<O> size = row_of<O>(report_page_options(), "--max-size", RIGSCOPE_OPTION_FIELD(O, html.max_mb));
        size.identity_rank = 3;
        t.push_back(size);
        OptionSpec<O> lint = option_row<O>(
            "--lint", RIGSCOPE_OPTION_FIELD(O, lint),
            "Also run the rig lint (rigscope lint, its default tolerances) on the bind pose: its errors fail the check too");
        lint.identity_rank = 4;
        t.push_back(lint);
        OptionSpec<O> crossing = with_check(option_row<O>("--max-intersections", RIGSCOPE_OPTION_FIELD(O, max_intersections),
                                                          "Fail where a frame has more than N face pairs that pass through each other (rigscope "
                                                          "intersect; 0: any)"),
                                            OptionCheck::count, 0, 1e12);
        // validate() refuses it with --chunk; named so that every option of check is.
        crossing.identity_rank = 5, crossing.identity_as_number = true;
        t.push_back(crossing);
        OptionSpec<O> worst = with_check(option_row<O>("--worst", RIGSCOPE_OPTION_FIELD(O, worst), "How many of the worst vertices to list (default 10)"),
                                         OptionCheck::positive);
        worst.identity_rank = 2;
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
        s.path = true;
        t.push_back(s);
        s = with_check(option_row<O>("--auto-range", RIGSCOPE_OPTION_FIELD(O, auto_range),
                                     "Two passes: set t_s and t_c from the observed extremes (or this percentile of per-vertex extremes)"),
                       OptionCheck::range, 50, 100);
        s.implicit_value = "100";
        t.push_back(s);
        t.push_back(option_row<O>("--bake-max", RIGSCOPE_OPTION_FIELD(O, bake_max),
                                  "glTF: one file of the rest mesh with each vertex's maximum maps over the frames (_TENSION: the T farthest from 1)"));
        // Chunk identity lists --bake-points before --color, then --format (identity_rank).
        s = option_row<O>("--color", RIGSCOPE_OPTION_FIELD(O, color),
                          "glTF COLOR_0, USD displayColor and Alembic Cd: maps (R = compress, G = stretch; default) or t (heat map of T: log2 T in "
                          "[-1, 1], blue-white-red)");
        s.check = OptionCheck::one_of, s.choices = {"maps", "t"}, s.identity_empty = "maps", s.identity_rank = 2;
        t.push_back(s);
        s = option_row<O>("--bake-points", RIGSCOPE_OPTION_FIELD(O, bake_points),
                          "USD output: the deformed points too, for viewers that do not skin (the SkelRoots above become Xforms)");
        s.identity_rank = 1;
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
        t.push_back(option_row<O>("--by", RIGSCOPE_OPTION_FIELD(O, by),
                                  "joints (each skin joint, weighted by its skin weights; default), @FILE.json ({region: [vertex ids]} or "
                                  "{region: {\"id\": weight}}) or 'masks/{region}.png' (a region per mask image, weighted by the mask at each "
                                  "vertex's UV)"));
        OptionSpec<O> map = option_row<O>("--map", RIGSCOPE_OPTION_FIELD(O, map), "compress (default), stretch or tension (T)");
        map.check = OptionCheck::one_of, map.choices = {"compress", "stretch", "tension"};
        t.push_back(map);
        t.push_back(format_row<O>("regions", RIGSCOPE_OPTION_FIELD(O, format)));
        t.push_back(output_row<O>(RIGSCOPE_OPTION_FIELD(O, out),
                                  "Output file (.csv, .json, .usda over a USD input, .glb: the input with the curves as morph weights) or - for "
                                  "stdout (several inputs: with a placeholder, curves/{relpath}.csv)"));
        return t;
    }();
    return table;
}

}  // namespace rigscope
