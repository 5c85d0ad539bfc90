// check's --max-intersections verdict as text, JUnit and JSON (io/intersection_report.h).
#include "rigscope/io/intersection_report.h"

#include <filesystem>

#include "rigscope/io/json_writer.h"
#include "rigscope/io/output.h"

namespace rigscope {

namespace {

std::string frame_text(const Frame& f) { return f.bind ? std::string("bind") : std::to_string(f.number); }

std::string joined(const std::vector<std::string>& names) {
    std::string s;
    for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
    return s;
}

// What the worst frame holds, or that no frame has a pair.
std::string worst_text(const IntersectionVerdict& v) {
    if (v.pairs == 0) return "no face pairs cross in " + std::to_string(v.frames) + " frames";
    std::string s = "frame " + frame_text(v.frame) + (v.clip.empty() ? "" : " (clip '" + v.clip + "')") + ": " + std::to_string(v.pairs) +
                    (v.pairs == 1 ? " face pair crosses (" : " face pairs cross (") + joined(v.meshes) + ")";
    s += v.joint.empty() ? ", on unskinned faces" : ", most at joint " + v.joint + " (" + std::to_string(v.joint_pairs) + ")";
    return s;
}

}  // namespace

std::string intersection_text(const IntersectionVerdict& v) {
    std::string s = "intersections: " + worst_text(v);
    if (v.failed())
        s += ", past the limit of " + std::to_string(v.limit) + "; " + std::to_string(v.frames_over) + " of " + std::to_string(v.frames) +
             " frames over";
    else
        s += " (limit " + std::to_string(v.limit) + ")";
    return s + "\n";
}

JUnitCase intersection_junit_case(const IntersectionVerdict& v, const std::string& file, const std::string& relpath) {
    JUnitCase c;
    c.classname = "rigscope.check." + junit_path_key(relpath.empty() ? std::filesystem::path(file).filename().string() : relpath) + ".intersections";
    c.name = "intersections: at most " + std::to_string(v.limit) + " face pairs in any frame";
    c.failed = v.failed();
    if (c.failed) {
        c.type = "rigscope.check.max_intersections";
        c.message = worst_text(v) + ", past " + std::to_string(v.limit);
        c.text = intersection_text(v);
    }
    return c;
}

std::string intersection_json(const IntersectionVerdict& v) {
    std::string out;
    JsonWriter w(out);
    w.begin_object().member("limit", static_cast<unsigned long>(v.limit)).member("passed", !v.failed());
    w.member("frames", static_cast<unsigned long>(v.frames)).member("frames_over", static_cast<unsigned long>(v.frames_over)).key("worst");
    if (v.pairs == 0) {
        w.null();
    } else {
        w.begin_object().member("clip", v.clip).key("frame").frame(v.frame).member("pairs", static_cast<unsigned long>(v.pairs));
        w.key("meshes").begin_array();
        for (const std::string& m : v.meshes) w.value(m);
        w.end_array().member("joint", v.joint).member("joint_pairs", static_cast<unsigned long>(v.joint_pairs)).end_object();
    }
    w.end_object();
    return out;
}

}  // namespace rigscope
