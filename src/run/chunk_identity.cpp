// What defines a chunked run, computed from its job's options rather than from a front end's
// command line: the CLI and Python fill the same options structs, so they give one list for one
// run, and a value typed "0.50" is the 0.5 it parses to (chunk_run.h).
#include <algorithm>
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
#include "rigscope/run/lint_job.h"
#include "rigscope/run/option_table.h"
#include "rigscope/run/output_formats.h"
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

// A table's rows (run/option_table.h) that shape the run, in table order, each as its field's
// kind of value is written.
template <typename Options>
void add_row(Identity& id, const OptionSpec<Options>& s, const Options& opt) {
    visit_option(s, opt, [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, double>) {
            if (s.zero_none && v == 0) id.none(s.name);
            else id.number(s.name, v);
        } else if constexpr (std::is_same_v<T, int> || std::is_same_v<T, unsigned> || std::is_same_v<T, std::size_t>) id.integer(s.name, long(v));
        else if constexpr (std::is_same_v<T, bool>) id.flag(s.name, v);
        else if constexpr (std::is_same_v<T, OptionPair>) {
            if (v) id.o.emplace_back(s.name, std::vector<std::string>{number_text(v->first), number_text(v->second)});
            else id.none(s.name);
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) id.o.emplace_back(s.name, v);  // each item, as given
        else if constexpr (std::is_same_v<T, std::string>) {
            if (s.path) id.path(s.name, v);
            else id.text(s.name, v.empty() && s.identity_empty ? s.identity_empty : v);
        } else if constexpr (std::is_same_v<T, std::optional<double>>) id.number(s.name, v);
        else if constexpr (std::is_same_v<T, std::optional<long>>) {
            if (v && s.identity_as_number) id.number(s.name, double(*v));
            else if (v) id.integer(s.name, *v);
            else id.none(s.name);
        } else if (v) {
            id.text(s.name, *v);  // --reference-match given, index too: unlike unset, it lets a suspect order pass
        } else {
            id.none(s.name);
        }
    });
}

template <typename Options>
void add_rows(Identity& id, const OptionTable<Options>& table, const Options& opt) {
    std::vector<const OptionSpec<Options>*> rows;
    for (const OptionSpec<Options>& s : table)
        if (s.identity) rows.push_back(&s);
    std::stable_sort(rows.begin(), rows.end(), [](const auto* a, const auto* b) { return a->identity_rank < b->identity_rank; });
    for (const OptionSpec<Options>* s : rows) add_row(id, *s, opt);
}

// The input options' rows (option_table.h's input_options()) of a command that offers --weld and
// --skinning (`weld`, `skinning`): the others work on file vertices, or do not skin, and the
// options' defaults stand.
void add_input(Identity& id, const InputOptions& in, bool weld, bool skinning) {
    for (const OptionSpec<InputOptions>& s : input_options()) {
        if (!s.identity) continue;
        if (s.offered == OptionOffered::on_request && !(std::string(s.name) == "--weld" ? weld : skinning)) continue;
        add_row(id, s, in);
    }
}

void add_tension(Identity& id, const TensionOptions& t) {
    add_input(id, t.input, true, true);
    add_rows(id, tension_reference_options(), t);
    add_rows(id, tension_map_options(), t);
}

// A verb's identity: the shared tension options (or its input rows) first, then its own table's
// rows, in chunk records' order.
template <typename Options>
ChunkOptions tension_then_rows(const Options& opt, const OptionTable<Options>& table) {
    Identity id;
    add_tension(id, opt.tension);
    add_rows(id, table, opt);
    return id.o;
}

template <typename Options>
ChunkOptions input_then_rows(const Options& opt, const OptionTable<Options>& table, bool weld, bool skinning) {
    Identity id;
    add_input(id, opt.input, weld, skinning);
    add_rows(id, table, opt);
    return id.o;
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

// The chunk of a verb whose inputs are FILE, --animation and --rig alone (no NEW, no reference).
template <typename Options>
ChunkSpec file_spec(const char* command, const Options& opt, ChunkOptions identity) {
    ChunkSpec s = spec_of(command, opt.input, opt.out, std::move(identity));
    add_inputs(s, opt.input, "", "");
    return s;
}

}  // namespace

ChunkOptions chunk_identity(const TensionJobOptions& opt) { return tension_then_rows(opt, tension_job_options()); }

ChunkOptions chunk_identity(const BakeJobOptions& opt) { return tension_then_rows(opt, bake_options()); }

ChunkOptions chunk_identity(const RegionsJobOptions& opt) { return tension_then_rows(opt, regions_options()); }

ChunkOptions chunk_identity(const CheckJobOptions& opt) { return tension_then_rows(opt, check_options()); }

ChunkOptions chunk_identity(const DiffJobOptions& opt) { return input_then_rows(opt, diff_options(), true, true); }

ChunkOptions chunk_identity(const DeformJobOptions& opt) { return input_then_rows(opt, deform_options(), false, true); }

ChunkOptions chunk_identity(const VolumeJobOptions& opt) { return input_then_rows(opt, volume_options(), true, true); }

ChunkOptions chunk_identity(const IntersectJobOptions& opt) { return input_then_rows(opt, intersect_options(), true, true); }

ChunkOptions chunk_identity(const DriveJobOptions& opt) { return input_then_rows(opt, drive_options(), false, false); }

ChunkOptions chunk_identity(const RivetJobOptions& opt) { return input_then_rows(opt, rivet_options(), true, true); }

ChunkOptions chunk_identity(const ReportJobOptions& opt) {
    Identity id;
    add_tension(id, opt.tension);
    add_rows(id, report_page_options(), opt.report);
    return id.o;
}

ChunkOptions chunk_identity(const InfoJobOptions& opt) { return input_then_rows(opt, info_options(), false, false); }

ChunkOptions lint_identity(const InputOptions& input, const LintOptions& lint) {
    Identity id;
    add_input(id, input, false, false);
    LintJobOptions job;
    job.lint = lint;  // the identity rows are the checks' parameters; what is written where is not
    add_rows(id, lint_options(), job);
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
    return file_spec("deform", opt, chunk_identity(opt));
}

ChunkSpec chunk_spec(const VolumeJobOptions& opt) {
    // Each frame's ratios are to the bind mesh, not to other frames: chunks join row by row.
    return file_spec("volume", opt, chunk_identity(opt));
}

ChunkSpec chunk_spec(const IntersectJobOptions& opt) {
    // Each frame's pairs are its own: chunks join frame by frame (merge takes the most
    // zero-area triangles of any chunk's frames, as a single run does).
    return file_spec("intersect", opt, chunk_identity(opt));
}

ChunkSpec chunk_spec(const DriveJobOptions& opt) {
    ChunkSpec s = file_spec("drive", opt, chunk_identity(opt));
    if (opt.format == "gltf") s.refusal = "drive --format gltf bakes one animation over all frames: run it without --chunk";
    return s;
}

ChunkSpec chunk_spec(const RegionsJobOptions& opt) {
    // Each frame's means are of that frame alone: chunks join row by row. The region file and
    // masks are inputs: fingerprinted, so that merge refuses chunks made from different ones.
    ChunkSpec s = spec_of("regions", opt.tension.input, opt.out, chunk_identity(opt));
    add_inputs(s, opt.tension.input, "", opt.tension.reference);
    for (const std::string& f : region_files(opt.by)) s.inputs.emplace_back("--by", f);
    const std::string f = verb_output_format("regions", opt.format, opt.out);
    if (f == "usda" || f == "gltf")
        s.refusal = "regions --format " + f + " writes one animation over all frames: run it without --chunk (CSV and JSON chunks merge)";
    return s;
}

ChunkSpec chunk_spec(const RivetJobOptions& opt) {
    return file_spec("rivet", opt, chunk_identity(opt));
}

}  // namespace rigscope
