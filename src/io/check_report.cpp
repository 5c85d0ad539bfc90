#include "rigscope/io/check_report.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "rigscope/io/json_text.h"
#include "rigscope/core/error.h"
#include "rigscope/io/output.h"
#include "rigscope/io/tension_output.h"

namespace rigscope {

namespace {

struct Violation {
    std::string mesh;
    std::size_t mesh_index;
    const std::uint32_t* ids;  // the file vertices it stands for
    std::size_t id_count;
    Frame frame;
    float t;
};

// Every file id the welded vertex stands for, so that each can be found in the file (the CSV
// output has a row per file vertex).
std::string describe(const Violation& v) {
    std::string s = "mesh '" + v.mesh + "' file " + (v.id_count == 1 ? "vertex " : "vertices ");
    for (std::size_t i = 0; i < v.id_count; ++i) {
        if (i) s += ", ";
        s += std::to_string(v.ids[i]);
    }
    if (v.id_count > 1) s += " (one welded vertex)";
    s += " frame ";
    append_frame(s, v.frame, false);
    s += ": T = ";
    append_number(s, v.t);
    return s;
}

std::string counted(const std::vector<Violation>& list) {
    std::size_t files = 0;
    for (const Violation& v : list) files += v.id_count;
    auto n = [](std::size_t k, const char* one, const char* many) { return std::to_string(k) + (k == 1 ? one : many); };
    return n(list.size(), " welded vertex (", " welded vertices (") + n(files, " file vertex)", " file vertices)") + " past the limit";
}

// Length of the valid UTF-8 sequence starting at s[i], 0 when there is none: names come from
// files, and one invalid byte would make the whole report unreadable to an XML parser.
std::size_t utf8_length(const std::string& s, std::size_t i) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size() || (n == 2 && c < 0xC2)) return 0;
    for (std::size_t k = 1; k < n; ++k)
        if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return 0;
    return n;
}

// XML 1.0 text or attribute value: markup escaped, characters XML cannot carry (control
// characters, invalid UTF-8) as '?'. In attributes, line breaks and tabs are character
// references so that a parser's attribute normalisation keeps them.
void xml_escape(std::string& out, const std::string& s, bool attribute) {
    for (std::size_t i = 0; i < s.size();) {
        const char c = s[i];
        const std::size_t n = utf8_length(s, i);
        if (n > 1) {
            out.append(s, i, n);
            i += n;
            continue;
        }
        ++i;
        switch (c) {
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '&': out += "&amp;"; break;
            case '"': out += "&quot;"; break;
            case '\n': out += attribute ? "&#10;" : "\n"; break;
            case '\t': out += attribute ? "&#9;" : "\t"; break;
            case '\r': out += "&#13;"; break;
            default: out += (n == 1 && static_cast<unsigned char>(c) >= 0x20) ? c : '?';
        }
    }
}

void attribute(std::string& x, const char* name, const std::string& value) {
    x += ' ';
    x += name;
    x += "=\"";
    xml_escape(x, value, true);
    x += '"';
}

std::string seconds_text(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", s < 0 ? 0.0 : s);
    return buf;
}

std::string class_part(std::string s) {
    for (char& c : s)
        if (c == '.' || static_cast<unsigned char>(c) <= 0x20 || c == 0x7F) c = '_';
    return s;
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

double seconds_of(const ChunkRecord& r, std::string_view s) {
    const std::string text(s);
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !(v >= 0)) bad_state(r, "'" + text + "' is not a number of seconds");
    return v;
}

// YYYY-MM-DDThh:mm:ss, the form the Ant schema accepts: a record's text goes into the report.
bool is_timestamp(const std::string& t) {
    static const char form[] = "dddd-dd-ddTdd:dd:dd";
    if (t.size() != sizeof form - 1) return false;
    for (std::size_t i = 0; i < t.size(); ++i)
        if (form[i] == 'd' ? !(t[i] >= '0' && t[i] <= '9') : t[i] != form[i]) return false;
    return true;
}

Frame frame_of(const ChunkRecord& r, std::string_view s) {
    if (s == "\"bind\"") return Frame{true, 0, 0.0};
    return Frame{false, number<long>(r, s), 0.0};
}

}  // namespace

void set_file_ids(CheckMeshExtremes& e, const std::vector<std::uint32_t>& welded_of, std::size_t welded) {
    // Counting sort by welded vertex: file ids stay ascending within each.
    e.file_offsets.assign(welded + 1, 0);
    for (std::uint32_t w : welded_of) ++e.file_offsets[w + 1];
    for (std::size_t w = 0; w < welded; ++w) e.file_offsets[w + 1] += e.file_offsets[w];
    e.file_ids.resize(welded_of.size());
    std::vector<std::uint32_t> next(e.file_offsets.begin(), e.file_offsets.end() - 1);
    for (std::size_t v = 0; v < welded_of.size(); ++v) e.file_ids[next[welded_of[v]]++] = static_cast<std::uint32_t>(v);
}

std::string junit_class_name(const std::string& file, const std::string& mesh, std::size_t mesh_index) {
    std::string stem = std::filesystem::path(file).stem().string();
    if (stem.empty()) stem = "input";
    return "rigscope.check." + class_part(stem) + "." + class_part(mesh.empty() ? "mesh_" + std::to_string(mesh_index) : mesh);
}

CheckOutcome check_outcome(const CheckLimits& opt, const CheckRunInfo& run, const std::vector<CheckMeshExtremes>& meshes) {
    std::vector<Violation> stretched, compressed;
    for (std::size_t m = 0; m < meshes.size(); ++m) {
        const CheckMeshExtremes& e = meshes[m];
        for (std::size_t w = 0; w < e.lo_t.size(); ++w) {
            const std::uint32_t* ids = e.file_ids.data() + e.file_offsets[w];
            const std::size_t count = e.file_offsets[w + 1] - e.file_offsets[w];
            if (opt.has_stretch && e.lo_t[w] < opt.max_stretch) stretched.push_back({e.name, m, ids, count, e.lo_frame[w], e.lo_t[w]});
            if (opt.has_compress && e.hi_t[w] > opt.max_compress) compressed.push_back({e.name, m, ids, count, e.hi_frame[w], e.hi_t[w]});
        }
    }
    // Stable: equal T keep the order of meshes and welded vertices.
    std::stable_sort(stretched.begin(), stretched.end(), [](const auto& a, const auto& b) { return a.t < b.t; });
    std::stable_sort(compressed.begin(), compressed.end(), [](const auto& a, const auto& b) { return a.t > b.t; });
    const std::size_t worst = static_cast<std::size_t>(opt.worst);

    auto test_name = [&](bool stretch) {
        std::string n = stretch ? "stretch T < " : "compress T > ";
        append_number(n, stretch ? opt.max_stretch : opt.max_compress);
        return n;
    };

    CheckOutcome o;
    auto section = [&](bool stretch, const std::vector<Violation>& list, bool active) {
        if (!active) return;
        o.report += (stretch ? "stretch limit T < " : "compress limit T > ");
        append_number(o.report, stretch ? opt.max_stretch : opt.max_compress);
        o.report += ": " + counted(list) + "\n";
        for (std::size_t i = 0; i < list.size() && i < worst; ++i) o.report += "  " + describe(list[i]) + "\n";
    };
    section(true, stretched, opt.has_stretch);
    section(false, compressed, opt.has_compress);
    o.failed = !stretched.empty() || !compressed.empty();
    o.report += o.failed ? "FAIL\n" : "PASS\n";

    // One test case per mesh and limit, so that CI servers show which mesh failed. The schemas
    // (tests/schemas) want time on every test case: the frames are evaluated once for all of
    // them, so the run's time is the suite's and each case's is 0.
    std::string cases;
    int tests = 0, failures = 0;
    for (std::size_t m = 0; m < meshes.size(); ++m)
        for (int k = 0; k < 2; ++k) {
            const bool stretch = k == 0;
            if (!(stretch ? opt.has_stretch : opt.has_compress)) continue;
            std::vector<Violation> mine;
            for (const Violation& v : stretch ? stretched : compressed)
                if (v.mesh_index == m) mine.push_back(v);
            ++tests;
            cases += "    <testcase";
            attribute(cases, "classname", junit_class_name(opt.file, meshes[m].name, m));
            attribute(cases, "name", test_name(stretch));
            cases += " time=\"0\"";
            if (mine.empty()) {
                cases += "/>\n";
                continue;
            }
            ++failures;
            cases += ">\n      <failure";
            attribute(cases, "type", stretch ? "rigscope.check.stretch" : "rigscope.check.compress");
            attribute(cases, "message", counted(mine));
            cases += '>';
            for (std::size_t i = 0; i < mine.size() && i < worst; ++i) {
                xml_escape(cases, describe(mine[i]), false);
                cases += '\n';
            }
            cases += "</failure>\n    </testcase>\n";
        }

    std::string& x = o.junit;
    std::string stem = std::filesystem::path(opt.file).stem().string();
    x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite";
    // Aggregated Ant documents name the suite without its package.
    attribute(x, "name", class_part(stem.empty() ? "input" : stem));
    attribute(x, "package", "rigscope.check");
    x += " id=\"0\" tests=\"" + std::to_string(tests) + "\" failures=\"" + std::to_string(failures) +
         "\" errors=\"0\" skipped=\"0\" time=\"" + seconds_text(run.seconds) + "\"";
    attribute(x, "timestamp", run.timestamp);
    attribute(x, "hostname", run.hostname.empty() ? "localhost" : run.hostname);
    x += ">\n    <properties>\n";
    auto property = [&](const char* name, const std::string& value) {
        x += "      <property";
        attribute(x, "name", name);
        attribute(x, "value", value);
        x += "/>\n";
    };
    property("input", opt.file);
    if (opt.has_stretch) {
        std::string v;
        append_number(v, opt.max_stretch);
        property("max_stretch", v);
    }
    if (opt.has_compress) {
        std::string v;
        append_number(v, opt.max_compress);
        property("max_compress", v);
    }
    x += "    </properties>\n" + cases + "    <system-out>";
    xml_escape(x, o.report, false);
    x += "</system-out>\n    <system-err/>\n  </testsuite>\n</testsuites>\n";
    return o;
}

std::string check_chunk_state(const CheckLimits& opt, const CheckRunInfo& run, const std::vector<CheckMeshExtremes>& meshes) {
    std::string b = "{\"max_stretch\":";
    if (opt.has_stretch) append_number(b, opt.max_stretch); else b += "null";
    b += ",\"max_compress\":";
    if (opt.has_compress) append_number(b, opt.max_compress); else b += "null";
    b += ",\"worst\":";
    append_number(b, opt.worst);
    b += ",\"file\":";
    append_json_string(b, opt.file);
    b += ",\"timestamp\":";
    append_json_string(b, run.timestamp);
    b += ",\"seconds\":" + seconds_text(run.seconds) + ",\"hostname\":";
    append_json_string(b, run.hostname);
    b += ",\"meshes\":[";
    for (std::size_t m = 0; m < meshes.size(); ++m) {
        const CheckMeshExtremes& e = meshes[m];
        b += m ? ",{\"name\":" : "{\"name\":";
        append_json_string(b, e.name);
        auto list = [&](const char* key, std::size_t n, auto item) { append_json_list(b, key, n, item); };
        const std::size_t n = e.lo_t.size();
        list("file_ids", n, [&](std::size_t i) {
            b += '[';
            for (std::uint32_t k = e.file_offsets[i]; k < e.file_offsets[i + 1]; ++k) {
                if (k != e.file_offsets[i]) b += ',';
                append_number(b, e.file_ids[k]);
            }
            b += ']';
        });
        list("lo_t", n, [&](std::size_t i) { append_number(b, e.lo_t[i]); });
        list("lo_frame", n, [&](std::size_t i) { append_frame_json(b, e.lo_frame[i]); });
        list("hi_t", n, [&](std::size_t i) { append_number(b, e.hi_t[i]); });
        list("hi_frame", n, [&](std::size_t i) { append_frame_json(b, e.hi_frame[i]); });
        b += '}';
    }
    b += "]}";
    return b;
}

CheckOutcome merge_check_chunks(const std::vector<ChunkRecord>& chunks) {
    CheckLimits limits;
    // The merged run started with its earliest chunk and took the chunks' time together; its
    // host is chunk 0's (the Ant schema has room for one).
    CheckRunInfo run;
    run.hostname.clear();
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
            const std::string stamp = json_text::string_value(s, get("timestamp"));
            if (!is_timestamp(stamp)) bad_state(r, "timestamp '" + stamp + "' is not YYYY-MM-DDThh:mm:ss");
            if (run.timestamp.empty() || stamp < run.timestamp) run.timestamp = stamp;
            run.seconds += seconds_of(r, get("seconds").of(s));
            if (run.hostname.empty()) run.hostname = json_text::string_value(s, get("hostname"));
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
                const auto vertex = arr("file_ids"), lo_t = arr("lo_t"), lo_f = arr("lo_frame"), hi_t = arr("hi_t"), hi_f = arr("hi_frame");
                CheckMeshExtremes& e = all[m];
                const json_text::Member* name = json_text::find(mm, "name");
                if (!name) bad_state(r, "a mesh without a name");
                e.name = json_text::string_value(s, name->value);
                if (vertex.empty()) continue;  // a chunk without frames
                for (const auto* a : {&lo_t, &lo_f, &hi_t, &hi_f})
                    if (a->size() != vertex.size()) bad_state(r, "a mesh whose lists differ in length");
                // The first chunk to reach an extreme keeps it, as the first frame does in one run.
                const bool first = e.lo_t.empty();
                if (!first && e.lo_t.size() != vertex.size()) bad_state(r, "another vertex count than chunk 0's");
                if (first) {
                    e.file_offsets.assign(1, 0);
                    e.lo_t.resize(vertex.size());
                    e.hi_t.resize(vertex.size());
                    e.lo_frame.resize(vertex.size());
                    e.hi_frame.resize(vertex.size());
                }
                for (std::size_t w = 0; w < vertex.size(); ++w) {
                    const float lt = number<float>(r, lo_t[w].of(s)), ht = number<float>(r, hi_t[w].of(s));
                    if (first) {
                        for (const json_text::Span& id : json_text::elements(s, vertex[w]))
                            e.file_ids.push_back(number<std::uint32_t>(r, id.of(s)));
                        if (e.file_ids.size() == e.file_offsets.back()) bad_state(r, "a welded vertex without file ids");
                        e.file_offsets.push_back(static_cast<std::uint32_t>(e.file_ids.size()));
                    }
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
    return check_outcome(limits, run, all);
}

std::string limit_junit(const std::string& suite, const std::vector<LimitCase>& cases) {
    std::size_t failed = 0;
    for (const LimitCase& c : cases) failed += c.failures > 0;
    std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n<testsuite name=\"";
    xml_escape(x, suite, true);
    x += "\" tests=\"" + std::to_string(cases.size()) + "\" failures=\"" + std::to_string(failed) + "\" errors=\"0\" skipped=\"0\">\n";
    for (const LimitCase& c : cases) {
        x += "  <testcase classname=\"";
        xml_escape(x, c.classname, true);
        x += "\" name=\"";
        xml_escape(x, c.name, true);
        x += "\">";
        if (c.failures) {
            x += "\n    <failure message=\"";
            xml_escape(x, c.message, true);
            x += "\">";
            for (const std::string& w : c.worst) {
                xml_escape(x, w, false);
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
