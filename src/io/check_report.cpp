#include "rigscope/check_report.h"

#include <algorithm>
#include <charconv>

#include "json_text.h"
#include "rigscope/error.h"
#include "rigscope/output.h"
#include "rigscope/tension_output.h"

namespace rigscope {

namespace {

struct Violation {
    std::string mesh;
    std::uint32_t vertex;
    Frame frame;
    float t;
};

std::string describe(const Violation& v) {
    std::string s = "mesh '" + v.mesh + "' vertex " + std::to_string(v.vertex) + " frame ";
    append_frame_label(s, v.frame);
    s += ": T = ";
    append_number(s, v.t);
    return s;
}

void xml_escape(std::string& out, const std::string& s) {
    for (char c : s) {
        switch (c) {
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '&': out += "&amp;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
}

void append_frame_json(std::string& b, const Frame& f) {
    if (f.bind) b += "\"bind\"";
    else append_number(b, f.number);
}

[[noreturn]] void bad_state(const ChunkRecord& r, const std::string& problem) {
    throw bad_input(r.record_path, "check state: " + problem);
}

template <typename T>
T number(const ChunkRecord& r, std::string_view s) {
    T v{};
    auto res = std::from_chars(s.data(), s.data() + s.size(), v);
    if (res.ec != std::errc() || res.ptr != s.data() + s.size()) bad_state(r, "'" + std::string(s) + "' is not a number");
    return v;
}

Frame frame_of(const ChunkRecord& r, std::string_view s) {
    if (s == "\"bind\"") return Frame{true, 0, 0.0};
    return Frame{false, number<long>(r, s), 0.0};
}

}  // namespace

CheckOutcome check_outcome(const CheckLimits& opt, const std::vector<CheckMeshExtremes>& meshes) {
    std::vector<Violation> stretched, compressed;
    for (const CheckMeshExtremes& m : meshes)
        for (std::size_t w = 0; w < m.lo_t.size(); ++w) {
            if (opt.has_stretch && m.lo_t[w] < opt.max_stretch) stretched.push_back({m.name, m.vertex[w], m.lo_frame[w], m.lo_t[w]});
            if (opt.has_compress && m.hi_t[w] > opt.max_compress) compressed.push_back({m.name, m.vertex[w], m.hi_frame[w], m.hi_t[w]});
        }
    std::sort(stretched.begin(), stretched.end(), [](const auto& a, const auto& b) { return a.t < b.t; });
    std::sort(compressed.begin(), compressed.end(), [](const auto& a, const auto& b) { return a.t > b.t; });

    CheckOutcome o;
    auto section = [&](const char* kind, double limit, const std::vector<Violation>& list, bool active) {
        if (!active) return;
        o.report += std::string(kind) + " limit T " + (std::string(kind) == "stretch" ? "< " : "> ");
        append_number(o.report, limit);
        o.report += ": " + std::to_string(list.size()) + " vertices past the limit\n";
        for (std::size_t i = 0; i < list.size() && i < static_cast<std::size_t>(opt.worst); ++i)
            o.report += "  " + describe(list[i]) + "\n";
    };
    section("stretch", opt.max_stretch, stretched, opt.has_stretch);
    section("compress", opt.max_compress, compressed, opt.has_compress);
    o.failed = !stretched.empty() || !compressed.empty();
    o.report += o.failed ? "FAIL\n" : "PASS\n";

    std::string& x = o.junit;
    x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n<testsuite name=\"rigscope.check\" tests=\"";
    x += std::to_string(int(opt.has_stretch) + int(opt.has_compress)) + "\" failures=\"" +
         std::to_string(int(!stretched.empty()) + int(!compressed.empty())) + "\">\n";
    auto testcase = [&](const char* kind, const std::vector<Violation>& list, bool active) {
        if (!active) return;
        x += "  <testcase classname=\"";
        xml_escape(x, opt.file);
        x += "\" name=\"" + std::string(kind) + "\">";
        if (!list.empty()) {
            x += "\n    <failure message=\"" + std::to_string(list.size()) + " vertices past the " + kind + " limit\">";
            for (std::size_t i = 0; i < list.size() && i < static_cast<std::size_t>(opt.worst); ++i) {
                xml_escape(x, describe(list[i]));
                x += "\n";
            }
            x += "</failure>\n  ";
        }
        x += "</testcase>\n";
    };
    testcase("stretch", stretched, opt.has_stretch);
    testcase("compress", compressed, opt.has_compress);
    x += "</testsuite>\n</testsuites>\n";
    return o;
}

void record_check_chunk(const CheckLimits& opt, const std::vector<CheckMeshExtremes>& meshes) {
    std::string b = "{\"max_stretch\":";
    if (opt.has_stretch) append_number(b, opt.max_stretch); else b += "null";
    b += ",\"max_compress\":";
    if (opt.has_compress) append_number(b, opt.max_compress); else b += "null";
    b += ",\"worst\":";
    append_number(b, opt.worst);
    b += ",\"file\":";
    append_json_string(b, opt.file);
    b += ",\"meshes\":[";
    for (std::size_t m = 0; m < meshes.size(); ++m) {
        const CheckMeshExtremes& e = meshes[m];
        b += m ? ",{\"name\":" : "{\"name\":";
        append_json_string(b, e.name);
        auto list = [&](const char* key, std::size_t n, auto item) {
            b += ",\"";
            b += key;
            b += "\":[";
            for (std::size_t i = 0; i < n; ++i) {
                if (i) b += ',';
                item(i);
            }
            b += ']';
        };
        const std::size_t n = e.lo_t.size();
        list("vertex", n, [&](std::size_t i) { append_number(b, e.vertex[i]); });
        list("lo_t", n, [&](std::size_t i) { append_number(b, e.lo_t[i]); });
        list("lo_frame", n, [&](std::size_t i) { append_frame_json(b, e.lo_frame[i]); });
        list("hi_t", n, [&](std::size_t i) { append_number(b, e.hi_t[i]); });
        list("hi_frame", n, [&](std::size_t i) { append_frame_json(b, e.hi_frame[i]); });
        b += '}';
    }
    b += "]}";
    set_chunk_state("check", std::move(b));
}

CheckOutcome merge_check_chunks(const std::vector<ChunkRecord>& chunks) {
    CheckLimits limits;
    std::vector<CheckMeshExtremes> all;
    for (const ChunkRecord& r : chunks) {
        const std::string* state = nullptr;
        for (const auto& [kind, text] : r.state)
            if (kind == "check") state = &text;
        if (!state) bad_state(r, "missing (not a check --chunk record)");
        const std::string_view s = *state;
        try {
            const auto top = json_text::members(s, json_text::document(s));
            auto get = [&](const char* key) {
                const json_text::Member* m = json_text::find(top, key);
                if (!m) bad_state(r, std::string("no '") + key + "'");
                return m->value;
            };
            const std::string_view st = get("max_stretch").of(s), co = get("max_compress").of(s);
            limits.has_stretch = st != "null";
            limits.has_compress = co != "null";
            if (limits.has_stretch) limits.max_stretch = number<double>(r, st);
            if (limits.has_compress) limits.max_compress = number<double>(r, co);
            limits.worst = number<int>(r, get("worst").of(s));
            limits.file = json_text::string_value(s, get("file"));
            const auto meshes = json_text::elements(s, get("meshes"));
            if (all.empty()) all.resize(meshes.size());
            if (all.size() != meshes.size()) bad_state(r, "another number of meshes than chunk 0's");
            for (std::size_t m = 0; m < meshes.size(); ++m) {
                const auto mm = json_text::members(s, meshes[m]);
                auto arr = [&](const char* key) {
                    const json_text::Member* v = json_text::find(mm, key);
                    if (!v) bad_state(r, std::string("a mesh without '") + key + "'");
                    return json_text::elements(s, v->value);
                };
                const auto vertex = arr("vertex"), lo_t = arr("lo_t"), lo_f = arr("lo_frame"), hi_t = arr("hi_t"), hi_f = arr("hi_frame");
                CheckMeshExtremes& e = all[m];
                const json_text::Member* name = json_text::find(mm, "name");
                if (!name) bad_state(r, "a mesh without a name");
                e.name = json_text::string_value(s, name->value);
                if (vertex.empty()) continue;  // a chunk without frames
                // The first chunk to reach an extreme keeps it, as the first frame does in one run.
                const bool first = e.lo_t.empty();
                if (!first && e.lo_t.size() != vertex.size()) bad_state(r, "another vertex count than chunk 0's");
                if (first) {
                    e.vertex.resize(vertex.size());
                    e.lo_t.resize(vertex.size());
                    e.hi_t.resize(vertex.size());
                    e.lo_frame.resize(vertex.size());
                    e.hi_frame.resize(vertex.size());
                }
                for (std::size_t w = 0; w < vertex.size(); ++w) {
                    const float lt = number<float>(r, lo_t[w].of(s)), ht = number<float>(r, hi_t[w].of(s));
                    if (first) e.vertex[w] = number<std::uint32_t>(r, vertex[w].of(s));
                    if (first || lt < e.lo_t[w]) {
                        e.lo_t[w] = lt;
                        e.lo_frame[w] = frame_of(r, lo_f[w].of(s));
                    }
                    if (first || ht > e.hi_t[w]) {
                        e.hi_t[w] = ht;
                        e.hi_frame[w] = frame_of(r, hi_f[w].of(s));
                    }
                }
            }
        } catch (const json_text::SyntaxError& e) {
            bad_state(r, e.what());
        }
    }
    return check_outcome(limits, all);
}

std::string limit_junit(const std::string& suite, const std::vector<LimitCase>& cases) {
    std::size_t failed = 0;
    for (const LimitCase& c : cases) failed += c.failures > 0;
    std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n<testsuite name=\"";
    xml_escape(x, suite);
    x += "\" tests=\"" + std::to_string(cases.size()) + "\" failures=\"" + std::to_string(failed) + "\" errors=\"0\" skipped=\"0\">\n";
    for (const LimitCase& c : cases) {
        x += "  <testcase classname=\"";
        xml_escape(x, c.classname);
        x += "\" name=\"";
        xml_escape(x, c.name);
        x += "\">";
        if (c.failures) {
            x += "\n    <failure message=\"";
            xml_escape(x, c.message);
            x += "\">";
            for (const std::string& w : c.worst) {
                xml_escape(x, w);
                x += "\n";
            }
            x += "</failure>\n  ";
        }
        x += "</testcase>\n";
    }
    x += "</testsuite>\n</testsuites>\n";
    return x;
}

}  // namespace rigscope
