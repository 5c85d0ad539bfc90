// JSON chunks: the chunks' documents walked side by side. Every member must be the same text in
// every chunk unless a rule for its command says otherwise: arrays over frames are joined,
// summaries over all frames recomputed. An unknown or changed member therefore fails loudly
// instead of being joined wrongly.
#include <functional>

#include "rigscope/io/json_keys.h"
#include "rigscope/io/json_text.h"
#include "rigscope/io/json_writer.h"
#include "merge_internal.h"
#include "rigscope/farm/diff_chunk.h"
#include "rigscope/io/tension_output.h"

namespace rigscope::merge_detail {

namespace {

namespace k = json_keys;
using json_text::Member;
using json_text::Span;

// One chunk's view of the object being merged.
struct View {
    const ChunkRecord* record;
    std::string_view text;
    std::vector<Member> members;

    const Member& at(std::string_view key) const {
        const Member* m = json_text::find(members, key);
        if (!m) bad_chunk(*record, "JSON has no '" + std::string(key) + "'");
        return *m;
    }
    std::string_view value(std::string_view key) const { return at(key).value.of(text); }
};

struct Rule;
using Custom = std::function<void(const std::vector<View>&, OutputFile&)>;

struct Rule {
    enum Kind { Equal, Concat, Each, Write } kind = Equal;
    std::vector<std::pair<std::string_view, Rule>> children;  // Each: rules for the elements' members (json_keys names)
    Custom write;                                        // Write: produces the value

    static Rule concat() { return Rule{Concat, {}, {}}; }
    static Rule each(std::vector<std::pair<std::string_view, Rule>> c) { return Rule{Each, std::move(c), {}}; }
    static Rule custom(Custom f) { return Rule{Write, {}, std::move(f)}; }
};
using Rules = std::vector<std::pair<std::string_view, Rule>>;

void merge_object(const std::vector<View>& views, const Rules& rules, OutputFile& out);

void merge_value(const std::vector<View>& views, std::size_t index, const Rule& rule, OutputFile& out) {
    const std::string& key = views.front().members[index].key;
    auto value = [&](const View& v) { return v.members[index].value; };
    switch (rule.kind) {
        case Rule::Equal: {
            const std::string_view first = value(views.front()).of(views.front().text);
            for (const View& v : views)
                if (value(v).of(v.text) != first) bad_chunk(*v.record, "'" + key + "' differs from chunk 0's");
            emit(out, first);
            return;
        }
        case Rule::Concat: {
            out.write("[");
            bool first = true;
            for (const View& v : views) {
                const std::string_view in = json_text::inner(v.text, value(v));
                if (in.empty()) continue;
                if (!first) out.write(",");
                emit(out, in);
                first = false;
            }
            out.write("]");
            return;
        }
        case Rule::Each: {
            std::vector<std::vector<Span>> lists;
            for (const View& v : views) {
                lists.push_back(json_text::elements(v.text, value(v)));
                if (lists.back().size() != lists.front().size())
                    bad_chunk(*v.record, "'" + key + "' has " + std::to_string(lists.back().size()) + " entries, chunk 0's " +
                                             std::to_string(lists.front().size()));
            }
            out.write("[");
            for (std::size_t i = 0; i < lists.front().size(); ++i) {
                if (i) out.write(",");
                std::vector<View> items;
                for (std::size_t k = 0; k < views.size(); ++k)
                    items.push_back(View{views[k].record, views[k].text, json_text::members(views[k].text, lists[k][i])});
                merge_object(items, rule.children, out);
            }
            out.write("]");
            return;
        }
        case Rule::Write:
            rule.write(views, out);
            return;
    }
}

void merge_object(const std::vector<View>& views, const Rules& rules, OutputFile& out) {
    const View& ref = views.front();
    for (const View& v : views) {
        bool same = v.members.size() == ref.members.size();
        for (std::size_t i = 0; same && i < ref.members.size(); ++i) same = v.members[i].key == ref.members[i].key;
        if (!same) bad_chunk(*v.record, "JSON members differ from chunk 0's (not outputs of one run)");
    }
    static const Rule equal;
    out.write("{");
    for (std::size_t i = 0; i < ref.members.size(); ++i) {
        std::string key;
        if (i) key += ',';
        append_json_string(key, ref.members[i].key);
        key += ':';
        out.write(key);
        const Rule* rule = &equal;
        for (const auto& [name, r] : rules)
            if (name == ref.members[i].key) rule = &r;
        merge_value(views, i, *rule, out);
    }
    out.write("}");
}

// --- tension ---------------------------------------------------------------------------------

// The summary a single run computes as frames stream past: per mesh the lowest and highest T
// over all frames, the first frame to reach it winning ties.
// The lowest and highest of one value per mesh over every chunk's frames, with the vertex and
// frame where each occurs: `holder(entry)` is the object of a frame's mesh entry that holds the
// value under `min_key`/`max_key` (and min_index/max_index). The first frame seen sets both.
struct Extreme {
    float v = 1;
    std::string index = "0", frame = "0";  // a run with no frame reports the defaults
};

template <typename Holder>
void scan_extremes(const std::vector<View>& views, std::size_t mesh_count, std::string_view min_key, std::string_view max_key, const char* what,
                   Holder holder, std::vector<Extreme>& lo, std::vector<Extreme>& hi) {
    lo.assign(mesh_count, Extreme{});
    hi.assign(mesh_count, Extreme{});
    bool any = false;
    for (const View& v : views) {
        for (const Span& fs : json_text::elements(v.text, v.at(k::frames).value)) {
            const View frame{v.record, v.text, json_text::members(v.text, fs)};
            const auto per_mesh = json_text::elements(v.text, frame.at(k::meshes).value);
            if (per_mesh.size() != mesh_count) bad_chunk(*v.record, "a frame lists another number of meshes");
            for (std::size_t m = 0; m < mesh_count; ++m) {
                const View e = holder(View{v.record, v.text, json_text::members(v.text, per_mesh[m])});
                float mn = 0, mx = 0;
                if (!parse_number(e.value(min_key), mn) || !parse_number(e.value(max_key), mx))
                    bad_chunk(*v.record, std::string("a frame's ") + what + " is not a number");
                if (!any || mn < lo[m].v) lo[m] = Extreme{mn, std::string(e.value(k::min_index)), std::string(frame.value(k::frame))};
                if (!any || mx > hi[m].v) hi[m] = Extreme{mx, std::string(e.value(k::max_index)), std::string(frame.value(k::frame))};
            }
            any = true;
        }
    }
}

void tension_summary(const std::vector<View>& views, OutputFile& out) {
    const View& ref = views.front();
    const auto meshes = json_text::elements(ref.text, ref.at(k::meshes).value);
    std::vector<Extreme> lo, hi;
    scan_extremes(views, meshes.size(), k::min_t, k::max_t, "min_t or max_t", [](const View& e) { return e; }, lo, hi);
    JsonWriter w(out.buffer());
    w.begin_array();
    for (std::size_t m = 0; m < meshes.size(); ++m) {
        const View mesh{ref.record, ref.text, json_text::members(ref.text, meshes[m])};
        w.begin_object().key(k::mesh).raw(mesh.value(k::name)).member(k::min_t, lo[m].v).key(k::min_index).raw(lo[m].index);
        w.key(k::min_frame).raw(lo[m].frame).member(k::max_t, hi[m].v).key(k::max_index).raw(hi[m].index);
        w.key(k::max_frame).raw(hi[m].frame).end_object();
    }
    w.end_array();
    out.maybe_flush();
}

// The measure's summary (--measure area or principal) from the frames' "measure" objects, as
// tension_summary does for T.
void measure_summary(const std::vector<View>& views, OutputFile& out) {
    const View& ref = views.front();
    const auto meshes = json_text::elements(ref.text, ref.at(k::meshes).value);
    std::vector<Extreme> lo, hi;
    scan_extremes(views, meshes.size(), k::min, k::max, "measure min or max",
                  [](const View& e) { return View{e.record, e.text, json_text::members(e.text, e.at(k::measure).value)}; }, lo, hi);
    JsonWriter w(out.buffer());
    w.begin_array();
    for (std::size_t m = 0; m < meshes.size(); ++m) {
        const View mesh{ref.record, ref.text, json_text::members(ref.text, meshes[m])};
        w.begin_object().key(k::mesh).raw(mesh.value(k::name)).member(k::min, lo[m].v).key(k::min_index).raw(lo[m].index);
        w.member(k::max, hi[m].v).key(k::max_index).raw(hi[m].index);
        w.key(k::min_frame).raw(lo[m].frame).key(k::max_frame).raw(hi[m].frame).end_object();
    }
    w.end_array();
    out.maybe_flush();
}

void tension_range_value(const AutoRange& ar, OutputFile& out) {
    JsonWriter w(out.buffer());
    w.begin_object().member(k::t_s, ar.range.t_s).member(k::t_c, ar.range.t_c);
    w.key(k::auto_range).begin_object().member(k::percentile, ar.percentile).end_object().end_object();
    out.maybe_flush();
}

// A map series recomputed from the joined series of the T it comes from (edge: t; area: t_area;
// principal: 1 / lambda_min for compress, 1 / lambda_max for stretch) with the range of all frames.
Rule map_series(const AutoRange& ar, bool compress) {
    if (!ar.active) return Rule::concat();
    return Rule::custom([ar, compress](const std::vector<View>& views, OutputFile& out) {
        std::string& b = out.buffer();
        b += '[';
        bool first = true;
        const TensionRemap remap(ar.range, ar.params);
        for (const View& v : views) {
            const bool principal = json_text::find(v.members, k::lambda_min) != nullptr;
            const std::string_view source = principal ? (compress ? k::lambda_min : k::lambda_max)
                                                      : json_text::find(v.members, k::t_area) ? k::t_area : k::t;
            for (const Span& s : json_text::elements(v.text, v.at(source).value)) {
                float t = 0;
                if (!parse_number(s.of(v.text), t)) bad_chunk(*v.record, "a T series holds a non-number");
                if (principal) t_of_lambda(t, t);
                if (!first) b += ',';
                first = false;
                append_number(b, compress ? remap.compress(t) : remap.stretch(t));
                out.maybe_flush();
            }
        }
        b += ']';
    });
}

Rules tension_rules(const std::vector<ChunkRecord>& chunks) {
    const AutoRange ar = tension_auto_range(chunks);
    Rules r;
    r.emplace_back(k::chunk, Rule::custom([](const std::vector<View>&, OutputFile& out) {
        JsonWriter(out.buffer()).begin_object().member(k::index, 0).member(k::count, 1).end_object();
    }));
    if (ar.active) r.emplace_back(k::range, Rule::custom([ar](const std::vector<View>&, OutputFile& out) { tension_range_value(ar, out); }));
    r.emplace_back(k::frames, Rule::concat());
    r.emplace_back(k::summary, Rule::custom(tension_summary));
    r.emplace_back(k::measure_summary, Rule::custom(measure_summary));
    r.emplace_back(k::vertices, Rule::each({{k::t, Rule::concat()},
                                            {k::compress, map_series(ar, true)},
                                            {k::stretch, map_series(ar, false)},
                                            {k::t_area, Rule::concat()},
                                            {k::lambda_max, Rule::concat()},
                                            {k::lambda_min, Rule::concat()}}));
    return r;
}

// --- rivet --bake ----------------------------------------------------------------------------

void rivet_bake(const std::vector<View>& views, OutputFile& out) {
    static constexpr std::string_view kQ[4] = {k::qx, k::qy, k::qz, k::qw};
    QuaternionContinuity qc;
    JsonWriter w(out.buffer());
    w.begin_array();
    for (const View& v : views) {
        qc.start_chunk();
        for (const Span& s : json_text::elements(v.text, v.at(k::bake).value)) {
            const View key{v.record, v.text, json_text::members(v.text, s)};
            const std::string id(key.value(k::vertex));
            double q[4];
            for (int c = 0; c < 4; ++c)
                if (!parse_number(key.value(kQ[c]), q[c])) bad_chunk(*v.record, "a baked key's quaternion is not numbers");
            if (!qc.flip(id, q)) {
                w.raw(s.of(v.text));
            } else {
                // Members before qx as written, then the negated quaternion.
                if (key.members.back().key != k::qw) bad_chunk(*v.record, "a baked key does not end with qw");
                w.begin_object();
                for (const Member& m : key.members) {
                    if (m.key == k::qx) break;
                    w.key_escaped(m.key).raw(m.value.of(v.text));
                }
                for (int c = 0; c < 4; ++c) {
                    q[c] = -q[c];
                    w.member(kQ[c], q[c]);
                }
                w.end_object();
            }
            qc.record(id, q);
            out.maybe_flush();
        }
    }
    w.end_array();
}

// intersect's zero_area_triangles: the most skipped in any frame, so the most of any chunk's.
void most_zero_area(const std::vector<View>& views, OutputFile& out) {
    unsigned long most = 0;
    for (const View& v : views) {
        const std::string text(v.value("zero_area_triangles"));
        if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != std::string::npos)
            bad_chunk(*v.record, "'zero_area_triangles' is not a count");
        most = std::max(most, std::stoul(text));
    }
    out.write(std::to_string(most));
}

Rules rules_for(const std::vector<ChunkRecord>& chunks) {
    const std::string& c = chunks.front().command;
    if (c == "tension") return tension_rules(chunks);
    if (c == "deform" || c == "volume") return {{k::frames, Rule::concat()}};
    if (c == "intersect") return {{k::frames, Rule::concat()}, {"zero_area_triangles", Rule::custom(most_zero_area)}};
    if (c == "drive")
        return {{k::frames, Rule::concat()},
                {k::times, Rule::concat()},
                {k::controls, Rule::each({{k::x, Rule::concat()}, {k::y, Rule::concat()}})},
                {k::series, Rule::each({{k::weights, Rule::concat()}})}};
    if (c == "rivet") return {{k::frames, Rule::concat()}, {k::bake, Rule::custom(rivet_bake)}};
    if (c == "regions") return {{k::frames, Rule::concat()}, {k::regions, Rule::each({{k::values, Rule::concat()}})}};
    if (c == "diff")
        return {{k::frames, Rule::concat()}, {k::summary, Rule::custom([&chunks](const std::vector<View>&, OutputFile& out) {
                     DiffLimits limits;
                     std::vector<DiffMesh> meshes;
                     std::vector<DiffFrame> frames;
                     merge_diff_chunks(chunks, limits, meshes, frames);
                     out.write(diff_summary_json(limits, meshes, frames));
                 })}};
    bad_chunk(chunks.front(), "merge does not join JSON outputs of '" + c + "'");
}

}  // namespace

void merge_json(const std::vector<ChunkRecord>& chunks, OutputFile& out) {
    const Rules rules = rules_for(chunks);
    std::vector<MappedFile> files;
    std::vector<View> views;
    std::string_view trailing;
    for (const ChunkRecord& r : chunks) {
        files.emplace_back(r.output);
        const std::string_view text = files.back().text();
        try {
            const Span doc = json_text::document(text);
            views.push_back(View{&r, text, json_text::members(text, doc)});
            if (views.size() == 1) trailing = text.substr(doc.end);
        } catch (const json_text::SyntaxError& e) {
            bad_chunk(r, std::string("not valid JSON (truncated?): ") + e.what());
        }
    }
    try {
        merge_object(views, rules, out);
    } catch (const json_text::SyntaxError& e) {
        bad_chunk(chunks.front(), std::string("not valid JSON: ") + e.what());
    }
    emit(out, trailing);
}

}  // namespace rigscope::merge_detail
